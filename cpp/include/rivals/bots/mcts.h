// Monte Carlo tree search (UCT) with uniformly random rollouts.
//
// Chance nodes are sampled on the way down and their outcomes kept as children, so the tree
// averages over the chance outcomes it has seen. Each child stores the total return of the player
// who chose it, which makes the same code right for two or more players and for teams.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rivals/core/game_concept.h"

namespace rivals {

template <Game G>
class MctsBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = "mcts";
  static std::vector<ParamSpec> param_specs() {
    return {
        {"iterations", Json(1000), "a positive integer: simulations per move"},
        {"time_s", Json(0.0), "seconds per move; when positive it replaces iterations"},
        {"exploration", Json(1.4), "the UCT exploration constant, >= 0"},
        {"max_nodes", Json(4000000), "a positive integer: tree size limit per move"},
    };
  }

  MctsBot(const G& /*game*/, const Json& params, std::uint64_t seed)
      : iterations_(params.find("iterations")->as_int()),
        time_s_(params.find("time_s")->as_number()),
        exploration_(params.find("exploration")->as_number()),
        max_nodes_(params.find("max_nodes")->as_int()),
        rng_(seed) {
    const auto specs = param_specs();
    if (iterations_ < 1) bad_param("mcts", specs[0], *params.find("iterations"));
    if (time_s_ < 0) bad_param("mcts", specs[1], *params.find("time_s"));
    if (exploration_ < 0) bad_param("mcts", specs[2], *params.find("exploration"));
    if (max_nodes_ < 1) bad_param("mcts", specs[3], *params.find("max_nodes"));
  }

  void reseed(std::uint64_t seed) { rng_ = Rng(seed); }

  Action step(const State& root) {
    Action buffer[State::kMaxLegalActions];
    const int root_count = root.legal_actions(buffer);
    if (root_count == 1) return buffer[0];

    nodes_.clear();
    nodes_.push_back(Node{});
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(time_s_));
    for (std::int64_t i = 0;; ++i) {
      if (time_s_ > 0) {
        if ((i & 63) == 0 && Clock::now() >= deadline) break;
      } else if (i >= iterations_) {
        break;
      }
      simulate(root);
    }
    return best_child_action();
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

  void simulate(const State& root) {
    State state = root;
    path_.clear();
    std::int32_t node = 0;
    path_.push_back(node);
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        const Action outcome = state.sample_chance(rng_);
        state.apply(outcome);
        node = chance_child(node, outcome);
        if (node < 0) break;  // tree is full: roll out from here
        path_.push_back(node);
        continue;
      }
      if (!nodes_[node].expanded) {
        if (!expand(node, state)) break;  // tree is full: roll out from here
        node = unvisited_child(node);
        state.apply(nodes_[node].action);
        path_.push_back(node);
        break;
      }
      node = select_child(node);
      state.apply(nodes_[node].action);
      path_.push_back(node);
    }
    rollout(state);
    double returns[kMaxPlayers];
    state.returns(returns);
    for (const std::int32_t n : path_) {
      Node& visited = nodes_[n];
      ++visited.visits;
      if (visited.mover >= 0) visited.value += returns[visited.mover];
    }
  }

  bool expand(std::int32_t node, const State& state) {
    Action buffer[State::kMaxLegalActions];
    const int count = state.legal_actions(buffer);
    if (static_cast<std::int64_t>(nodes_.size()) + count > max_nodes_) return false;
    const Player mover = state.current_player();
    std::int32_t next = -1;
    for (int k = count - 1; k >= 0; --k) {
      Node child;
      child.action = buffer[k];
      child.mover = mover;
      child.next_sibling = next;
      next = static_cast<std::int32_t>(nodes_.size());
      nodes_.push_back(child);
    }
    nodes_[node].first_child = next;
    nodes_[node].expanded = true;
    return true;
  }

  // A fresh node is always unvisited in all its children; picking one at random avoids a bias
  // towards low action ids when the budget is smaller than the branching factor.
  std::int32_t unvisited_child(std::int32_t node) {
    int count = 0;
    for (std::int32_t c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling)
      count += nodes_[c].visits == 0;
    int pick = static_cast<int>(rng_.below(static_cast<std::uint32_t>(count)));
    for (std::int32_t c = nodes_[node].first_child;; c = nodes_[c].next_sibling)
      if (nodes_[c].visits == 0 && pick-- == 0) return c;
  }

  std::int32_t select_child(std::int32_t node) {
    std::int32_t best = -1;
    double best_score = -1e300;
    const double log_parent = std::log(static_cast<double>(nodes_[node].visits) + 1.0);
    bool any_unvisited = false;
    for (std::int32_t c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling) {
      if (nodes_[c].visits == 0) {
        any_unvisited = true;
        break;
      }
      const Node& child = nodes_[c];
      const double n = child.visits;
      const double score = child.value / n + exploration_ * std::sqrt(log_parent / n);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return any_unvisited ? unvisited_child(node) : best;
  }

  std::int32_t chance_child(std::int32_t node, Action outcome) {
    std::int32_t last = -1;
    for (std::int32_t c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling) {
      if (nodes_[c].action == outcome) return c;
      last = c;
    }
    if (static_cast<std::int64_t>(nodes_.size()) >= max_nodes_) return -1;
    Node child;
    child.action = outcome;
    const auto index = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back(child);
    (last < 0 ? nodes_[node].first_child : nodes_[last].next_sibling) = index;
    return index;
  }

  void rollout(State& state) {
    Action buffer[State::kMaxLegalActions];
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        state.apply(state.sample_chance(rng_));
      } else {
        const int count = state.legal_actions(buffer);
        state.apply(buffer[rng_.below(static_cast<std::uint32_t>(count))]);
      }
    }
  }

  Action best_child_action() const {
    Action best = -1;
    std::int32_t best_visits = -1;
    double best_value = 0;
    for (std::int32_t c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const Node& child = nodes_[c];
      if (child.visits > best_visits || (child.visits == best_visits && child.value > best_value)) {
        best = child.action;
        best_visits = child.visits;
        best_value = child.value;
      }
    }
    return best;
  }

  std::int64_t iterations_;
  double time_s_;
  double exploration_;
  std::int64_t max_nodes_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> path_;
};

}  // namespace rivals
