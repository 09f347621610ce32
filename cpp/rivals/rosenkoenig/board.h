// The Rosenkönig board as 128-bit bitboards.
//
// Squares are numbered row * 10 + col: each row of 9 squares is followed by one guard bit that is
// never part of the board. With the guard, a shift by one column cannot wrap a stone from one row
// into the next (it lands on a guard bit, which the board mask removes), so orthogonal flood fill
// is four shifts and a mask. Square 90, just past the board, is the off-board sentinel of the
// landing table.
#pragma once

#include <array>
#include <cstdint>

#include "rivals/core/bits.h"

namespace rivals::rosenkoenig {

inline constexpr int kSize = 9;
inline constexpr int kStride = 10;
inline constexpr int kSquares = kSize * kStride;  // 90 bit positions, 81 of them on the board
inline constexpr int kOffBoard = kSquares;
inline constexpr int kCentre = 4 * kStride + 4;

constexpr int square(int row, int col) { return row * kStride + col; }
constexpr int row_of(int sq) { return sq / kStride; }
constexpr int col_of(int sq) { return sq % kStride; }

inline constexpr u128 kBoardMask = [] {
  u128 mask = 0;
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) mask |= bit128(square(r, c));
  return mask;
}();

constexpr u128 orthogonal_neighbours(u128 stones) {
  return ((stones << 1) | (stones >> 1) | (stones << kStride) | (stones >> kStride)) & kBoardMask;
}

// Directions in card order; a card id is direction * 3 + (distance - 1).
inline constexpr int kDirections = 8;
inline constexpr int kCards = 24;
inline constexpr std::array<const char*, kDirections> kDirectionNames = {"N", "NE", "E", "SE",
                                                                         "S", "SW", "W", "NW"};
inline constexpr std::array<int, kDirections> kRowStep = {-1, -1, 0, 1, 1, 1, 0, -1};
inline constexpr std::array<int, kDirections> kColStep = {0, 1, 1, 1, 0, -1, -1, -1};

constexpr int card_direction(int card) { return card / 3; }
constexpr int card_distance(int card) { return card % 3 + 1; }

// kLanding[sq][card]: where the crown lands, or kOffBoard. A legality test is then one look-up
// and one bit test, with no edge arithmetic on the hot path.
inline constexpr auto kLanding = [] {
  std::array<std::array<std::uint8_t, kCards>, kSquares> table{};
  for (int sq = 0; sq < kSquares; ++sq) {
    for (int card = 0; card < kCards; ++card) {
      const int r = row_of(sq) + kRowStep[card_direction(card)] * card_distance(card);
      const int c = col_of(sq) + kColStep[card_direction(card)] * card_distance(card);
      const bool on_board = col_of(sq) < kSize && r >= 0 && r < kSize && c >= 0 && c < kSize;
      table[sq][card] = static_cast<std::uint8_t>(on_board ? square(r, c) : kOffBoard);
    }
  }
  return table;
}();

struct GroupScore {
  int points = 0;   // sum of group sizes squared
  int largest = 0;  // size of the largest group
  int stones = 0;
};

// Groups are orthogonally connected; diagonal neighbours do not join. Inline: every random
// playout ends with it.
inline GroupScore score_stones(u128 stones) {
  GroupScore score;
  score.stones = popcount(stones);
  // Most groups on a finished board are single stones: count them with one mask and flood-fill
  // only what is left.
  const u128 isolated = stones & ~orthogonal_neighbours(stones);
  const int singles = popcount(isolated);
  score.points = singles;
  score.largest = singles > 0 ? 1 : 0;
  u128 rest = stones & ~isolated;
  while (rest) {
    u128 group = rest & (~rest + 1);  // lowest stone
    for (u128 grown = group | (orthogonal_neighbours(group) & rest); grown != group;
         grown = group | (orthogonal_neighbours(group) & rest))
      group = grown;
    rest &= ~group;
    const int size = popcount(group);
    score.points += size * size;
    if (size > score.largest) score.largest = size;
  }
  return score;
}

}  // namespace rivals::rosenkoenig
