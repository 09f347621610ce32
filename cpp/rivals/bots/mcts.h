// Monte Carlo tree search (UCT) with uniformly random rollouts, cut off by the game's evaluation
// when asked to (tree_search.h, Rollout), and in a game with an evaluation optionally guided by
// implicit minimax backups of it (ImplicitMinimax below) and by a prior from it (tree_search.h,
// Prior).
//
// Chance nodes are sampled on the way down and their outcomes kept as children, so the tree
// averages over the chance outcomes it has seen. With `reuse_tree` the part of the last move's
// tree below the actions played since is kept and grown further. Each child stores the total return
// of the player who chose it, which makes the same code right for two or more players and for
// teams. With threads > 1 the search is root-parallel (tree_search.h): every thread runs the full
// budget on its own tree.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rivals/bots/tree_search.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/playout.h"
#include "rivals/core/threads.h"

namespace rivals {

// Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo Tree Search with
// Heuristic Evaluations using Implicit Minimax Backups", 2014). Besides the mean return of its
// simulations, every node keeps a minimax value of the game's evaluation over the tree below it:
// a new node is valued by the evaluation (a finished game by its returns), a decision takes the
// best of its children for the side choosing, a chance node the visit-weighted mean of the
// outcomes seen. Selection mixes the two, (1 - w) * mean + w * minimax with w = minimax_weight:
// random play to the end judges the long run, the minimax the tactics inside the tree that
// random play averages away. Values are kept for player 0's side, so this needs two opposed
// sides. Without an evaluation there is nothing to back up and the search is plain UCT.
template <Game G>
class ImplicitMinimax : public Unavailable {
 public:
  ImplicitMinimax(const G& /*game*/, const Json& /*params*/, const char* /*bot*/) {}
  double weight() const { return 0; }
  double value(const typename G::State& /*state*/) const { return 0; }
  double sign(Player /*player*/) const { return 1; }
};

template <EvaluatedGame G>
class ImplicitMinimax<G> : public Weighted<ImplicitMinimax<G>> {
 public:
  static constexpr const char* kParam = "minimax_weight";
  static constexpr double kMost = 1;
  static constexpr const char* kDescription =
      "share of the evaluation's implicit minimax value in selection, against the mean return; 0 "
      "is plain UCT";

  ImplicitMinimax(const G& game, const Json& params, const char* bot)
      : Weighted<ImplicitMinimax<G>>(params), evaluator_(game, params) {
    if (this->on() && !evaluator_.opposed())
      throw InvalidArgument(
          std::string(bot) + ": minimax_weight needs two opposed sides of a zero-sum game, and " +
          G::kName + " with " + std::to_string(game.num_players()) + " players has other sides");
    for (Player p = 0; p < game.num_players(); ++p) sign_[p] = game.same_side(p, 0) ? 1.0 : -1.0;
  }

  // For player 0's side: the returns of a finished game, the evaluation before.
  double value(const typename G::State& state) const {
    if (!state.is_terminal()) return evaluator_.value(state, 0);
    double returns[kMaxPlayers];
    state.returns(returns);
    return returns[0];
  }
  // +1 for player 0's side, -1 for the other: turns a value for player 0's side into one for p's.
  double sign(Player p) const { return sign_[p]; }

 private:
  Evaluator<G> evaluator_;
  double sign_[kMaxPlayers] = {};
};

// In a game that can go round in circles (RepeatingState), `repetition_draw` scores a line of play
// in the tree that comes back to a position already on it, or to one the game went through before
// the root, as a draw (every return 0), as chess engines score a repetition: the side content with
// a draw can go round again, and the turn limit ends the game drawn. Otherwise a search that leads
// in a standoff values waiting by its lead and never looks for the way through; and without the
// game's history a circle longer than one search's line (a token moved away and back over two
// turns) goes unseen (Sekigahara, docs/bots.md).
template <Game G>
class RepetitionDraw : public Unavailable {
 public:
  RepetitionDraw(const G& /*game*/, const Json& /*params*/) {}
  void remember(const std::vector<Action>& /*history*/) {}
  std::uint64_t key(const typename G::State& /*state*/) const { return 0; }
  bool played(std::uint64_t /*key*/) const { return false; }
};

template <Game G>
  requires RepeatingState<typename G::State>
class RepetitionDraw<G> {
  using State = typename G::State;

