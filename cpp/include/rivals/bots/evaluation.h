// A game's judgement of positions it does not search to the end, as the searches use it: by
// name when the game offers several, and as a table of returns for the tree searches, which back
// up one value per player.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/params.h"

namespace rivals {

// A game that can judge a position it does not search to the end: evaluate(state, p) in (-1, 1)
// from p's side, and which players share a side (teams).
template <class G>
concept EvaluatedGame = Game<G> && requires(const G& g, const typename G::State& s, Player p) {
  { g.evaluate(s, p) } -> std::convertible_to<double>;
  { g.same_side(p, p) } -> std::same_as<bool>;
};

// A game offering several evaluations declares their names, the one evaluate(s, p) computes
// first, and evaluate(s, p, k) for the k-th.
template <class G>
concept NamedEvaluations =
    EvaluatedGame<G> && requires(const G& g, const typename G::State& s, Player p, int k) {
      { G::evaluations() } -> std::convertible_to<std::vector<std::string>>;
      { g.evaluate(s, p, k) } -> std::convertible_to<double>;
    };

inline constexpr const char* kDefaultEvaluation = "default";

template <EvaluatedGame G>
std::vector<std::string> evaluation_names_of() {
  if constexpr (NamedEvaluations<G>)
    return G::evaluations();
  else
    return {kDefaultEvaluation};
}

// The `evaluation` parameter of the bots that use one.
template <EvaluatedGame G>
ParamSpec evaluation_param_spec(const std::string& meaning) {
  std::vector<Json> choices;
  for (const std::string& name : evaluation_names_of<G>()) choices.emplace_back(name);
  Json first = choices.front();
  return ParamSpec::choice("evaluation", std::move(first), std::move(choices), meaning);
}

// One of the game's evaluations, chosen by name (checked by evaluation_param_spec).
template <EvaluatedGame G>
class Evaluator {
  using State = typename G::State;

 public:
  Evaluator(const G& game, const std::string& name) : game_(&game) {
    const auto names = evaluation_names_of<G>();
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) index_ = static_cast<int>(k);
    if (index_ < 0)
      throw InvalidArgument(std::string(G::kName) + ": no evaluation " + quoted(name));
    const int players = game.num_players();
    for (Player p = 0; p < players; ++p) {
      side_of_[p] = p;
      for (Player q = 0; q < p; ++q)
        if (game.same_side(q, p)) {
          side_of_[p] = side_of_[q];
          break;
        }
    }
    // With two sides of equal size in a zero-sum game one side's value is the other's negated,
    // which halves the evaluations of a two-player game.
    int sides = 0, first_side = 0;
    for (Player p = 0; p < players; ++p) {
      sides += side_of_[p] == p;
      first_side += side_of_[p] == 0;
    }
    opposed_ = G::info().utility == Utility::kZeroSum && sides == 2 && 2 * first_side == players;
    players_ = players;
  }

  double value(const State& state, Player player) const {
    if constexpr (NamedEvaluations<G>)
      return game_->evaluate(state, player, index_);
    else
      return game_->evaluate(state, player);
  }

  // Whether the game is two opposed sides of a zero-sum game, where one side's value is the
  // other's negated.
  bool opposed() const { return opposed_; }

  // One value per player: each side evaluated once (from its first seat), two opposed sides once.
  void returns(const State& state, double* out) const {
    if (opposed_) {
      const double v = value(state, 0);
      for (Player p = 0; p < players_; ++p) out[p] = side_of_[p] == 0 ? v : -v;
      return;
    }
    for (Player p = 0; p < players_; ++p)
      out[p] = side_of_[p] == p ? value(state, p) : out[side_of_[p]];
  }

 private:
  const G* game_;
  int index_ = -1;
  int players_ = 0;
  bool opposed_ = false;
  Player side_of_[kMaxPlayers] = {};
};

// Plays up to `decisions` uniformly random decisions (chance outcomes sampled between them and
// not counted) and values where it stops: the returns at the end, the evaluation otherwise.
template <EvaluatedGame G>
void cut_off_rollout(const Evaluator<G>& evaluator, typename G::State& state, Rng& rng,
                     std::int64_t decisions, double* returns) {
  using State = typename G::State;
  Action buffer[State::kMaxLegalActions];
  while (!state.is_terminal()) {
    if (state.is_chance_node()) {
      state.apply(state.sample_chance(rng));
      continue;
    }
    if (decisions-- == 0) {
      evaluator.returns(state, returns);
      return;
    }
    const int count = state.legal_actions(buffer);
    state.apply(buffer[rng.below(static_cast<std::uint32_t>(count))]);
  }
  state.returns(returns);
}

}  // namespace rivals
