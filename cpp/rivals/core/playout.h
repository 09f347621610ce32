// The two loops every search shares: a uniformly random game to the end, and a budget of
// iterations or seconds.
#pragma once

#include <cstdint>

#include "rivals/core/deadline.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/interrupt.h"

namespace rivals {

// Plays `state` to the end with uniformly random actions (chance by its own sampler); returns the
// number of actions taken.
// Flattened: everything it calls is compiled into it. A game's hot path is inline, but in a large
// translation unit (a game's registration holds every loop of the adapter) the compiler stops
// inlining early and left Rng::below and a turn's move search as calls, a fifth of Rosenkönig's
// playout time.
template <GameState S>
[[gnu::flatten]] int play_randomly(S& state, Rng& rng) {
  // A game may run this loop itself, with the same actions for the same numbers, to skip work
  // a position only needs once the game is over (see rosenkoenig/state.h).
  if constexpr (requires { state.random_playout(rng); }) {
    return state.random_playout(rng);
  }
  Action buffer[S::kMaxLegalActions];
  int length = 0;
  while (!state.is_terminal()) {
    Action action;
    if (state.is_chance_node()) {
      action = state.sample_chance(rng);
    } else if constexpr (requires { state.random_decision(rng); }) {
      // A game may pick the random legal action without writing the list (see
      // rosenkoenig/state.h); it draws the same number, so the games stay the same.
      action = state.random_decision(rng);
    } else {
      const int count = state.legal_actions(buffer);
      action = buffer[rng.below(static_cast<std::uint32_t>(count))];
    }
    state.apply(action);
    ++length;
  }
  return length;
}

// Calls step() `steps` times, or fewer when time_s > 0 and time_s seconds (at most kMaxSeconds)
// of `clock` pass first. Every `check_every` steps it reads the clock (which costs about as much
// as a cheap step) and reaches an interruption point, so `check_every` steps should take well
// under kInterruptPoll.
template <class Step>
void within_budget(std::int64_t steps, double time_s, BudgetClock clock, std::int64_t check_every,
                   Step&& step) {
  const bool timed = time_s > 0;
  const Deadline deadline(timed ? time_s : 0, clock);
  for (std::int64_t i = 0; i < steps; ++i) {
    if (i % check_every == 0) {
      interruption_point();
      if (timed && deadline.passed()) return;
    }
    step();
  }
}

}  // namespace rivals
