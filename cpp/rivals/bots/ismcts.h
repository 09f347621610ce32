// Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).
//
// Each iteration deals the hidden information anew, consistently with what the player to move has
// seen (the game's resample_history), and walks trees keyed by actions; where dealing costs more
// than a simulation, `simulations_per_deal` lets consecutive iterations share a deal. An action
// that is legal in some deals and not in others is judged by how often it was available, not by
// how often its parent was visited. By default chance is not part of the trees (open loop): the
// player cannot steer it, and the hidden part of it must not split the player's information sets.
// With `chance` "seen" the outcomes a tree's seat sees (a conflict card turned over, its own draws)
// branch its tree, as they split that seat's information sets, and only the hidden ones stay open.
//
// Where the game hides some decisions from the other seats (PartlyHiddenDecisions), `seat_trees`
// gives every seat a tree of its own keyed by the decisions as that seat sees them (multiple
// observers), and each seat chooses its decisions in its own tree: a seat then neither answers a
// secret move of another as if it had seen it, nor is answered so. Otherwise one tree serves every
// seat (a single observer). With threads > 1 the search is root-parallel (tree_search.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rivals/bots/tree_search.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/playout.h"
#include "rivals/core/threads.h"

namespace rivals {

// Whether ismcts replays every resampled history with checks: a resampler that dealt an illegal
// history then stops the search with an error instead of having it search an impossible deal.
// It costs 7-13% of the search's speed, so it is the CMake option RIVALS_CHECK_DEALS, on in the
// sanitizer build (scripts/sanitize.sh); the cheap check of every deal (check_moves) is always on.
#ifdef RIVALS_CHECK_DEALS
inline constexpr bool kCheckDeals = true;
#else
inline constexpr bool kCheckDeals = false;
#endif

template <Game G>
class IsmctsBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = "ismcts";
  static constexpr const char* kPerDeal = "simulations_per_deal";
  static constexpr const char* kSeatTrees = "seat_trees";
  static constexpr const char* kChance = "chance";
  // Every iteration deals the hidden cards anew from the mover's information state
  // (resample_history), so the true hidden cards never reach the search.
  static constexpr bool kSeatInformationOnly = true;
  static std::vector<ParamSpec> param_specs() {
    auto specs = TreeSearchSettings::specs("determinised simulations", 0.7);
    Rollout<G>::add_specs(specs);
    Prior<G>::add_specs(specs);
    specs.push_back(ParamSpec::choice(kChance, Json("open"), {Json("open"), Json("seen")},
                                      "chance outcomes: 'open', sampled without branching the "
                                      "tree; 'seen', a branch for each outcome the tree's seat "
                                      "sees, the hidden ones open"));
    if constexpr (HiddenInformationGame<G>)
      specs.push_back(ParamSpec::integer(kPerDeal, Json(1), 1, TreeSearchSettings::kMaxCount,
                                         "consecutive simulations that share one deal of the "
                                         "hidden cards"));
    if constexpr (PartlyHiddenDecisions<G>)
      specs.push_back(ParamSpec::choice(kSeatTrees, Json(false), {Json(false), Json(true)},
                                        "a tree per seat, keyed by the decisions as that seat "
                                        "sees them; false: one tree keyed by the decisions "
                                        "themselves"));
    return specs;
  }
  static std::vector<std::string> evaluation_params() {
    auto names = cut_off_param_names();
    for (std::string& name : Prior<G>::param_names()) names.push_back(std::move(name));
    return names;
  }

  IsmctsBot(const G& game, const Json& params, std::uint64_t seed)
      : game_(&game),
        settings_(TreeSearchSettings::parse(params)),
        prior_(game, params),
        rollout_(game, params, kName, prior_.on()),
        seen_chance_(params.find(kChance)->as_string() == "seen") {
    if constexpr (EvaluatedGame<G>) check_network_use<G>(kName, params, false);
    if constexpr (HiddenInformationGame<G>) per_deal_ = params.find(kPerDeal)->as_int();
    if constexpr (PartlyHiddenDecisions<G>)
      if (params.find(kSeatTrees)->as_bool()) seat_trees_ = game.num_players();
    searches_.resize(static_cast<std::size_t>(settings_.threads));
    reseed(seed);
  }