 public:
  static constexpr const char* kParam = "repetition_draw";
  static void add_specs(std::vector<ParamSpec>& specs) {
    specs.push_back(ParamSpec::choice(kParam, Json(false), {Json(false), Json(true)},
                                      "score a line of play that comes back to a position of "
                                      "its own or of the game before it as a draw"));
  }
  RepetitionDraw(const G& game, const Json& params)
      : on_(params.find(kParam)->as_bool()), start_(game.initial_state()) {}
  bool on() const { return on_; }
  // The positions the game has been through on its way to the search's root, from its history.
  void remember(const std::vector<Action>& history) {
    played_.clear();
    filter_.fill(0);
    if (!on_) return;
    State state = start_;
    for (const Action action : history) {
      if (!state.is_chance_node()) {
        const std::uint64_t key = state.position_key();
        played_.push_back(key);
        filter_[key % kFilterBits / 64] |= std::uint64_t{1} << key % 64;
      }
      state.apply(action);
    }
    std::sort(played_.begin(), played_.end());
  }
  std::uint64_t key(const State& state) const { return state.position_key(); }
  bool played(std::uint64_t key) const {
    return (filter_[key % kFilterBits / 64] >> key % 64 & 1) != 0 &&
           std::binary_search(played_.begin(), played_.end(), key);
  }

 private:
  // Most positions a search meets were never played: one bit per key's residue rules them out
  // before the binary search.
  static constexpr std::uint64_t kFilterBits = 1 << 14;

  bool on_;
  State start_;
  std::vector<std::uint64_t> played_;  // sorted
  std::array<std::uint64_t, kFilterBits / 64> filter_{};
};

template <Game G>
class MctsBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = "mcts";
  static std::vector<ParamSpec> param_specs() {
    auto specs = TreeSearchSettings::specs("simulations", 1.4);
    specs.push_back(ParamSpec::choice(kReuse, Json(false), {Json(false), Json(true)},
                                      "keep the last move's tree below the actions played since "
                                      "(the move then depends on the searches before it)"));
    Rollout<G>::add_specs(specs);
    WinProof<G>::add_specs(specs);
    ImplicitMinimax<G>::add_specs(specs);
    Prior<G>::add_specs(specs);
    PolicyPrior<G>::add_specs(specs);
    RepetitionDraw<G>::add_specs(specs);
    EndgameSolve<G>::add_specs(specs);
    return specs;
  }
  static std::vector<std::string> evaluation_params() {
    auto names = cut_off_param_names();
    names.push_back(WinProof<G>::kParam);
    for (std::string& name : ImplicitMinimax<G>::param_names()) names.push_back(std::move(name));
    for (std::string& name : Prior<G>::param_names()) names.push_back(std::move(name));
    for (std::string& name : PolicyPrior<G>::param_names()) names.push_back(std::move(name));
    return names;
  }

  MctsBot(const G& game, const Json& params, std::uint64_t seed)
      : settings_(TreeSearchSettings::parse(params)),
        players_(game.num_players()),
        actions_(game.num_distinct_actions()),
        reuse_(params.find(kReuse)->as_bool()),
        implicit_(game, params, kName),
        prior_(game, params),
        policy_(game, params, kName),
        rollout_(game, params, kName, implicit_.on() || prior_.on() || policy_.on()),
        proof_(game, params, seed),
        repetition_(game, params),
        solve_(game, params) {
    if constexpr (EvaluatedGame<G>) check_network_use<G>(kName, params, policy_.on());
    trees_.resize(static_cast<std::size_t>(settings_.threads));
    reseed(seed);
  }

  // A new seed starts afresh: no tree is kept from before it.
  void reseed(std::uint64_t seed) {
    for (std::size_t t = 0; t < trees_.size(); ++t) trees_[t].rng = Rng(derive_seed(seed, t));
    proof_.reseed(seed);
    last_history_.reset();
  }

  Action step(const State& root) { return step(root, {}); }

  // `history` leads from the game's start to `root`; with reuse_tree it finds the last move's
  // tree again (an empty history never does).
  Action step(const State& root, const std::vector<Action>& history) {
    report_.clear();
    kept_ = 0;
    repeated_ = 0;
    Action legal[State::kMaxLegalActions];
    const int count = root.legal_actions(legal);
    if (count == 1) return legal[0];
    Action proven;
    double solving = 0;
    if (proof_.win(root, proven) || solve_.move(root, proven, solving)) return proven;
    const double time_s =
        settings_.time_s > 0 ? std::max(settings_.time_s - solving, settings_.time_s / 4) : 0;
    repetition_.remember(history);
    const std::size_t known =
        reuse_ && last_history_ && history.size() > last_history_->size() &&
                std::equal(last_history_->begin(), last_history_->end(), history.begin())
            ? last_history_->size()
            : history.size();
    // Forgotten first: a search cut short (an interrupt) leaves trees that match no history.
    last_history_.reset();
    std::int64_t kept = 0;
    for (Tree& tree : trees_) {
      if (known < history.size())
        descend(tree, history.begin() + static_cast<std::ptrdiff_t>(known), history.end());
      else
        tree.nodes.clear();
      if (!tree.nodes.empty()) kept += tree.nodes[0].visits;
      tree.repeated = 0;
    }
    kept_ = kept;
    grow_trees(trees_, [&](Tree& tree) { grow(tree, root, time_s); });
    if (reuse_ && !history.empty()) last_history_ = history;
    std::int64_t visits = 0, repeated = 0;
    for (const Tree& tree : trees_) {
      visits += tree.nodes[0].visits;
      repeated += tree.repeated;
    }
    repeated_ = repeated;
    return report_.settle(trees_, legal, count, visits);
  }

