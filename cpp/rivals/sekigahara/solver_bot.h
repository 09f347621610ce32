// The exact solver (solver.h) as a bot of Sekigahara's own: the game declares it among its extra
// bots (game.h, ExtraBots), so the engine's bots know nothing of it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/core/types.h"
#include "rivals/sekigahara/solver.h"
#include "rivals/sekigahara/state.h"

namespace rivals::sekigahara {

class Sekigahara;
class SharedSolver;

// Plays an optimal action, and when it can force a win it also makes progress towards it. The
// solver is exact, so the seed is unused.
class SolverBot {
 public:
  static constexpr const char* kName = "solver";
  static constexpr bool kSolver = true;
  static std::vector<ParamSpec> param_specs() { return solver_param_specs(); }

  SolverBot(const Sekigahara& game, const Json& params, std::uint64_t seed);
  void reseed(std::uint64_t /*seed*/) {}
  Action step(const State& state);
  // For progress displays: the contexts in the shared table so far.
  Json stats() const;
  // The value of any state (chance and the end included): {"returns": expected returns under
  // optimal play, reveals averaged, endless play a draw; "action": an optimal action of the
  // player to move, -1 where nobody is; "contexts", "nodes": the shared table's size; "seconds":
  // the time this call took}. Throws SolverBudgetExceeded when the budget runs out.
  Json analyse(const State& state);

 private:
  // The shared table, or in a forked child one of its own if another thread was using the
  // parent's at the fork.
  SharedSolver& table();

  SolverLimits limits_;
  std::shared_ptr<SharedSolver> solver_;
};

}  // namespace rivals::sekigahara
