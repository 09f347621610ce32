// A game's judgement of positions it does not search to the end, as the searches use it: by
// name when the game offers several, and as a table of returns for the tree searches, which back
// up one value per player.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/evaluation.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/network.h"
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
// The evaluation every evaluated game has besides its own: a network (core/network.h) over the
// game's compact observation, named by the bots' `network` parameter.
inline constexpr const char* kNetworkEvaluation = "net";

// The game's own evaluations.
template <EvaluatedGame G>
std::vector<std::string> own_evaluation_names_of() {
  if constexpr (NamedEvaluations<G>)
    return G::evaluations();
  else
    return {kDefaultEvaluation};
}

// The game's k-th own evaluation of `state` from `player`'s side.
template <EvaluatedGame G>
double own_evaluation(const G& game, const typename G::State& state, Player player, int k) {
  if constexpr (NamedEvaluations<G>)
    return game.evaluate(state, player, k);
  else
    return game.evaluate(state, player);
}

// The game's own evaluations, then the network's.
template <EvaluatedGame G>
std::vector<std::string> evaluation_names_of() {
  std::vector<std::string> names = own_evaluation_names_of<G>();
  names.emplace_back(kNetworkEvaluation);
  return names;
}

// The `evaluation` parameter of the bots that use one, and the `network` it may name.
template <EvaluatedGame G>
std::vector<ParamSpec> evaluation_param_specs(const std::string& meaning) {
  std::vector<Json> choices;
  for (const std::string& name : evaluation_names_of<G>()) choices.emplace_back(name);
  Json first = choices.front();
  return {ParamSpec::choice("evaluation", std::move(first), std::move(choices), meaning),
          ParamSpec::data("network", Json(nullptr), ParamSpec::kString | ParamSpec::kObject,
                          "a shipped network's name, a path to a network file or the document", 0)
              .or_null("the game's shipped network")};
}

// A bot's `network` names a network for nothing unless its evaluation is "net" or something else
// reads the network (`reads_network`: mcts's policy prior); that is refused, so that no setting
// is silently ignored.
template <EvaluatedGame G>
void check_network_use(const std::string& bot, const Json& params, bool reads_network) {
  const Json* network = params.find("network");
  const std::string& evaluation = params.find("evaluation")->as_string();
  if (network == nullptr || network->is_null() || reads_network || evaluation == kNetworkEvaluation)
    return;
  throw InvalidArgument(bot + ": network names a network, and the evaluation is " +
                        quoted(evaluation) + "; give evaluation=" + kNetworkEvaluation +
                        " to use it");
}

// The settings of an evaluation: its name, and the network when it is "net".
inline Json evaluation_settings(const Json& params) {
  const Json& evaluation = *params.find("evaluation");
  const Json* network = params.find("network");
  const bool net = evaluation.as_string() == kNetworkEvaluation && network != nullptr;
  return Json::object({{"evaluation", evaluation}, {"network", net ? *network : Json()}});
}

// One of the game's evaluations, chosen by the `evaluation` of `params` (checked by
// evaluation_param_specs) and, for the network, its `network`.
template <EvaluatedGame G>
class Evaluator {
  using State = typename G::State;

 public:
  Evaluator(const G& game, const Json& params) : game_(&game) {
    const std::string& name = params.find("evaluation")->as_string();
    const Json* network = params.find("network");
    const auto names = evaluation_names_of<G>();
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) index_ = static_cast<int>(k);
    if (index_ < 0)
      throw InvalidArgument(std::string(G::kName) + ": no evaluation " + quoted(name));
    if (name == kNetworkEvaluation)
      network_ = load_network({G::kName, game.compact_board_shape(), game.compact_features_size(),
                               own_evaluation_names_of<G>(), game.num_distinct_actions()},
                              network != nullptr ? *network : Json());
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
    if (network_) return kEvaluationScale * network_value(state, player);
    return own_evaluation(*game_, state, player, index_);
  }

  // Whether the evaluation is a network with a policy head (Network::has_policy).
  bool has_policy() const { return network_ && network_->has_policy(); }
  // The network's policy over `count` legal decisions of `player` in `state`, into `priors`.
  // Needs has_policy().
  void policy(const State& state, Player player, const Action* legal, int count,
              float* priors) const {
    const Inputs& in = network_inputs(state, player);
    network_->policy(in.board.data(), in.floats.data(), legal, count, priors);
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
  struct Inputs {
    std::vector<std::uint8_t> board;
    std::vector<float> floats;
  };

  // What the network reads of `state` from `player`'s view: the compact observation, then the
  // game's evaluations it names. Per thread, so that the evaluators of parallel trees share
  // nothing.
  const Inputs& network_inputs(const State& state, Player player) const {
    thread_local Inputs in;
    const auto& evaluations = network_->evaluations();
    in.board.resize(static_cast<std::size_t>(network_->board_size()));
    in.floats.resize(static_cast<std::size_t>(network_->features()) + evaluations.size());
    game_->compact_observation(state, player, in.board.data(), in.floats.data());
    float* own = in.floats.data() + network_->features();
    for (const int k : evaluations)
      *own++ = static_cast<float>(own_evaluation(*game_, state, player, k));
    return in;
  }

  float network_value(const State& state, Player player) const {
    const Inputs& in = network_inputs(state, player);
    return network_->value(in.board.data(), in.floats.data());
  }

  const G* game_;
  std::shared_ptr<const Network> network_;
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
