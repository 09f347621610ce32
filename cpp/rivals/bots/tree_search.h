// What the Monte Carlo tree searches (mcts.h, ismcts.h) share: their settings, and root
// parallelisation. With root parallelisation each thread grows its own tree from the same root
// with its own random stream, and the move is chosen by the visit counts summed over the trees.
// Trees share nothing while they grow, so there are no locks and the result for a given seed and
// thread count is reproducible.
//
// Both value a new leaf by a rollout: uniformly random to the end, or, in a game with an
// evaluation, `rollout_depth` random decisions and then the game's evaluation (the cut-off).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rivals/bots/alphabeta.h"
#include "rivals/bots/evaluation.h"
#include "rivals/core/error.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/core/playout.h"
#include "rivals/core/threads.h"
#include "rivals/core/types.h"

namespace rivals {

struct TreeSearchSettings {
  std::int64_t iterations;
  double time_s;
  BudgetClock clock;
  double exploration;
  std::int64_t max_nodes;
  int threads;

  // Node indices and visit counts are 32-bit, which bounds both the tree and the simulations.
  static constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();

  static std::vector<ParamSpec> specs(const std::string& iteration_word, double exploration) {
    return {
        ParamSpec::integer("iterations", Json(1000), 1, kMaxCount,
                           iteration_word + " per move and thread"),
        ParamSpec::number("time_s", Json(0.0), 0, kMaxSeconds,
                          "seconds per move; when positive it replaces iterations"),
        budget_clock_spec(),
        ParamSpec::number("exploration", Json(exploration), 0, 1e6, "the UCB exploration constant"),
        ParamSpec::integer("max_nodes", Json(4000000), 1, kMaxCount,
                           "tree size limit per move and thread"),
        ParamSpec::integer("threads", Json(1), 1, kMaxThreads, "trees grown in parallel"),
    };
  }

  // Simulations per move and thread: `iterations`, or with a time budget as many as the counters
  // hold.
  std::int64_t budget_steps() const { return time_s > 0 ? kMaxCount : iterations; }

  // `params` are resolved (and so checked) against `specs`.
  static TreeSearchSettings parse(const Json& params) {
    return {
        params.find("iterations")->as_int(), params.find("time_s")->as_number(),
        parse_budget_clock(params),          params.find("exploration")->as_number(),
        params.find("max_nodes")->as_int(),  static_cast<int>(params.find("threads")->as_int())};
  }
};

// The parameters a tree search has only in a game with an evaluation (Rollout below).
inline std::vector<std::string> cut_off_param_names() {
  return {"rollout_depth", "evaluation", "network"};
}

// Move-average sampling (MAST, Finnsson and Björnsson 2008): over one search, the mean return
// each seat got in the simulations where it played each action (in the tree or in the rollout),
// whatever the position; a rollout then plays, with probability 1 - epsilon, the legal action
// with the best mean for the seat to move (an action it never tried first), and otherwise one at
// random. Random rollouts spend good and bad moves alike; this one leans on what the search has
// already learned about the moves, which keeps the rollouts nearer to play worth the name.
class MoveAverages {
 public:
  static constexpr const char* kParam = "mast_epsilon";
  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(ParamSpec::number(kParam, Json(nullptr), 0, 1,
                                      "share of rollout decisions played at random; the others "
                                      "play the legal action with the best mean return over "
                                      "the search so far (move-average sampling)")
                        .or_null("every rollout decision at random"));
  }
  // The epsilon of `params`, or a negative number when MAST is off.
  static double epsilon_of(const Json& params) {
    const Json& epsilon = *params.find(kParam);
    return epsilon.is_null() ? -1 : epsilon.as_number();
  }

  // A new search: no action tried yet.
  void reset(int players, int actions) {
    actions_ = actions;
    sum_.assign(static_cast<std::size_t>(players * actions), 0.0);
    count_.assign(static_cast<std::size_t>(players * actions), 0);
    played_.clear();
  }
  void record(Player player, Action action) { played_.push_back(slot(player, action)); }
  // Credits every action recorded since the last update with its seat's return.
  void update(const double* returns) {
    for (const std::int32_t at : played_) {
      sum_[static_cast<std::size_t>(at)] += returns[at / actions_];
      ++count_[static_cast<std::size_t>(at)];
    }
    played_.clear();
  }

