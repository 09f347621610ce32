// What the Monte Carlo tree searches (mcts.h, ismcts.h) share: their settings, and root
// parallelisation. With root parallelisation each thread grows its own tree from the same root
// with its own random stream, and the move is chosen by the visit counts summed over the trees.
// Trees share nothing while they grow, so there are no locks and the result for a given seed and
// thread count is reproducible.
//
// Both value a new leaf by a rollout: uniformly random to the end, or, in a game with an
// evaluation, `rollout_depth` random decisions and then the game's evaluation (the cut-off).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

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
inline std::vector<std::string> cut_off_param_names() { return {"rollout_depth", "evaluation"}; }

// How a tree search values a new leaf, for a game without an evaluation: a random game to the end.
template <Game G>
class Rollout {
 public:
  static void add_specs(std::vector<ParamSpec>& /*specs*/) {}
  Rollout(const G& /*game*/, const Json& /*params*/, const char* /*bot*/) {}

  void operator()(typename G::State& state, Rng& rng, double* returns) const {
    play_randomly(state, rng);
    state.returns(returns);
  }
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
    specs.push_back(
        evaluation_param_spec<G>("the evaluation that values a cut-off rollout (rollout_depth)"));
  }

  Rollout(const G& game, const Json& params, const char* bot)
      : evaluator_(game, params.find("evaluation")->as_string()) {
    const Json& depth = *params.find("rollout_depth");
    depth_ = depth.is_null() ? -1 : depth.as_int();
    const std::string& evaluation = params.find("evaluation")->as_string();
    if (depth_ < 0 && evaluation != evaluation_names_of<G>().front())
      throw InvalidArgument(std::string(bot) + ": evaluation '" + evaluation +
                            "' values cut-off rollouts, and rollout_depth is null (rollouts to "
                            "the end); give rollout_depth too");
  }

  void operator()(typename G::State& state, Rng& rng, double* returns) const {
    if (depth_ < 0) {
      play_randomly(state, rng);
      state.returns(returns);
    } else {
      cut_off_rollout(evaluator_, state, rng, depth_, returns);
    }
  }

 private:
  Evaluator<G> evaluator_;
  std::int64_t depth_ = -1;
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

// The root action with the most visits over all trees; ties go to the lower action id. Each tree
// offers root_children(fn) calling fn(action, visits) for each child of its root.
template <class Tree>
Action most_visited(const std::vector<Tree>& trees, const Action* legal, int count) {
  std::vector<std::int64_t> visits(static_cast<std::size_t>(count), 0);
  for (const Tree& tree : trees) {
    tree.root_children([&](Action action, std::int64_t n) {
      for (int k = 0; k < count; ++k)
        if (legal[k] == action) visits[static_cast<std::size_t>(k)] += n;
    });
  }
  int best = 0;
  for (int k = 1; k < count; ++k)
    if (visits[static_cast<std::size_t>(k)] > visits[static_cast<std::size_t>(best)]) best = k;
  return legal[best];
}

}  // namespace rivals
