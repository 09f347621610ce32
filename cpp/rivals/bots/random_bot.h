// Uniformly random among the legal actions: the baseline every other bot is measured against.
#pragma once

#include <cstdint>
#include <vector>

#include "rivals/core/game_concept.h"

namespace rivals {

template <Game G>
class RandomBot {
 public:
  static constexpr const char* kName = "random";
  // The legal actions depend only on public facts and the mover's own cards.
  static constexpr bool kSeatInformationOnly = true;
  static std::vector<ParamSpec> param_specs() { return {}; }

  RandomBot(const G& /*game*/, const Json& /*params*/, std::uint64_t seed) : rng_(seed) {}
  void reseed(std::uint64_t seed) { rng_ = Rng(seed); }

  Action step(const typename G::State& state) {
    // The same action for the same random number, without the list (rosenkoenig/state.h).
    if constexpr (requires { state.random_decision(rng_); }) {
      if (!state.is_chance_node()) return state.random_decision(rng_);
    }
    Action buffer[G::State::kMaxLegalActions];
    const int count = state.legal_actions(buffer);
    return buffer[rng_.below(static_cast<std::uint32_t>(count))];
  }

 private:
  Rng rng_;
};

}  // namespace rivals