  Action choose(const Action* legal, int count, Player player, double epsilon, Rng& rng) const {
    if (static_cast<double>(rng.next() >> 11) * 0x1.0p-53 < epsilon)
      return legal[rng.below(static_cast<std::uint32_t>(count))];
    int best = 0, ties = 0;
    double best_mean = -1e300;
    for (int k = 0; k < count; ++k) {
      const auto at = static_cast<std::size_t>(slot(player, legal[k]));
      const double mean = count_[at] == 0 ? 1e300 : sum_[at] / count_[at];
      if (mean > best_mean) {
        best = k;
        best_mean = mean;
        ties = 1;
      } else if (mean == best_mean && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
        best = k;
      }
    }
    return legal[best];
  }

 private:
  std::int32_t slot(Player player, Action action) const { return player * actions_ + action; }

  int actions_ = 0;
  std::vector<double> sum_;
  std::vector<std::int32_t> count_;
  std::vector<std::int32_t> played_;  // slots of this simulation's decisions
};

// Plays `state` on with MAST's choices for up to `decisions` decisions (negative: to the end),
// recording each; returns whether it stopped before the end.
template <GameState S>
bool play_by_move_averages(S& state, Rng& rng, MoveAverages& averages, double epsilon,
                           std::int64_t decisions) {
  Action legal[S::kMaxLegalActions];
  while (!state.is_terminal()) {
    if (state.is_chance_node()) {
      state.apply(state.sample_chance(rng));
      continue;
    }
    if (decisions-- == 0) return true;
    const int count = state.legal_actions(legal);
    const Player mover = state.current_player();
    const Action action = averages.choose(legal, count, mover, epsilon, rng);
    averages.record(mover, action);
    state.apply(action);
  }
  return false;
}

// How a tree search values a new leaf, for a game without an evaluation: a random game to the end.
template <Game G>
class Rollout {
 public:
  static void add_specs(std::vector<ParamSpec>& specs) { MoveAverages::add_specs(specs); }
  Rollout(const G& /*game*/, const Json& params, const char* /*bot*/,
          bool /*evaluation_used*/ = false)
      : epsilon_(MoveAverages::epsilon_of(params)) {}

  // Whether the rollouts play by move averages, which the search then keeps (`averages` below).
  bool by_move_averages() const { return epsilon_ >= 0; }

  void operator()(typename G::State& state, Rng& rng, double* returns,
                  MoveAverages& averages) const {
    if (by_move_averages())
      play_by_move_averages(state, rng, averages, epsilon_, -1);
    else
      play_randomly(state, rng);
    state.returns(returns);
  }

 private:
  double epsilon_;
};

// With an evaluation the rollout may stop after `rollout_depth` decisions and take the game's
// evaluation of where it stopped as the returns; null (the default) plays to the end as above.
template <EvaluatedGame G>
class Rollout<G> {
 public:
  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(ParamSpec::integer("rollout_depth", Json(nullptr), 0,
                                       TreeSearchSettings::kMaxCount,
                                       "random decisions played from a new leaf before the "
                                       "game's evaluation values it; 0 values the leaf itself")
                        .or_null("random rollouts to the end"));
    for (ParamSpec& spec :
         evaluation_param_specs<G>("the evaluation that values a cut-off rollout (rollout_depth)"))
      specs.push_back(std::move(spec));
    MoveAverages::add_specs(specs);
  }

  // `evaluation_used` says whether the bot values positions with the evaluation besides (mcts's
  // minimax_weight), which makes naming one meaningful without a cut-off.
  Rollout(const G& game, const Json& params, const char* bot, bool evaluation_used = false)
      : evaluator_(game, params), epsilon_(MoveAverages::epsilon_of(params)) {
    const Json& depth = *params.find("rollout_depth");
    depth_ = depth.is_null() ? -1 : depth.as_int();
    const std::string& evaluation = params.find("evaluation")->as_string();
    if (depth_ < 0 && !evaluation_used && evaluation != evaluation_names_of<G>().front())
      throw InvalidArgument(std::string(bot) + ": evaluation '" + evaluation +
                            "' values cut-off rollouts, and rollout_depth is null (rollouts to "
                            "the end); give rollout_depth too");
  }

  bool by_move_averages() const { return epsilon_ >= 0; }

  void operator()(typename G::State& state, Rng& rng, double* returns,
                  MoveAverages& averages) const {
    if (by_move_averages()) {
      if (play_by_move_averages(state, rng, averages, epsilon_, depth_))
        evaluator_.returns(state, returns);
      else
        state.returns(returns);
    } else if (depth_ < 0) {
      play_randomly(state, rng);
      state.returns(returns);
    } else {
      cut_off_rollout(evaluator_, state, rng, depth_, returns);
    }
  }

 private:
  Evaluator<G> evaluator_;
  std::int64_t depth_ = -1;
  double epsilon_;
};