  void reseed(std::uint64_t seed) {
    for (std::size_t t = 0; t < searches_.size(); ++t) searches_[t].rng = Rng(derive_seed(seed, t));
  }

  Action step(const State& root, const std::vector<Action>& history) {
    report_.clear();
    Action legal[State::kMaxLegalActions];
    const int count = root.legal_actions(legal);
    if (count == 1) return legal[0];
    const Player me = root.current_player();
    grow_trees(searches_, [&](Search& search) { grow(search, root, history, me); });
    std::int64_t visits = 0;
    for (const Search& search : searches_)
      visits += search.trees[search.tree_of(me)].nodes[0].visits;
    return report_.settle(searches_, legal, count, visits);
  }

  // The last move's search: the simulations its root has seen over all threads ("visits") and
  // each legal move's share ("moves": its visits and the mean return, for the player to move, of
  // the simulations through it); 0 and no moves for a move played without a search (the only
  // legal one). Readable from another thread while the search runs (the moves once it ended).
  Json stats() const {
    return Json::object({{"visits", Json(report_.visits())}, {"moves", report_.moves_json()}});
  }

  // The mover's mean return of the move the last step played over its simulations (on the deals
  // it made); NaN for a move played without a search (the only legal one).
  double last_value() const { return report_.value(); }
  // The last step's root moves with their visits and values (none without a search).
  std::vector<RootMove> searched_moves() const { return report_.moves(); }

 private:
  struct Node {
    std::int32_t first_child = -1;
    std::int32_t next_sibling = -1;
    std::int32_t visits = 0;
    std::int32_t available = 0;
    Action action = -1;      // as the tree's seat sees it
    std::int16_t prior = 0;  // the evaluation for the mover after the action (Prior), packed
    std::int8_t mover = kChancePlayer;
    double value = 0;  // sum of the mover's returns
  };

  struct Tree {
    std::vector<Node> nodes;
    std::vector<std::int32_t> path;
    std::int32_t at = 0;  // the node the simulation has reached
  };

  // What one thread grows: a tree per seat, or one for all (seat_trees). Kept apart in memory,
  // as each is written on every simulation.
  struct alignas(kCacheLine) Search {
    std::vector<Tree> trees;
    Player root_seat = 0;
    MoveAverages averages;  // with mast_epsilon: this search's
    Rng rng;

    std::size_t tree_of(Player seat) const {
      return trees.size() == 1 ? 0 : static_cast<std::size_t>(seat);
    }
    // The seat whose information tree `tree` keys: the searcher's when one tree serves all.
    Player seat_of(std::size_t tree) const {
      return trees.size() == 1 ? root_seat : static_cast<Player>(tree);
    }
    template <class Fn>
    void root_children(Fn&& fn) const {
      const Tree& tree = trees[tree_of(root_seat)];
      for (std::int32_t c = tree.nodes[0].first_child; c >= 0; c = tree.nodes[c].next_sibling)
        fn(tree.nodes[c].action, tree.nodes[c].visits, tree.nodes[c].value);
    }
  };

  void grow(Search& search, const State& root, const std::vector<Action>& history,
            Player me) const {
    search.trees.resize(static_cast<std::size_t>(seat_trees_));
    search.root_seat = me;
    for (Tree& tree : search.trees) {
      tree.nodes.clear();
      tree.nodes.push_back(Node{});
    }
    if (rollout_.by_move_averages())
      search.averages.reset(game_->num_players(), game_->num_distinct_actions());
    Action moves[State::kMaxLegalActions];
    const int count = root.legal_actions(moves);
    std::optional<State> deal;
    std::int64_t simulations_on_deal = 0;
    within_budget(settings_.budget_steps(), settings_.time_s, settings_.clock, 16, [&] {
      if (!deal || simulations_on_deal == per_deal_) {
        deal = determinise(search.rng, root, history, me);
        check_moves(*deal, me, moves, count);
        simulations_on_deal = 0;
      }
      ++simulations_on_deal;
      simulate(search, *deal);
    });
  }