  // The mover's mean return of the move the last step played over its simulations; NaN for a
  // move played without a search (the only legal one, a win proven first, a position solved).
  double last_value() const { return report_.value(); }
  // The last step's root moves with their visits and values (none without a search).
  std::vector<RootMove> searched_moves() const { return report_.moves(); }

  // The last move's search: the simulations its root has seen ("visits", over all trees), how
  // many of them a kept tree brought from the moves before ("kept"; reuse_tree), how many of
  // its own ended in a repetition ("repeated"; repetition_draw) and each legal move's share
  // ("moves": its visits and the mean return, for the player to move, of the simulations
  // through it); all 0 and no moves for a move played without a search (the only legal one, or
  // a win proven first). Readable from another thread while the search runs (the last three
  // once it has ended).
  Json stats() const {
    return Json::object({{"visits", Json(report_.visits())},
                         {"kept", Json(kept_.load())},
                         {"repeated", Json(repeated_.load())},
                         {"moves", report_.moves_json()}});
  }

 private:
  struct Node {
    std::int32_t first_child = -1;
    std::int32_t next_sibling = -1;
    std::int32_t visits = 0;
    Action action = -1;
    float implicit = 0;  // the implicit minimax value for player 0's side (ImplicitMinimax)
    std::int8_t mover = kChancePlayer;  // who chose this node's action
    bool expanded = false;
    std::int16_t prior = 0;  // the evaluation for the mover after the action (Prior), packed
    double value = 0;        // sum of the mover's returns
  };

  // Each thread grows one; kept apart in memory, as each is written on every simulation.
  struct alignas(kCacheLine) Tree {
    std::vector<Node> nodes;
    std::vector<std::int32_t> path;
    std::vector<std::uint64_t> keys;  // of the positions on the path (repetition_draw)
    std::int64_t repeated = 0;        // simulations of this search that ended in a repetition
    MoveAverages averages;            // with mast_epsilon: this search's
    Rng rng;

    template <class Fn>
    void root_children(Fn&& fn) const {
      for (std::int32_t c = nodes[0].first_child; c >= 0; c = nodes[c].next_sibling)
        fn(nodes[c].action, nodes[c].visits, nodes[c].value);
    }
  };

  void grow(Tree& tree, const State& root, double time_s) const {
    if (tree.nodes.empty()) tree.nodes.push_back(Node{});
    if (rollout_.by_move_averages()) tree.averages.reset(players_, actions_);
    within_budget(settings_.budget_steps(), time_s, settings_.clock, 64,
                  [&] { simulate(tree, root); });
  }

