// The exact Sekigahara solver as a bot (sekigahara/solver.h). It is a bot template like the
// others so that it sits in every game's bot variant, but only Sekigahara can construct it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/sekigahara/game.h"
#include "rivals/sekigahara/solver.h"

namespace rivals {

template <Game G>
class SolverBot {
 public:
  static constexpr const char* kName = "solver";
  static std::vector<ParamSpec> param_specs() { return sekigahara::solver_param_specs(); }

  SolverBot(const G& /*game*/, const Json& /*params*/, std::uint64_t /*seed*/) {
    throw InvalidArgument("solver plays only sekigahara");
  }
  void reseed(std::uint64_t /*seed*/) {}
  Action step(const typename G::State& /*state*/) {
    throw std::logic_error("solver plays only sekigahara");
  }
};

// Plays an optimal action, and when it can force a win it also makes progress towards it. The
// solved contexts stay cached across moves and games. The solver is exact, so the seed is unused.
template <>
class SolverBot<sekigahara::Sekigahara> {
 public:
  static constexpr const char* kName = "solver";
  static std::vector<ParamSpec> param_specs() { return sekigahara::solver_param_specs(); }

  SolverBot(const sekigahara::Sekigahara& game, const Json& params, std::uint64_t /*seed*/)
      : solver_(game.setup(), limits(params)) {}
  void reseed(std::uint64_t /*seed*/) {}
  Action step(const sekigahara::State& state) { return solver_.best_action(state); }

 private:
  static sekigahara::SolverLimits limits(const Json& params) {
    return {params.find("max_contexts")->as_int(), params.find("time_s")->as_number()};
  }

  sekigahara::Solver solver_;
};

}  // namespace rivals
