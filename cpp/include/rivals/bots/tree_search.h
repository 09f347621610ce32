// What the Monte Carlo tree searches (mcts.h, ismcts.h) share: their settings, and root
// parallelisation. With root parallelisation each thread grows its own tree from the same root
// with its own random stream, and the move is chosen by the visit counts summed over the trees.
// Trees share nothing while they grow, so there are no locks and the result for a given seed and
// thread count is reproducible.
#pragma once

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/core/types.h"

namespace rivals {

struct TreeSearchSettings {
  std::int64_t iterations;
  double time_s;
  double exploration;
  std::int64_t max_nodes;
  int threads;

  static std::vector<ParamSpec> specs(const std::string& iteration_word, double exploration) {
    return {
        {"iterations", Json(1000),
         "a positive integer: " + iteration_word + " per move and thread"},
        {"time_s", Json(0.0), "seconds per move; when positive it replaces iterations"},
        {"exploration", Json(exploration), "the UCB exploration constant, >= 0"},
        {"max_nodes", Json(4000000), "a positive integer: tree size limit per move and thread"},
        {"threads", Json(1), "a positive integer (at most 256): trees grown in parallel"},
    };
  }

  // `params` are resolved against `specs`; a value out of range throws std::invalid_argument.
  static TreeSearchSettings parse(const char* bot, const std::vector<ParamSpec>& specs,
                                  const Json& params) {
    const TreeSearchSettings settings{
        params.find("iterations")->as_int(), params.find("time_s")->as_number(),
        params.find("exploration")->as_number(), params.find("max_nodes")->as_int(),
        static_cast<int>(params.find("threads")->as_int())};
    if (settings.iterations < 1) bad_param(bot, specs[0], *params.find("iterations"));
    if (settings.time_s < 0) bad_param(bot, specs[1], *params.find("time_s"));
    if (settings.exploration < 0) bad_param(bot, specs[2], *params.find("exploration"));
    if (settings.max_nodes < 1) bad_param(bot, specs[3], *params.find("max_nodes"));
    if (params.find("threads")->as_int() < 1 || params.find("threads")->as_int() > 256)
      bad_param(bot, specs[4], *params.find("threads"));
    return settings;
  }
};

// Calls grow(tree) for every tree, the first on the calling thread.
template <class Tree, class Grow>
void grow_trees(std::vector<Tree>& trees, Grow&& grow) {
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < trees.size(); ++t) helpers.emplace_back([&, t] { grow(trees[t]); });
  grow(trees[0]);
  for (auto& helper : helpers) helper.join();
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
