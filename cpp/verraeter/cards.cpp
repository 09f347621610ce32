#include "rivals/verraeter/cards.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace rivals::verraeter {
namespace {

constexpr std::string_view kFormat = "rivals-verraeter-cards";
constexpr std::string_view kTopKeys[] = {"format",     "version",      "landscapes", "supply",
                                         "start_hand", "action_cards", "estates"};
constexpr std::string_view kLandKeys[] = {"type",     "name_en", "side",
                                          "conflict", "vp",      "provisional"};
constexpr std::string_view kSupplyKeys[] = {"value", "count"};
constexpr std::string_view kCardKeys[] = {"name", "name_en", "conflict", "vp", "draws", "text"};
constexpr std::string_view kEstateKeys[] = {"per_player", "bonus_kontore_max", "bonus_cards_max"};
constexpr int kMaxDeck = 99;

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::invalid_argument("bad Verräter card file " + source + ": " + problem);
}

// Unknown keys are errors, so that a typo never falls back silently to a default.
template <std::size_t N>
void check_keys(const Json& object, const std::string_view (&expected)[N], const std::string& where,
                const std::string& source) {
  if (!object.is_object()) fail(source, where + " must be an object");
  for (const auto& [key, value] : object.as_object())
    if (std::find(std::begin(expected), std::end(expected), key) == std::end(expected))
      fail(source, "unknown key " + where + "." + key);
  for (const auto name : expected)
    if (object.find(name) == nullptr)
      fail(source, "missing key " + where + "." + std::string(name));
}

int int_in(const Json& value, int low, int high, const std::string& where,
           const std::string& source) {
  if (!value.is_int() || value.as_int() < low || value.as_int() > high)
    fail(source, where + " must be an int " + std::to_string(low) + "-" + std::to_string(high) +
                     ", got " + value.dump());
  return static_cast<int>(value.as_int());
}

int key_in(const Json& object, std::string_view key, int low, int high, const std::string& where,
           const std::string& source) {
  return int_in(*object.find(key), low, high, where + "." + std::string(key), source);
}

int index_of(const char* const* names, int count, const Json& value) {
  if (!value.is_string()) return -1;
  for (int i = 0; i < count; ++i)
    if (value.as_string() == names[i]) return i;
  return -1;
}

const Json::Array& list_of(const Json& data, std::string_view key, const std::string& source) {
  const Json& value = *data.find(key);
  if (!value.is_array()) fail(source, std::string(key) + " must be a list, got " + value.dump());
  return value.as_array();
}

void read_landscapes(const Json& data, const std::string& source, Cards& cards) {
  const auto& lands = list_of(data, "landscapes", source);
  if (lands.size() != kRingSize)
    fail(source, "landscapes must list twelve landscapes, got " + std::to_string(lands.size()));
  bool seen[kTypes][2] = {};
  bool typed[kTypes] = {};
  for (std::size_t i = 0; i < lands.size(); ++i) {
    const Json& land = lands[i];
    const std::string where = "landscapes[" + std::to_string(i) + "]";
    check_keys(land, kLandKeys, where, source);
    const int type = index_of(kTypeNames, kTypes, *land.find("type"));
    if (type < 0)
      fail(source, where + ".type must be one of Ödnis, Weide, Fluss, Wald, Dorf, Stadt, got " +
                       land.find("type")->dump());
    const int side = index_of(kHouseNames, 2, *land.find("side"));
    if (side < 0 || seen[type][side])
      fail(source, where +
                       ".side: each type needs one landscape with side \"eagle\" and one "
                       "with \"rose\"");
    seen[type][side] = true;
    if (!land.find("name_en")->is_string()) fail(source, where + ".name_en must be a string");
    if (!land.find("provisional")->is_bool()) fail(source, where + ".provisional must be a bool");
    const int conflict = key_in(land, "conflict", 0, 99, where, source);
    const Json& vp = *land.find("vp");
    if (!vp.is_array() || vp.as_array().size() != kMaxWinners)
      fail(source, where + ".vp must be a list of 4 ints 0-99, got " + vp.dump());
    std::array<std::int8_t, kMaxWinners> table{};
    for (int k = 0; k < kMaxWinners; ++k)
      table[k] = static_cast<std::int8_t>(
          int_in(vp.as_array()[k], 0, 99, where + ".vp[" + std::to_string(k) + "]", source));
    if (typed[type] && (cards.conflict[type] != conflict || cards.vp[type] != table))
      fail(source, where + ": the two " + kTypeNames[type] + " landscapes must have equal numbers");
    typed[type] = true;
    cards.conflict[type] = static_cast<std::int8_t>(conflict);
    cards.vp[type] = table;
  }
}

