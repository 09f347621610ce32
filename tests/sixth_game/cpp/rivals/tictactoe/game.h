// Tic-tac-toe, the game that tests/test_adding_a_game.py adds by docs/architecture.md's "Adding a
// game", outside the library: X (seat 0) and O take turns to mark an empty cell of a 3x3 grid;
// three in a row wins (+1, the other -1), a full grid without one is a draw. Action c marks cell
// c = 3 * row + column, written "r<row>c<column>". Rules: tests/sixth_game/rules.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/game_info.h"
#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"

namespace rivals::tictactoe {

inline constexpr int kCells = 9;

class State {
 public:
  static constexpr int kMaxLegalActions = kCells;
  static constexpr int kMaxChanceOutcomes = 1;

  Player current_player() const {
    return winner_ != kNone || moves_ == kCells ? kTerminalPlayer : moves_ % 2;
  }
  bool is_chance_node() const { return false; }
  bool is_terminal() const { return current_player() == kTerminalPlayer; }
  int legal_actions(Action* out) const {
    int n = 0;
    if (is_terminal()) return 0;
    for (int cell = 0; cell < kCells; ++cell)
      if (cells_[cell] == kNone) out[n++] = cell;
    return n;
  }
  int chance_outcomes(ChanceOutcome*) const { return 0; }
  Action sample_chance(Rng&) const { return 0; }
  void apply(Action cell) {
    const auto mover = static_cast<std::int8_t>(moves_ % 2);
    cells_[cell] = mover;
    hash_ += static_cast<std::uint64_t>(mover + 1) * kPowers[cell];
    ++moves_;
    for (const auto& line : kLines)
      if (cells_[line[0]] == mover && cells_[line[1]] == mover && cells_[line[2]] == mover)
        winner_ = mover;
  }
  void returns(double* out) const {
    out[0] = winner_ == kNone ? 0 : (winner_ == 0 ? 1 : -1);
    out[1] = -out[0];
  }
  std::uint64_t hash() const { return hash_; }
  // The seat that marked `cell`, or -1.
  int mark(int cell) const { return cells_[cell]; }

  bool operator==(const State&) const = default;

 private:
  static constexpr std::int8_t kNone = -1;
  static constexpr std::array<std::uint64_t, kCells> kPowers = {1,   3,   9,    27,  81,
                                                                243, 729, 2187, 6561};
  static constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                       {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
  std::array<std::int8_t, kCells> cells_ = {kNone, kNone, kNone, kNone, kNone,
                                            kNone, kNone, kNone, kNone};
  std::int8_t moves_ = 0;
  std::int8_t winner_ = kNone;
  std::uint64_t hash_ = 0;
};

class TicTacToe {
 public:
  static constexpr const char* kName = "tictactoe";
  using State = tictactoe::State;

  static std::vector<ParamSpec> param_specs() { return {}; }
  static GameInfo info() {
    return {.long_name = "Tic-tac-toe",
            .description = "three in a row on a 3x3 grid",
            .information = Information::kPerfect,
            .utility = Utility::kZeroSum,
            .observation_low = 0,
            .observation_high = 1};
  }
  explicit TicTacToe(const Json&) {}

  Json params() const { return Json::object(); }
  int num_players() const { return 2; }
  int num_distinct_actions() const { return kCells; }
  int max_chance_outcomes() const { return 0; }
  int max_game_length() const { return kCells; }
  std::vector<int> observation_shape() const { return {3, 3, 3}; }
  State initial_state() const { return {}; }

  std::string action_to_string(const State&, Action cell) const {
    if (cell < 0 || cell >= kCells) throw InvalidArgument("no cell " + std::to_string(cell));
    return "r" + std::to_string(cell / 3) + "c" + std::to_string(cell % 3);
  }
  Action string_to_action(const State& state, std::string_view text) const {
    for (Action cell = 0; cell < kCells; ++cell)
      if (action_to_string(state, cell) == text) return cell;
    throw InvalidArgument("no cell " + quoted(text) + " (r0c0 to r2c2)");
  }
  void scores(const State& state, double* out) const { state.returns(out); }
  Json to_json(const State& state) const {
    Json::Array rows;
    for (int row = 0; row < 3; ++row) {
      std::string text;
      for (int col = 0; col < 3; ++col) text += ".XO"[state.mark(3 * row + col) + 1];
      rows.emplace_back(text);
    }
    return Json::object({{"board", Json(std::move(rows))}});
  }
  std::string to_string(const State& state) const { return to_json(state).dump(); }
  std::string observation_string(const State& state, Player) const { return to_string(state); }
  // Planes: the seat's own marks, the other's, the empty cells.
  void observation_tensor(const State& state, Player player, float* out) const {
    for (int cell = 0; cell < kCells; ++cell) {
      const int mark = state.mark(cell);
      out[cell] = mark == player ? 1.0f : 0.0f;
      out[kCells + cell] = mark == 1 - player ? 1.0f : 0.0f;
      out[2 * kCells + cell] = mark == -1 ? 1.0f : 0.0f;
    }
  }
  std::vector<int> compact_board_shape() const { return {2, 3, 3}; }
  int compact_features_size() const { return 0; }
  void compact_observation(const State& state, Player player, std::uint8_t* board, float*) const {
    for (int cell = 0; cell < kCells; ++cell) {
      board[cell] = state.mark(cell) == player ? 1 : 0;
      board[kCells + cell] = state.mark(cell) == 1 - player ? 1 : 0;
    }
  }
};

}  // namespace rivals::tictactoe
