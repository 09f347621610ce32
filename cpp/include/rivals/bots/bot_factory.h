// The bots available for a game type, built by name. A bot is a std::variant rather than a
// virtual class, so a match between C++ bots dispatches with a jump table, not a virtual call,
// on every move.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "rivals/bots/alphabeta.h"
#include "rivals/bots/bot_names.h"
#include "rivals/bots/ismcts.h"
#include "rivals/bots/mcts.h"
#include "rivals/bots/random_bot.h"
#include "rivals/bots/solver_bot.h"
#include "rivals/core/any_game.h"
#include "rivals/core/game_concept.h"

namespace rivals {

template <Game G>
using BotOf = std::variant<RandomBot<G>, MctsBot<G>, IsmctsBot<G>, AlphaBetaBot<G>, SolverBot<G>>;

namespace detail {
template <Game G, class Bot>
bool try_make(const G& game, const BotSpec& spec, std::uint64_t seed, std::optional<BotOf<G>>& out,
              Json* resolved) {
  if (spec.name != Bot::kName) return false;
  Json params = resolve_params(Bot::kName, Bot::param_specs(), spec.params);
  out.emplace(std::in_place_type<Bot>, game, params, seed);
  if (resolved != nullptr) *resolved = std::move(params);
  return true;
}
}  // namespace detail

// `resolved`, when given, receives every parameter of the bot with the defaults filled in.
template <Game G>
BotOf<G> make_bot_of(const G& game, const BotSpec& spec, std::uint64_t seed,
                     Json* resolved = nullptr) {
  std::optional<BotOf<G>> bot;
  if (detail::try_make<G, RandomBot<G>>(game, spec, seed, bot, resolved) ||
      detail::try_make<G, MctsBot<G>>(game, spec, seed, bot, resolved) ||
      detail::try_make<G, IsmctsBot<G>>(game, spec, seed, bot, resolved) ||
      detail::try_make<G, AlphaBetaBot<G>>(game, spec, seed, bot, resolved) ||
      detail::try_make<G, SolverBot<G>>(game, spec, seed, bot, resolved))
    return std::move(*bot);
  std::string names;
  for (const auto& name : bot_names()) names += (names.empty() ? "" : ", ") + name;
  throw InvalidArgument("unknown bot '" + spec.name + "'; available: " + names);
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
  return std::visit(
      [](const auto& b) {
        if constexpr (requires { b.stats(); })
          return b.stats();
        else
          return Json::object();
      },
      bot);
}

}  // namespace rivals
