// Rosenkönig (The Rose King) for 2 players, or 4 in two teams. Rules: docs/rules/rosenkoenig.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/rosenkoenig/state.h"

namespace rivals::rosenkoenig {

class Rosenkoenig {
 public:
  RIVALS_GAME_DECLARATIONS(rosenkoenig, Rosenkoenig);

  int num_players() const { return setup_.players; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return kCards; }
  int max_game_length() const;
  std::vector<int> observation_shape() const;
  State initial_state() const { return State(setup_); }

  std::vector<int> compact_board_shape() const { return {3, kSize, kSize}; }
  int compact_features_size() const { return 25 + 26 * setup_.players; }

  // For search (bots/evaluation.h): docs/rules/rosenkoenig.md, "Evaluation". The first is the
  // default; "thesis" follows the published thesis engine, "calibrated" takes its hero worth on
  // the scale of played games.
  static std::vector<std::string> evaluations() { return {"default", "thesis", "calibrated"}; }
  double evaluate(const State& state, Player player, int evaluation) const;
  double evaluate(const State& state, Player player) const { return evaluate(state, player, 0); }
  bool same_side(Player a, Player b) const { return State::colour_of(a) == State::colour_of(b); }

 private:
  Setup setup_;
};

std::string card_name(int card);

}  // namespace rivals::rosenkoenig
