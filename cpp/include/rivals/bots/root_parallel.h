// Root parallelisation for the tree searches: each thread grows its own tree from the same root
// with its own random stream, and the move is chosen by the visit counts summed over the trees.
// Trees share nothing while they grow, so there are no locks and the result for a given seed and
// thread count is reproducible.
#pragma once

#include <cstdint>
#include <thread>
#include <vector>

#include "rivals/core/types.h"

namespace rivals {

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
