// The two loops every search shares: a uniformly random game to the end, and a budget of
// iterations or seconds.
#pragma once

#include <chrono>
#include <cstdint>

#include "rivals/core/game_concept.h"

namespace rivals {

// Plays `state` to the end with uniformly random actions (chance by its own sampler); returns the
// number of actions taken.
template <GameState S>
int play_randomly(S& state, Rng& rng) {
  Action buffer[S::kMaxLegalActions];
  int length = 0;
  while (!state.is_terminal()) {
    Action action;
    if (state.is_chance_node()) {
      action = state.sample_chance(rng);
    } else {
      const int count = state.legal_actions(buffer);
      action = buffer[rng.below(static_cast<std::uint32_t>(count))];
    }
    state.apply(action);
    ++length;
  }
  return length;
}

// Calls step() `iterations` times, or, when time_s > 0, until time_s seconds have passed (the
// clock is read every `check_every` steps: reading it costs about as much as a cheap step).
template <class Step>
void within_budget(std::int64_t iterations, double time_s, std::int64_t check_every, Step&& step) {
  if (time_s <= 0) {
    for (std::int64_t i = 0; i < iterations; ++i) step();
    return;
  }
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(time_s));
  for (std::int64_t i = 0;; ++i) {
    if (i % check_every == 0 && Clock::now() >= deadline) return;
    step();
  }
}

}  // namespace rivals
