// Sekigahara for 2 players. Rules: docs/rules/sekigahara.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/core/json.h"
#include "rivals/core/rng.h"
#include "rivals/sekigahara/solver_bot.h"
#include "rivals/sekigahara/state.h"

namespace rivals::sekigahara {

inline constexpr int kObservationSize = 251;
// The compact observation's board is the camps, the first 162 entries of the tensor.
inline constexpr int kCampCells = 162;

class Sekigahara {
 public:
  RIVALS_GAME_DECLARATIONS(sekigahara, Sekigahara);
  // The exact solver plays as a bot of this game alone.
  using ExtraBots = BotList<SolverBot>;

  // The card document in use, under its parameter's name.
  const Json& data() const { return *data_; }
  int num_players() const { return 2; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return kNumCards; }
  // At most 3 action-phase decisions per turn, plus 9 reveals, 2 ability and 7 order decisions.
  int max_game_length() const { return 3 * setup_.max_turns + 18; }
  std::vector<int> observation_shape() const { return {kObservationSize}; }
  State initial_state() const { return State(setup_); }
  const Setup& setup() const { return setup_; }

  std::vector<int> compact_board_shape() const { return {2, 9, 9}; }
  int compact_features_size() const { return kObservationSize - kCampCells; }

  // For search (bots/alphabeta.h): docs/rules/sekigahara.md, "Evaluation".
  double evaluate(const State& state, Player player) const;
  bool same_side(Player a, Player b) const { return a == b; }

  // For search bots (core/game_concept.h, EndgameSolvingGame): an optimal action found by a
  // fresh exact solver (solver.h) within `seconds` of `clock`, or nothing when it runs out.
  // Positions with six cards left to win (three in the deck) take it about 0.07 s, with seven about
  // 0.7 s, so it is tried from three cards in the deck on.
  std::optional<Action> solved_action(const State& state, double seconds, BudgetClock clock) const;

  // Everything is public and reveals are uniform, so the history is the information state and
  // the only history consistent with it is itself.
  std::vector<Action> resample_history(const std::vector<Action>& history, Player player,
                                       Rng& rng) const;
  std::string information_state_string(const State& state, const std::vector<Action>& history,
                                       Player player) const;

 private:
  // Both encodings: the camps into `camps`, the rest of the tensor into `rest`.
  template <class Cell>
  void write_observation(const State& state, Player player, Cell* camps, float* rest) const;

  Setup setup_;
  Json cards_param_;
  std::shared_ptr<const Json> data_;
};

// The string of a decision id 0-108 or, with `chance`, of a chance outcome 0-8; throws
// std::invalid_argument outside those ranges.
std::string action_name(Action action, bool chance);

}  // namespace rivals::sekigahara
