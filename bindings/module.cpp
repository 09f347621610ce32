// The Python face of the engine: thin wrappers over AnyGame / AnyState / AnyBot. No game logic
// lives here; every rule is in cpp/.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/bots/bot_names.h"
#include "rivals/core/data.h"
#include "rivals/core/registry.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {
namespace {

using AnyDict = nb::typed<nb::dict, nb::str, nb::any>;
using Shape = nb::typed<nb::tuple, int, nb::ellipsis>;

PyGame game_of(const AnyState& state) {
  return PyGame{std::const_pointer_cast<AnyGame>(state.game().shared_from_this())};
}

// Python ints of any size and non-ints reach us as objects, so a malformed action is a
// ValueError like an illegal one, never a TypeError or an overflow.
Action to_action(nb::handle value) {
  if (!nb::isinstance<nb::int_>(value) || nb::isinstance<nb::bool_>(value))
    throw std::invalid_argument("an action is an int, got " +
                                nb::cast<std::string>(nb::str(value.type().attr("__name__"))));
  std::int64_t wide = 0;
  if (!nb::try_cast<std::int64_t>(value, wide) || wide < INT32_MIN || wide > INT32_MAX)
    throw std::invalid_argument("action " + nb::cast<std::string>(nb::str(value)) +
                                " is out of range");
  return static_cast<Action>(wide);
}

std::vector<Action> to_actions(nb::handle values) {
  std::vector<Action> out;
  for (nb::handle value : values) out.push_back(to_action(value));
  return out;
}

// Any Python int reaches the seat check, so a player past 32 bits is a ValueError naming it like
// any other non-seat, rather than a TypeError from the argument conversion.
Player to_player(const AnyState& state, const nb::int_& value) {
  Player player = 0;
  if (nb::try_cast<Player>(value, player)) return player;
  const AnyGame& game = state.game();
  throw std::invalid_argument(game.name() + ": player " + nb::cast<std::string>(nb::str(value)) +
                              " is not a seat (0.." + std::to_string(game.num_players() - 1) + ")");
}

// Engine messages quote user input (data-file keys, action text) that need not be UTF-8; they
// reach Python with such bytes escaped instead of turning into a UnicodeDecodeError.
void translate_exception(const std::exception_ptr& error, void*) {
  const auto raise = [](PyObject* type, const char* what) {
    PyObject* text =
        PyUnicode_DecodeUTF8(what, static_cast<Py_ssize_t>(std::strlen(what)), "backslashreplace");
    PyErr_SetObject(type, text);
    Py_XDECREF(text);
  };
  try {
    std::rethrow_exception(error);
  } catch (const std::invalid_argument& e) {
    raise(PyExc_ValueError, e.what());
  } catch (const std::out_of_range& e) {
    raise(PyExc_IndexError, e.what());
  }
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

std::vector<BotSpec> to_bot_specs(nb::handle bots) {
  std::vector<BotSpec> specs;
  for (nb::handle bot : bots) {
    if (nb::isinstance<nb::str>(bot)) {
      specs.push_back({to_utf8(bot, "bot name"), Json::object()});
      continue;
    }
    if (!nb::isinstance<nb::tuple>(bot) || nb::len(bot) != 2 || !nb::isinstance<nb::str>(bot[0]))
      throw std::invalid_argument("a bot is a name or (name, params), got " +
                                  nb::cast<std::string>(nb::repr(bot)));
    specs.push_back({to_utf8(bot[0], "bot name"), from_python(bot[1], "bot params")});
  }
  return specs;
}

nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>> state_getstate(
    const PyState& state) {
  const AnyGame& game = state.impl->game();
  return nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>>(nb::make_tuple(
      game.name(), to_python(game.portable_params()), nb::cast(state.impl->history())));
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "The rivals engine (C++). Use the `rivals` package rather than this module directly.";
  m.attr("CHANCE") = kChancePlayer;
  m.attr("TERMINAL") = kTerminalPlayer;
  nb::register_exception_translator(&translate_exception);

  m.def("game_names", &game_names, "Sorted names of every game in the engine.");
  m.def(
      "make_game",
      [](const nb::str& name, nb::handle params) {
        return PyGame{make_game(to_utf8(name, "game name"), from_python(params, "params"))};
      },
      "name"_a, "params"_a = nb::dict(),
      "A game by name; unknown names and parameters raise ValueError listing what is accepted.");
  m.def("bot_names", &bot_names, "Names of the bots built into the engine.");
  m.def("shipped_data_names", &shipped_data_names,
        "Names of the data documents compiled into the engine (python/rivals/data).");
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
      .def_prop_ro(
          "map",
          [](const PyGame& g) {
            const Json* map = g.impl->data().find("map");
            if (map == nullptr)
              throw nb::attribute_error(("a " + g.impl->name() + " game has no map").c_str());
            return nb::cast<AnyDict>(to_python(*map));
          },
          "The map document (data['map']) of a game with a map parameter.")
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
      .def("new_initial_state",
           [](const PyGame& g) { return PyState{g.impl->new_initial_state()}; })
      .def(
          "state_from_history",
          [](const PyGame& g, nb::handle actions) {
            return PyState{g.impl->state_from_history(to_actions(actions))};
          },
          "actions"_a, "Replays the actions with full checks; ValueError names the first bad one.")
      .def(
          "random_playouts",
          [](const PyGame& g, int num_games, const nb::int_& seed_arg, int threads) {
            const std::uint64_t seed = to_seed(seed_arg);
            MatchResults results;
            {
              nb::gil_scoped_release release;
              results = g.impl->random_playouts(seed, num_games, threads);
            }
            return results_to_python(std::move(results));
          },
          "num_games"_a, "seed"_a = 0, "threads"_a = 1,
          "Plays uniformly random games in C++ (the GIL released). Returns numpy arrays: "
          "'returns' [games, players], 'lengths' [games], 'seating' [games, players].")
      .def(
          "play_match",
          [](const PyGame& g, nb::handle bots, int num_games, const nb::int_& seed_arg,
             int first_game, int threads, bool keep_histories) {
            const std::uint64_t seed = to_seed(seed_arg);
            const auto specs = to_bot_specs(bots);
            MatchResults results;
            {
              nb::gil_scoped_release release;
              results =
                  g.impl->play_match(specs, seed, first_game, num_games, threads, keep_histories);
            }
            return results_to_python(std::move(results));
          },
          "bots"_a, "num_games"_a, "seed"_a = 0, "first_game"_a = 0, "threads"_a = 1,
          "keep_histories"_a = false,
          "Bots (names or (name, params) pairs, one per seat) play each other in C++. Game i seats "
          "bot (seat + i) % players in each seat; 'seating' records it.")
      .def_prop_ro(
          "state_size", [](const PyGame& g) { return g.impl->state_size(); },
          "Bytes of the engine's concrete state (a benchmark figure).")
      .def(
          "copy_ns",
          [](const PyGame& g, int copies) {
            nb::gil_scoped_release release;
            return g.impl->copy_ns(copies);
          },
          "copies"_a = 1000000, "Mean nanoseconds to copy a mid-game state (a benchmark figure).")
      .def(
          "make_bot",
          [](const PyGame& g, const nb::str& name, nb::handle params, const nb::int_& seed_arg) {
            const std::uint64_t seed = to_seed(seed_arg);
            return PyBot{g.impl->make_bot(
                {to_utf8(name, "bot name"), from_python(params, "bot params")}, seed)};
          },
          "name"_a, "params"_a = nb::dict(), "seed"_a = 0)
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

  nb::class_<PyState>(m, "State", "A position of a game, with its history.")
      .def_prop_ro("game", [](const PyState& s) { return game_of(*s.impl); })
      .def(
          "current_player", [](const PyState& s) { return s.impl->current_player(); },
          "A seat, CHANCE (-1) or TERMINAL (-4).")
      .def("is_chance_node", [](const PyState& s) { return s.impl->is_chance_node(); })
      .def("is_terminal", [](const PyState& s) { return s.impl->is_terminal(); })
      .def(
          "legal_actions", [](const PyState& s) { return s.impl->legal_actions(); },
          "Ascending legal actions of the player to move, or the chance outcomes.")
      .def("chance_outcomes",
           [](const PyState& s) {
             std::vector<std::pair<Action, double>> out;
             for (const auto& o : s.impl->chance_outcomes())
               out.emplace_back(o.action, o.probability);
             return out;
           })
      .def(
          "is_legal",
          [](const PyState& s, nb::handle a) {
            Action action = 0;
            try {
              action = to_action(a);
            } catch (const std::invalid_argument&) {
              return false;
            }
            return s.impl->is_legal(action);
          },
          "action"_a.none(), nb::sig("def is_legal(self, action: int) -> bool"))
      .def(
          "apply_action", [](PyState& s, nb::handle a) { s.impl->apply_action(to_action(a)); },
          "action"_a.none(), nb::sig("def apply_action(self, action: int) -> None"),
          "Raises ValueError for an illegal or malformed action; the state is then unchanged.")
      .def(
          "undo", [](PyState& s) { s.impl->undo(); },
          "Takes back the last action (IndexError if none).")
      .def("returns", [](const PyState& s) { return s.impl->returns(); })
      .def("scores", [](const PyState& s) { return s.impl->scores(); })
      .def("history", [](const PyState& s) { return s.impl->history(); })
      .def(
          "hash", [](const PyState& s) { return s.impl->hash(); },
          "64-bit; equal states hash equal.")
      .def(
          "action_to_string",
          [](const PyState& s, nb::handle a) { return s.impl->action_to_string(to_action(a)); },
          "action"_a.none(), nb::sig("def action_to_string(self, action: int) -> str"))
      .def(
          "string_to_action",
          [](const PyState& s, const nb::str& text) {
            return s.impl->string_to_action(to_utf8(text, s.impl->game().name() + ": action text"));
          })
      .def(
          "to_dict", [](const PyState& s) { return to_python(s.impl->to_json()); },
          "A JSON-serialisable snapshot of the whole state; schema in docs/rules/<game>.md.")
      .def("to_json", [](const PyState& s) { return s.impl->to_json().dump(); })
      .def(
          "observation_string",
          [](const PyState& s, const nb::int_& p) {
            return s.impl->observation_string(to_player(*s.impl, p));
          },
          "player"_a)
      .def(
          "information_state_string",
          [](const PyState& s, const nb::int_& p) {
            return s.impl->information_state_string(to_player(*s.impl, p));
          },
          "player"_a)
      .def(
          "observation_tensor",
          [](const PyState& s, const nb::int_& p) {
            const auto& shape = s.impl->game().observation_shape();
            std::vector<float> data(static_cast<std::size_t>(s.impl->game().observation_size()));
            s.impl->observation_tensor(to_player(*s.impl, p), data.data());
            return to_numpy(std::move(data), std::vector<std::size_t>(shape.begin(), shape.end()));
          },
          "player"_a, "float32 array of game.observation_shape, from the view of `player`.")
      .def(
          "resample_from_infostate",
          [](const PyState& s, const nb::int_& p, const nb::int_& seed) {
            return PyState{s.impl->resample_from_infostate(to_player(*s.impl, p), to_seed(seed))};
          },
          "player"_a, "seed"_a = 0,
          "A state that `player` cannot tell apart from this one, hidden cards resampled.")
      .def("clone", [](const PyState& s) { return PyState{s.impl->clone()}; })
      .def("__copy__", [](const PyState& s) { return PyState{s.impl->clone()}; })
      .def(
          "__deepcopy__", [](const PyState& s, nb::handle) { return PyState{s.impl->clone()}; },
          "memo"_a)
      .def("__str__", [](const PyState& s) { return s.impl->to_string(); })
      .def("__repr__",
           [](const PyState& s) {
             return "<rivals " + s.impl->game().name() + " state after " +
                    std::to_string(s.impl->history().size()) + " actions>";
           })
      .def("__getstate__", &state_getstate)
      .def("__setstate__",
           [](PyState& s, const std::tuple<std::string, AnyDict, nb::typed<nb::list, int>>& t) {
             auto game = make_game(std::get<0>(t), from_python(std::get<1>(t), "params"));
             new (&s) PyState{game->state_from_history(to_actions(std::get<2>(t)))};
           });

  nb::class_<PyBot>(m, "Bot", "A bot built into the engine. Make one with rivals.bots.make().")
      .def_prop_ro("name", [](const PyBot& b) { return b.impl->name(); })
      .def(
          "step",
          [](PyBot& b, const PyState& s) {
            nb::gil_scoped_release release;
            return b.impl->step(*s.impl);
          },
          "state"_a, "An action legal in `state` for the player to move (the GIL is released).");

  bind_vector_env(m);
  bind_sekigahara(m);
}

}  // namespace rivals::bindings
