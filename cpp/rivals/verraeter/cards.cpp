#include "rivals/verraeter/cards.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace rivals::verraeter {
namespace {

constexpr int kMaxDeck = 99;

void read_landscapes(const DataNode& lands, Cards& cards) {
  lands.list(kRingSize, kRingSize);
  bool seen[kTypes][2] = {};
  bool typed[kTypes] = {};
  for (std::size_t i = 0; i < kRingSize; ++i) {
    const DataNode land = lands[i];
    land.keys({"type", "name_en", "side", "conflict", "vp", "provisional"});
    const int type = land["type"].choice(kTypeNames);
    const int side = land["side"].choice(kHouseNames);
    if (seen[type][side])
      land["side"].fail(
          std::string("repeats ") + kTypeNames[type] + " " + kHouseNames[side] +
          ": each type needs one landscape with side \"eagle\" and one with \"rose\"");
    seen[type][side] = true;
    land["name_en"].string();
    land["provisional"].boolean();
    const int conflict = land["conflict"].small_int(0, 99);
    const DataNode vp = land["vp"];
    vp.list(kMaxWinners, kMaxWinners);
    std::array<std::int8_t, kMaxWinners> table{};
    for (int k = 0; k < kMaxWinners; ++k)
      table[k] = static_cast<std::int8_t>(vp[static_cast<std::size_t>(k)].small_int(0, 99));
    if (typed[type] && (cards.conflict[type] != conflict || cards.vp[type] != table))
      land.fail(std::string("must have the numbers of the other ") + kTypeNames[type] +
                " landscape");
    typed[type] = true;
    cards.conflict[type] = static_cast<std::int8_t>(conflict);
    cards.vp[type] = table;
  }
}

void read_supply(const DataNode& supply, Cards& cards) {
  const std::size_t size = supply.list(1, kMaxValues);
  std::vector<std::pair<int, int>> deck;  // (value, count)
  int total = 0;
  for (std::size_t i = 0; i < size; ++i) {
    const DataNode entry = supply[i];
    entry.keys({"value", "count"});
    const int value = entry["value"].small_int(0, 99);
    for (const auto& [known, count] : deck)
      if (known == value) entry["value"].fail(std::to_string(value) + " is repeated");
    const int count = entry["count"].small_int(1, kMaxDeck);
    deck.emplace_back(value, count);
    total += count;
  }
  if (total > kMaxDeck)
    supply.fail("must hold at most 99 cards in all, got " + std::to_string(total));
  std::sort(deck.begin(), deck.end());
  cards.num_values = static_cast<std::int8_t>(deck.size());
  cards.deck_size = static_cast<std::int8_t>(total);
  for (std::size_t v = 0; v < deck.size(); ++v) {
    cards.values[v] = static_cast<std::int8_t>(deck[v].first);
    cards.counts[v] = static_cast<std::uint8_t>(deck[v].second);
  }
}

void read_start_hand(const DataNode& hand, int players, Cards& cards) {
  const std::size_t size = hand.list(0, kHandLimit);
  for (std::size_t i = 0; i < size; ++i) {
    const std::int64_t value = hand[i].integer(0, 99);
    int v = 0;
    while (v < cards.num_values && cards.values[v] != value) ++v;
    if (v == cards.num_values || (cards.start_hand[v] + 1) * players > cards.counts[v])
      hand[i].fail("(value " + std::to_string(value) + ") needs " + std::to_string(players) +
                   " copies in supply per occurrence in the start hand");
    ++cards.start_hand[v];
  }
}

void read_action_cards(const DataNode& list, Cards& cards) {
  list.list(kActionCards, kActionCards);
  bool seen[kActionCards] = {};
  for (std::size_t i = 0; i < kActionCards; ++i) {
    const DataNode card = list[i];
    card.keys({"name", "name_en", "conflict", "vp", "draws", "text"});
    const int id = card["name"].choice(kCardNames);
    if (seen[id]) card["name"].fail(std::string("repeats ") + kCardNames[id] + ": each name once");
    seen[id] = true;
    card["name_en"].string();
    card["text"].string();
    cards.card_conflict[id] = static_cast<std::int8_t>(card["conflict"].small_int(0, 99));
    cards.card_vp[id] = static_cast<std::int8_t>(card["vp"].small_int(0, 99));
    cards.card_draws[id] = static_cast<std::int8_t>(card["draws"].small_int(0, 5));
  }
}

}  // namespace

Cards parse_cards(const DataDocument& document, int players) {
  const DataNode root(document);
  root.keys({"format", "version", "landscapes", "supply", "start_hand", "action_cards", "estates"});
  if (root["format"].json() != Json("rivals-verraeter-cards"))
    root["format"].fail("must be \"rivals-verraeter-cards\", got " + root["format"].shown());
  root["version"].integer(1, 1);
  Cards cards;
  read_landscapes(root["landscapes"], cards);
  read_supply(root["supply"], cards);
  read_start_hand(root["start_hand"], players, cards);
  read_action_cards(root["action_cards"], cards);
  const DataNode estates = root["estates"];
  estates.keys({"per_player", "bonus_kontore_max", "bonus_cards_max"});
  cards.estates_per_player = static_cast<std::int8_t>(estates["per_player"].small_int(1, 3));
  cards.bonus_kontore_max = static_cast<std::int8_t>(estates["bonus_kontore_max"].small_int(0, 5));
  cards.bonus_cards_max = static_cast<std::int8_t>(estates["bonus_cards_max"].small_int(0, 5));
  return cards;
}

}  // namespace rivals::verraeter
