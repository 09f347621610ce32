// The Rheinländer map, compiled once per game for the hot path: every space is a bit of a
// 256-bit set, each space has its neighbour mask, each number its land spaces as a mask and its
// river space. Rules: docs/rules/rheinlaender.md; file format: docs/formats.md.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/bits.h"
#include "rivals/core/data.h"

namespace rivals::rheinlaender {

// Limits of the map format; they size the fixed arrays of the state.
inline constexpr int kMaxSpaces = 256;
inline constexpr int kMaxSites = 64;
inline constexpr int kMaxNumber = 63;  // card numbers and the reshuffle card fit one 64-bit mask
inline constexpr int kMaxNeighbours = 8;
inline constexpr int kMaxCity = 9;

// Landmark chip kinds, as the chip outcome offsets: castle, church, then city 1..9.
inline constexpr int kCastle = 0;
inline constexpr int kChurch = 1;
inline constexpr int kChipKinds = 2 + kMaxCity;

constexpr int chip_value(int kind) { return kind <= kChurch ? 1 : kind - 1; }

// The portable x86-64 baseline has no popcount instruction, and std::popcount then becomes a
// library call; counting inline is several times faster on the hot path.
constexpr int count_bits(std::uint64_t x) {
#ifdef __POPCNT__
  return std::popcount(x);
#else
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

// A set of spaces. Four words cover the largest map; unused high bits stay zero because every
// set is built from map masks, never by complementing.
class Bits {
 public:
  static constexpr int kWords = kMaxSpaces / 64;

  static constexpr Bits single(int i) {
    Bits b;
    b.set(i);
    return b;
  }

  constexpr bool test(int i) const { return (w_[i >> 6] >> (i & 63)) & 1; }
  constexpr void set(int i) { w_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  constexpr void reset(int i) { w_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  constexpr bool any() const { return (w_[0] | w_[1] | w_[2] | w_[3]) != 0; }
  constexpr bool intersects(const Bits& o) const {
    return ((w_[0] & o.w_[0]) | (w_[1] & o.w_[1]) | (w_[2] & o.w_[2]) | (w_[3] & o.w_[3])) != 0;
  }
  constexpr int count() const {
    return count_bits(w_[0]) + count_bits(w_[1]) + count_bits(w_[2]) + count_bits(w_[3]);
  }
  // At least two members: a domain, as opposed to a lone knight.
  constexpr bool several() const {
    int seen = 0;
    for (const std::uint64_t word : w_) seen += word == 0 ? 0 : (word & (word - 1)) ? 2 : 1;
    return seen >= 2;
  }
  // The lowest member; the set must not be empty.
  constexpr int first() const {
    for (int k = 0; k < kWords; ++k)
      if (w_[k]) return 64 * k + std::countr_zero(w_[k]);
    return -1;
  }

  // The k-th member in ascending order (k counted from 0, k < count()).
  constexpr int nth(int k) const {
    int word = 0;
    for (int c = count_bits(w_[word]); k >= c; c = count_bits(w_[++word])) k -= c;
    return 64 * word + nth_set_bit(w_[word], k);
  }

  // Calls fn(i) for every member in ascending order.
  template <class Fn>
  constexpr void for_each(Fn&& fn) const {
    for (int k = 0; k < kWords; ++k)
      for (std::uint64_t x = w_[k]; x; x &= x - 1) fn(64 * k + std::countr_zero(x));
  }

  constexpr Bits& operator|=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w_[k] |= o.w_[k];
    return *this;
  }
  constexpr Bits& operator&=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w_[k] &= o.w_[k];
    return *this;
  }
  constexpr Bits& operator^=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w_[k] ^= o.w_[k];
    return *this;
  }
  // this \ o
  constexpr Bits& remove(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w_[k] &= ~o.w_[k];
    return *this;
  }
  friend constexpr Bits operator|(Bits a, const Bits& b) { return a |= b; }
  friend constexpr Bits operator&(Bits a, const Bits& b) { return a &= b; }
  friend constexpr Bits operator^(Bits a, const Bits& b) { return a ^= b; }
  friend constexpr Bits minus(Bits a, const Bits& b) { return a.remove(b); }

 private:
  std::array<std::uint64_t, kWords> w_{};
};

// A validated map, by index: spaces 0..S-1 and sites 0..T-1 in file order.
struct Board {
  int spaces = 0;      // S
  int sites = 0;       // T
  int max_number = 0;  // N: numbers run 1..N
  std::vector<std::string> ids;
  std::vector<std::string> site_ids;
  std::vector<std::vector<int>> numbers;  // per space, ascending
  Bits land;
  std::array<Bits, kMaxSpaces> neighbours{};
  std::array<Bits, kMaxNumber + 1> land_of{};  // number -> its land spaces (islands included)
  std::array<std::int16_t, kMaxNumber + 1> river_of{};  // number -> its river space, or -1
  std::array<std::uint64_t, kMaxSpaces> sites_at{};     // space -> mask of the sites touching it
  Bits site_spaces;                                     // spaces touched by some site
  std::array<std::array<std::int16_t, 2>, kMaxSites> touches{};
  std::array<int, kChipKinds> chips{};  // chips to lay, per kind
};

// Reads and checks a `rivals-rheinlaender-map` document. Throws std::invalid_argument naming the
// document and the JSON path of the offending entry (`spaces[4].neighbours[1]`).
Board parse_map(const DataDocument& document);

}  // namespace rivals::rheinlaender
