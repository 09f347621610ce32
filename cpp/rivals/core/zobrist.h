// Zobrist keys for incremental 64-bit hashing. Every game draws its keys from one fixed stream so
// that hashes are stable across runs, builds and platforms (a hash may be stored in a table file).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "rivals/core/rng.h"

namespace rivals {

// `salt` separates the key families of one game (stones, cards, turn, ...).
template <std::size_t N>
constexpr std::array<std::uint64_t, N> zobrist_keys(std::uint64_t salt) {
  std::array<std::uint64_t, N> keys{};
  for (std::size_t i = 0; i < N; ++i) keys[i] = mix64(salt * 0x9e3779b97f4a7c15ULL + i + 1);
  return keys;
}

}  // namespace rivals
