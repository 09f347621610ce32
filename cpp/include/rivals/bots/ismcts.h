// Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).
//
// Each iteration deals the hidden information anew, consistently with what the player to move has
// seen (the game's resample_history), and walks one shared tree keyed by actions. An action that
// is legal in some deals and not in others is judged by how often it was available, not by how
// often its parent was visited. Chance is not part of the tree (open loop): the player cannot
// steer it, and the hidden part of it must not split the player's information sets.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rivals/core/game_concept.h"

namespace rivals {

template <Game G>
class IsmctsBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = "ismcts";
  static std::vector<ParamSpec> param_specs() {
    return {
        {"iterations", Json(1000), "a positive integer: determinised simulations per move"},
        {"time_s", Json(0.0), "seconds per move; when positive it replaces iterations"},
        {"exploration", Json(0.7), "the UCB exploration constant, >= 0"},
        {"max_nodes", Json(4000000), "a positive integer: tree size limit per move"},
    };
  }

  IsmctsBot(const G& game, const Json& params, std::uint64_t seed)
      : game_(&game),
        iterations_(params.find("iterations")->as_int()),
        time_s_(params.find("time_s")->as_number()),
        exploration_(params.find("exploration")->as_number()),
        max_nodes_(params.find("max_nodes")->as_int()),
        rng_(seed) {
    const auto specs = param_specs();
    if (iterations_ < 1) bad_param(kName, specs[0], *params.find("iterations"));
    if (time_s_ < 0) bad_param(kName, specs[1], *params.find("time_s"));
    if (exploration_ < 0) bad_param(kName, specs[2], *params.find("exploration"));
    if (max_nodes_ < 1) bad_param(kName, specs[3], *params.find("max_nodes"));
  }

  void reseed(std::uint64_t seed) { rng_ = Rng(seed); }

  Action step(const State& root, const std::vector<Action>& history) {
    Action buffer[State::kMaxLegalActions];
    const int root_count = root.legal_actions(buffer);
    if (root_count == 1) return buffer[0];
    const Player me = root.current_player();

    nodes_.clear();
    nodes_.push_back(Node{});
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(time_s_));
    for (std::int64_t i = 0;; ++i) {
      if (time_s_ > 0) {
        if ((i & 15) == 0 && Clock::now() >= deadline) break;
      } else if (i >= iterations_) {
        break;
      }
      simulate(determinise(root, history, me));
    }
    Action best = buffer[0];
    std::int32_t best_visits = -1;
    for (std::int32_t c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      if (nodes_[c].visits > best_visits) {
        best = nodes_[c].action;
        best_visits = nodes_[c].visits;
      }
    }
    return best;
  }

 private:
  struct Node {
    std::int32_t first_child = -1;
    std::int32_t next_sibling = -1;
    std::int32_t visits = 0;
    std::int32_t available = 0;
    Action action = -1;
    Player mover = kChancePlayer;
    double value = 0;  // sum of the mover's returns
  };

  State determinise(const State& root, const std::vector<Action>& history, Player me) {
    if constexpr (HiddenInformationGame<G>) {
      State state = game_->initial_state();
      for (const Action action : game_->resample_history(history, me, rng_)) state.apply(action);
      return state;
    } else {
      return root;
    }
  }

  void simulate(State state) {
    path_.clear();
    path_.push_back(0);
    std::int32_t node = 0;
    Action legal[State::kMaxLegalActions];
    std::int32_t children[State::kMaxLegalActions];
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        state.apply(state.sample_chance(rng_));
        continue;
      }
      const int count = state.legal_actions(legal);
      int untried = 0;
      for (int k = 0; k < count; ++k) {
        children[k] = child_for(node, legal[k]);
        if (children[k] < 0)
          ++untried;
        else
          ++nodes_[children[k]].available;
      }
      if (untried > 0 && static_cast<std::int64_t>(nodes_.size()) < max_nodes_) {
        int pick = static_cast<int>(rng_.below(static_cast<std::uint32_t>(untried)));
        int k = 0;
        for (;; ++k)
          if (children[k] < 0 && pick-- == 0) break;
        node = add_child(node, legal[k], state.current_player());
        state.apply(legal[k]);
        path_.push_back(node);
        break;
      }
      std::int32_t best = -1;
      double best_score = -1e300;
      for (int k = 0; k < count; ++k) {
        if (children[k] < 0) continue;
        const Node& child = nodes_[children[k]];
        const double n = child.visits + 1e-9;
        const double score =
            child.value / n + exploration_ * std::sqrt(std::log(child.available + 1.0) / n);
        if (score > best_score) {
          best_score = score;
          best = children[k];
        }
      }
      if (best < 0) break;  // tree is full and nothing here was tried: roll out
      node = best;
      state.apply(nodes_[node].action);
      path_.push_back(node);
    }
    Action buffer[State::kMaxLegalActions];
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        state.apply(state.sample_chance(rng_));
      } else {
        const int count = state.legal_actions(buffer);
        state.apply(buffer[rng_.below(static_cast<std::uint32_t>(count))]);
      }
    }
    double returns[kMaxPlayers];
    state.returns(returns);
    for (const std::int32_t n : path_) {
      Node& visited = nodes_[n];
      ++visited.visits;
      if (visited.mover >= 0) visited.value += returns[visited.mover];
    }
  }

  std::int32_t child_for(std::int32_t node, Action action) const {
    for (std::int32_t c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling)
      if (nodes_[c].action == action) return c;
    return -1;
  }

  std::int32_t add_child(std::int32_t node, Action action, Player mover) {
    Node child;
    child.action = action;
    child.mover = mover;
    child.available = 1;
    child.next_sibling = nodes_[node].first_child;
    const auto index = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back(child);
    nodes_[node].first_child = index;
    return index;
  }

  const G* game_;
  std::int64_t iterations_;
  double time_s_;
  double exploration_;
  std::int64_t max_nodes_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> path_;
};

}  // namespace rivals
