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

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {
namespace {

using AnyDict = nb::typed<nb::dict, nb::str, nb::any>;
using Shape = nb::typed<nb::tuple, int, nb::ellipsis>;

PyGame game_of(const AnyState& state) {
  return PyGame{std::const_pointer_cast<AnyGame>(state.game().shared_from_this())};
}

// An iterator over `values`, else ValueError saying `what` was expected (a 0-d numpy array has
// __iter__ but refuses to iterate, so only iter() itself can tell).
nb::iterator iterate(nb::handle values, const std::string& what) {
  PyObject* items = nb::isinstance<nb::str>(values) ? nullptr : PyObject_GetIter(values.ptr());
  if (items != nullptr) return nb::steal<nb::iterator>(items);
  if (PyErr_Occurred() != nullptr && !PyErr_ExceptionMatches(PyExc_TypeError))
    throw nb::python_error();
  PyErr_Clear();
  throw InvalidArgument(what + ", got " + shown(values));
}

// A history longer than the longest game cannot be legal, so converting stops one action past it
// and replaying reports that action, whatever (endless) iterable was passed.
std::vector<Action> to_actions(const AnyGame& game, nb::handle values) {
  const auto longest = static_cast<std::size_t>(game.max_game_length()) + 1;
  std::vector<Action> out;
  nb::iterator items = iterate(values, game.name() + ": a history is a list of actions");
  for (; items != nb::iterator::sentinel() && out.size() < longest; ++items) {
    try {
      out.push_back(to_action(*items));
    } catch (const std::invalid_argument& error) {  // numbered as the engine numbers an illegal one
      throw InvalidArgument("action #" + std::to_string(out.size()) + ": " +
                            std::string(message_of(error)));
    }
  }
  return out;
}

// Any integral number reaches the seat check, so a player past 32 bits is a ValueError naming it
// like any other non-seat.
Player to_player(const AnyState& state, nb::handle value) {
  const AnyGame& game = state.game();
  const nb::int_ player = to_python_int(value, game.name() + ": player");
  int overflow = 0;
  const long long seat = PyLong_AsLongLongAndOverflow(player.ptr(), &overflow);
  if (overflow != 0 || seat < 0 || seat >= game.num_players())
    throw InvalidArgument(game.name() + ": player " + shown(player) + " is not a seat (0.." +
                          std::to_string(game.num_players() - 1) + ")");
  return static_cast<Player>(seat);
}

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

template <class T>
nb::ndarray<nb::numpy, T> to_numpy(std::vector<T>&& data, std::vector<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(data));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner);
}

AnyDict results_to_python(MatchResults&& results) {
  const auto games = static_cast<std::size_t>(results.num_games);
  const auto players = static_cast<std::size_t>(results.num_players);
  nb::dict out;
  out["returns"] = to_numpy(std::move(results.returns), {games, players});
  out["lengths"] = to_numpy(std::move(results.lengths), {games});
  out["seating"] = to_numpy(std::move(results.seating), {games, players});
  if (!results.histories.empty()) {
    nb::list histories;
    for (auto& history : results.histories) histories.append(nb::cast(history));
    out["histories"] = histories;
  }
  return AnyDict(out);
}

std::vector<BotSpec> to_bot_specs(const AnyGame& game, nb::handle bots) {
  std::vector<BotSpec> specs;
  nb::iterator items = iterate(bots, game.name() + ": bots are a list of one bot per seat");
  // One more than a bot per seat is enough for the error, and stops an endless iterable.
  for (; items != nb::iterator::sentinel() && static_cast<int>(specs.size()) <= game.num_players();
       ++items) {
    const nb::handle bot = *items;
    if (nb::isinstance<nb::str>(bot)) {
      specs.push_back({to_utf8(bot, "bot name"), Json::object()});
      continue;
    }
    if (!nb::isinstance<nb::tuple>(bot) || nb::len(bot) != 2 || !nb::isinstance<nb::str>(bot[0]))
      throw InvalidArgument("a bot is a name or (name, params), got " + shown(bot));
    specs.push_back({to_utf8(bot[0], "bot name"), from_python(bot[1], "bot params")});
  }
  return specs;
}

