// What the bound classes (game.cpp, state.cpp, bot.cpp) share: the conversions of their
// arguments and results that are not plain values (convert.h has those).
#pragma once

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

namespace rivals::bindings {

namespace nb = nanobind;

using AnyDict = nb::typed<nb::dict, nb::str, nb::any>;
using Shape = nb::typed<nb::tuple, int, nb::ellipsis>;

inline PyGame game_of(const AnyState& state) {
  return PyGame{std::const_pointer_cast<AnyGame>(state.game().shared_from_this())};
}

// An iterator over `values`, else ValueError saying `what` was expected (a 0-d numpy array has
// __iter__ but refuses to iterate, so only iter() itself can tell).
inline nb::iterator iterate(nb::handle values, const std::string& what) {
  PyObject* items = nb::isinstance<nb::str>(values) ? nullptr : PyObject_GetIter(values.ptr());
  if (items != nullptr) return nb::steal<nb::iterator>(items);
  if (PyErr_Occurred() != nullptr && !PyErr_ExceptionMatches(PyExc_TypeError))
    throw nb::python_error();
  PyErr_Clear();
  throw InvalidArgument(what + ", got " + shown(values));
}

// A history longer than the longest game cannot be legal, so converting stops one action past it
// and replaying reports that action, whatever (endless) iterable was passed.
inline std::vector<Action> to_actions(const AnyGame& game, nb::handle values) {
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
inline Player to_player(const AnyState& state, nb::handle value) {
  const AnyGame& game = state.game();
  const nb::int_ player = to_python_int(value, game.name() + ": player");
  int overflow = 0;
  const long long seat = PyLong_AsLongLongAndOverflow(player.ptr(), &overflow);
  if (overflow != 0 || seat < 0 || seat >= game.num_players())
    throw InvalidArgument(game.name() + ": player " + shown(player) + " is not a seat (0.." +
                          std::to_string(game.num_players() - 1) + ")");
  return static_cast<Player>(seat);
}

template <class T>
inline nb::ndarray<nb::numpy, T> to_numpy(std::vector<T>&& data, std::vector<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(data));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner);
}

inline AnyDict results_to_python(MatchResults&& results) {
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

inline std::vector<BotSpec> to_bot_specs(const AnyGame& game, nb::handle bots) {
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

inline int to_threads(const AnyGame& game, nb::handle value, const char* call) {
  return to_int(value, game.name() + " " + call + ": threads", 1, kMaxThreads);
}

inline int to_num_games(const AnyGame& game, nb::handle value, const char* call) {
  return to_int(value, game.name() + " " + call + ": num_games", 0, kMaxBatchGames);
}

inline nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>> state_getstate(
    const PyState& state) {
  const auto reading = state.reading("pickling");
  const AnyGame& game = state.impl->game();
  return nb::typed<nb::tuple, nb::str, AnyDict, nb::typed<nb::list, int>>(nb::make_tuple(
      game.name(), to_python(game.portable_params()), nb::cast(state.impl->history())));
}

inline PyState state_setstate_value(
    const std::tuple<std::string, AnyDict, nb::typed<nb::list, int>>& t) {
  const auto game = make_game(std::get<0>(t), from_python(std::get<1>(t), "params"));
  return PyState{game->state_from_history(to_actions(*game, std::get<2>(t)))};
}

}  // namespace rivals::bindings