// What a search feature is in a game that cannot have it (no evaluation, no repeating positions):
// no parameters, and never on.
struct Unavailable {
  static void add_specs(std::vector<ParamSpec>& /*specs*/) {}
  static std::vector<std::string> param_names() { return {}; }
  bool on() const { return false; }
};

// What a search feature is when one weight parameter turns it on: the parameter
// (Feature::kParam, from 0, its default and off, to Feature::kMost; Feature::kDescription) and its
// value.
template <class Feature>
class Weighted {
 public:
  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(
        ParamSpec::number(Feature::kParam, Json(0.0), 0, Feature::kMost, Feature::kDescription));
  }
  static std::vector<std::string> param_names() { return {Feature::kParam}; }

  bool on() const { return weight_ > 0; }
  double weight() const { return weight_; }

 protected:
  explicit Weighted(const Json& params) : weight_(params.find(Feature::kParam)->as_number()) {}

 private:
  double weight_;
};

// The game's evaluation as a prior on the moves inside the tree (progressive bias, Chaslot,
// Winands, van den Herik, Uiterwijk and Bouzy 2008): a move is first tried in the order of its
// evaluation, best first, and its selection score gains `prior_weight * h / (visits + 1)`, where h
// is the evaluation for the mover of the position the move reaches. The bonus fades as the move's
// own simulations accumulate, so the evaluation steers the first visits and the returns the rest.
// Without an evaluation there is no prior, and no such parameter.
template <Game G>
class Prior : public Unavailable {
 public:
  Prior(const G& /*game*/, const Json& /*params*/) {}
  double weight() const { return 0; }
  double value(const typename G::State& /*after*/, Player /*mover*/) const { return 0; }
};

template <EvaluatedGame G>
class Prior<G> : public Weighted<Prior<G>> {
 public:
  static constexpr const char* kParam = "prior_weight";
  static constexpr double kMost = 1e6;
  static constexpr const char* kDescription =
      "weight of the evaluation as a prior: new moves are tried best first and a move's score "
      "gains prior_weight * its evaluation / (visits + 1); 0 is off";

  Prior(const G& game, const Json& params) : Weighted<Prior<G>>(params), evaluator_(game, params) {}

  // The mover's value of the position its move reached: its return once the game is over.
  double value(const typename G::State& after, Player mover) const {
    if (!after.is_terminal()) return evaluator_.value(after, mover);
    double returns[kMaxPlayers];
    after.returns(returns);
    return returns[mover];
  }

 private:
  Evaluator<G> evaluator_;
};

// With a network that has a policy head (`network`, whatever `evaluation` values the positions),
// the network's probability of each move as its prior in AlphaZero's selection rule (PUCT; Silver
// et al. 2017): a child scores its mean return plus policy_weight * prior * sqrt(parent's visits) /
// (1 + its visits), where a child not yet visited counts as a draw (0). The search then tries moves
// in the policy's order and may leave the moves it rates unlikely untried, where plain UCT tries
// every move once. 0 (the default) is off. Without an evaluation there is no network, and no such
// parameter.
template <Game G>
class PolicyPrior : public Unavailable {
 public:
  PolicyPrior(const G& /*game*/, const Json& /*params*/, const char* /*bot*/) {}
  double weight() const { return 0; }
  void priors(const typename G::State& /*state*/, const Action* /*legal*/, int /*count*/,
              float* /*out*/) const {}
};

template <EvaluatedGame G>
class PolicyPrior<G> : public Weighted<PolicyPrior<G>> {
 public:
  static constexpr const char* kParam = "policy_weight";
  static constexpr double kMost = 1e6;
  static constexpr const char* kDescription =
      "weight of the network's policy as a prior in the PUCT rule (needs a network with a policy "
      "head: network); 0 is off";

  PolicyPrior(const G& game, const Json& params, const char* bot)
      : Weighted<PolicyPrior<G>>(params) {
    if (!this->on()) return;
    const Json* prior = params.find("prior_weight");
    if (prior != nullptr && prior->as_number() > 0)
      throw InvalidArgument(std::string(bot) +
                            ": prior_weight and policy_weight are two priors; give one");
    const Json* network = params.find("network");
    evaluator_.emplace(game, Json::object({{"evaluation", kNetworkEvaluation},
                                           {"network", network != nullptr ? *network : Json()}}));
    if (!evaluator_->has_policy())
      throw InvalidArgument(std::string(bot) +
                            ": policy_weight needs a network with a policy head (network names "
                            "it; null: the game's shipped one)");
  }

  // The policy's probabilities of the `count` legal decisions of the player to move.
  void priors(const typename G::State& state, const Action* legal, int count, float* out) const {
    evaluator_->policy(state, state.current_player(), legal, count, out);
  }