  // A deal must leave `me` the choice it has at the root (`moves`), for the resampled history is
  // one `me` cannot tell from the real one. A search of a deal that breaks this would answer
  // another position, so it stops with an error; the check costs one list of legal moves per
  // deal, less than 1% of a search (the full check, kCheckDeals, costs 7-13%).
  void check_moves(const State& deal, Player me, const Action* moves, int count) const {
    Action legal[State::kMaxLegalActions];
    if (deal.current_player() != me || deal.legal_actions(legal) != count ||
        !std::equal(moves, moves + count, legal))
      throw std::logic_error(std::string(G::kName) + ": ismcts: a resampled history leaves seat " +
                             std::to_string(me) +
                             " another choice than the position searched (a fault of the "
                             "game's resample_history)");
  }

  State determinise(Rng& rng, const State& root, const std::vector<Action>& history,
                    Player me) const {
    if constexpr (HiddenInformationGame<G>) {
      State state = game_->initial_state();
      const std::vector<Action> dealt = game_->resample_history(history, me, rng);
      for (std::size_t i = 0; i < dealt.size(); ++i) {
        if constexpr (kCheckDeals) check_legal(state, dealt[i], i);
        state.apply(dealt[i]);
      }
      return state;
    } else {
      return root;
    }
  }

  // With kCheckDeals, every action of a resampled history, `action` the `index`-th, must be legal
  // in `state`, the deal so far.
  void check_legal(const State& state, Action action, std::size_t index) const {
    Action legal[std::max(State::kMaxLegalActions, State::kMaxChanceOutcomes)];
    const int count = state.is_terminal() ? 0 : state.legal_actions(legal);
    if (!std::binary_search(legal, legal + count, action))
      throw std::logic_error(std::string(G::kName) + ": ismcts: action #" + std::to_string(index) +
                             " of a resampled history, " + std::to_string(action) +
                             ", is not legal (a fault of the game's resample_history)");
  }

  // `action` as the seat of tree `t` sees it.
  Action seen_by(const State& before, Action action, std::size_t t) const {
    if constexpr (PartlyHiddenDecisions<G>)
      if (seat_trees_ > 1) return game_->observed_action(before, action, static_cast<Player>(t));
    return action;
  }

  void simulate(Search& search, State state) const {
    auto& rng = search.rng;
    for (Tree& tree : search.trees) {
      tree.path.clear();
      tree.path.push_back(0);
      tree.at = 0;
    }
    Action legal[State::kMaxLegalActions];
    std::int32_t children[State::kMaxLegalActions];
    while (!state.is_terminal()) {
      if (state.is_chance_node()) {
        const Action outcome = state.sample_chance(rng);
        if (seen_chance_) follow_chance(search, state, outcome);
        state.apply(outcome);
        continue;
      }
      const Player mover = state.current_player();
      const std::size_t own_tree = search.tree_of(mover);
      Tree& own = search.trees[own_tree];
      auto& nodes = own.nodes;
      const int count = state.legal_actions(legal);
      int untried = 0;
      for (int k = 0; k < count; ++k) {
        children[k] = child_for(own, own.at, legal[k]);
        if (children[k] < 0)
          ++untried;
        else
          ++nodes[children[k]].available;
      }
      Action action = -1;
      std::int32_t chosen = -1;  // the mover's child for it, or -1 to grow
      bool expanded = false;
      double prior = 0;  // of the new node, with a prior
      if (untried > 0 && static_cast<std::int64_t>(nodes.size()) < settings_.max_nodes) {
        const int k = prior_.on() ? best_untried(state, legal, children, count, rng, prior)
                                  : random_untried(children, untried, rng);
        action = legal[k];
        expanded = true;
      } else {
        std::int32_t best = -1;
        double best_score = -1e300;
        for (int k = 0; k < count; ++k) {
          if (children[k] < 0) continue;
          const Node& child = nodes[children[k]];
          const double n = child.visits + 1e-9;
          double score = child.value / n +
                         settings_.exploration * std::sqrt(std::log(child.available + 1.0) / n);
          if (prior_.on()) score += prior_.weight() * unpack_prior(child.prior) / (n + 1);
          if (score > best_score) {
            best_score = score;
            best = children[k];
          }
        }
        if (best < 0) break;  // tree is full and nothing here was tried: roll out
        action = nodes[best].action;
        chosen = best;
      }
      // Every tree follows the decision as its seat sees it; a tree that has never seen it grows
      // the node, which ends the walk as a new leaf of the mover's tree does.
      for (std::size_t t = 0; t < search.trees.size(); ++t) {
        Tree& tree = search.trees[t];
        const Action seen = seen_by(state, action, t);
        std::int32_t next = t == own_tree ? chosen : child_for(tree, tree.at, seen);
        if (next < 0) {
          if (static_cast<std::int64_t>(tree.nodes.size()) >= settings_.max_nodes) {
            expanded = true;  // this tree is full: the walk ends here for all
            continue;
          }
          next = add_child(tree, tree.at, seen, mover, prior);
          expanded = true;
        }
        tree.at = next;
        tree.path.push_back(next);
      }
      if (rollout_.by_move_averages()) search.averages.record(mover, action);
      state.apply(action);
      if (expanded) break;
    }
    // The rollout continues the determinised deal, so an evaluation sees that deal, never the
    // true hidden cards.
    double returns[kMaxPlayers];
    rollout_(state, rng, returns, search.averages);
    if (rollout_.by_move_averages()) search.averages.update(returns);
    for (Tree& tree : search.trees)
      for (const std::int32_t n : tree.path) {
        Node& visited = tree.nodes[n];
        ++visited.visits;
        if (visited.mover >= 0) visited.value += returns[visited.mover];
      }
  }

