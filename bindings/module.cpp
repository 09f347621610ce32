// The Python face of the engine: thin wrappers over AnyGame / AnyState / AnyBot. No game logic
// lives here; every rule is in cpp/.
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

// Engine messages quote user input (data-file keys, action text) that need not be UTF-8 and may
// hold NUL bytes; they reach Python whole, bad bytes escaped, instead of cut short or turned into
// a UnicodeDecodeError.
void translate_exception(const std::exception_ptr& error, void*) {
  const auto raise = [](PyObject* type, std::string_view what) {
    PyObject* text =
        PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "backslashreplace");
    PyErr_SetObject(type, text);
    Py_XDECREF(text);
  };
  try {
    std::rethrow_exception(error);
  } catch (const Interrupted&) {
    // The signal handler that asked to stop has already raised (KeyboardInterrupt for Ctrl-C).
    if (PyErr_Occurred() == nullptr) PyErr_SetNone(PyExc_KeyboardInterrupt);
  } catch (const std::invalid_argument& e) {
    raise(PyExc_ValueError, message_of(e));
  } catch (const std::out_of_range& e) {
    raise(PyExc_IndexError, message_of(e));
  }
}

// The engine's interrupt check (core/interrupt.h). Python runs signal handlers on its main thread
// only, so only there is anything to check, with the GIL held for the moment it takes. A child
// forked from another thread has that thread as its main thread.
std::atomic<unsigned long> main_thread_id{0};

void forked_thread_is_main() noexcept { main_thread_id = PyThread_get_thread_ident(); }

bool python_interrupt_requested() noexcept {
  if (PyThread_get_thread_ident() != main_thread_id.load(std::memory_order_relaxed)) return false;
  const PyGILState_STATE gil = PyGILState_Ensure();
  const bool raised = PyErr_CheckSignals() != 0;  // the handler's exception stays set
  PyGILState_Release(gil);
  return raised;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "The rivals engine (C++). Use the `rivals` package rather than this module directly.";
  m.attr("CHANCE") = kChancePlayer;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.attr("MAX_THREADS") = kMaxThreads;
  nb::register_exception_translator(&translate_exception);
  nb::exception<BudgetExceeded>(m, "BudgetExceeded", PyExc_RuntimeError);
  main_thread_id = nb::cast<unsigned long>(
      nb::module_::import_("threading").attr("main_thread")().attr("ident"));
  if (pthread_atfork(nullptr, nullptr, &forked_thread_is_main) != 0)
    throw std::runtime_error("rivals: no room for the fork handler");
  set_interrupt_check(&python_interrupt_requested);

  m.def("game_names", &game_names, "Sorted names of every game in the engine.");
  m.def(
      "make_game",
      [](const nb::str& name, nb::handle params) {
        return PyGame{make_game(to_utf8(name, "game name"), from_python(params, "params"))};
      },
      "name"_a, "params"_a = nb::dict(),
      "A game by name; unknown names and parameters raise ValueError listing what is accepted.");
  m.def("bot_names", &bot_names,
        "Sorted names of the bots that play at least one game (each game's: game.info.bots).");
  m.def("shipped_data_names", &shipped_data_names,
        "Names of the data documents compiled into the engine (python/rivals/data).");
  m.def(
      "json_error",
      [](const nb::bytes& text, int max_depth) -> std::optional<std::string> {
        try {
          Json::parse(std::string_view(text.c_str(), text.size()), max_depth);
        } catch (const std::invalid_argument& error) {
          return std::string(error.what());
        }
        return std::nullopt;
      },
      "text"_a, "max_depth"_a = Json::kMaxDepth,
      "Why `text` is not strict JSON (UTF-8, no key twice in one object, at most `max_depth` "
      "nested arrays and objects) as the engine's reader says it, with the line, column and "
      "entry, or None when it is.");
  m.def(
      "portable_params",
      [](const PyGame& g) { return nb::cast<AnyDict>(to_python(g.impl->portable_params())); },
      "game"_a, "The game's params with every data file replaced by its document.");

  bind_game(m);
  bind_state(m);
  bind_bot(m);
  bind_game_info(m);
  bind_vector_env(m);
}

}  // namespace rivals::bindings
