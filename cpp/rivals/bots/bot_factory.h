// The bots available for a game type, built by name: the engine's bots that every game has
// (random, mcts, ismcts), alphabeta for a game with an evaluation, and the game's own extra bots
// (G::ExtraBots, game_concept.h); and the presets, named settings of those bots that the game
// declares (GameInfo::presets), "best" among them. A bot is a std::variant rather than a virtual
// class, so a match between C++ bots dispatches with a jump table, not a virtual call, on every
// move.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rivals/bots/alphabeta.h"
#include "rivals/bots/ismcts.h"
#include "rivals/bots/mcts.h"
#include "rivals/bots/random_bot.h"
#include "rivals/core/any_game.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/game_info.h"

namespace rivals {

namespace detail {

template <Game G>
struct EngineBots {
  using type = std::variant<RandomBot<G>, MctsBot<G>, IsmctsBot<G>>;
};
template <EvaluatedGame G>
struct EngineBots<G> {
  using type = std::variant<RandomBot<G>, MctsBot<G>, IsmctsBot<G>, AlphaBetaBot<G>>;
};

template <Game G>
struct ExtraBotsOf {
  using type = BotList<>;
};
template <Game G>
  requires requires { typename G::ExtraBots; }
struct ExtraBotsOf<G> {
  using type = typename G::ExtraBots;
};

template <class Variant, class Extra>
struct WithExtra;
template <class... Bots, class... Extra>
struct WithExtra<std::variant<Bots...>, BotList<Extra...>> {
  using type = std::variant<Bots..., Extra...>;
};

}  // namespace detail

template <Game G>
using BotOf = typename detail::WithExtra<typename detail::EngineBots<G>::type,
                                         typename detail::ExtraBotsOf<G>::type>::type;

namespace detail {

// Calls f(std::type_identity<Bot>{}) for each bot of G, in the variant's order.
template <Game G, class F>
void for_each_bot(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::type_identity<std::variant_alternative_t<I, BotOf<G>>>{}), ...);
  }(std::make_index_sequence<std::variant_size_v<BotOf<G>>>{});
}

template <class Bot>
constexpr bool is_solver() {
  return requires { requires Bot::kSolver; };
}

// A bot is taken to read the whole state it is given unless it declares otherwise, so a new bot
// is never seated against a person's hidden cards by mistake.
template <class Bot>
constexpr bool reads_seat_information_only() {
  return requires { requires Bot::kSeatInformationOnly; };
}

// `ask(b)` of the bot b a variant holds where b answers it, else `otherwise`: what only some bots
// tell (a search's stats, a solver's analysis). `ask` names its result type (`-> decltype(...)`)
// so that a bot without the member is a bot that does not answer, not a compile error.
template <class Variant, class Ask, class T>
T ask_or(Variant& bot, Ask&& ask, T otherwise) {
  return std::visit(
      [&](auto& b) -> T {
        if constexpr (std::is_invocable_v<Ask&, decltype(b)>)
          return ask(b);
        else
          return otherwise;
      },
      bot);
}

}  // namespace detail

enum class BotSelection {
  kAll,
  kSolvers,              // the exact solvers
  kSeatInformationOnly,  // the bots that decide from what the mover's seat may see
};

// The names of the bots of G in `selection`, sorted.
template <Game G>
std::vector<std::string> bot_names_of(BotSelection selection = BotSelection::kAll) {
  std::vector<std::string> names;
  detail::for_each_bot<G>([&]<class Bot>(std::type_identity<Bot>) {
    const bool selected = selection == BotSelection::kAll ||
                          (selection == BotSelection::kSolvers && detail::is_solver<Bot>()) ||
                          (selection == BotSelection::kSeatInformationOnly &&
                           detail::reads_seat_information_only<Bot>());
    if (selected) names.emplace_back(Bot::kName);
  });
  std::sort(names.begin(), names.end());
  return names;
}

inline constexpr const char* kBestPreset = "best";
// The thinking time of a preset unless given: a tenth of a second per move.
inline constexpr double kPresetSeconds = 0.1;

// The presets of G: those it declares, and "best" as plain tree search (ismcts where something
// is hidden, so it never peeks; mcts otherwise) when it declares none of that name.
template <Game G>
std::vector<BotPreset> presets_of() {
  const GameInfo info = G::info();
  std::vector<BotPreset> presets = info.presets;
  const bool has_best = std::any_of(presets.begin(), presets.end(),
                                    [](const BotPreset& p) { return p.name == kBestPreset; });
  if (!has_best) {
    const bool hidden = info.information == Information::kImperfect;
    presets.push_back({kBestPreset, hidden ? "ismcts" : "mcts",
                       Json::object({{"time_s", kPresetSeconds}}),
                       "tree search with its defaults: no tuned setting declared yet"});
  }
  return presets;
}