int to_threads(const AnyGame& game, nb::handle value, const char* call) {
  return to_int(value, game.name() + " " + call + ": threads", 1, kMaxThreads);
}

int to_num_games(const AnyGame& game, nb::handle value, const char* call) {
  return to_int(value, game.name() + " " + call + ": num_games", 0, kMaxBatchGames);
}

nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>> state_getstate(
    const PyState& state) {
  const auto reading = state.reading("pickling");
  const AnyGame& game = state.impl->game();
  return nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>>(nb::make_tuple(
      game.name(), to_python(game.portable_params()), nb::cast(state.impl->history())));
}

PyState state_setstate_value(const std::tuple<std::string, AnyDict, nb::typed<nb::list, int>>& t) {
  const auto game = make_game(std::get<0>(t), from_python(std::get<1>(t), "params"));
  return PyState{game->state_from_history(to_actions(*game, std::get<2>(t)))};
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

  nb::class_<PyGame>(m, "Game", "A game: its rules and parameters. Make one with rivals.make().")
      .def_prop_ro("name", [](const PyGame& g) { return g.impl->name(); })
      .def_prop_ro(
          "params", [](const PyGame& g) { return nb::cast<AnyDict>(to_python(g.impl->params())); },
          "Every parameter, defaults filled in.")
      .def_prop_ro(
          "data", [](const PyGame& g) { return nb::cast<AnyDict>(to_python(g.impl->data())); },
          "The documents of the data parameters (card sets, maps), by parameter name.")
      .def(
          "__getattr__",
          [](const PyGame& g, const nb::str& attribute) {
            const std::string name = to_utf8(attribute, "attribute name");
            const Json* document = g.impl->data().find(name);
            if (document == nullptr)
              throw nb::attribute_error(("a " + g.impl->name() + " game has no attribute " +
                                         quoted(name) + " (nor a data parameter of that name)")
                                            .c_str());
            return to_python(*document);
          },
          "name"_a, nb::sig("def __getattr__(self, name: str) -> typing.Any"),
          "A data parameter's document by the parameter's name (game.map is game.data['map']).")
      .def_prop_ro(
          "info", [](const PyGame& g) { return g.impl->info(); },
          "What the game is: names, players, information, utility, what the engine offers.")
      .def_prop_ro("num_players", [](const PyGame& g) { return g.impl->num_players(); })
      .def_prop_ro("num_distinct_actions",
                   [](const PyGame& g) { return g.impl->num_distinct_actions(); })
      .def_prop_ro("max_chance_outcomes",
                   [](const PyGame& g) { return g.impl->max_chance_outcomes(); })
      .def_prop_ro(
          "max_game_length", [](const PyGame& g) { return g.impl->max_game_length(); },
          "An upper bound on the number of actions in a game, chance included.")
      .def_prop_ro("observation_shape",
                   [](const PyGame& g) {
                     const auto& shape = g.impl->observation_shape();
                     nb::list dims;
                     for (int d : shape) dims.append(d);
                     return Shape(nb::tuple(dims));
                   })
      .def_prop_ro(
          "compact_observation_shape",
          [](const PyGame& g) {
            nb::list dims;
            for (int d : g.impl->compact_board_shape()) dims.append(d);
            nb::dict out;
            out["board"] = Shape(nb::tuple(dims));
            out["features"] = Shape(nb::make_tuple(g.impl->compact_features_size()));
            return out;
          },
          nb::sig("def compact_observation_shape(self) -> dict[str, tuple[int, ...]]"),
          "The shapes of the compact observation: {'board': ..., 'features': (F,)}.")
      .def_prop_ro(
          "max_legal_actions", [](const PyGame& g) { return g.impl->max_legal_actions(); },
          "An upper bound on the number of legal actions of any decision.")
      .def("new_initial_state",
           [](const PyGame& g) { return PyState{g.impl->new_initial_state()}; })
      .def(
          "state_from_history",
          [](const PyGame& g, nb::handle actions) {
            return PyState{g.impl->state_from_history(to_actions(*g.impl, actions))};
          },
          "actions"_a.none(),
          "Replays the actions with full checks; ValueError names the first bad one.")
      .def(
          "random_playouts",
          [](const PyGame& g, nb::handle num_games_arg, nb::handle seed_arg,
             nb::handle threads_arg) {
            const int num_games = to_num_games(*g.impl, num_games_arg, "random_playouts");
            const std::uint64_t seed = to_seed(seed_arg);
            const int threads = to_threads(*g.impl, threads_arg, "random_playouts");
            MatchResults results;
            {
              nb::gil_scoped_release release;
              results = g.impl->random_playouts(seed, num_games, threads);
            }
            return results_to_python(std::move(results));
          },
          "num_games"_a.none(), "seed"_a.none() = 0, "threads"_a.none() = 1,
          nb::sig("def random_playouts(self, num_games: int, seed: int = 0, threads: int = 1) -> "
                  "dict[str, typing.Any]"),
          "Plays uniformly random games in C++ (the GIL released). Returns numpy arrays: "
          "'returns' [games, players], 'lengths' [games], 'seating' [games, players].")
      .def(
          "play_match",
          [](const PyGame& g, nb::handle bots, nb::handle num_games_arg, nb::handle seed_arg,
             nb::handle first_game_arg, nb::handle threads_arg, bool keep_histories,
             nb::handle chance_group_arg) {
            const auto specs = to_bot_specs(*g.impl, bots);
            const int num_games = to_num_games(*g.impl, num_games_arg, "play_match");
            const std::uint64_t seed = to_seed(seed_arg);
            const std::int64_t first_game = to_integer(
                first_game_arg, g.impl->name() + " play_match: first_game", 0, kMaxFirstGame);
            const int threads = to_threads(*g.impl, threads_arg, "play_match");
            const int chance_group = to_int(
                chance_group_arg, g.impl->name() + " play_match: chance_group", 1, kMaxChanceGroup);
            MatchResults results;
            {
              nb::gil_scoped_release release;
              results = g.impl->play_match(specs, seed, first_game, num_games, threads,
                                           keep_histories, chance_group);
            }
            return results_to_python(std::move(results));
          },
          "bots"_a.none(), "num_games"_a.none(), "seed"_a.none() = 0, "first_game"_a.none() = 0,
          "threads"_a.none() = 1, "keep_histories"_a = false, "chance_group"_a.none() = 1,
          nb::sig("def play_match(self, bots: object, "
                  "num_games: int, seed: int = 0, first_game: int = 0, threads: int = 1, "
                  "keep_histories: bool = False, chance_group: int = 1) -> dict[str, typing.Any]"),
          "Bots (names or (name, params) pairs, one per seat) play each other in C++. Game i seats "
          "bot (seat + i) % players in each seat; 'seating' records it. Games i and j with "
          "i // chance_group == j // chance_group draw their chance outcomes from one stream "
          "(duplicate games); bots are seeded per game.")
      .def(
          "self_play",
          [](const PyGame& g, nb::handle bots, nb::handle num_games_arg, nb::handle seed_arg,
             nb::handle first_game_arg, nb::handle threads_arg, nb::handle random_arg) {
            const auto specs = to_bot_specs(*g.impl, bots);
            const int num_games = to_num_games(*g.impl, num_games_arg, "self_play");
            const std::uint64_t seed = to_seed(seed_arg);
            const std::int64_t first_game = to_integer(
                first_game_arg, g.impl->name() + " self_play: first_game", 0, kMaxFirstGame);
            const int threads = to_threads(*g.impl, threads_arg, "self_play");
            const int random_decisions =
                to_int(random_arg, g.impl->name() + " self_play: random_decisions", 0,
                       g.impl->max_game_length());
            Positions positions;
            {
              nb::gil_scoped_release release;
              positions =
                  g.impl->self_play(specs, seed, first_game, num_games, threads, random_decisions);
            }
            const std::size_t rows = positions.players.size();
            AnyDict out = results_to_python(std::move(positions.results));
            out["boards"] = to_numpy(std::move(positions.boards),
                                     {rows, static_cast<std::size_t>(positions.board_size)});
            out["features"] = to_numpy(std::move(positions.feature_rows),
                                       {rows, static_cast<std::size_t>(positions.features)});
            out["evaluations"] = to_numpy(std::move(positions.evaluation_rows),
                                          {rows, static_cast<std::size_t>(positions.evaluations)});
            out["games"] = to_numpy(std::move(positions.games), {rows});
            out["players"] = to_numpy(std::move(positions.players), {rows});
            out["movers"] = to_numpy(std::move(positions.movers), {rows});
            out["search_values"] = to_numpy(std::move(positions.search_values), {rows});
            const std::size_t entries = positions.policy_rows.size();
            out["policy_rows"] = to_numpy(std::move(positions.policy_rows), {entries});
            out["policy_actions"] = to_numpy(std::move(positions.policy_actions), {entries});
            out["policy_shares"] = to_numpy(std::move(positions.policy_shares), {entries});
            return out;
          },
          "bots"_a.none(), "num_games"_a.none(), "seed"_a.none() = 0, "first_game"_a.none() = 0,
          "threads"_a.none() = 1, "random_decisions"_a.none() = 0,
          nb::sig("def self_play(self, bots: object, num_games: int, seed: int = 0, "
                  "first_game: int = 0, threads: int = 1, random_decisions: int = 0) -> "
                  "dict[str, typing.Any]"),
          "Plays games as play_match does (no duplicate deals) and records every decision from "
          "every seat's view, for learning: besides play_match's arrays, a row per decision and "
          "seat of 'boards' [n, board cells] (uint8) and 'features' [n, features] (float32), the "
          "compact observation from the seat's view; 'evaluations' [n, k] (float32), the game's "
          "own evaluations (game.info.evaluations but 'net') from the seat's side; 'players' "
          "(int8), the seat; 'movers' "
          "(int8), the seat to move; 'games' (int32), the row of 'returns'; 'search_values' "
          "(float32), in the mover's row the mover's search value of the move played (NaN in "
          "the other rows, for a bot that gives none, and for the first random_decisions "
          "decisions of each game, which are uniformly random); 'policy_rows', "
          "'policy_actions' (int32) and 'policy_shares' (float32), the search's visits as a "
          "policy: entry k gives the mover's row, a decision and its share of the root's "
          "simulations.")
      .def_prop_ro(
          "state_size", [](const PyGame& g) { return g.impl->state_size(); },
          "Bytes of the engine's concrete state (a benchmark figure).")
      .def(
          "copy_ns",
          [](const PyGame& g, nb::handle copies_arg) {
            const int copies =
                to_int(copies_arg, g.impl->name() + " copy_ns: copies", 1, kMaxCopies);
            nb::gil_scoped_release release;
            return g.impl->copy_ns(copies);
          },
          "copies"_a.none() = 1000000, nb::sig("def copy_ns(self, copies: int = 1000000) -> float"),
          "Mean nanoseconds to copy a mid-game state (a benchmark figure).")
      .def(
          "evaluation_ns",
          [](const PyGame& g, const std::string& evaluation, nb::handle network,
             nb::handle count_arg) {
            const Json network_value = from_python(network, "network");
            const int count =
                to_int(count_arg, g.impl->name() + " evaluation_ns: count", 1, kMaxCopies);
            nb::gil_scoped_release release;
            return g.impl->evaluation_ns(evaluation, network_value, count);
          },
          "evaluation"_a, "network"_a.none() = nb::none(), "count"_a.none() = 100000,
          nb::sig("def evaluation_ns(self, evaluation: str, network: str | dict[str, object] | "
                  "None = None, count: int = 100000) -> float"),
          "Mean CPU nanoseconds of one evaluation (a benchmark figure; state.evaluate's "
          "arguments) over the decision positions of a random game.")
      .def(
          "make_bot",
          [](const PyGame& g, const nb::str& name, nb::handle params, nb::handle seed_arg) {
            const std::uint64_t seed = to_seed(seed_arg);
            return PyBot{g.impl->make_bot(
                {to_utf8(name, "bot name"), from_python(params, "bot params")}, seed)};
          },
          "name"_a, "params"_a = nb::dict(), "seed"_a.none() = 0,
          nb::sig("def make_bot(self, name: str, params: dict[str, typing.Any] = {}, seed: int = "
                  "0) -> Bot"))
      .def("__eq__",
           [](const PyGame& a, nb::handle other) {
             PyGame* b = nullptr;
             if (!nb::try_cast<PyGame*>(other, b) || b == nullptr) return false;
             return a.impl->same_rules(*b->impl);
           })
      .def("__hash__",
           [](const PyGame& g) {
             const std::string& identity = g.impl->identity();
             return nb::hash(nb::str(identity.data(), identity.size()));
           })
      .def("__repr__",
           [](const PyGame& g) {
             return "rivals.make(\"" + g.impl->name() + "\", **" + g.impl->params().dump() + ")";
           })
      .def("__getstate__",
           [](const PyGame& g) {
             return nb::typed<nb::tuple, nb::str, AnyDict>(
                 nb::make_tuple(g.impl->name(), to_python(g.impl->portable_params())));
           })
      .def("__setstate__", [](PyGame& g, const std::tuple<std::string, AnyDict>& t) {
        new (&g) PyGame{make_game(std::get<0>(t), from_python(std::get<1>(t), "params"))};
      });

  // Every call on a State holds its guard (py_types.h): reads share it, changes need it alone, so
  // a change while a bot in another thread reads the state raises instead of corrupting it.
  nb::class_<PyState>(m, "State", "A position of a game, with its history.")
      .def_prop_ro("game", [](const PyState& s) { return game_of(*s.impl); })
      .def(
          "current_player",
          [](const PyState& s) {
            const auto reading = s.reading("current_player");
            return s.impl->current_player();
          },
          "A seat, CHANCE (-1) or TERMINAL (-4).")
      .def("is_chance_node",
           [](const PyState& s) {
             const auto reading = s.reading("is_chance_node");
             return s.impl->is_chance_node();
           })
      .def("is_terminal",
           [](const PyState& s) {
             const auto reading = s.reading("is_terminal");
             return s.impl->is_terminal();
           })
      .def(
          "legal_actions",
          [](const PyState& s) {
            const auto reading = s.reading("legal_actions");
            return s.impl->legal_actions();
          },
          "Ascending legal actions of the player to move, or the chance outcomes.")
      .def("chance_outcomes",
           [](const PyState& s) {
             const auto reading = s.reading("chance_outcomes");
             std::vector<std::pair<Action, double>> out;
             for (const auto& o : s.impl->chance_outcomes())
               out.emplace_back(o.action, o.probability);
             return out;
           })
      .def(
          "is_legal",
          [](const PyState& s, nb::handle a) {
            const Action action = to_action(a);
            const auto reading = s.reading("is_legal");
            return s.impl->is_legal(action);
          },
          "action"_a.none(), nb::sig("def is_legal(self, action: int) -> bool"),
          "Whether `action` is legal now; a malformed one (a float, a bool, None) is a ValueError.")
      .def(
          "apply_action",
          [](PyState& s, nb::handle a) {
            const Action action = to_action(a);
            const auto writing = s.writing("apply_action");
            s.impl->apply_action(action);
          },
          "action"_a.none(), nb::sig("def apply_action(self, action: int) -> None"),
          "Raises ValueError for an illegal or malformed action; the state is then unchanged.")
      .def(
          "undo",
          [](PyState& s) {
            const auto writing = s.writing("undo");
            s.impl->undo();
          },
          "Takes back the last action (IndexError if none).")
      .def("returns",
           [](const PyState& s) {
             const auto reading = s.reading("returns");
             return s.impl->returns();
           })
      .def("scores",
           [](const PyState& s) {
             const auto reading = s.reading("scores");
             return s.impl->scores();
           })
      .def(
          "evaluate",
          [](const PyState& s, nb::handle p, const std::string& evaluation, nb::handle network) {
            const Player player = to_player(*s.impl, p);
            const Json network_value = from_python(network, "network");
            const auto reading = s.reading("evaluate");
            return s.impl->evaluate(player, evaluation, network_value);
          },
          "player"_a.none(), "evaluation"_a = "default", "network"_a.none() = nb::none(),
          nb::sig("def evaluate(self, player: int, evaluation: str = 'default', "
                  "network: str | dict[str, object] | None = None) -> float"),
          "The game's evaluation of this position from player's side, strictly inside (-1, 1) "
          "and on the scale of returns(): what search bots use where they stop looking ahead "
          "(docs/rules/<game>.md, 'Evaluation (for search bots)'). evaluation names one of "
          "game.info.evaluations (the bots' evaluation= parameter). The game's own evaluations "
          "read the whole state, hidden cards included; 'net' reads what player's seat sees, "
          "through the network that network names (None: the game's shipped one; a shipped "
          "name, a path to a network file or the document; docs/learning.md). ValueError at the "
          "end of the game, for a bad player, for an evaluation the game does not offer and for "
          "a network that does not fit the game.")
      .def(
          "policy",
          [](const PyState& s, nb::handle network) {
            const Json network_value = from_python(network, "network");
            const auto reading = s.reading("policy");
            std::vector<std::pair<Action, double>> out;
            for (const auto& o : s.impl->policy(network_value))
              out.emplace_back(o.action, o.probability);
            return out;
          },
          "network"_a.none() = nb::none(),
          nb::sig("def policy(self, network: str | dict[str, object] | None = None) -> "
                  "list[tuple[int, float]]"),
          "The network's policy over the legal decisions of the player to move, from that "
          "seat's view: (decision, probability) pairs in ascending order (network as for "
          "evaluate; docs/learning.md). ValueError where nobody is to decide and for a network "
          "without a policy head.")
      .def("history",
           [](const PyState& s) {
             const auto reading = s.reading("history");
             return s.impl->history();
           })
      .def(
          "hash",
          [](const PyState& s) {
            const auto reading = s.reading("hash");
            return s.impl->hash();
          },
          "64-bit; equal states hash equal.")
      .def(
          "action_to_string",
          [](const PyState& s, nb::handle a) {
            const Action action = to_action(a);
            const auto reading = s.reading("action_to_string");
            return s.impl->action_to_string(action);
          },
          "action"_a.none(), nb::sig("def action_to_string(self, action: int) -> str"))
      .def("string_to_action",
           [](const PyState& s, const nb::str& text) {
             const std::string utf8 = to_utf8(text, s.impl->game().name() + ": action text");
             const auto reading = s.reading("string_to_action");
             return s.impl->string_to_action(utf8);
           })
      .def(
          "to_dict",
          [](const PyState& s) {
            const auto reading = s.reading("to_dict");
            return to_python(s.impl->to_json());
          },
          "A JSON-serialisable snapshot of the whole state; schema in docs/rules/<game>.md.")
      .def("to_json",
           [](const PyState& s) {
             const auto reading = s.reading("to_json");
             return s.impl->to_json().dump();
           })
      .def(
          "observation_string",
          [](const PyState& s, nb::handle p) {
            const Player player = to_player(*s.impl, p);
            const auto reading = s.reading("observation_string");
            return s.impl->observation_string(player);
          },
          "player"_a.none(), nb::sig("def observation_string(self, player: int) -> str"))
      .def(
          "information_state_string",
          [](const PyState& s, nb::handle p) {
            const Player player = to_player(*s.impl, p);
            const auto reading = s.reading("information_state_string");
            return s.impl->information_state_string(player);
          },
          "player"_a.none(), nb::sig("def information_state_string(self, player: int) -> str"))
      .def(
          "observation_tensor",
          [](const PyState& s, nb::handle p, nb::handle kind_arg) -> nb::object {
            const Player player = to_player(*s.impl, p);
            const std::string kind =
                kind_arg.is_none() ? std::string("planes") : to_utf8(kind_arg, "observation kind");
            const AnyGame& game = s.impl->game();
            if (kind == "planes") {
              const auto& shape = game.observation_shape();
              std::vector<float> data(static_cast<std::size_t>(game.observation_size()));
              {
                const auto reading = s.reading("observation_tensor");
                s.impl->observation_tensor(player, data.data());
              }
              return nb::cast(
                  to_numpy(std::move(data), std::vector<std::size_t>(shape.begin(), shape.end())));
            }
            if (kind != "compact")
              throw InvalidArgument("observation kind must be 'planes' or 'compact', got " +
                                    shown(kind_arg));
            const auto& board_shape = game.compact_board_shape();
            std::vector<std::uint8_t> board(static_cast<std::size_t>(game.compact_board_size()));
            std::vector<float> features(static_cast<std::size_t>(game.compact_features_size()));
            {
              const auto reading = s.reading("observation_tensor");
              s.impl->compact_observation(player, board.data(), features.data());
            }
            nb::dict out;
            out["board"] = to_numpy(
                std::move(board), std::vector<std::size_t>(board_shape.begin(), board_shape.end()));
            out["features"] = to_numpy(std::move(features),
                                       {static_cast<std::size_t>(game.compact_features_size())});
            return out;
          },
          "player"_a.none(), "kind"_a.none() = "planes",
          nb::sig("def observation_tensor(self, player: int, kind: str = 'planes') -> "
                  "typing.Any"),
          "From the view of `player`: kind='planes', a float32 array of game.observation_shape; "
          "kind='compact', {'board': uint8 array, 'features': float32 array} of "
          "game.compact_observation_shape (docs/rules/<game>.md).")
      .def(
          "resample_from_infostate",
          [](const PyState& s, nb::handle p, nb::handle seed_arg) {
            const Player player = to_player(*s.impl, p);
            const std::uint64_t seed = to_seed(seed_arg);
            const auto reading = s.reading("resample_from_infostate");
            return PyState{s.impl->resample_from_infostate(player, seed)};
          },
          "player"_a.none(), "seed"_a.none() = 0,
          nb::sig("def resample_from_infostate(self, player: int, seed: int = 0) -> State"),
          "A state that `player` cannot tell apart from this one, hidden cards resampled.")
      .def("clone",
           [](const PyState& s) {
             const auto reading = s.reading("clone");
             return PyState{s.impl->clone()};
           })
      .def("__copy__",
           [](const PyState& s) {
             const auto reading = s.reading("copy");
             return PyState{s.impl->clone()};
           })
      .def(
          "__deepcopy__",
          [](const PyState& s, nb::handle) {
            const auto reading = s.reading("deepcopy");
            return PyState{s.impl->clone()};
          },
          "memo"_a)
      .def("__str__",
           [](const PyState& s) {
             const auto reading = s.reading("str");
             return s.impl->to_string();
           })
      .def("__repr__",
           [](const PyState& s) {
             const auto reading = s.reading("repr");
             return "<rivals " + s.impl->game().name() + " state after " +
                    std::to_string(s.impl->history().size()) + " actions>";
           })
      .def("__getstate__", &state_getstate)
      .def("__setstate__",
           [](PyState& s, const std::tuple<std::string, AnyDict, nb::typed<nb::list, int>>& t) {
             new (&s) PyState{state_setstate_value(t)};
           });

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
            const auto using_bot = b.using_it("analyse");
            const auto reading = s.reading("bot.analyse");
            Json analysis;
            {
              nb::gil_scoped_release release;
              analysis = b.impl->analyse(*s.impl);
            }
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
            const auto using_bot = b.using_it("step");
            const auto reading = s.reading("bot.step");
            nb::gil_scoped_release release;
            return b.impl->step(*s.impl);
          },
          "state"_a,
          "An action legal in `state` for the player to move (the GIL is released). Ctrl-C stops "
          "the search with KeyboardInterrupt; the bot stays usable.");

  bind_game_info(m);
  bind_vector_env(m);
}

}  // namespace rivals::bindings
