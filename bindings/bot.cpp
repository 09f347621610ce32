// The Python class Bot: a bot built into the engine, one caller at a time.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <pthread.h>

#include <atomic>
#include <climits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/core/any_game.h"
#include "rivals/core/data.h"
#include "rivals/core/error.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/json.h"
#include "rivals/core/registry.h"
#include "rivals/core/threads.h"

#include "shared.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {
namespace {

// What `search` gives from the bot and the state, with the GIL released: the bot to this call
// alone, the state only read (other threads may read it meanwhile). `call` and `state_call` name
// the call to another thread that tries to use either.
template <class Search>
auto without_gil(PyBot& bot, const PyState& state, const char* call, const char* state_call,
                 Search search) {
  const auto using_bot = bot.using_it(call);
  const auto reading = state.reading(state_call);
  nb::gil_scoped_release release;
  return search(*bot.impl, *state.impl);
}

}  // namespace

void bind_bot(nb::module_& m) {
  nb::class_<PyBot>(m, "Bot", "A bot built into the engine. Make one with rivals.bots.make().")
      .def_prop_ro(
          "name", [](const PyBot& b) { return b.impl->name(); },
          "The bot that plays (for a preset, the bot it names).")
      .def_prop_ro(
          "preset",
          [](const PyBot& b) -> nb::object {
            if (b.impl->preset().empty()) return nb::none();
            return nb::str(b.impl->preset().c_str());
          },
          nb::sig("def preset(self) -> str | None"),
          "The preset it was made from (game.info.presets), or None.")
      .def_prop_ro(
          "params", [](const PyBot& b) { return nb::cast<AnyDict>(to_python(b.impl->params())); },
          "Every parameter, defaults filled in.")
      .def(
          "stats", [](const PyBot& b) { return nb::cast<AnyDict>(to_python(b.impl->stats())); },
          "Progress of a bot that works for long (the solver: {'contexts': n}, its shared table "
          "of solved contexts); empty for the others. Safe to call while another thread steps.")
      .def(
          "analyse",
          [](PyBot& b, const PyState& s) {
            const Json analysis =
                without_gil(b, s, "analyse", "bot.analyse",
                            [](AnyBot& bot, const AnyState& state) { return bot.analyse(state); });
            return nb::cast<AnyDict>(to_python(analysis));
          },
          "state"_a,
          "An exact solver's value of any state of its game (the solver: 'returns' under optimal "
          "play, an optimal 'action' or -1, 'contexts' and 'nodes' of its table, 'seconds'). "
          "ValueError for a bot that is not a solver (game.info.solvers); RuntimeError "
          "(BudgetExceeded) when its budget runs out.")
      .def(
          "step",
          [](PyBot& b, const PyState& s) {
            return without_gil(b, s, "step", "bot.step",
                               [](AnyBot& bot, const AnyState& state) { return bot.step(state); });
          },
          "state"_a,
          "An action legal in `state` for the player to move (the GIL is released). Ctrl-C stops "
          "the search with KeyboardInterrupt; the bot stays usable.");
}

}  // namespace rivals::bindings
