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

struct ChanceOutcome {
  Action action;
  double probability;
};

}  // namespace rivals