 private:
  std::optional<Evaluator<G>> evaluator_;  // the network's, whatever values the positions
};

// A prior in a tree node: values lie in [-1, 1], and 16 bits keep a node within 32 bytes.
inline std::int16_t pack_prior(double value) {
  return static_cast<std::int16_t>(std::lround(std::clamp(value, -1.0, 1.0) * 32767.0));
}
inline double unpack_prior(std::int16_t packed) { return packed / 32767.0; }

// Before a search from random rollouts, an optional exact look-ahead for a forced win: random
// play finds a win that needs a precise sequence of moves rarely, and it then tends to drift
// between equal-looking moves (Sekigahara's endings, docs/bots.md). Without an evaluation there is
// no `alphabeta` to ask, and the check is absent.
template <Game G>
class WinProof {
 public:
  static constexpr const char* kParam = "proof_depth";
  static void add_specs(std::vector<ParamSpec>& /*specs*/) {}
  WinProof(const G& /*game*/, const Json& /*params*/, std::uint64_t /*seed*/) {}
  void reseed(std::uint64_t /*seed*/) {}
  bool win(const typename G::State& /*root*/, Action& /*move*/) { return false; }
};

// With an evaluation: `proof_depth` decisions of alpha-beta (expectimax at chance nodes, the
// game's evaluation at the horizon) before each search; when its value is a proven win (every
// line and every chance outcome within the horizon ends in a win) that move is played and the
// search is skipped. Null (the default) never looks, and the search is as before.
template <EvaluatedGame G>
class WinProof<G> {
 public:
  static constexpr const char* kParam = "proof_depth";
  static constexpr std::int64_t kTableMb = 16;

  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(ParamSpec::integer(kParam, Json(nullptr), 1, AlphaBetaBot<G>::kMaxDepth,
                                       "decisions an alpha-beta search looks ahead for a forced "
                                       "win before each search; a forced win is played at once")
                        .or_null("no look-ahead"));
  }

  WinProof(const G& game, const Json& params, std::uint64_t seed) {
    const Json& depth = *params.find(kParam);
    if (depth.is_null()) return;
    Json settings = evaluation_settings(params);
    settings.set("depth", depth.as_int());
    settings.set("time_s", 0.0);
    settings.set("clock", *params.find("clock"));
    settings.set("table_mb", kTableMb);
    search_.emplace(game, settings, seed);
  }

  void reseed(std::uint64_t seed) {
    if (search_) search_->reseed(seed);
  }

  bool win(const typename G::State& root, Action& move) {
    if (!search_) return false;
    double value = 0;
    move = search_->step(root, value);
    return value >= kProvenWin;
  }

 private:
  // A proven win is +1; an average over chance outcomes may round a little below it, while the
  // evaluation stays well inside (-1, 1).
  static constexpr double kProvenWin = 1.0 - 1e-6;
  std::optional<AlphaBetaBot<G>> search_;
};

// In a game with an exact solver for its ends (EndgameSolvingGame), `solve_s` gives the solver that
// many seconds of the bot's clock before each search; a position it solves is played as the solver
// says, without searching, so the bot plays perfectly wherever the game is small enough. The time
// an attempt took (on the bot's clock) comes out of the search's `time_s`, down to a quarter of it,
// so that a bot by the clock thinks no longer for having a solver. Elsewhere there is no such
// parameter.
template <Game G>
class EndgameSolve {
 public:
  static void add_specs(std::vector<ParamSpec>& /*specs*/) {}
  EndgameSolve(const G& /*game*/, const Json& /*params*/) {}
  bool move(const typename G::State& /*root*/, Action& /*move*/, double& /*spent*/) const {
    return false;
  }
};

template <Game G>
  requires EndgameSolvingGame<G>
class EndgameSolve<G> {
 public:
  static constexpr const char* kParam = "solve_s";
  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(ParamSpec::number(kParam, Json(nullptr), 0, kMaxSeconds,
                                      "seconds (of the bot's clock) the game's exact solver "
                                      "may take before each search; a position it solves is "
                                      "played as it says, without searching")
                        .or_null("no solver"));
  }
  EndgameSolve(const G& game, const Json& params)
      : game_(&game), clock_(parse_budget_clock(params)) {
    const Json& seconds = *params.find(kParam);
    seconds_ = seconds.is_null() ? 0 : seconds.as_number();
  }
  // Whether the solver found `move`; `spent` is the time it took, on the bot's clock.
  bool move(const typename G::State& root, Action& move, double& spent) const {
    if (seconds_ <= 0) return false;
    const double start = clock_seconds(clock_);
    const std::optional<Action> solved = game_->solved_action(root, seconds_, clock_);
    spent = clock_seconds(clock_) - start;
    if (!solved) return false;
    move = *solved;
    return true;
  }

 private:
  const G* game_;
  BudgetClock clock_;
  double seconds_ = 0;
};

