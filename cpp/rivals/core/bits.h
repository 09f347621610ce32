// Bit tricks used by every game's masks and bitboards.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "rivals/core/rng.h"

namespace rivals {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; 128 bits hold a 9x10 board

// Per byte of x, the number of its set bits.
constexpr std::uint64_t byte_counts(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
}

// A wheel is built for every x86-64, where std::popcount without -mpopcnt is a call into libgcc
// through the PLT; a few multiplies inline cost less than the call.
constexpr int popcount(std::uint64_t x) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return std::popcount(x);
#else
  return static_cast<int>((byte_counts(x) * 0x0101010101010101ULL) >> 56);
#endif
}
constexpr int popcount(u128 x) {
  return popcount(static_cast<std::uint64_t>(x)) + popcount(static_cast<std::uint64_t>(x >> 64));
}
constexpr int lowest_bit(std::uint64_t x) { return std::countr_zero(x); }
constexpr int lowest_bit(u128 x) {
  const auto low = static_cast<std::uint64_t>(x);
  return low ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(x >> 64));
}
constexpr u128 bit128(int i) { return static_cast<u128>(1) << i; }

// kNthBitOfByte[b][k]: the position of the k-th set bit of byte b.
inline constexpr auto kNthBitOfByte = [] {
  std::array<std::array<std::uint8_t, 8>, 256> table{};
  for (int byte = 0; byte < 256; ++byte)
    for (int bit = 0, k = 0; bit < 8; ++bit)
      if ((byte >> bit) & 1) table[byte][k++] = static_cast<std::uint8_t>(bit);
  return table;
}();

// Index of the k-th set bit (k counted from 0, k < popcount(mask)) of a 64-bit mask. Used to draw
// a uniform card from a pile kept as a mask: one random number, no array to maintain. Without a
// loop over the bits: the byte holding it is found from the bytes' running bit counts (each below
// 128, so comparing all eight bytes at once cannot borrow across them), then a table look-up.
constexpr int nth_set_bit(std::uint64_t mask, int k) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const std::uint64_t running = byte_counts(mask) * kOnes;  // byte i: bits set in bytes 0..i
  const std::uint64_t past_k =
      ((running | kHighs) - kOnes * static_cast<std::uint64_t>(k + 1)) & kHighs;
  const int byte = std::countr_zero(past_k) >> 3;
  const int before = byte == 0 ? 0 : static_cast<int>((running >> (8 * byte - 8)) & 0xff);
  return 8 * byte + kNthBitOfByte[(mask >> (8 * byte)) & 0xff][k - before];
}

inline constexpr auto kBitsOfByte = [] {
  std::array<std::uint8_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte)
    table[byte] = static_cast<std::uint8_t>(byte_counts(static_cast<std::uint64_t>(byte)));
  return table;
}();

// nth_set_bit for a mask of at most 24 bits (a pile of cards): the same answer from two byte
// counts, two comparisons and one look-up, about half the work of the 64-bit form.
constexpr int nth_set_bit24(std::uint32_t mask, int k) {
  const int below_byte1 = kBitsOfByte[mask & 0xff];
  const int below_byte2 = below_byte1 + kBitsOfByte[(mask >> 8) & 0xff];
  const int past1 = k >= below_byte1;
  const int past2 = k >= below_byte2;
  const int byte = past1 + past2;
  // Products, not a choice: a branch here is a coin toss for the predictor.
  const int before = past1 * below_byte1 + past2 * (below_byte2 - below_byte1);
  return 8 * byte + kNthBitOfByte[(mask >> (8 * byte)) & 0xff][k - before];
}

constexpr int random_set_bit(std::uint64_t mask, Rng& rng) {
  return nth_set_bit(mask, static_cast<int>(rng.below(static_cast<std::uint32_t>(popcount(mask)))));
}

}  // namespace rivals
