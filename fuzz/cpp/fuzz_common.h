// What the libFuzzer harnesses share: reading the input as choices, failing loudly, and the checked
// state invariants. Everything goes through make_game and AnyGame/AnyState, so every registered
// game is fuzzed without naming it here.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rivals/core/any_game.h"
#include "rivals/core/json.h"
#include "rivals/core/types.h"

namespace rivals::fuzz {

// A broken promise: print what and where, then abort so libFuzzer keeps the input.
[[noreturn]] inline void fail(const AnyState& state, const std::string& what) {
  std::fprintf(stderr, "FUZZ FAILURE in %s %s after %zu actions: %s\n", state.game().name().c_str(),
               state.game().params().dump().c_str(), state.history().size(), what.c_str());
  std::abort();
}

// A macro so that the message is only built when the check fails.
#define RIVALS_FUZZ_CHECK(condition, state, what)        \
  do {                                                   \
    if (!(condition)) ::rivals::fuzz::fail(state, what); \
  } while (false)

// The input as a stream of choices; past the end every read gives zeros. A stored input may begin
// with a line `rivals-fuzz {json}` naming the game it failed on (docs/fuzzing.md, "Regressions");
// the choices start after that line, and pin() is its object (null without one).
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
    static constexpr std::string_view kPrefix = "rivals-fuzz ";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t end = text.find('\n');
    if (text.substr(0, kPrefix.size()) != kPrefix || end == std::string_view::npos) return;
    try {
      Json pin = Json::parse(text.substr(kPrefix.size(), end - kPrefix.size()));
      if (!pin.is_object()) return;
      pin_ = std::move(pin);
      pos_ = end + 1;
    } catch (const std::invalid_argument&) {
    }
  }

  const Json& pin() const { return pin_; }
  // The pinned string `key`, or `fallback` when the input pins none.
  std::string pinned(std::string_view key, const std::string& fallback) const {
    const Json* value = pin_.is_object() ? pin_.find(key) : nullptr;
    return value != nullptr && value->is_string() ? value->as_string() : fallback;
  }

  bool empty() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint32_t uint(int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= static_cast<std::uint32_t>(byte()) << (8 * i);
    return value;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  Json pin_;
};

// Cheap invariants of any state; `obs` is a scratch buffer of exactly observation_size() floats,
// so an observation that writes past it is caught by AddressSanitizer.
inline void check_state(const AnyState& state, std::vector<float>& obs) {
  const AnyGame& game = state.game();
  const Player player = state.current_player();
  const bool terminal = state.is_terminal();
  const bool chance = state.is_chance_node();
  RIVALS_FUZZ_CHECK(terminal == (player == kTerminalPlayer), state,
                    "is_terminal disagrees with the player");
  RIVALS_FUZZ_CHECK(chance == (player == kChancePlayer), state,
                    "is_chance_node disagrees with the player");
  RIVALS_FUZZ_CHECK(terminal || chance || (player >= 0 && player < game.num_players()), state,
                    "the player to move is no seat: " + std::to_string(player));
  RIVALS_FUZZ_CHECK(static_cast<int>(state.history().size()) <= game.max_game_length(), state,
                    "longer than max_game_length " + std::to_string(game.max_game_length()));
  const std::vector<Action> legal = state.legal_actions();
  RIVALS_FUZZ_CHECK(terminal == legal.empty(), state, "legal actions do not match is_terminal");
  RIVALS_FUZZ_CHECK(std::adjacent_find(legal.begin(), legal.end(),
                                       [](Action a, Action b) { return a >= b; }) == legal.end(),
                    state, "legal actions are not strictly ascending");
  // Chance outcomes and decisions are numbered apart, each from 0 (OpenSpiel's convention).
  const int ids = chance ? game.max_chance_outcomes() : game.num_distinct_actions();
  for (const Action action : legal)
    RIVALS_FUZZ_CHECK(action >= 0 && action < ids, state,
                      "legal action out of range: " + std::to_string(action));
  if (chance) {
    const auto outcomes = state.chance_outcomes();
    RIVALS_FUZZ_CHECK(outcomes.size() == legal.size(), state,
                      "chance outcomes are not the legal actions");
    double total = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      RIVALS_FUZZ_CHECK(outcomes[i].action == legal[i], state,
                        "chance outcomes are not the legal actions");
      RIVALS_FUZZ_CHECK(outcomes[i].probability > 0, state, "a chance outcome without weight");
      total += outcomes[i].probability;
    }
    RIVALS_FUZZ_CHECK(std::fabs(total - 1) < 1e-9, state,
                      "chance probabilities sum to " + std::to_string(total));
  }
  const auto returns = state.returns();
  RIVALS_FUZZ_CHECK(static_cast<int>(returns.size()) == game.num_players(), state,
                    "wrong number of returns");
  // One seat per step, in turn: a hidden-information game's strings grow with the history, so
  // every seat at every step would make a long game quadratic for no extra coverage.
  const auto length = state.history().size();
  const Player seat = static_cast<Player>(length % static_cast<std::size_t>(game.num_players()));
  state.observation_tensor(seat, obs.data());
  if (length % 16 == 0) {
    state.observation_string(seat);
    state.information_state_string(seat);
  }
}

