// The nine Sekigahara daimyo cards: numbers from the card file, abilities fixed by id, and the
// final scoring of two camps. Rules: docs/rules/sekigahara.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "rivals/core/data.h"

namespace rivals::sekigahara {

// Card ids are 1-9; sets of cards are 16-bit masks with bit `id` set (bit 0 unused).
inline constexpr int kNumCards = 9;
inline constexpr std::uint16_t kAllCards = 0x3fe;
inline constexpr int kTokens = 5;   // influence tokens per player
inline constexpr int kCentral = 3;  // central cards while the game runs

// The ids that carry a rule of their own.
inline constexpr int kSanada = 1;      // scoring: the opponent's highest base card counts 2
inline constexpr int kAnkokuji = 2;    // equal influence is an advantage
inline constexpr int kOtani = 3;       // chooses the target of the opponent's card 7
inline constexpr int kIi = 4;          // scoring: +1 per card to its left
inline constexpr int kHosokawa = 5;    // on acquisition: blank one card
inline constexpr int kKikkawa = 6;     // scoring: -1 per card to its right
inline constexpr int kKobayakawa = 7;  // on acquisition: swap with an opponent's card
inline constexpr int kFukushima = 8;   // influence on it never moves
inline constexpr int kUkita = 9;       // scoring: 4 with neighbours on both sides

constexpr std::uint16_t card_bit(int card) { return static_cast<std::uint16_t>(1u << card); }

// Cards in a mask, by table: a portable build has no popcount instruction, and the library call
// it falls back to showed up in playout profiles.
inline constexpr auto kCardCount = [] {
  std::array<std::uint8_t, 1024> table{};
  for (unsigned m = 0; m < table.size(); ++m)
    for (unsigned b = m; b; b &= b - 1) ++table[m];
  return table;
}();
constexpr int count_cards(unsigned mask) { return kCardCount[mask]; }

// Strength and requirement per id (index 0 unused).
struct CardNumbers {
  std::array<std::int8_t, kNumCards + 1> strength{};
  std::array<std::int8_t, kNumCards + 1> requirement{};
};

// Reads and checks a `rivals-sekigahara-cards` document (docs/formats.md). Throws
// std::invalid_argument naming the document and the JSON path of the offending entry.
CardNumbers parse_cards(const DataDocument& document);

// A camp as the cards left to right.
struct Camp {
  std::array<std::int8_t, kNumCards> cards{};
  std::int8_t size = 0;
};

constexpr bool has_card(const Camp& camp, int card) {
  for (int i = 0; i < camp.size; ++i)
    if (camp.cards[i] == card) return true;
  return false;
}

// Final strength of every card per seat and camp position (Scoring, steps 1-3); `blank` is the
// mask of blank cards.
using Strengths = std::array<std::array<int, kNumCards>, 2>;
Strengths camp_strengths(const std::array<Camp, 2>& camps, std::uint16_t blank,
                         const CardNumbers& numbers);

// Final totals per seat: the camp's strengths plus the Tokugawa token for seat 1.
std::array<int, 2> camp_totals(const std::array<Camp, 2>& camps, std::uint16_t blank,
                               const CardNumbers& numbers);

}  // namespace rivals::sekigahara
