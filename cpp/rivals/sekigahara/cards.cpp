#include "rivals/sekigahara/cards.h"

#include <string_view>

namespace rivals::sekigahara {
CardNumbers parse_cards(const DataDocument& document) {
  const DataNode root(document);
  root.keys({"format", "version", "cards"});
  if (root["format"].json() != Json("rivals-sekigahara-cards"))
    root["format"].fail("must be \"rivals-sekigahara-cards\", got " + root["format"].shown());
  root["version"].integer(1, 1);
  const DataNode cards = root["cards"];
  cards.list(kNumCards, kNumCards);
  CardNumbers numbers;
  std::uint16_t seen = 0;
  for (std::size_t i = 0; i < kNumCards; ++i) {
    const DataNode card = cards[i];
    card.keys({"id", "name", "name_zh", "strength", "requirement", "ability"});
    const int id = card["id"].small_int(1, kNumCards);
    if (seen & card_bit(id)) card["id"].fail(std::to_string(id) + " is used twice");
    seen |= card_bit(id);
    for (const std::string_view key : {"name", "name_zh", "ability"}) card[key].string();
    numbers.strength[id] = static_cast<std::int8_t>(card["strength"].small_int(0, 99));
    numbers.requirement[id] = static_cast<std::int8_t>(card["requirement"].small_int(0, kTokens));
  }
  return numbers;
}

Strengths camp_strengths(const std::array<Camp, 2>& camps, std::uint16_t blank,
                         const CardNumbers& numbers) {
  Strengths base{};
  for (int seat = 0; seat < 2; ++seat)
    for (int i = 0; i < camps[seat].size; ++i)
      base[seat][i] = numbers.strength[camps[seat].cards[i]];
  // Card 1 looks at base strengths only; the leftmost of equal highest is its target.
  for (int seat = 0; seat < 2; ++seat) {
    const Camp& other = camps[1 - seat];
    if (!has_card(camps[seat], kSanada) || (blank & card_bit(kSanada)) || other.size == 0) continue;
    int target = 0;
    for (int i = 1; i < other.size; ++i)
      if (numbers.strength[other.cards[i]] > numbers.strength[other.cards[target]]) target = i;
    base[1 - seat][target] = 2;
  }
  // The positional abilities apply on top of the base, changed or not (Q&A 1).
  for (int seat = 0; seat < 2; ++seat) {
    const int n = camps[seat].size;
    for (int i = 0; i < n; ++i) {
      const int card = camps[seat].cards[i];
      int& value = base[seat][i];
      if (blank & card_bit(card)) continue;
      if (card == kIi)
        value += i;
      else if (card == kKikkawa)
        value = value > n - 1 - i ? value - (n - 1 - i) : 0;
      else if (card == kUkita && i > 0 && i < n - 1)
        value = 4;
    }
  }
  return base;
}

std::array<int, 2> camp_totals(const std::array<Camp, 2>& camps, std::uint16_t blank,
                               const CardNumbers& numbers) {
  const Strengths strengths = camp_strengths(camps, blank, numbers);
  std::array<int, 2> total{0, 1};  // seat 1 holds the Tokugawa token
  for (int seat = 0; seat < 2; ++seat)
    for (int i = 0; i < camps[seat].size; ++i) total[seat] += strengths[seat][i];
  return total;
}

}  // namespace rivals::sekigahara
