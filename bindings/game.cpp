// The Python class Game: a game of the engine, its rules, parameters and batch runs.
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
#include "rivals/core/records.h"
#include "rivals/core/registry.h"
#include "rivals/core/threads.h"

#include "shared.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {

namespace {

// The arguments play_match and self_play share, converted in one order so that both report the
// same first bad one; `call` names the method in the errors.
struct MatchArgs {
  std::vector<BotSpec> specs;
  int num_games;
  std::uint64_t seed;
  std::int64_t first_game;
  int threads;
};

MatchArgs to_match_args(const AnyGame& game, nb::handle bots, nb::handle num_games, nb::handle seed,
                        nb::handle first_game, nb::handle threads, const char* call) {
  MatchArgs args;
  args.specs = to_bot_specs(game, bots);
  args.num_games = to_num_games(game, num_games, call);
  args.seed = to_seed(seed);
  args.first_game =
      to_integer(first_game, game.name() + " " + call + ": first_game", 0, kMaxFirstGame);
  args.threads = to_threads(game, threads, call);
  return args;
}

using IntegerView = nb::ndarray<nb::ro, nb::ndim<1>, nb::device::cpu>;

template <class T>
std::vector<std::int64_t> widened(const IntegerView& view, const std::string& what) {
  const auto* data = static_cast<const T*>(view.data());
  std::vector<std::int64_t> out(view.shape(0));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const T value = data[static_cast<std::int64_t>(i) * view.stride(0)];
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8)
      if (value > static_cast<std::uint64_t>(INT64_MAX))
        throw InvalidArgument(what + ": " + std::to_string(value) + " at " + std::to_string(i) +
                              " is out of range (64 bits)");
    out[i] = static_cast<std::int64_t>(value);
  }
  return out;
}

// A 1-D array of integers of any width (numpy's, or anything numpy.asarray makes one of),
// else ValueError naming `what`.
std::vector<std::int64_t> integer_array(nb::handle value, const std::string& what) {
  nb::object array;
  try {
    array = nb::module_::import_("numpy").attr("asarray")(value);
  } catch (nb::python_error& error) {
    if (!error.matches(PyExc_ValueError) && !error.matches(PyExc_TypeError)) throw;
    throw InvalidArgument(what + " is a 1-D array of integers, got " + shown(value));
  }
  // DLPack has no byte order: integers stored big-endian (a record's) are swapped first.
  const nb::object dtype = array.attr("dtype");
  if (nb::cast<std::string>(dtype.attr("kind")).find_first_of("iu") == 0 &&
      !nb::cast<bool>(dtype.attr("isnative")))
    array = array.attr("astype")(dtype.attr("newbyteorder")("="));
  IntegerView view;
  // An empty list is an empty array of floats to numpy: as good as one of integers.
  if (nb::try_cast(array, view, false) && view.shape(0) == 0) return {};
  if (nb::try_cast(array, view, false)) {
    const auto dtype = view.dtype();
    const bool is_signed = dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int);
    const bool is_unsigned = dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt);
    if ((is_signed || is_unsigned) && dtype.lanes == 1) switch (dtype.bits) {
        case 8:
          return is_signed ? widened<std::int8_t>(view, what) : widened<std::uint8_t>(view, what);
        case 16:
          return is_signed ? widened<std::int16_t>(view, what) : widened<std::uint16_t>(view, what);
        case 32:
          return is_signed ? widened<std::int32_t>(view, what) : widened<std::uint32_t>(view, what);
        case 64:
          return is_signed ? widened<std::int64_t>(view, what) : widened<std::uint64_t>(view, what);
        default:
          break;
      }
  }
  throw InvalidArgument(what + " is a 1-D array of integers, got " + shown(value) + " of dtype " +
                        shown(array.attr("dtype")) + " and shape " + shown(array.attr("shape")));
}

// A stored game that is not a finished game of legal actions, as ValueError("game k: reason")
// with the attributes game and reason, so that a caller can name where game k came from.
[[noreturn]] void raise_bad_game(std::int64_t game, const std::string& reason) {
  const std::string message = "game " + std::to_string(game) + ": " + reason;
  nb::object error = nb::handle(PyExc_ValueError)(nb::str(message.data(), message.size()));
  error.attr("game") = game;
  error.attr("reason") = nb::str(reason.data(), reason.size());
  PyErr_SetObject(PyExc_ValueError, error.ptr());
  throw nb::python_error();
}

// The actions of games of these lengths as the engine's; one past 32 bits is game k's bad
// action j. (Lengths that do not add up are check_histories' error.)
std::vector<Action> actions_of_games(const std::vector<std::int64_t>& wide,
                                     const std::vector<std::int64_t>& lengths) {
  std::vector<Action> actions(wide.size());
  std::size_t game = 0;
  std::int64_t game_start = 0;
  for (std::size_t i = 0; i < wide.size(); ++i) {
    const auto at = static_cast<std::int64_t>(i);
    while (game < lengths.size() && at >= game_start + std::max<std::int64_t>(0, lengths[game]))
      game_start += std::max<std::int64_t>(0, lengths[game++]);
    if (wide[i] < INT32_MIN || wide[i] > INT32_MAX)
      raise_bad_game(static_cast<std::int64_t>(game), "action #" + std::to_string(at - game_start) +
                                                          ": action " + std::to_string(wide[i]) +
                                                          " is out of range (32 bits)");
    actions[i] = static_cast<Action>(wide[i]);
  }
  return actions;
}

}  // namespace