// Calls grow(tree) for every tree, the first on the calling thread. An error in any tree (an
// interrupt included) stops the others and is rethrown once every helper is joined.
template <class Tree, class Grow>
void grow_trees(std::vector<Tree>& trees, Grow&& grow) {
  if (trees.size() == 1) {
    grow(trees[0]);
    return;
  }
  ThreadGroup helpers(trees.size() - 1);
  for (std::size_t t = 1; t < trees.size(); ++t)
    helpers.start([&grow, &trees, t] { grow(trees[t]); });
  grow(trees[0]);
  helpers.wait();
}

// One root action of a search: the simulations that went through it, over every tree, and their
// mean return for the player to move at the root.
struct RootMove {
  Action action = -1;
  std::int64_t visits = 0;
  double value = 0;
};

// Every legal root action (in the order of `legal`) with what the trees found of it. Each tree
// offers root_children(fn) calling fn(action, visits, value) for each child of its root, `value`
// the sum of the mover's returns over those visits.
template <class Tree>
std::vector<RootMove> root_moves(const std::vector<Tree>& trees, const Action* legal, int count) {
  std::vector<RootMove> moves(static_cast<std::size_t>(count));
  std::vector<double> sums(static_cast<std::size_t>(count), 0.0);
  for (int k = 0; k < count; ++k) moves[static_cast<std::size_t>(k)].action = legal[k];
  for (const Tree& tree : trees) {
    tree.root_children([&](Action action, std::int64_t n, double value) {
      for (int k = 0; k < count; ++k) {
        if (legal[k] != action) continue;
        moves[static_cast<std::size_t>(k)].visits += n;
        sums[static_cast<std::size_t>(k)] += value;
      }
    });
  }
  for (std::size_t k = 0; k < moves.size(); ++k)
    if (moves[k].visits > 0) moves[k].value = sums[k] / static_cast<double>(moves[k].visits);
  return moves;
}

// The root action with the most visits; ties go to the lower action id (`legal` ascends).
inline Action most_visited(const std::vector<RootMove>& moves) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < moves.size(); ++k)
    if (moves[k].visits > moves[best].visits) best = k;
  return moves[best].action;
}

// The mean return of `action` among `moves`: the search's value of that move (NaN for none).
inline double move_value(const std::vector<RootMove>& moves, Action action) {
  for (const RootMove& move : moves)
    if (move.action == action && move.visits > 0) return move.value;
  return std::numeric_limits<double>::quiet_NaN();
}

// The root moves as bot.stats() tells them: [{"action", "visits", "value"}, ...].
inline Json root_moves_json(const std::vector<RootMove>& moves) {
  return Json::array_of(moves, [](const RootMove& move) {
    return Json::object({{"action", Json(static_cast<std::int64_t>(move.action))},
                         {"visits", Json(move.visits)},
                         {"value", Json(move.value)}});
  });
}

// What a tree search's last step found at its root: the simulations the root saw over all trees,
// each legal move's visits and mean return, and the value of the move played. Cleared when a step
// begins, so a move played without a search (the only legal one, a win proven first) reports
// none; the visits and, once the step ends, the moves are readable from another thread
// (bot.stats()).
class RootReport {
 public:
  void clear() {
    visits_ = 0;
    value_ = std::numeric_limits<double>::quiet_NaN();
    moves_.set({});
  }

  // Records the finished search of `trees` (see root_moves) and returns the move to play: the
  // most visited one.
  template <class Tree>
  Action settle(const std::vector<Tree>& trees, const Action* legal, int count,
                std::int64_t visits) {
    visits_ = visits;
    auto moves = root_moves(trees, legal, count);
    const Action best = most_visited(moves);
    value_ = move_value(moves, best);
    moves_.set(std::move(moves));
    return best;
  }

  std::int64_t visits() const { return visits_.load(); }
  // The mover's mean return of the move played; NaN for a move played without a search.
  double value() const { return value_; }
  std::vector<RootMove> moves() const { return moves_.get(); }
  Json moves_json() const { return root_moves_json(moves_.get()); }

 private:
  CopyableAtomic<std::int64_t> visits_ = 0;
  double value_ = std::numeric_limits<double>::quiet_NaN();
  Guarded<std::vector<RootMove>> moves_;
};

}  // namespace rivals
