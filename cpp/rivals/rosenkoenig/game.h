// Rosenkönig (The Rose King) for 2 players, or 4 in two teams. Rules: docs/rules/rosenkoenig.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rivals/core/game_info.h"
#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/rosenkoenig/state.h"

namespace rivals::rosenkoenig {

class Rosenkoenig {
 public:
  static constexpr const char* kName = "rosenkoenig";
  using State = rosenkoenig::State;

  static std::vector<ParamSpec> param_specs();
  static GameInfo info();
  explicit Rosenkoenig(const Json& params);

  Json params() const;
  int num_players() const { return setup_.players; }
  int num_distinct_actions() const { return kNumActions; }
  int max_chance_outcomes() const { return kCards; }
  int max_game_length() const;
  std::vector<int> observation_shape() const;
  State initial_state() const { return State(setup_); }

  std::string action_to_string(const State& state, Action action) const;
  Action string_to_action(const State& state, std::string_view text) const;
  void scores(const State& state, double* out) const;
  Json to_json(const State& state) const;
  std::string to_string(const State& state) const;
  std::string observation_string(const State& state, Player player) const;
  void observation_tensor(const State& state, Player player, float* out) const;
  std::vector<int> compact_board_shape() const { return {3, kSize, kSize}; }
  int compact_features_size() const { return 25 + 26 * setup_.players; }
  void compact_observation(const State& state, Player player, std::uint8_t* board,
                           float* features) const;

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
