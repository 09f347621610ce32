// Stored games replayed on the concrete state, for AnyGame::replay_games: a record's games are
// checked a batch at a time, and the type-erased state's checked apply_action (a virtual call, a
// kept history) costs more per move than the check itself.
#pragma once

#include <algorithm>
#include <cstdint>

#include "rivals/core/game_concept.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/types.h"

namespace rivals {

// AnyGame::replay_games for the rules of G: an action is legal where StateAdapter's is_legal
// finds it so.
template <Game G>
std::int64_t replay_stored_games(const G& rules, const Action* actions, const std::int64_t* starts,
                                 std::int64_t begin, std::int64_t end, double* returns) {
  using State = typename G::State;
  const State initial = rules.initial_state();
  const auto players = static_cast<std::int64_t>(rules.num_players());
  Action legal[State::kMaxLegalActions];
  for (std::int64_t k = begin; k < end; ++k) {
    interruption_point();
    State state = initial;
    for (std::int64_t i = starts[k]; i < starts[k + 1]; ++i) {
      if (state.is_terminal()) return k;
      const int count = state.legal_actions(legal);
      if (std::find(legal, legal + count, actions[i]) == legal + count) return k;
      state.apply(actions[i]);
    }
    if (!state.is_terminal()) return k;
    state.returns(returns + k * players);
  }
  return end;
}

}  // namespace rivals