void bind_game(nb::module_& m) {
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
             nb::handle chance_group_arg, bool records) {
            const auto [specs, num_games, seed, first_game, threads] = to_match_args(
                *g.impl, bots, num_games_arg, seed_arg, first_game_arg, threads_arg, "play_match");
            const int chance_group = to_int(
                chance_group_arg, g.impl->name() + " play_match: chance_group", 1, kMaxChanceGroup);
            MatchResults results;
            const int width = record_action_bytes(*g.impl);
            std::vector<std::size_t> starts;
            {
              nb::gil_scoped_release release;
              results = g.impl->play_match(specs, seed, first_game, num_games, threads,
                                           keep_histories || records, chance_group);
              if (records) starts = record_line_starts(results.histories, first_game, width);
            }
            nb::object lines;
            if (records) {
              // Written in place: a chunk's lines are megabytes, and copying them costs as much
              // as writing them.
              lines = nb::steal(
                  PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(starts.back())));
              if (!lines.is_valid()) throw nb::python_error();
              char* text = PyBytes_AsString(lines.ptr());
              if (text == nullptr) throw nb::python_error();
              nb::gil_scoped_release release;
              write_record_lines(results.histories, first_game, width, starts, threads, text);
              if (!keep_histories) results.histories.clear();
            }
            AnyDict out = results_to_python(std::move(results));
            if (records) out["records"] = lines;
            return out;
          },
          "bots"_a.none(), "num_games"_a.none(), "seed"_a.none() = 0, "first_game"_a.none() = 0,
          "threads"_a.none() = 1, "keep_histories"_a = false, "chance_group"_a.none() = 1,
          nb::kw_only(), "records"_a = false,
          nb::sig("def play_match(self, bots: object, "
                  "num_games: int, seed: int = 0, first_game: int = 0, threads: int = 1, "
                  "keep_histories: bool = False, chance_group: int = 1, *, "
                  "records: bool = False) -> dict[str, typing.Any]"),
          "Bots (names or (name, params) pairs, one per seat) play each other in C++. Game i seats "
          "bot (seat + i) % players in each seat; 'seating' records it. Games i and j with "
          "i // chance_group == j // chance_group draw their chance outcomes from one stream "
          "(duplicate games); bots are seeded per game. keep_histories adds 'histories', a list "
          "of action lists; records adds 'records', the games' lines of a compact record "
          "(docs/formats.md, rivals-record) as one bytes object, built on the threads.")
      .def(
          "check_histories",
          [](const PyGame& g, nb::handle actions_arg, nb::handle lengths_arg,
             nb::handle threads_arg) {
            const std::string call = g.impl->name() + " check_histories";
            const int threads = to_threads(*g.impl, threads_arg, "check_histories");
            const std::vector<std::int64_t> lengths =
                integer_array(lengths_arg, call + ": lengths");
            const std::vector<Action> actions =
                actions_of_games(integer_array(actions_arg, call + ": actions"), lengths);
            HistoryCheck checked;
            {
              nb::gil_scoped_release release;
              checked = check_histories(*g.impl, actions, lengths, threads);
            }
            if (checked.bad_game >= 0) raise_bad_game(checked.bad_game, checked.reason);
            const auto players = static_cast<std::size_t>(g.impl->num_players());
            nb::dict out;
            out["returns"] = to_numpy(std::move(checked.returns), {lengths.size(), players});
            return AnyDict(out);
          },
          "actions"_a.none(), "lengths"_a.none(), "threads"_a.none() = 1,
          nb::sig("def check_histories(self, actions: object, lengths: object, threads: int = 1) "
                  "-> dict[str, typing.Any]"),
          "Checks many stored games at once (the GIL released): game k is the next lengths[k] "
          "actions of the 1-D integer array actions, replayed from the start with every action "
          "checked as state_from_history checks it, and must be finished. Returns {'returns': "
          "[games, players]}. The first game that is not raises ValueError 'game k: action #j: "
          "...' (or 'game k: the game is not over after its N actions') whose attributes game "
          "and reason hold k and the text after 'game k: '.")
      .def(
          "self_play",
          [](const PyGame& g, nb::handle bots, nb::handle num_games_arg, nb::handle seed_arg,
             nb::handle first_game_arg, nb::handle threads_arg, nb::handle random_arg) {
            const auto [specs, num_games, seed, first_game, threads] = to_match_args(
                *g.impl, bots, num_games_arg, seed_arg, first_game_arg, threads_arg, "self_play");
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
          "undo_ns",
          [](const PyGame& g, nb::handle history, nb::handle undos_arg, nb::handle copies_arg,
             bool from_start) {
            const std::vector<Action> actions = to_actions(*g.impl, history);
            const int undos = to_int(undos_arg, g.impl->name() + " undo_ns: undos", 1,
                                     static_cast<int>(actions.size()));
            const int copies =
                to_int(copies_arg, g.impl->name() + " undo_ns: copies", 1, kMaxUndoCopies);
            nb::gil_scoped_release release;
            return g.impl->undo_ns(actions, undos, copies, from_start);
          },
          "history"_a.none(), "undos"_a.none() = 1, "copies"_a.none() = 1000,
          "from_start"_a = false,
          nb::sig("def undo_ns(self, history: collections.abc.Sequence[int], undos: int = 1, "
                  "copies: int = 1000, from_start: bool = False) -> float"),
          "Mean CPU nanoseconds of one state.undo() (a benchmark figure), over copies copies of "
          "the state after history that each take back their last undos actions. from_start "
          "times instead the replay of the whole shorter history that undo() was before it "
          "kept snapshots, for comparison.")
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
}

}  // namespace rivals::bindings
