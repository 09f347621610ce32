// ismcts against resamplers that deal what the mover could not have seen: Verräter with its
// resample_history replaced. One that deals a legal history of another position (one action
// short) stops the search with the check every deal gets; one that deals an illegal history stops
// it with the full check of RIVALS_CHECK_DEALS, which this program is built with (as the
// sanitizer build is); the game's own resampler, through the same wrapper, searches as ever.
// Prints one line per resampler and "ok", or what went wrong and exits 1.
#define RIVALS_CHECK_DEALS
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_from.h"
#include "rivals/bots/ismcts.h"
#include "rivals/core/params.h"
#include "rivals/core/rng.h"
#include "rivals/verraeter/game.h"

namespace {

using rivals::Action;
using rivals::Json;
using rivals::Player;
using rivals::Rng;
using Base = rivals::verraeter::Verraeter;

// The game's own deals (a type of its own, so that no other part of the engine instantiates the
// search for it without the full check).
struct OwnDeals : Base {
  using Base::Base;
};

// A legal history, one action short of the real one: another position.
struct ShortDeals : Base {
  using Base::Base;
  std::vector<Action> resample_history(const std::vector<Action>& history, Player, Rng&) const {
    return {history.begin(), history.end() - 1};
  }
};

// The first landscape card dealt twice: illegal at the second action.
struct ImpossibleDeals : Base {
  using Base::Base;
  std::vector<Action> resample_history(const std::vector<Action>& history, Player player,
                                       Rng& rng) const {
    std::vector<Action> dealt = Base::resample_history(history, player, rng);
    dealt[1] = dealt[0];
    return dealt;
  }
};

// A decision position of a random game, right after a chance outcome, with a choice to make.
template <class G>
std::vector<Action> position(const G& game) {
  Rng rng(5);
  typename G::State state = game.initial_state();
  std::vector<Action> history;
  Action legal[G::State::kMaxLegalActions];
  bool after_chance = false;
  for (;;) {
    const int count = state.legal_actions(legal);
    if (!state.is_chance_node() && after_chance && count > 1 && history.size() > 40) return history;
    after_chance = state.is_chance_node();
    const Action action = legal[rng.below(static_cast<std::uint32_t>(count))];
    state.apply(action);
    history.push_back(action);
  }
}

// The message of the error the search stops with, or "" when it plays a move.
template <class G>
std::string search(const std::vector<Action>& history) {
  const G game = game_from<G>(Json::object());
  typename G::State state = game.initial_state();
  for (const Action action : history) state.apply(action);
  const Json params = rivals::resolve_params("ismcts", rivals::IsmctsBot<G>::param_specs(),
                                             Json::object({{"iterations", 32}}));
  rivals::IsmctsBot<G> bot(game, params, 1);
  try {
    bot.step(state, history);
    return "";
  } catch (const std::logic_error& error) {
    return error.what();
  }
}

bool expect(const char* label, const std::string& message, const std::string& words) {
  const bool holds = words.empty() ? message.empty() : message.find(words) != std::string::npos;
  std::printf("%s: %s\n", label, message.empty() ? "plays" : message.c_str());
  return holds;
}

}  // namespace

int main() {
  const std::vector<Action> history = position(game_from<Base>(Json::object()));
  bool ok = expect("own", search<OwnDeals>(history), "");
  ok =
      expect("short", search<ShortDeals>(history), "ismcts: a resampled history leaves seat") && ok;
  ok = expect("impossible", search<ImpossibleDeals>(history),
              "ismcts: action #1 of a resampled history") &&
       ok;
  std::printf("%s\n", ok ? "ok" : "failed");
  return ok ? 0 : 1;
}