  void simulate(Tree& tree, const State& root) const {
    auto& nodes = tree.nodes;
    State state = root;
    tree.path.clear();
    std::int32_t node = 0;
    tree.path.push_back(node);
    tree.keys.clear();
    if (repetition_.on()) tree.keys.push_back(repetition_.key(root));
    bool repeated = false;
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        const Action outcome = state.sample_chance(tree.rng);
        state.apply(outcome);
        node = chance_child(tree, node, outcome, state);
        if (node < 0) break;  // tree is full: roll out from here
        tree.path.push_back(node);
        continue;
      }
      if (!nodes[node].expanded) {
        if (!expand(tree, node, state)) break;  // tree is full: roll out from here
        node = unvisited_child(tree, node);
        state.apply(nodes[node].action);
        tree.path.push_back(node);
        repeated = comes_back(tree, state);
        break;
      }
      node = select_child(tree, node);
      state.apply(nodes[node].action);
      tree.path.push_back(node);
      if ((repeated = comes_back(tree, state))) break;
    }
    double returns[kMaxPlayers] = {};
    const bool averaged = rollout_.by_move_averages();
    if (averaged)
      for (const std::int32_t n : tree.path)
        if (nodes[n].mover >= 0) tree.averages.record(nodes[n].mover, nodes[n].action);
    if (repeated) {
      nodes[node].implicit = 0;
      ++tree.repeated;
    } else {
      rollout_(state, tree.rng, returns, tree.averages);
    }
    if (averaged) tree.averages.update(returns);
    // Leaf first, so that a node's implicit value is taken from children already updated.
    for (auto n = tree.path.rbegin(); n != tree.path.rend(); ++n) {
      Node& visited = nodes[*n];
      ++visited.visits;
      if (visited.mover >= 0) visited.value += returns[visited.mover];
      if (implicit_.on() && visited.first_child >= 0) back_up_implicit(tree, *n);
    }
  }

  // With repetition_draw: whether the position a decision reached was on the path already or in
  // the game before the root (chance outcomes change the position for good, so only decisions are
  // checked).
  bool comes_back(Tree& tree, const State& state) const {
    if (!repetition_.on() || state.is_terminal()) return false;
    const std::uint64_t key = repetition_.key(state);
    if (std::find(tree.keys.begin(), tree.keys.end(), key) != tree.keys.end() ||
        repetition_.played(key))
      return true;
    tree.keys.push_back(key);
    return false;
  }

  // Makes the node reached from the root by `actions` the new root, keeping only the tree below
  // it; clears the tree when the tree never went there.
  static void descend(Tree& tree, std::vector<Action>::const_iterator action,
                      std::vector<Action>::const_iterator end) {
    auto& nodes = tree.nodes;
    std::int32_t top = nodes.empty() ? -1 : 0;
    for (; action != end && top >= 0; ++action) {
      std::int32_t c = nodes[top].first_child;
      while (c >= 0 && nodes[c].action != *action) c = nodes[c].next_sibling;
      top = c;
    }
    if (top < 0) {
      nodes.clear();
      return;
    }
    std::vector<Node> kept;
    kept.push_back(nodes[top]);
    kept[0].next_sibling = -1;
    std::vector<std::pair<std::int32_t, std::int32_t>> pending{{top, 0}};  // (old, new) index
    while (!pending.empty()) {
      const auto [from, to] = pending.back();
      pending.pop_back();
      std::int32_t previous = -1;
      kept[to].first_child = -1;
      for (std::int32_t c = nodes[from].first_child; c >= 0; c = nodes[c].next_sibling) {
        const auto index = static_cast<std::int32_t>(kept.size());
        kept.push_back(nodes[c]);
        kept[index].next_sibling = -1;
        (previous < 0 ? kept[to].first_child : kept[previous].next_sibling) = index;
        previous = index;
        pending.emplace_back(c, index);
      }
    }
    nodes.swap(kept);
  }

  // A decision's best child for the side choosing; a chance node's outcomes by how often each
  // was drawn, the tree's estimate of their probabilities.
  void back_up_implicit(Tree& tree, std::int32_t node) const {
    auto& nodes = tree.nodes;
    const std::int32_t first = nodes[node].first_child;
    if (nodes[first].mover == kChancePlayer) {
      double sum = 0, weight = 0;
      for (std::int32_t c = first; c >= 0; c = nodes[c].next_sibling) {
        sum += static_cast<double>(nodes[c].visits) * nodes[c].implicit;
        weight += nodes[c].visits;
      }
      if (weight > 0) nodes[node].implicit = static_cast<float>(sum / weight);
      return;
    }
    const double sign = implicit_.sign(nodes[first].mover);
    double best = -1e300;
    for (std::int32_t c = first; c >= 0; c = nodes[c].next_sibling)
      best = std::max(best, sign * nodes[c].implicit);
    nodes[node].implicit = static_cast<float>(sign * best);
  }

  bool expand(Tree& tree, std::int32_t node, const State& state) const {
    auto& nodes = tree.nodes;
    Action buffer[State::kMaxLegalActions];
    const int count = state.legal_actions(buffer);
    if (static_cast<std::int64_t>(nodes.size()) + count > settings_.max_nodes) return false;
    const Player mover = state.current_player();
    float priors[State::kMaxLegalActions];
    if (policy_.on()) policy_.priors(state, buffer, count, priors);
    std::int32_t next = -1;
    for (int k = count - 1; k >= 0; --k) {
      Node child;
      child.action = buffer[k];
      child.mover = static_cast<std::int8_t>(mover);
      child.next_sibling = next;
      if (policy_.on()) child.prior = pack_prior(priors[k]);
      if (implicit_.on() || prior_.on()) {
        State after = state;
        after.apply(buffer[k]);
        if (implicit_.on()) child.implicit = static_cast<float>(implicit_.value(after));
        if (prior_.on()) child.prior = pack_prior(prior_.value(after, mover));
      }
      next = static_cast<std::int32_t>(nodes.size());
      nodes.push_back(child);
    }
    nodes[node].first_child = next;
    nodes[node].expanded = true;
    if (implicit_.on()) back_up_implicit(tree, node);
    return true;
  }

  // A fresh node is always unvisited in all its children; picking one at random avoids a bias
  // towards low action ids when the budget is smaller than the branching factor. With a prior the
  // pick is among the unvisited children the evaluation ranks highest.
  std::int32_t unvisited_child(Tree& tree, std::int32_t node) const {
    const auto& nodes = tree.nodes;
    int count = 0;
    const bool ranked = prior_.on() || policy_.on();
    std::int16_t top = std::numeric_limits<std::int16_t>::min();
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      if (nodes[c].visits != 0) continue;
      if (ranked && nodes[c].prior != top) {
        if (nodes[c].prior < top) continue;
        top = nodes[c].prior;
        count = 0;
      }
      ++count;
    }
    int pick = static_cast<int>(tree.rng.below(static_cast<std::uint32_t>(count)));
    for (std::int32_t c = nodes[node].first_child;; c = nodes[c].next_sibling)
      if (nodes[c].visits == 0 && (!ranked || nodes[c].prior == top) && pick-- == 0) return c;
  }

  std::int32_t select_child(Tree& tree, std::int32_t node) const {
    if (policy_.on()) return select_by_policy(tree, node);
    const auto& nodes = tree.nodes;
    std::int32_t best = -1;
    double best_score = -1e300;
    const double log_parent = std::log(static_cast<double>(nodes[node].visits) + 1.0);
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      const Node& child = nodes[c];
      if (child.visits == 0) return unvisited_child(tree, node);
      const double n = child.visits;
      double exploit = child.value / n;
      if (implicit_.on())
        exploit = (1 - implicit_.weight()) * exploit +
                  implicit_.weight() * implicit_.sign(child.mover) * child.implicit;
      double score = exploit + settings_.exploration * std::sqrt(log_parent / n);
      if (prior_.on()) score += prior_.weight() * unpack_prior(child.prior) / (n + 1);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  // PUCT (PolicyPrior): the mean return, mixed with the implicit minimax value as in UCT, plus
  // the policy's share of the exploration; a child not yet visited counts as a draw.
  std::int32_t select_by_policy(Tree& tree, std::int32_t node) const {
    const auto& nodes = tree.nodes;
    const double spread = policy_.weight() * std::sqrt(static_cast<double>(nodes[node].visits));
    std::int32_t best = -1;
    double best_score = -1e300;
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      const Node& child = nodes[c];
      double exploit = child.visits > 0 ? child.value / child.visits : 0.0;
      if (implicit_.on())
        exploit = (1 - implicit_.weight()) * exploit +
                  implicit_.weight() * implicit_.sign(child.mover) * child.implicit;
      const double score = exploit + spread * unpack_prior(child.prior) / (1.0 + child.visits);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  // `state` is the position after `outcome`.
  std::int32_t chance_child(Tree& tree, std::int32_t node, Action outcome,
                            const State& state) const {
    auto& nodes = tree.nodes;
    std::int32_t last = -1;
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      if (nodes[c].action == outcome) return c;
      last = c;
    }
    if (static_cast<std::int64_t>(nodes.size()) >= settings_.max_nodes) return -1;
    Node child;
    child.action = outcome;
    if (implicit_.on()) child.implicit = static_cast<float>(implicit_.value(state));
    const auto index = static_cast<std::int32_t>(nodes.size());
    nodes.push_back(child);
    (last < 0 ? nodes[node].first_child : nodes[last].next_sibling) = index;
    return index;
  }

  static constexpr const char* kReuse = "reuse_tree";

  TreeSearchSettings settings_;
  int players_;
  int actions_;  // the game's distinct decisions (MoveAverages)
  bool reuse_;
  std::optional<std::vector<Action>> last_history_;  // of the last move searched, with reuse
  RootReport report_;                                // stats(), last_value(), searched_moves()
  CopyableAtomic<std::int64_t> kept_ = 0;
  CopyableAtomic<std::int64_t> repeated_ = 0;
  ImplicitMinimax<G> implicit_;
  Prior<G> prior_;
  PolicyPrior<G> policy_;
  Rollout<G> rollout_;
  WinProof<G> proof_;
  RepetitionDraw<G> repetition_;
  EndgameSolve<G> solve_;
  std::vector<Tree> trees_;
};

}  // namespace rivals
