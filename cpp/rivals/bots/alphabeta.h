// Depth-limited alpha-beta search with expectimax at chance nodes, iterative deepening and a
// transposition table on the state's 64-bit hash, for games that provide an evaluation.
//
// Values are from the searching player's side: terminal returns in [-1, 1], the game's
// evaluation of a cut-off position strictly inside that range, so a proven win is always preferred
// to a promising position. Chance nodes average their outcomes, each searched with the full
// window, so the value of a chance node is exact for the depth searched.
//
// Each value found also says whether it is proven: whether it stands to the game's true value
// (under best play to the end, not to the horizon) as alpha-beta's value stands to the
// depth-limited one, exact inside the window and a bound outside. A finished game is proven, a
// cut-off position is not; a decision is proven when every move it searched is, or when the move
// that decided it is: the one that cut the search off, or a proven win (the best there is, so
// the moves not yet searched cannot matter and are not searched). A chance node is proven when
// every outcome is. A depth whose root value is proven has solved the position: its value is the
// exact expected return under best play, and deepening stops there.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "rivals/bots/evaluation.h"
#include "rivals/core/deadline.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/threads.h"

namespace rivals {

inline constexpr const char* kAlphaBetaName = "alphabeta";

// Only a game with an evaluation has this bot (bots/bot_factory.h).
template <EvaluatedGame G>
class AlphaBetaBot {
  using State = typename G::State;

 public:
  static constexpr const char* kName = kAlphaBetaName;
  static constexpr int kMaxDepth = 64;
  static std::vector<ParamSpec> param_specs() {
    std::vector<ParamSpec> specs = {
        ParamSpec::integer("depth", Json(4), 1, kMaxDepth,
                           "decision plies searched, chance not counted"),
        ParamSpec::number("time_s", Json(0.0), 0, kMaxSeconds,
                          "seconds per move; when positive, deepen until it runs out"),
        budget_clock_spec(),
        ParamSpec::integer("table_mb", Json(64), 1, 4096, "transposition table size in MiB"),
    };
    for (ParamSpec& spec :
         evaluation_param_specs<G>("the evaluation that values the positions at the horizon"))
      specs.push_back(std::move(spec));
    return specs;
  }

  AlphaBetaBot(const G& game, const Json& params, std::uint64_t seed)
      : game_(&game),
        evaluator_(game, params),
        depth_(static_cast<int>(params.find("depth")->as_int())),
        time_s_(params.find("time_s")->as_number()),
        clock_(parse_budget_clock(params)),
        rng_(seed) {
    check_network_use<G>(kName, params, false);
    const std::int64_t table_mb = params.find("table_mb")->as_int();
    std::size_t entries = 1;
    while (entries * 2 * sizeof(Entry) <= static_cast<std::size_t>(table_mb) << 20) entries *= 2;
    table_.assign(entries, Entry{});
  }

  void reseed(std::uint64_t seed) { rng_ = Rng(seed); }

  Action step(const State& root) {
    double value = 0;
    return step(root, value);
  }

  // The move and its value from the mover's side at the deepest depth completed (returns in
  // [-1, 1] where the search reached the end, so +1 is a proven win). A single legal move is
  // played without a search and valued 0.
  Action step(const State& root, double& root_value) {
    Action legal[State::kMaxLegalActions];
    const int count = root.legal_actions(legal);
    root_value = 0;
    depth_done_ = 0;
    value_found_ = 0;
    solved_ = false;
    if (count == 1) return legal[0];
    me_ = root.current_player();
    deadline_ = Deadline(time_s_, clock_);
    out_of_time_ = false;
    nodes_ = 0;
    // Shuffled once per move, so equal values are broken at random (seeded) and the order
    // carries over from one depth to the next through the table's best move.
    for (int k = count - 1; k > 0; --k)
      std::swap(legal[k], legal[rng_.below(static_cast<std::uint32_t>(k + 1))]);
    Action best = legal[0];
    const int max_depth = time_s_ > 0 ? kMaxDepth : depth_;
    for (int depth = 1; depth <= max_depth; ++depth) {
      double alpha = -2.0;
      Action depth_best = best;
      bool all_proven = true, best_proven = false;
      order_first(legal, count, best);
      for (int k = 0; k < count && alpha < kWin; ++k) {
        State child = root;
        child.apply(legal[k]);
        const Value found = search(child, depth - 1, alpha, 2.0);
        if (out_of_time_) break;
        all_proven &= found.proven;
        if (found.value > alpha) {
          alpha = found.value;
          depth_best = legal[k];
          best_proven = found.proven;
        }
      }
      if (out_of_time_) break;
      best = depth_best;
      root_value = alpha;
      depth_done_ = depth;
      value_found_ = alpha;
      if (alpha >= kWin ? best_proven : all_proven) {
        solved_ = true;
        break;
      }
    }
    return best;
  }