// What a spec plays: a preset's bot with the preset's parameters, the given ones overriding them;
// any other spec as it is.
template <Game G>
BotSpec without_preset(const BotSpec& given) {
  for (const BotPreset& preset : presets_of<G>()) {
    if (preset.name != given.name) continue;
    BotSpec spec{preset.bot, preset.params};
    if (given.params.is_object())
      for (const auto& [key, value] : given.params.as_object()) spec.params.set(key, value);
    return spec;
  }
  return given;
}

// `resolved`, when given, receives every parameter of the bot with the defaults filled in, and
// `bot_name` the name of the bot that plays (a preset's bot).
template <Game G>
BotOf<G> make_bot_of(const G& game, const BotSpec& given, std::uint64_t seed,
                     Json* resolved = nullptr, std::string* bot_name = nullptr) {
  const BotSpec spec = without_preset<G>(given);
  const std::string owner =
      spec.name == given.name ? given.name : given.name + " (" + spec.name + ")";
  std::optional<BotOf<G>> bot;
  detail::for_each_bot<G>([&]<class Bot>(std::type_identity<Bot>) {
    if (bot || spec.name != Bot::kName) return;
    if constexpr (!EvaluatedGame<G> && requires { Bot::evaluation_params(); }) {
      for (const std::string& name : Bot::evaluation_params())
        if (spec.params.is_object() && spec.params.find(name) != nullptr)
          throw InvalidArgument(owner + ": parameter '" + name +
                                "' needs the game's evaluation, and " + G::kName +
                                " provides none (game.info.evaluation)");
    }
    Json params = resolve_params(owner, Bot::param_specs(), spec.params);
    bot.emplace(std::in_place_type<Bot>, game, params, seed);
    if (resolved != nullptr) *resolved = std::move(params);
    if (bot_name != nullptr) *bot_name = Bot::kName;
  });
  if (bot) return std::move(*bot);
  std::string names;
  for (const auto& name : bot_names_of<G>()) names += (names.empty() ? "" : ", ") + name;
  std::string presets;
  for (const auto& preset : presets_of<G>()) presets += (presets.empty() ? "" : ", ") + preset.name;
  names += "; presets: " + presets;
  std::string why;
  if (!EvaluatedGame<G> && spec.name == kAlphaBetaName)
    why = std::string(" (") + kAlphaBetaName + " needs an evaluation, which " +
          std::string(G::kName) + " does not provide)";
  throw InvalidArgument("unknown bot " + quoted(spec.name) + " for " + G::kName + why +
                        "; available: " + names);
}

// Bots that reason about hidden information also take the history, which is what they resample.
template <Game G>
Action bot_step(BotOf<G>& bot, const typename G::State& state, const std::vector<Action>& history) {
  return std::visit(
      [&](auto& b) {
        if constexpr (requires { b.step(state, history); })
          return b.step(state, history);
        else
          return b.step(state);
      },
      bot);
}

template <Game G>
void bot_reseed(BotOf<G>& bot, std::uint64_t seed) {
  std::visit([&](auto& b) { b.reseed(seed); }, bot);
}

// What a bot that works for long reports about its progress (the solver: contexts solved); an
// empty object for the others.
template <Game G>
Json bot_stats(const BotOf<G>& bot) {
  return detail::ask_or(
      bot, [](const auto& b) -> decltype(b.stats()) { return b.stats(); }, Json::object());
}

// The mover's value of the move the bot's last step played, where its search gives one (NaN
// otherwise).
template <Game G>
double bot_last_value(const BotOf<G>& bot) {
  return detail::ask_or(
      bot, [](const auto& b) -> decltype(b.last_value()) { return b.last_value(); },
      std::numeric_limits<double>::quiet_NaN());
}

// The root moves of the bot's last search with their visits (none for a bot without one, or a
// move played without a search).
template <Game G>
std::vector<RootMove> bot_root_moves(const BotOf<G>& bot) {
  return detail::ask_or(
      bot, [](const auto& b) -> decltype(b.searched_moves()) { return b.searched_moves(); },
      std::vector<RootMove>{});
}

// An exact solver's value of `state` (game_concept.h, BotList); nothing for the other bots.
template <Game G>
std::optional<Json> bot_analyse(BotOf<G>& bot, const typename G::State& state) {
  return detail::ask_or(
      bot, [&](auto& b) -> decltype(b.analyse(state)) { return b.analyse(state); },
      std::optional<Json>{});
}

}  // namespace rivals
