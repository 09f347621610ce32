// rivals._core.GameInfo: what a game is (core/game_info.h), read-only.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/core/game_info.h"

namespace nb = nanobind;

namespace rivals::bindings {
namespace {

using Names = nb::typed<nb::tuple, nb::str, nb::ellipsis>;
using Seats = nb::typed<nb::tuple, int, nb::ellipsis>;
using Teams = nb::typed<nb::tuple, Seats, nb::ellipsis>;

template <class T>
nb::tuple to_tuple(const std::vector<T>& values) {
  nb::list items;
  for (const T& value : values) items.append(value);
  return nb::tuple(items);
}

Teams teams_to_python(const TeamSplit& split) {
  nb::list teams;
  for (const auto& seats : split.teams) teams.append(to_tuple(seats));
  return Teams(nb::tuple(teams));
}

std::string quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "'" : ", '") + name + "'";
  return "(" + out + (names.size() == 1 ? ",)" : ")");
}

}  // namespace

void bind_game_info(nb::module_& m) {
  nb::class_<GameInfo>(
      m, "GameInfo",
      "What a game is, declared with its rules: game.info. Read-only; the same for "
      "every game of one name.")
      .def_prop_ro(
          "name", [](const GameInfo& i) { return i.name; }, "The short name: rivals.make(name).")
      .def_prop_ro(
          "long_name", [](const GameInfo& i) { return i.long_name; },
          "The name as a title: 'Rosenkönig (The Rose King)'.")
      .def_prop_ro(
          "description", [](const GameInfo& i) { return i.description; }, "One line.")
      .def_prop_ro(
          "player_counts", [](const GameInfo& i) { return Seats(to_tuple(i.player_counts)); },
          "Every player count the game accepts, ascending.")
      .def_prop_ro("min_players", [](const GameInfo& i) { return i.player_counts.front(); })
      .def_prop_ro("max_players", [](const GameInfo& i) { return i.player_counts.back(); })
      .def_prop_ro(
          "default_players", [](const GameInfo& i) { return i.default_players; },
          "The player count of rivals.make(name) without `players`.")
      .def_prop_ro(
          "information", [](const GameInfo& i) { return std::string(to_string(i.information)); },
          nb::sig("def information(self) -> typing.Literal['perfect', 'imperfect']"),
          "'perfect': every seat sees the whole state (chance to come aside); 'imperfect'.")
      .def_prop_ro(
          "utility", [](const GameInfo& i) { return std::string(to_string(i.utility)); },
          nb::sig("def utility(self) -> typing.Literal['zero_sum', 'constant_sum', "
                  "'general_sum']"),
          "What the returns of every finished game add up to.")
      .def_prop_ro(
          "utility_sum",
          [](const GameInfo& i) -> nb::object {
            if (i.utility == Utility::kGeneralSum) return nb::none();
            return nb::float_(i.utility == Utility::kZeroSum ? 0.0 : i.utility_sum);
          },
          nb::sig("def utility_sum(self) -> float | None"),
          "The sum of the returns at every end, or None for a general-sum game.")
      .def_prop_ro(
          "observation_bounds",
          [](const GameInfo& i) {
            return nb::typed<nb::tuple, float, float>(
                nb::make_tuple(i.observation_low, i.observation_high));
          },
          "(low, high) of every entry of observation_tensor (-inf, inf when unbounded).")
      .def_prop_ro(
          "observations", [](const GameInfo& i) { return Names(to_tuple(i.observations)); },
          "The observation encodings the game provides, by State method name.")
      .def_prop_ro(
          "teams",
          [](const GameInfo& i) {
            nb::typed<nb::dict, int, Teams> out;
            for (const auto& split : i.teams) out[nb::int_(split.players)] = teams_to_python(split);
            return out;
          },
          "The seats of each team, by player count, for the counts that play in teams; a player "
          "count not listed is each seat for itself.")
      .def_prop_ro(
          "evaluation", [](const GameInfo& i) { return i.evaluation; },
          "Whether the game judges positions for search (the alphabeta bot plays it).")
      .def_prop_ro(
          "evaluations", [](const GameInfo& i) { return Names(to_tuple(i.evaluations)); },
          "The names of its evaluations, the default first (the `evaluation` parameter of "
          "alphabeta and of mcts/ismcts with rollout_depth); empty without an evaluation.")
      .def_prop_ro(
          "presets",
          [](const GameInfo& i) {
            nb::typed<nb::dict, nb::str, nb::typed<nb::dict, nb::str, nb::any>> out;
            for (const auto& preset : i.presets)
              out[nb::str(preset.name.c_str())] =
                  to_python(Json::object({{"bot", preset.bot},
                                          {"params", preset.params},
                                          {"description", preset.description}}));
            return out;
          },
          "Named bot settings, by name: {'bot': name, 'params': {...}, 'description': text}; "
          "rivals.bots.make(name, game) plays the bot with those parameters, given ones "
          "overriding them. 'best' is the game's strongest at time_s 0.1.")
      .def_prop_ro(
          "resampling", [](const GameInfo& i) { return i.resampling; },
          "Whether resample_from_infostate draws what a seat cannot see anew (a game with "
          "imperfect information); otherwise it returns the state itself.")
      .def_prop_ro(
          "bots", [](const GameInfo& i) { return Names(to_tuple(i.bots)); },
          "The bots that play the game, sorted: rivals.bots.make(name, game).")
      .def_prop_ro(
          "solvers", [](const GameInfo& i) { return Names(to_tuple(i.solvers)); },
          "The exact solvers among its bots (bot.analyse(state) gives a state's value).")
      .def_prop_ro(
          "fair_bots", [](const GameInfo& i) { return Names(to_tuple(i.fair_bots)); },
          "The bots that decide from what the mover's seat may see, never from another seat's "
          "hidden cards: those that may play against a person or a learner (every bot where "
          "nothing is hidden).")
      .def(
          "__eq__",
          [](const GameInfo& info, nb::handle other) -> nb::object {
            if (!nb::isinstance<GameInfo>(other)) return nb::borrow(Py_NotImplemented);
            return nb::bool_(info == nb::cast<const GameInfo&>(other));
          },
          nb::arg("other").none(), nb::sig("def __eq__(self, other: object, /) -> bool"))
      // Equal infos are of one name, so the name's hash is theirs.
      .def("__hash__", [](const GameInfo& i) { return nb::hash(nb::str(i.name.c_str())); })
      .def("__repr__", [](const GameInfo& i) {
        std::string counts;
        for (const int count : i.player_counts)
          counts += (counts.empty() ? "" : ", ") + std::to_string(count);
        if (i.player_counts.size() == 1) counts += ",";
        return "GameInfo(name='" + i.name + "', long_name='" + i.long_name + "', player_counts=(" +
               counts + "), information='" + to_string(i.information) + "', utility='" +
               to_string(i.utility) + "', bots=" + quoted(i.bots) + ")";
      });
}

}  // namespace rivals::bindings
