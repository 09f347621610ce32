// The vocabulary every game shares: actions, players, chance outcomes.
#pragma once

#include <cstdint>

namespace rivals {

// Actions are small non-negative integers; each game documents its own numbering.
using Action = std::int32_t;
using Player = std::int32_t;

// The same sentinels as OpenSpiel, so researchers' code reads the same.
inline constexpr Player kChancePlayer = -1;
inline constexpr Player kTerminalPlayer = -4;

inline constexpr int kMaxPlayers = 5;

// The three questions the engine asks of every state about who moves, for a State whose
// `to_move_` holds a seat, kChancePlayer or kTerminalPlayer: `class State : public
// ToMove<State>`, with `friend class ToMove<State>` beside its to_move_. Empty, it adds nothing to
// the State's size, and the State keeps to_move_ where its layout packs it.
template <class State>
class ToMove {
 public:
  Player current_player() const { return state().to_move_; }
  bool is_chance_node() const { return state().to_move_ == kChancePlayer; }
  bool is_terminal() const { return state().to_move_ == kTerminalPlayer; }

 private:
  const State& state() const { return static_cast<const State&>(*this); }
};

struct ChanceOutcome {
  Action action;
  double probability;
};

}  // namespace rivals