void read_supply(const Json& data, const std::string& source, Cards& cards) {
  const auto& supply = list_of(data, "supply", source);
  if (supply.empty() || supply.size() > kMaxValues)
    fail(source, "supply must list 1-6 card values, got " + std::to_string(supply.size()));
  std::vector<std::pair<int, int>> deck;  // (value, count)
  int total = 0;
  for (std::size_t i = 0; i < supply.size(); ++i) {
    const std::string where = "supply[" + std::to_string(i) + "]";
    check_keys(supply[i], kSupplyKeys, where, source);
    const int value = key_in(supply[i], "value", 0, 99, where, source);
    for (const auto& [known, count] : deck)
      if (known == value) fail(source, where + ".value " + std::to_string(value) + " is repeated");
    const int count = key_in(supply[i], "count", 1, kMaxDeck, where, source);
    deck.emplace_back(value, count);
    total += count;
  }
  if (total > kMaxDeck)
    fail(source, "supply: the deck holds at most 99 cards, got " + std::to_string(total));
  std::sort(deck.begin(), deck.end());
  cards.num_values = static_cast<std::int8_t>(deck.size());
  cards.deck_size = static_cast<std::int8_t>(total);
  for (std::size_t v = 0; v < deck.size(); ++v) {
    cards.values[v] = static_cast<std::int8_t>(deck[v].first);
    cards.counts[v] = static_cast<std::uint8_t>(deck[v].second);
  }
}

void read_start_hand(const Json& data, const std::string& source, int players, Cards& cards) {
  const auto& hand = list_of(data, "start_hand", source);
  if (hand.size() > kHandLimit)
    fail(source, "start_hand must list at most 5 card values, got " + std::to_string(hand.size()));
  for (std::size_t i = 0; i < hand.size(); ++i) {
    const std::string where = "start_hand[" + std::to_string(i) + "]";
    if (!hand[i].is_int()) fail(source, where + " must be an int, got " + hand[i].dump());
    const auto value = hand[i].as_int();
    int v = 0;
    while (v < cards.num_values && cards.values[v] != value) ++v;
    if (v == cards.num_values || (cards.start_hand[v] + 1) * players > cards.counts[v])
      fail(source, where + ": value " + std::to_string(value) + " needs " +
                       std::to_string(players) + " copies per occurrence in supply");
    ++cards.start_hand[v];
  }
}

void read_action_cards(const Json& data, const std::string& source, Cards& cards) {
  const auto& list = list_of(data, "action_cards", source);
  if (list.size() != kActionCards)
    fail(source, "action_cards must list six cards, got " + std::to_string(list.size()));
  bool seen[kActionCards] = {};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& card = list[i];
    const std::string where = "action_cards[" + std::to_string(i) + "]";
    check_keys(card, kCardKeys, where, source);
    const int id = index_of(kCardNames, kActionCards, *card.find("name"));
    if (id < 0 || seen[id])
      fail(source, where +
                       ".name: the names must be Verraeter, Diplomat2, Diplomat5, "
                       "Baumeister, Stratege, Bauer, each once");
    seen[id] = true;
    if (!card.find("name_en")->is_string()) fail(source, where + ".name_en must be a string");
    if (!card.find("text")->is_string()) fail(source, where + ".text must be a string");
    cards.card_conflict[id] =
        static_cast<std::int8_t>(key_in(card, "conflict", 0, 99, where, source));
    cards.card_vp[id] = static_cast<std::int8_t>(key_in(card, "vp", 0, 99, where, source));
    cards.card_draws[id] = static_cast<std::int8_t>(key_in(card, "draws", 0, 5, where, source));
  }
}

}  // namespace

Cards parse_cards(const Json& data, const std::string& source, int players) {
  if (!data.is_object()) fail(source, "a JSON object is expected");
  for (const auto& [key, value] : data.as_object())
    if (std::find(std::begin(kTopKeys), std::end(kTopKeys), key) == std::end(kTopKeys))
      fail(source, "unknown key " + key);
  for (const auto name : kTopKeys)
    if (data.find(name) == nullptr) fail(source, "missing key " + std::string(name));
  const Json& format = *data.find("format");
  if (!format.is_string() || format.as_string() != kFormat)
    fail(source, "format must be \"rivals-verraeter-cards\", got " + format.dump());
  const Json& version = *data.find("version");
  if (!version.is_int() || version.as_int() != 1)
    fail(source, "version must be 1, got " + version.dump());
  Cards cards;
  read_landscapes(data, source, cards);
  read_supply(data, source, cards);
  read_start_hand(data, source, players, cards);
  read_action_cards(data, source, cards);
  const Json& estates = *data.find("estates");
  check_keys(estates, kEstateKeys, "estates", source);
  cards.estates_per_player =
      static_cast<std::int8_t>(key_in(estates, "per_player", 1, 3, "estates", source));
  cards.bonus_kontore_max =
      static_cast<std::int8_t>(key_in(estates, "bonus_kontore_max", 0, 5, "estates", source));
  cards.bonus_cards_max =
      static_cast<std::int8_t>(key_in(estates, "bonus_cards_max", 0, 5, "estates", source));
  return cards;
}

}  // namespace rivals::verraeter
