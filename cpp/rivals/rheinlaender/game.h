// Rheinländer for 3-5 players on a map given as data. Rules: docs/rules/rheinlaender.md.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/core/json.h"
#include "rivals/core/rng.h"
#include "rivals/rheinlaender/state.h"

namespace rivals::rheinlaender {

class Rheinlaender {
 public:
  RIVALS_GAME_DECLARATIONS(rheinlaender, Rheinlaender);

  int num_players() const { return data_->setup.players; }
  int num_distinct_actions() const { return data_->setup.num_actions; }
  // Cards 0..N at a deal or draw, landmark chips at the setup's chance nodes.
  int max_chance_outcomes() const {
    return std::max(data_->setup.board.max_number + 1, kChipKinds);
  }
  // Setup chance nodes, then at most bastion, card, draw and redraw per turn.
  int max_game_length() const {
    const Setup& g = data_->setup;
    return g.board.sites + kHandSize * g.players + 4 * g.max_turns;
  }
  std::vector<int> observation_shape() const;
  State initial_state() const { return State(data_->setup); }
  // The map document, as read.
  // The map document in use, under its parameter's name.
  const Json& data() const { return data_->data; }

  // A position the search does not play out, from `player`'s side (docs/rules/rheinlaender.md,
  // "Evaluation (for search bots)"); reads the whole state, hands included.
  double evaluate(const State& state, Player player) const;
  bool same_side(Player a, Player b) const { return a == b; }
  std::vector<int> compact_board_shape() const {
    return {2 * data_->setup.players + 2, data_->setup.board.spaces};
  }
  int compact_features_size() const;

  // Hidden information (docs/rules/rheinlaender.md, "Hidden information"): the cards other seats
  // receive are hidden; a resampled history re-deals those of them that are never played.
  std::vector<Action> resample_history(const std::vector<Action>& history, Player player,
                                       Rng& rng) const;
  std::string information_state_string(const State& state, const std::vector<Action>& history,
                                       Player player) const;
  // A card dealt or drawn is seen by its receiver alone; the landmark chips and the reshuffle
  // card, drawn face up, by everybody.
  bool sees_chance(const State& before, Action outcome, Player observer) const {
    const Phase phase = before.phase();
    if (phase == Phase::kDeal) return before.receiving() == observer;
    if (phase == Phase::kDraw || phase == Phase::kRedraw)
      return outcome == kReshuffleCard || before.receiving() == observer;
    return true;
  }

  // The string of a decision id; throws std::invalid_argument outside 0..num_distinct_actions-1.
  std::string action_name(Action action) const;

 private:
  // Both encodings: the space planes (the tensor's first (2n + 2) * S entries) into `spaces`, the
  // rest of the tensor into `rest`.
  template <class Cell>
  void write_observation(const State& state, Player player, Cell* spaces, float* rest) const;

  // Immutable and shared by copies of the game (vector environments copy it), so the states'
  // pointers to the setup stay valid as long as any copy lives.
  struct Data {
    Setup setup;
    Json data;  // {"map": the map document}
    Json map_param;
    std::vector<std::string> names;               // decision id -> string
    std::unordered_map<std::string, Action> ids;  // string -> decision id
    std::vector<std::string> card_names;          // chance outcome (card 0..N) -> string
    std::vector<std::string> chip_names;          // chance outcome (chip kind) -> string
  };
  // The strings of the chance outcomes of `state`'s node.
  const std::vector<std::string>& outcome_names(const State& state) const;
  // For every history position: the seat deciding, or -1 at chance; and the seat receiving a
  // number card there, or -1.
  struct Roles {
    std::vector<std::int8_t> actor;
    std::vector<std::int8_t> receiver;
  };
  Roles roles(const std::vector<Action>& history) const;
  std::string board_lines(const State& state) const;
  std::string status_lines(const State& state) const;

  std::shared_ptr<const Data> data_;
};

}  // namespace rivals::rheinlaender
