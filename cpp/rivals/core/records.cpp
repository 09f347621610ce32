#include "rivals/core/records.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string_view>

#include "rivals/core/error.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/parallel.h"

namespace rivals {

int record_action_bytes(const AnyGame& game) {
  return std::max(game.num_distinct_actions(), game.max_chance_outcomes()) <= 256 ? 1 : 2;
}

namespace {

constexpr std::string_view kLineStart = "{\"index\": ";
constexpr std::string_view kLineMiddle = ", \"actions\": \"";
constexpr std::string_view kLineEnd = "\"}\n";

std::size_t decimal_digits(std::int64_t value) {
  std::size_t digits = 1;
  for (; value >= 10; value /= 10) ++digits;
  return digits;
}

// Writes game `index`'s line at `out` and returns the end of it.
char* write_line(char* out, std::int64_t index, const std::vector<Action>& history,
                 int action_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  out = std::copy(kLineStart.begin(), kLineStart.end(), out);
  out = std::to_chars(out, out + 20, index).ptr;
  out = std::copy(kLineMiddle.begin(), kLineMiddle.end(), out);
  for (const Action action : history) {
    const auto value = static_cast<std::uint32_t>(action);
    if (action_bytes == 2) {
      *out++ = kHex[(value >> 12) & 15];
      *out++ = kHex[(value >> 8) & 15];
    }
    *out++ = kHex[(value >> 4) & 15];
    *out++ = kHex[value & 15];
  }
  return std::copy(kLineEnd.begin(), kLineEnd.end(), out);
}

// Why a stored game that replay_games stopped at is not a finished game of legal actions, in
// state_from_history's words: the type-erased state says it as everywhere else.
std::string why_not_finished(const AnyGame& game, const Action* actions, std::int64_t length) {
  const auto state = game.new_initial_state();
  for (std::int64_t j = 0; j < length; ++j) {
    try {
      state->apply_action(actions[j]);
    } catch (const std::invalid_argument& error) {
      return "action #" + std::to_string(j) + ": " + std::string(message_of(error));
    }
  }
  if (!state->is_terminal())
    return "the game is not over after its " + std::to_string(length) + " actions";
  throw std::logic_error(game.name() + ": a stored game was refused and then replayed");
}

}  // namespace

std::vector<std::size_t> record_line_starts(const std::vector<std::vector<Action>>& histories,
                                            std::int64_t first_game, int action_bytes) {
  if (action_bytes != 1 && action_bytes != 2)
    throw InvalidArgument("a record's actions take 1 or 2 bytes, not " +
                          std::to_string(action_bytes));
  std::vector<std::size_t> starts(histories.size() + 1, 0);
  for (std::size_t i = 0; i < histories.size(); ++i)
    starts[i + 1] = starts[i] + kLineStart.size() +
                    decimal_digits(first_game + static_cast<std::int64_t>(i)) + kLineMiddle.size() +
                    2 * static_cast<std::size_t>(action_bytes) * histories[i].size() +
                    kLineEnd.size();
  return starts;
}

void write_record_lines(const std::vector<std::vector<Action>>& histories, std::int64_t first_game,
                        int action_bytes, const std::vector<std::size_t>& starts, int threads,
                        char* out) {
  const Action largest = action_bytes == 1 ? 0xff : 0xffff;
  const auto games = static_cast<int>(histories.size());
  parallel_blocks(games, std::max(1, std::min(threads, games)), [&](int, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      interruption_point();
      const auto at = static_cast<std::size_t>(i);
      for (const Action action : histories[at])
        if (action < 0 || action > largest)
          throw InvalidArgument("game " + std::to_string(first_game + i) + ": action " +
                                std::to_string(action) + " does not fit " +
                                std::to_string(action_bytes) + " byte(s) of a record");
      write_line(out + starts[at], first_game + i, histories[at], action_bytes);
    }
  });
}

HistoryCheck check_histories(const AnyGame& game, const std::vector<Action>& actions,
                             const std::vector<std::int64_t>& lengths, int threads) {
  const auto games = static_cast<std::int64_t>(lengths.size());
  if (games > kMaxBatchGames)
    throw InvalidArgument(game.name() + " check_histories: at most " +
                          std::to_string(kMaxBatchGames) + " games are checked at once, got " +
                          std::to_string(games));
  std::vector<std::int64_t> starts(lengths.size() + 1, 0);
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    if (lengths[k] < 0 || lengths[k] > static_cast<std::int64_t>(actions.size()) - starts[k])
      throw InvalidArgument(game.name() + " check_histories: game " + std::to_string(k) + "'s " +
                            std::to_string(lengths[k]) + " actions go past the " +
                            std::to_string(actions.size()) + " given");
    starts[k + 1] = starts[k] + lengths[k];
  }
  if (starts.back() != static_cast<std::int64_t>(actions.size()))
    throw InvalidArgument(game.name() + " check_histories: the games' lengths add up to " +
                          std::to_string(starts.back()) + ", and " +
                          std::to_string(actions.size()) + " actions are given");
  const auto players = static_cast<std::int64_t>(game.num_players());
  HistoryCheck result;
  result.returns.assign(static_cast<std::size_t>(games * players), 0.0);
  const auto blocks =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, games)));
  // Each block stops at its first bad game; the first block with one holds the first of all.
  std::vector<std::int64_t> bad(static_cast<std::size_t>(blocks), -1);
  parallel_blocks(static_cast<int>(games), blocks, [&](int block, int begin, int end) {
    const std::int64_t stop =
        game.replay_games(actions.data(), starts.data(), begin, end, result.returns.data());
    if (stop < end) bad[static_cast<std::size_t>(block)] = stop;
  });
  const auto first_bad = std::find_if(bad.begin(), bad.end(), [](auto k) { return k >= 0; });
  if (first_bad != bad.end()) {
    result.bad_game = *first_bad;
    const auto k = static_cast<std::size_t>(result.bad_game);
    result.reason = why_not_finished(game, actions.data() + starts[k], lengths[k]);
  }
  return result;
}

}  // namespace rivals
