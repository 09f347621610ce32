// Monte Carlo tree search (UCT) with uniformly random rollouts, cut off by the game's evaluation
// when asked to (tree_search.h, Rollout).
//
// Chance nodes are sampled on the way down and their outcomes kept as children, so the tree
// averages over the chance outcomes it has seen. Each child stores the total return of the player
// who chose it, which makes the same code right for two or more players and for teams. With
// threads > 1 the search is root-parallel (tree_search.h): every thread runs the full budget on
// its own tree.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "rivals/bots/tree_search.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/playout.h"

namespace rivals {

template <Game G>
class MctsBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = "mcts";
  static std::vector<ParamSpec> param_specs() {
    auto specs = TreeSearchSettings::specs("simulations", 1.4);
    Rollout<G>::add_specs(specs);
    return specs;
  }
  static std::vector<std::string> evaluation_params() { return cut_off_param_names(); }

  MctsBot(const G& game, const Json& params, std::uint64_t seed)
      : settings_(TreeSearchSettings::parse(params)), rollout_(game, params, kName) {
    trees_.resize(static_cast<std::size_t>(settings_.threads));
    reseed(seed);
  }

  void reseed(std::uint64_t seed) {
    for (std::size_t t = 0; t < trees_.size(); ++t) trees_[t].rng = Rng(derive_seed(seed, t));
  }

  Action step(const State& root) {
    Action legal[State::kMaxLegalActions];
    const int count = root.legal_actions(legal);
    if (count == 1) return legal[0];
    grow_trees(trees_, [&](Tree& tree) { grow(tree, root); });
    return most_visited(trees_, legal, count);
  }

 private:
  struct Node {
    std::int32_t first_child = -1;
    std::int32_t next_sibling = -1;
    std::int32_t visits = 0;
    Action action = -1;
    Player mover = kChancePlayer;  // who chose this node's action
    bool expanded = false;
    double value = 0;  // sum of the mover's returns
  };

  struct Tree {
    std::vector<Node> nodes;
    std::vector<std::int32_t> path;
    Rng rng;

    template <class Fn>
    void root_children(Fn&& fn) const {
      for (std::int32_t c = nodes[0].first_child; c >= 0; c = nodes[c].next_sibling)
        fn(nodes[c].action, nodes[c].visits);
    }
  };

  void grow(Tree& tree, const State& root) const {
    tree.nodes.clear();
    tree.nodes.push_back(Node{});
    within_budget(settings_.budget_steps(), settings_.time_s, settings_.clock, 64,
                  [&] { simulate(tree, root); });
  }

  void simulate(Tree& tree, const State& root) const {
    auto& nodes = tree.nodes;
    State state = root;
    tree.path.clear();
    std::int32_t node = 0;
    tree.path.push_back(node);
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        const Action outcome = state.sample_chance(tree.rng);
        state.apply(outcome);
        node = chance_child(tree, node, outcome);
        if (node < 0) break;  // tree is full: roll out from here
        tree.path.push_back(node);
        continue;
      }
      if (!nodes[node].expanded) {
        if (!expand(tree, node, state)) break;  // tree is full: roll out from here
        node = unvisited_child(tree, node);
        state.apply(nodes[node].action);
        tree.path.push_back(node);
        break;
      }
      node = select_child(tree, node);
      state.apply(nodes[node].action);
      tree.path.push_back(node);
    }
    double returns[kMaxPlayers];
    rollout_(state, tree.rng, returns);
    for (const std::int32_t n : tree.path) {
      Node& visited = nodes[n];
      ++visited.visits;
      if (visited.mover >= 0) visited.value += returns[visited.mover];
    }
  }

  bool expand(Tree& tree, std::int32_t node, const State& state) const {
    auto& nodes = tree.nodes;
    Action buffer[State::kMaxLegalActions];
    const int count = state.legal_actions(buffer);
    if (static_cast<std::int64_t>(nodes.size()) + count > settings_.max_nodes) return false;
    const Player mover = state.current_player();
    std::int32_t next = -1;
    for (int k = count - 1; k >= 0; --k) {
      Node child;
      child.action = buffer[k];
      child.mover = mover;
      child.next_sibling = next;
      next = static_cast<std::int32_t>(nodes.size());
      nodes.push_back(child);
    }
    nodes[node].first_child = next;
    nodes[node].expanded = true;
    return true;
  }

  // A fresh node is always unvisited in all its children; picking one at random avoids a bias
  // towards low action ids when the budget is smaller than the branching factor.
  static std::int32_t unvisited_child(Tree& tree, std::int32_t node) {
    const auto& nodes = tree.nodes;
    int count = 0;
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
      count += nodes[c].visits == 0;
    int pick = static_cast<int>(tree.rng.below(static_cast<std::uint32_t>(count)));
    for (std::int32_t c = nodes[node].first_child;; c = nodes[c].next_sibling)
      if (nodes[c].visits == 0 && pick-- == 0) return c;
  }

  std::int32_t select_child(Tree& tree, std::int32_t node) const {
    const auto& nodes = tree.nodes;
    std::int32_t best = -1;
    double best_score = -1e300;
    const double log_parent = std::log(static_cast<double>(nodes[node].visits) + 1.0);
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      const Node& child = nodes[c];
      if (child.visits == 0) return unvisited_child(tree, node);
      const double n = child.visits;
      const double score = child.value / n + settings_.exploration * std::sqrt(log_parent / n);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  std::int32_t chance_child(Tree& tree, std::int32_t node, Action outcome) const {
    auto& nodes = tree.nodes;
    std::int32_t last = -1;
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      if (nodes[c].action == outcome) return c;
      last = c;
    }
    if (static_cast<std::int64_t>(nodes.size()) >= settings_.max_nodes) return -1;
    Node child;
    child.action = outcome;
    const auto index = static_cast<std::int32_t>(nodes.size());
    nodes.push_back(child);
    (last < 0 ? nodes[node].first_child : nodes[last].next_sibling) = index;
    return index;
  }

  TreeSearchSettings settings_;
  Rollout<G> rollout_;
  std::vector<Tree> trees_;
};

}  // namespace rivals