  // The child of `node` for a decision (`chance` false) or a chance outcome, or -1.
  static std::int32_t child_for(const Tree& tree, std::int32_t node, Action action,
                                bool chance = false) {
    const auto& nodes = tree.nodes;
    for (std::int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
      if (nodes[c].action == action && (nodes[c].mover == kChancePlayer) == chance) return c;
    return -1;
  }

  // With chance "seen": every tree whose seat sees `outcome` of the chance node `before` goes to
  // the branch for it, grown if new (a chance branch does not end the walk: only a decision
  // does); a tree whose seat does not see it stays where it is, open loop. A full tree stays.
  void follow_chance(Search& search, const State& before, Action outcome) const {
    for (std::size_t t = 0; t < search.trees.size(); ++t) {
      if (!sees_chance(*game_, before, outcome, search.seat_of(t))) continue;
      Tree& tree = search.trees[t];
      std::int32_t next = child_for(tree, tree.at, outcome, true);
      if (next < 0) {
        if (static_cast<std::int64_t>(tree.nodes.size()) >= settings_.max_nodes) continue;
        next = add_child(tree, tree.at, outcome, kChancePlayer, 0);
      }
      tree.at = next;
      tree.path.push_back(next);
    }
  }

  // Picks one of the `untried` legal moves (children[k] < 0) at random.
  static int random_untried(const std::int32_t* children, int untried, Rng& rng) {
    int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(untried)));
    int k = 0;
    for (;; ++k)
      if (children[k] < 0 && pick-- == 0) return k;
  }

  // The untried move whose position the evaluation ranks highest for the mover in this deal (ties
  // at random); `prior` receives its value.
  int best_untried(const State& state, const Action* legal, const std::int32_t* children, int count,
                   Rng& rng, double& prior) const {
    const Player mover = state.current_player();
    int best = -1, ties = 0;
    for (int k = 0; k < count; ++k) {
      if (children[k] >= 0) continue;
      State after = state;
      after.apply(legal[k]);
      const double value = prior_.value(after, mover);
      if (best < 0 || value > prior) {
        best = k;
        prior = value;
        ties = 1;
      } else if (value == prior && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
        best = k;
      }
    }
    return best;
  }

  static std::int32_t add_child(Tree& tree, std::int32_t node, Action action, Player mover,
                                double prior) {
    auto& nodes = tree.nodes;
    Node child;
    child.action = action;
    child.mover = static_cast<std::int8_t>(mover);
    child.prior = pack_prior(prior);
    child.available = 1;
    child.next_sibling = nodes[node].first_child;
    const auto index = static_cast<std::int32_t>(nodes.size());
    nodes.push_back(child);
    nodes[node].first_child = index;
    return index;
  }

  const G* game_;
  TreeSearchSettings settings_;
  Prior<G> prior_;
  Rollout<G> rollout_;
  bool seen_chance_;  // chance "seen": branch on the outcomes a tree's seat sees
  std::int64_t per_deal_ = 1;
  int seat_trees_ = 1;  // trees per search: one, or one per seat
  std::vector<Search> searches_;
  RootReport report_;  // stats(), last_value(), searched_moves()
};

}  // namespace rivals
