// The Python class State: a position with its history, checked on every call.
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

// A method that returns the state's answer to `Query` (a question without arguments), asked under
// the state's reading guard; `call` names it in the error another thread's use gets.
template <auto Query>
auto query(const char* call) {
  return [call](const PyState& s) {
    const auto reading = s.reading(call);
    return ((*s.impl).*Query)();
  };
}

// The same for a question about one seat, the seat checked before the state is read.
template <auto Query>
auto seat_query(const char* call) {
  return [call](const PyState& s, nb::handle p) {
    const Player player = to_player(*s.impl, p);
    const auto reading = s.reading(call);
    return ((*s.impl).*Query)(player);
  };
}

// And for a question about an action, the action checked before the state is read.
template <auto Query>
auto action_query(const char* call) {
  return [call](const PyState& s, nb::handle a) {
    const Action action = to_action(a);
    const auto reading = s.reading(call);
    return ((*s.impl).*Query)(action);
  };
}

}  // namespace

void bind_state(nb::module_& m) {
  nb::class_<PyState>(m, "State", "A position of a game, with its history.")
      .def_prop_ro("game", [](const PyState& s) { return game_of(*s.impl); })
      .def("current_player", query<&AnyState::current_player>("current_player"),
           "A seat, CHANCE (-1) or TERMINAL (-4).")
      .def("is_chance_node", query<&AnyState::is_chance_node>("is_chance_node"))
      .def("is_terminal", query<&AnyState::is_terminal>("is_terminal"))
      .def("legal_actions", query<&AnyState::legal_actions>("legal_actions"),
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
          "is_legal", action_query<&AnyState::is_legal>("is_legal"), "action"_a.none(),
          nb::sig("def is_legal(self, action: int) -> bool"),
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
          "Takes back the last action, chance outcomes included; IndexError if there is none, "
          "the state then unchanged. Its cost does not grow with the game: it restarts from a "
          "snapshot taken every few actions (shared with the state's clones) and replays the "
          "actions since, so the state equals the one its shorter history rebuilds.")
      .def("returns", query<&AnyState::returns>("returns"))
      .def("scores", query<&AnyState::scores>("scores"))
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
      .def("history", query<&AnyState::history>("history"))
      .def("hash", query<&AnyState::hash>("hash"), "64-bit; equal states hash equal.")
      .def("action_to_string", action_query<&AnyState::action_to_string>("action_to_string"),
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
      .def("observation_string", seat_query<&AnyState::observation_string>("observation_string"),
           "player"_a.none(), nb::sig("def observation_string(self, player: int) -> str"))
      .def("information_state_string",
           seat_query<&AnyState::information_state_string>("information_state_string"),
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
}

}  // namespace rivals::bindings