  std::int64_t nodes() const { return nodes_; }

  // The current or last move's search: the deepest depth completed, the value found there (as
  // step's) and whether it solved the position. Readable from another thread while the search
  // runs.
  Json stats() const {
    return Json::object({{"depth", Json(depth_done_.load())},
                         {"value", Json(value_found_.load())},
                         {"solved", Json(solved_.load())}});
  }

 private:
  enum Bound : std::uint8_t { kEmpty, kExact, kLower, kUpper };
  // The best return there is; the evaluation stays strictly inside (-1, 1).
  static constexpr double kWin = 1.0;

  struct Value {
    double value;
    bool proven;  // above: whether it holds for the game played to the end
  };

  struct Entry {
    std::uint64_t key = 0;
    float value = 0;
    Action best = -1;
    std::int16_t depth = -1;
    Bound bound = kEmpty;
    bool proven = false;
  };

  static void order_first(Action* actions, int count, Action first) {
    for (int k = 0; k < count; ++k) {
      if (actions[k] == first) {
        for (int j = k; j > 0; --j) actions[j] = actions[j - 1];
        actions[0] = first;
        return;
      }
    }
  }

  Value search(const State& state, int depth, double alpha, double beta) {
    if ((++nodes_ & 1023) == 0) {
      interruption_point();
      if (time_s_ > 0 && deadline_.passed()) out_of_time_ = true;
    }
    if (out_of_time_) return {0, false};
    if (state.is_terminal()) {
      double returns[kMaxPlayers];
      state.returns(returns);
      return {returns[me_], true};
    }
    if (depth == 0) return {evaluator_.value(state, me_), false};
    if (state.is_chance_node()) {
      ChanceOutcome outcomes[State::kMaxChanceOutcomes];
      const int count = state.chance_outcomes(outcomes);
      Value mean{0, true};
      for (int k = 0; k < count; ++k) {
        State child = state;
        child.apply(outcomes[k].action);
        const Value found = search(child, depth, -2.0, 2.0);
        mean.value += outcomes[k].probability * found.value;
        mean.proven &= found.proven;
      }
      return mean;
    }

    // Values are from me_'s side, so a table shared by both seats' searches keys them apart.
    const std::uint64_t key = state.hash() ^ mix64(static_cast<std::uint64_t>(me_) + 1);
    Entry& entry = table_[key & (table_.size() - 1)];
    Action hinted = -1;
    if (entry.key == key && entry.bound != kEmpty) {
      hinted = entry.best;
      if (entry.depth >= depth &&
          (entry.bound == kExact || (entry.bound == kLower && entry.value >= beta) ||
           (entry.bound == kUpper && entry.value <= alpha)))
        return {entry.value, entry.proven};
    }

    Action legal[State::kMaxLegalActions];
    const int count = state.legal_actions(legal);
    if (hinted >= 0) order_first(legal, count, hinted);
    const bool maximising = game_->same_side(state.current_player(), me_);
    const double alpha0 = alpha, beta0 = beta;
    double best_value = maximising ? -2.0 : 2.0;
    Action best = legal[0];
    bool all_proven = true, best_proven = false, decided = false;
    for (int k = 0; k < count; ++k) {
      State child = state;
      child.apply(legal[k]);
      const Value found = search(child, depth - 1, alpha, beta);
      if (out_of_time_) return {0, false};
      all_proven &= found.proven;
      if (maximising ? found.value > best_value : found.value < best_value) {
        best_value = found.value;
        best = legal[k];
        best_proven = found.proven;
      }
      if (maximising)
        alpha = std::max(alpha, found.value);
      else
        beta = std::min(beta, found.value);
      decided = alpha >= beta || (maximising ? best_value >= kWin : best_value <= -kWin);
      if (decided) break;
    }
    const bool proven = decided ? best_proven : all_proven;

    if (entry.key != key || entry.depth <= depth) {
      entry.key = key;
      entry.value = static_cast<float>(best_value);
      entry.best = best;
      entry.depth = static_cast<std::int16_t>(depth);
      entry.bound = best_value <= alpha0 ? kUpper : (best_value >= beta0 ? kLower : kExact);
      entry.proven = proven;
    }
    return {best_value, proven};
  }

  const G* game_;
  Evaluator<G> evaluator_;
  int depth_;
  double time_s_;
  BudgetClock clock_;
  Rng rng_;
  std::vector<Entry> table_;
  Player me_ = 0;
  Deadline deadline_{0, BudgetClock::kWall};
  bool out_of_time_ = false;
  std::int64_t nodes_ = 0;
  // The current or last move's search, for stats().
  CopyableAtomic<int> depth_done_ = 0;
  CopyableAtomic<double> value_found_ = 0.0;
  CopyableAtomic<bool> solved_ = false;
};

}  // namespace rivals
