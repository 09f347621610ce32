// Battlecards: Western European Theater, for 2 players. Rules and encoding:
// docs/rules/battlecards.md.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rivals/battlecards/cards.h"
#include "rivals/battlecards/state.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/json.h"
#include "rivals/core/rng.h"

namespace rivals::battlecards {

inline constexpr int kObservationGlobals = 66;
// Expansion packs one game may merge (each adds cards; the arsenals hold at most 128).
inline constexpr std::size_t kMaxExpansions = 64;

class Battlecards {
 public:
  RIVALS_GAME_DECLARATIONS(battlecards, Battlecards);

  // The card set and the expansion packs in use, under their parameters' names.
  const Json& data() const { return *data_; }
  int num_players() const { return 2; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return State::kMaxChanceOutcomes; }
  int max_game_length() const { return max_game_length_; }
  std::vector<int> observation_shape() const { return {observation_size_}; }
  // States point to the card set, which the shared_ptr keeps in place however the game moves.
  State initial_state() const { return State(cards_.get(), max_turns_); }
  const CardSet& card_set() const { return *cards_; }

  // A position the search does not play out, from `player`'s side (docs/rules/battlecards.md,
  // "Evaluation (for search bots)"); reads the whole state, face-down and kept cards included.
  double evaluate(const State& state, Player player) const;
  bool same_side(Player a, Player b) const { return a == b; }
  // The arsenal flags (the tensor's first 9 N entries) as 9 bit planes over the N arsenal cards.
  std::vector<int> compact_board_shape() const { return {9, arsenal_cards_}; }
  int compact_features_size() const { return observation_size_ - 9 * arsenal_cards_; }

  // Hidden information (rules page, "Information state"): the history with a permutation of the
  // cards `player` has not seen, drawn with `rng` exactly as the page prescribes.
  std::vector<Action> resample_history(const std::vector<Action>& history, Player player,
                                       Rng& rng) const;
  std::string information_state_string(const State& state, const std::vector<Action>& history,
                                       Player player) const;
  // The other seat's face-down deploy shows only its type: kHiddenDeploy + type.
  static constexpr Action kHiddenDeploy = kNumActions;
  Action observed_action(const State& before, Action action, Player observer) const;
  // A card dealt or drawn to the other side, or a kept card it draws, is hidden from `observer`;
  // every other chance outcome (the conflict cards turned over) is seen.
  bool sees_chance(const State& before, Action outcome, Player observer) const;

 private:
  // Both encodings: flag j of arsenal card a (in the tensor's order) goes to
  // arsenal[a * card_stride + j * flag_stride], the rest of the tensor to `rest`.
  template <class Cell>
  void write_observation(const State& state, Player player, Cell* arsenal, int card_stride,
                         int flag_stride, float* rest) const;

  // The table as text; `viewer` sees only their own hidden cards (-1: everything).
  std::string picture(const State& state, Player viewer) const;

  std::shared_ptr<const CardSet> cards_;
  Json params_;
  std::shared_ptr<const Json> data_;
  std::int32_t max_turns_ = 1000;
  int max_game_length_ = 0;
  int observation_size_ = 0;
  int arsenal_cards_ = 0;                              // of both sides
  std::unordered_map<std::string, int> arsenal_ids_;   // id -> global arsenal index
  std::unordered_map<std::string, int> conflict_ids_;  // id -> conflict index
};

}  // namespace rivals::battlecards
