// An exact solver for Sekigahara: the expected result for seat 0 under optimal play by both
// sides, reveals averaged (they are uniform, so the deck's order does not matter).
//
// Loops. Tokens only leave the centre when cards are acquired, and acquisitions never undo, so
// the game falls into layers: a *context* is everything but the influence (camps, blank marks,
// central cards; the deck is the rest), and inside one context the players can move tokens back
// and forth for ever. Endless play is scored as a draw, which is what "a repeated position is a
// draw" amounts to under optimal play, and what the engine's `max_turns` limit tends to as it
// grows; the solver ignores `max_turns` itself. Each context is solved exactly as a finite game
// graph: its nodes are turn starts (influence of both seats on the three central cards, and the
// seat to move), its edges are whole action phases (every influence reachable with the turn's
// place/move actions under the repetition rule), and the turns that acquire cards leave the
// context, with values computed from the next contexts (solved first, recursively, and memoised).
// Inside the context a retrograde pass settles the values: going down from the best exit value
// for seat 0, a node takes value t as soon as seat 0 can force reaching an exit worth t; the same
// from below for seat 1; whatever neither side can force is a draw (0). The order in which nodes
// are settled is kept as a rank, so that a player who can force a result also makes progress
// towards it instead of circling.
//
// Contexts are keyed canonically: blank marks that no longer matter are dropped (cards 5, 7, 8)
// and, when the card strengths are all distinct, the cards whose position plays no role (all but
// unblanked 4, 6 and 9) are sorted within their camp, which merges contexts of equal value.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rivals/core/deadline.h"
#include "rivals/core/error.h"
#include "rivals/core/params.h"
#include "rivals/sekigahara/state.h"

namespace rivals::sekigahara {

// The solver ran out of its budget (contexts or time) before finishing.
class SolverBudgetExceeded : public BudgetExceeded {
 public:
  using BudgetExceeded::BudgetExceeded;
};

struct SolverLimits {
  std::int64_t max_contexts = 2'000'000;
  double time_s = 0;                       // 0: no time limit
  BudgetClock clock = BudgetClock::kWall;  // what time_s counts (core/deadline.h)
};

struct SolverStats {
  std::int64_t contexts = 0;  // contexts solved and stored
  std::int64_t nodes = 0;     // turn-start positions valued in them
  std::int64_t bytes = 0;     // memory held by the tables
  double seconds = 0;         // time spent solving
};

class Solver {
 public:
  Solver(const Setup& setup, SolverLimits limits);
  ~Solver();
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  // The expected returns()[0] of `state` under optimal play. Throws SolverBudgetExceeded.
  double value(const State& state);
  // An optimal action of the player to move (who also makes progress when winning).
  Action best_action(const State& state);
  const SolverStats& stats() const;
  // Contexts stored so far, readable from any thread while another one solves (for progress).
  std::int64_t contexts_solved() const noexcept;
  // The budget of the next value() or best_action(); what is already solved stays.
  void set_limits(SolverLimits limits);
  void clear();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The `solver` bot's parameters (also used to reject its use in other games).
inline std::vector<ParamSpec> solver_param_specs() {
  return {
      ParamSpec::integer("max_contexts", Json(2000000), 1, std::int64_t{1} << 40,
                         "contexts the solver may store"),
      ParamSpec::number("time_s", Json(0.0), 0, kMaxSeconds,
                        "seconds the solver may spend per move; 0 means no limit"),
  };
}

}  // namespace rivals::sekigahara
