// Bit tricks used by every game's masks and bitboards.
#pragma once

#include <bit>
#include <cstdint>

#include "rivals/core/rng.h"

namespace rivals {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; 128 bits hold a 9x10 board

constexpr int popcount(std::uint64_t x) { return std::popcount(x); }
constexpr int popcount(u128 x) {
  return std::popcount(static_cast<std::uint64_t>(x)) +
         std::popcount(static_cast<std::uint64_t>(x >> 64));
}
constexpr int lowest_bit(std::uint64_t x) { return std::countr_zero(x); }
constexpr int lowest_bit(u128 x) {
  const auto low = static_cast<std::uint64_t>(x);
  return low ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(x >> 64));
}
constexpr u128 bit128(int i) { return static_cast<u128>(1) << i; }

// Index of the k-th set bit (k counted from 0) of a 64-bit mask. Used to draw a uniform card
// from a pile kept as a mask: one random number and a short loop, no array to maintain.
constexpr int nth_set_bit(std::uint64_t mask, int k) {
  for (; k > 0; --k) mask &= mask - 1;
  return std::countr_zero(mask);
}

constexpr int random_set_bit(std::uint64_t mask, Rng& rng) {
  return nth_set_bit(mask, static_cast<int>(rng.below(static_cast<std::uint32_t>(popcount(mask)))));
}

}  // namespace rivals
