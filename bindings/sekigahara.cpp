// rivals._core.sekigahara_solve: the exact Sekigahara solver on any state with a `game` (name and
// params) and a `history()`, so engine and reference states alike.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/sekigahara/game.h"
#include "rivals/sekigahara/solver.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {
namespace {

std::tuple<double, Action, std::int64_t, double> solve(nb::handle state, nb::handle max_contexts,
                                                       nb::handle time_s) {
  const nb::object game = state.attr("game");
  const auto name = nb::cast<std::string>(game.attr("name"));
  if (name != sekigahara::Sekigahara::kName)
    throw InvalidArgument("sekigahara_solve: the state is a " + name + " state, not sekigahara");
  // The solver bot's own declaration checks the budget (finite time, positive contexts).
  nb::dict budget;
  budget["max_contexts"] = max_contexts;
  budget["time_s"] = time_s;
  const Json limits = resolve_params("sekigahara_solve", sekigahara::solver_param_specs(),
                                     from_python(budget, "sekigahara_solve"));
  const sekigahara::Sekigahara rules(resolve_params(name, sekigahara::Sekigahara::param_specs(),
                                                    from_python(game.attr("params"))));
  const auto history = nb::cast<std::vector<Action>>(state.attr("history")());

  nb::gil_scoped_release release;
  sekigahara::State position = rules.initial_state();
  for (std::size_t i = 0; i < history.size(); ++i) {
    Action legal[sekigahara::State::kMaxLegalActions];
    const int count = position.is_terminal() ? 0 : position.legal_actions(legal);
    if (std::find(legal, legal + count, history[i]) == legal + count)
      throw InvalidArgument("sekigahara_solve: history entry " + std::to_string(i) + " (action " +
                            std::to_string(history[i]) + ") is not legal");
    position.apply(history[i]);
  }
  sekigahara::Solver solver(
      rules.setup(), {limits.find("max_contexts")->as_int(), limits.find("time_s")->as_number()});
  const double value = solver.value(position);
  const Action best = solver.best_action(position);
  return {value, best, solver.stats().nodes, solver.stats().seconds};
}

}  // namespace

void bind_sekigahara(nb::module_& m) {
  m.def("sekigahara_solve", &solve, "state"_a, "max_contexts"_a.none() = 2000000,
        "time_s"_a.none() = 0.0,
        nb::sig("def sekigahara_solve(state: object, max_contexts: int = 2000000, time_s: float "
                "= 0.0) -> tuple[float, int, int, float]"),
        "The exact value of a Sekigahara state for seat 0 (expected returns()[0] under optimal "
        "play, reveals averaged, endless play a draw, max_turns ignored), an optimal action of "
        "the player to move (-1 at chance nodes and at the end), the number of turn-start "
        "positions solved and the seconds taken. RuntimeError when the budget (contexts, "
        "seconds; 0 = no limit) runs out.");
}

}  // namespace rivals::bindings
