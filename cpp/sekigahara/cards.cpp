#include "rivals/sekigahara/cards.h"

#include <stdexcept>
#include <string_view>

namespace rivals::sekigahara {
namespace {

constexpr std::string_view kTopKeys[] = {"format", "version", "cards"};
constexpr std::string_view kCardKeys[] = {"id",       "name",        "name_zh",
                                          "strength", "requirement", "ability"};

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::invalid_argument("sekigahara: parameter cards: bad card file " + source + ": " +
                              problem);
}

// Unknown keys are errors, so that a typo never falls back silently to a default.
template <std::size_t N>
void check_keys(const Json& object, const std::string_view (&expected)[N], const std::string& where,
                const std::string& source) {
  for (const auto& [key, value] : object.as_object()) {
    bool known = false;
    for (const auto name : expected) known = known || key == name;
    if (!known) fail(source, "unknown key " + where + key);
  }
  for (const auto name : expected)
    if (object.find(name) == nullptr) fail(source, "missing key " + where + std::string(name));
}

int int_in(const Json& card, std::string_view key, int low, int high, const std::string& where,
           const std::string& source) {
  const Json& value = *card.find(key);
  if (!value.is_int() || value.as_int() < low || value.as_int() > high)
    fail(source, where + std::string(key) + " must be an int " + std::to_string(low) + "-" +
                     std::to_string(high) + ", got " + value.dump());
  return static_cast<int>(value.as_int());
}

}  // namespace

CardNumbers parse_cards(const Json& data, const std::string& source) {
  if (!data.is_object()) fail(source, "a JSON object is expected");
  check_keys(data, kTopKeys, "", source);
  const Json& format = *data.find("format");
  if (!format.is_string() || format.as_string() != "rivals-sekigahara-cards")
    fail(source, "format must be \"rivals-sekigahara-cards\", got " + format.dump());
  const Json& version = *data.find("version");
  if (!version.is_int() || version.as_int() != 1)
    fail(source, "version must be 1, got " + version.dump());
  const Json& cards = *data.find("cards");
  if (!cards.is_array() || cards.as_array().size() != kNumCards)
    fail(source, "cards must be a list of nine cards");
  CardNumbers numbers;
  std::uint16_t seen = 0;
  for (std::size_t i = 0; i < cards.as_array().size(); ++i) {
    const Json& card = cards.as_array()[i];
    const std::string where = "cards[" + std::to_string(i) + "].";
    if (!card.is_object()) fail(source, "cards[" + std::to_string(i) + "] must be an object");
    check_keys(card, kCardKeys, where, source);
    const int id = int_in(card, "id", 1, kNumCards, where, source);
    if (seen & card_bit(id)) fail(source, where + "id " + std::to_string(id) + " appears twice");
    seen |= card_bit(id);
    for (const std::string_view key : {"name", "name_zh", "ability"})
      if (!card.find(key)->is_string())
        fail(source, where + std::string(key) + " must be a string");
    numbers.strength[id] = static_cast<std::int8_t>(int_in(card, "strength", 0, 99, where, source));
    numbers.requirement[id] =
        static_cast<std::int8_t>(int_in(card, "requirement", 0, kTokens, where, source));
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
