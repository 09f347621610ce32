// Verräter (Traitor) for 3 or 4 players. Rules: docs/rules/verraeter.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/core/json.h"
#include "rivals/core/rng.h"
#include "rivals/verraeter/state.h"

namespace rivals::verraeter {

class Verraeter {
 public:
  RIVALS_GAME_DECLARATIONS(verraeter, Verraeter);

  // The card document in use, under its parameter's name.
  const Json& data() const { return *data_; }
  int num_players() const { return setup_->players; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return State::kMaxChanceOutcomes; }
  int max_game_length() const;
  std::vector<int> observation_shape() const { return {observation_size()}; }
  // States point to the setup, which is shared so that copies of the game keep it alive.
  State initial_state() const { return State(*setup_); }
  const Setup& setup() const { return *setup_; }

  // A position the search does not play out, from `player`'s side (docs/rules/verraeter.md,
  // "Evaluation (for search bots)"); reads the whole state, hands and drafted cards included.
  double evaluate(const State& state, Player player) const;
  bool same_side(Player a, Player b) const { return a == b; }
  std::vector<int> compact_board_shape() const { return {10 + setup_->players, kRingSize}; }
  int compact_features_size() const { return 20 * setup_->players + 29; }

  // Hidden information (docs/rules/verraeter.md, "Hidden information"); in hidden.cpp.
  std::vector<Action> resample_history(const std::vector<Action>& history, Player player,
                                       Rng& rng) const;
  std::string information_state_string(const State& state, const std::vector<Action>& history,
                                       Player player) const;
  // Another seat's draft pick shows as kHiddenPick (every card alike) until the reveal.
  static constexpr Action kHiddenPick = kNumActions;
  Action observed_action(const State& before, Action action, Player observer) const {
    const bool hidden = !before.is_chance_node() && before.phase() == Phase::kDraft &&
                        before.current_player() != observer;
    return hidden ? kHiddenPick : action;
  }
  // The ring is laid face up; the set-aside action card is known at once only to the start
  // player, who receives the other five, and a supply card drawn only to the seat that draws it.
  bool sees_chance(const State& before, Action /*outcome*/, Player observer) const {
    switch (before.phase()) {
      case Phase::kRing:
        return true;
      case Phase::kDraft:
        return before.start_player() == observer;
      default:
        return before.queue_at(0) == observer;
    }
  }

 private:
  // Both encodings: flag k of ring position i goes to ring[i * position_stride + k * flag_stride],
  // the rest of the tensor to `rest`.
  template <class Cell>
  void write_observation(const State& state, Player player, Cell* ring, int position_stride,
                         int flag_stride, float* rest) const;

  int observation_size() const {
    return kRingSize * (10 + setup_->players) + 20 * setup_->players + 29;
  }

  std::shared_ptr<const Setup> setup_;
  Json cards_param_;
  std::shared_ptr<const Json> data_;
};

// What the action ids of a node mean: decisions, or one of the three kinds of chance outcome.
enum class IdKind : std::int8_t { kDecision, kLandscape, kAside, kDraw };
IdKind id_kind(const State& state);

// The string of an action id of that kind; throws std::invalid_argument outside the kind's range
// (decisions 0-55, landscapes 0-11, action cards 0-5, draws 0-5) and for supply value ids the
// card set does not have.
std::string action_name(Action action, IdKind kind, const Cards& cards);

}  // namespace rivals::verraeter