// Applies `action` through the checked API: it must succeed exactly when the action is legal, and
// an illegal one must leave the state as it was. Returns whether it was applied.
inline bool checked_apply(AnyState& state, Action action, std::vector<float>& obs) {
  const std::vector<Action> legal = state.legal_actions();
  const bool legal_now = std::binary_search(legal.begin(), legal.end(), action);
  RIVALS_FUZZ_CHECK(legal_now == state.is_legal(action), state,
                    "is_legal disagrees with legal_actions on " + std::to_string(action));
  if (legal_now) {
    const std::string text = state.action_to_string(action);
    RIVALS_FUZZ_CHECK(
        state.string_to_action(text) == action, state,
        "action " + std::to_string(action) + " reads as '" + text + "', which reads back wrong");
    state.apply_action(action);
    RIVALS_FUZZ_CHECK(state.history().back() == action, state, "the history misses the action");
    check_state(state, obs);
    return true;
  }
  const std::uint64_t hash = state.hash();
  const std::size_t length = state.history().size();
  const std::string snapshot = state.to_json().dump();
  try {
    state.apply_action(action);
  } catch (const std::invalid_argument&) {
    RIVALS_FUZZ_CHECK(state.hash() == hash && state.history().size() == length &&
                          state.to_json().dump() == snapshot,
                      state, "an illegal action changed the state: " + std::to_string(action));
    return false;
  }
  fail(state, "illegal action " + std::to_string(action) + " was applied");
}

// End-of-input checks: the history rebuilds the state, undo agrees with a shorter history, and
// each seat's resample keeps what that seat knows.
inline void check_history(const AnyState& state, std::uint64_t seed) {
  const AnyGame& game = state.game();
  const auto& history = state.history();
  const auto rebuilt = game.state_from_history(history);
  RIVALS_FUZZ_CHECK(rebuilt->hash() == state.hash(), state,
                    "replaying the history changes the hash");
  RIVALS_FUZZ_CHECK(rebuilt->to_json() == state.to_json(), state,
                    "replaying the history changes to_json");
  state.to_string();
  state.scores();
  if (!history.empty()) {
    auto undone = state.clone();
    undone->undo();
    const auto shorter = game.state_from_history({history.begin(), history.end() - 1});
    RIVALS_FUZZ_CHECK(undone->hash() == shorter->hash(), state,
                      "undo differs from the shorter history");
  }
  std::vector<float> obs(static_cast<std::size_t>(game.observation_size()));
  for (Player p = 0; p < game.num_players(); ++p) {
    state.observation_tensor(p, obs.data());
    state.observation_string(p);
    const auto sampled = state.resample_from_infostate(p, seed);
    RIVALS_FUZZ_CHECK(sampled->history().size() == history.size(), state,
                      "a resample changes the length");
    RIVALS_FUZZ_CHECK(sampled->current_player() == state.current_player(), state,
                      "a resample changes the player to move");
    RIVALS_FUZZ_CHECK(sampled->information_state_string(p) == state.information_state_string(p),
                      state, "a resample changes what seat " + std::to_string(p) + " knows");
  }
}

// An input read as JSON by the harnesses whose parameters take a document or a path to one:
// the document, the input's bytes written to `path` (a file of this process, removed when it
// exits) and a seed drawn from those bytes.
struct JsonInput {
  Json document;
  std::string path;
  std::uint64_t seed;
};

// Nothing for an input that is not JSON: that is fuzz_json's business. `harness` names the file,
// /tmp/rivals-fuzz-<harness>-<pid>.json, one per process, which runs one harness.
inline std::optional<JsonInput> json_input(const std::uint8_t* data, std::size_t size,
                                           const char* harness) {
  static const std::string path =
      std::string("/tmp/rivals-fuzz-") + harness + "-" + std::to_string(getpid()) + ".json";
  static const struct Cleanup {
    ~Cleanup() { std::remove(path.c_str()); }
  } cleanup;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  JsonInput input{Json(), path, size};
  try {
    input.document = Json::parse(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
  }
  for (const std::uint8_t byte : text) input.seed = input.seed * 131 + byte;
  return input;
}

}  // namespace rivals::fuzz
