// The numbers of a Verräter card file (`rivals-verraeter-cards`, docs/formats.md), indexed by
// the ids of docs/rules/verraeter.md. What each card does is fixed by its id; the file only
// holds the numbers.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "rivals/core/data.h"

namespace rivals::verraeter {

inline constexpr int kRingSize = 12;
inline constexpr int kTypes = 6;        // Ödnis Weide Fluss Wald Dorf Stadt
inline constexpr int kActionCards = 6;  // Verraeter Diplomat2 Diplomat5 Baumeister Stratege Bauer
inline constexpr int kMaxValues = 6;    // distinct supply values the action space has room for
inline constexpr int kMaxWinners = 4;
inline constexpr int kMaxSeats = 4;
inline constexpr int kHandLimit = 5;

enum ActionCard : int { kVerraeter, kDiplomat2, kDiplomat5, kBaumeister, kStratege, kBauer };

inline constexpr const char* kTypeNames[kTypes] = {"Ödnis", "Weide", "Fluss",
                                                   "Wald",  "Dorf",  "Stadt"};
inline constexpr const char* kHouseNames[2] = {"eagle", "rose"};
inline constexpr const char* kCardNames[kActionCards] = {"Verraeter",  "Diplomat2", "Diplomat5",
                                                         "Baumeister", "Stratege",  "Bauer"};

struct Cards {
  std::array<std::int8_t, kTypes> conflict{};                     // per landscape type
  std::array<std::array<std::int8_t, kMaxWinners>, kTypes> vp{};  // per type, 1..4 winners
  std::array<std::int8_t, kMaxValues> values{};                   // ascending: value ids
  std::array<std::uint8_t, kMaxValues> counts{};                  // copies per value id
  std::array<std::uint8_t, kMaxValues> start_hand{};              // copies per value id
  std::array<std::int8_t, kActionCards> card_conflict{};
  std::array<std::int8_t, kActionCards> card_vp{};
  std::array<std::int8_t, kActionCards> card_draws{};
  std::int8_t num_values = 0;
  std::int8_t deck_size = 0;
  std::int8_t estates_per_player = 0;
  std::int8_t bonus_kontore_max = 0;
  std::int8_t bonus_cards_max = 0;

  int card_draws_total() const {
    int total = 0;
    for (const int d : card_draws) total += d;
    return total;
  }
};

// Reads and checks a card document for a game of `players` seats (the starting hands must fit
// in the deck). Throws std::invalid_argument naming the document and the JSON path of the entry.
Cards parse_cards(const DataDocument& document, int players);

}  // namespace rivals::verraeter
