#include "rivals/battlecards/cards.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

#include "rivals/core/data.h"

namespace rivals::battlecards {
namespace {

constexpr const char* kSetFormat = "rivals-battlecards-set";
constexpr const char* kExpansionFormat = "rivals-battlecards-expansion";
constexpr std::string_view kWho[] = {"drawer", "opponent", "german", "british"};
constexpr std::string_view kWonBy[] = {"aggressor", "defender", "either"};
constexpr std::string_view kKinds[] = {"battle", "build_up", "immediate", "kept"};
constexpr std::string_view kEffectNames[] = {"draw",         "deploy",        "discard_reserve",
                                             "reveal",       "destroy_stack", "victory_points",
                                             "combat_bonus", "reinforce"};

// Values are quoted as Python prints them, so that the engine's messages read like the
// reference's.
void repr_into(const Json& value, std::string& out) {
  if (value.is_null()) {
    out += "None";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "True" : "False";
  } else if (value.is_int()) {
    out += std::to_string(value.as_int());
  } else if (value.is_number()) {
    const double d = value.as_number();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
    std::string text(buffer, result.ptr);
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    out += text;
  } else if (value.is_string()) {
    const std::string& s = value.as_string();
    const char quote =
        (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
    out += quote;
    for (const char c : s) {
      if (c == quote || c == '\\') {
        out += '\\';
        out += c;
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned char>(c));
        out += buffer;
      } else {
        out += c;
      }
    }
    out += quote;
  } else if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const Json& item : value.as_array()) {
      if (!first) out += ", ";
      first = false;
      repr_into(item, out);
    }
    out += ']';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [key, item] : value.as_object()) {
      if (!first) out += ", ";
      first = false;
      repr_into(Json(key), out);
      out += ": ";
      repr_into(item, out);
    }
    out += '}';
  }
}

std::string repr(const Json& value) {
  std::string out;
  repr_into(value, out);
  return out;
}

std::string repr_text(std::string_view text) { return repr(Json(std::string(text))); }

template <class Names>
std::string name_list(const Names& names) {
  std::string out = "[";
  bool first = true;
  for (const auto& name : names) {
    if (!first) out += ", ";
    first = false;
    out += repr_text(name);
  }
  return out + "]";
}

template <class Names>
int index_of(const Names& names, const Json& value) {
  if (!value.is_string()) return -1;
  int i = 0;
  for (const auto& name : names) {
    if (value.as_string() == name) return i;
    ++i;
  }
  return -1;
}

int type_index(const Json& value) { return index_of(kTypeNames, value); }

using Keys = std::vector<std::string_view>;

// Validation with messages `bad Battlecards card set <source>: card 'X': key 'k': problem`.
class Checker {
 public:
  explicit Checker(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& problem, const std::string& card = {},
                         const std::string& key = {}) const {
    std::string where;
    if (!card.empty()) where += "card " + repr_text(card) + ": ";
    if (!key.empty()) where += "key " + repr_text(key) + ": ";
    throw std::invalid_argument("bad Battlecards card set " + source_ + ": " + where + problem);
  }

  void keys(const Json& obj, Keys required, Keys optional, const std::string& card,
            const std::string& what) const {
    if (!obj.is_object()) fail(what + " must be a JSON object", card);
    std::set<std::string> accepted(required.begin(), required.end());
    accepted.insert(optional.begin(), optional.end());
    for (const auto& [key, value] : obj.as_object()) {
      if (!accepted.count(key)) {
        std::string list;
        for (const auto& name : accepted) list += (list.empty() ? "" : ", ") + name;
        fail("unknown key in " + what + " (accepted: " + list + ")", card, key);
      }
    }
    const std::set<std::string> sorted(required.begin(), required.end());
    for (const auto& key : sorted)
      if (obj.find(key) == nullptr) fail("missing in " + what, card, key);
  }

  int int_range(const Json& obj, std::string_view key, int lo, int hi,
                const std::string& card) const {
    const Json& value = *obj.find(key);
    if (!value.is_int() || value.as_int() < lo || value.as_int() > hi)
      fail("must be an int " + std::to_string(lo) + "-" + std::to_string(hi) + ", not " +
               repr(value),
           card, std::string(key));
    return static_cast<int>(value.as_int());
  }

  std::string string(const Json& obj, std::string_view key, const std::string& card) const {
    const Json& value = *obj.find(key);
    if (!value.is_string() || value.as_string().empty())
      fail("must be a non-empty string, not " + repr(value), card, std::string(key));
    return value.as_string();
  }

  bool boolean(const Json& obj, std::string_view key, const std::string& card) const {
    const Json* value = obj.find(key);
    if (value == nullptr) return false;
    if (!value->is_bool())
      fail("must be true or false, not " + repr(*value), card, std::string(key));
    return value->as_bool();
  }

  // A list of distinct type names as a mask of bit t per type.
  std::uint8_t types(const Json& obj, std::string_view key, const std::string& card,
                     bool allow_empty = false) const {
    const Json& value = *obj.find(key);
    std::uint8_t mask = 0;
    bool ok = value.is_array() && (allow_empty || !value.as_array().empty());
    if (ok) {
      for (const Json& item : value.as_array()) {
        const int t = type_index(item);
        if (t < 0 || (mask >> t & 1)) {
          ok = false;
          break;
        }
        mask = static_cast<std::uint8_t>(mask | 1 << t);
      }
    }
    if (!ok)
      fail(std::string("must be ") + (allow_empty ? "a" : "a non-empty") +
               " list of distinct types from " + name_list(kTypeNames) + ", not " + repr(value),
           card, std::string(key));
    return mask;
  }

  std::string card_id(const Json& obj, const std::string& what) const {
    if (!obj.is_object()) fail("each " + what + " must be a JSON object, not " + repr(obj));
    const Json* value = obj.find("id");
    bool ok = value != nullptr && value->is_string();
    if (ok) {
      const std::string& id = value->as_string();
      ok = !id.empty() && id.size() <= 16 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
      }) && std::any_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
    }
    if (!ok)
      fail("a " + what +
               " needs an id of 1-16 letters, digits, '_' or '-' with at least one digit, not " +
               (value == nullptr ? std::string("None") : repr(*value)),
           {}, "id");
    return value->as_string();
  }

 private:
  std::string source_;
};

ArsenalCard parse_arsenal_card(const Checker& check, const Json& obj) {
  ArsenalCard card;
  const std::string cid = check.card_id(obj, "arsenal card");
  check.keys(obj, {"id", "name", "type", "attack", "defence", "phase"}, {"support", "leader"}, cid,
             "an arsenal card");
  card.id = cid;
  card.name = check.string(obj, "name", cid);
  const int type = type_index(*obj.find("type"));
  if (type < 0)
    check.fail("must be one of " + name_list(kTypeNames) + ", not " + repr(*obj.find("type")), cid,
               "type");
  card.type = static_cast<std::int8_t>(type);
  const Json& attack = *obj.find("attack");
  bool exact = attack.is_object() && attack.as_object().size() == kNumTypes;
  for (int t = 0; exact && t < kNumTypes; ++t) exact = attack.find(kTypeNames[t]) != nullptr;
  if (!exact) check.fail("must be an object with exactly the keys ground, air, sea", cid, "attack");
  for (int t = 0; t < kNumTypes; ++t) {
    const Json& value = *attack.find(kTypeNames[t]);
    if (!value.is_int() || value.as_int() < 0 || value.as_int() > 20)
      check.fail(std::string("attack against ") + kTypeNames[t] + " must be an int 0-20, not " +
                     repr(value),
                 cid, "attack");
    card.attack[t] = static_cast<std::int8_t>(value.as_int());
  }
  card.defence = static_cast<std::int8_t>(check.int_range(obj, "defence", 0, 20, cid));
  card.phase = static_cast<std::int8_t>(check.int_range(obj, "phase", 1, kNumPhases, cid));
  if (const Json* support = obj.find("support")) {
    check.keys(*support, {"types", "attack", "defence"}, {}, cid, "a support");
    card.support_types = check.types(*support, "types", cid);
    card.support_attack = static_cast<std::int8_t>(check.int_range(*support, "attack", 0, 10, cid));
    card.support_defence =
        static_cast<std::int8_t>(check.int_range(*support, "defence", 0, 10, cid));
    if (card.support_attack == 0 && card.support_defence == 0)
      check.fail("a support needs attack or defence above 0", cid, "support");
  }
  card.leader = check.boolean(obj, "leader", cid);
  return card;
}

Effect parse_effect(const Checker& check, const Json& obj, const std::string& cid, bool kept) {
  const std::string key = kept ? "effect" : "effects";
  if (!obj.is_object() || obj.find("type") == nullptr)
    check.fail("an effect must be an object with a 'type'", cid, key);
  const Json& type = *obj.find("type");
  const int kind = index_of(kEffectNames, type);
  const bool allowed = kept ? kind >= static_cast<int>(EffectKind::kCombatBonus)
                            : kind >= 0 && kind < static_cast<int>(EffectKind::kCombatBonus);
  if (!allowed) {
    const std::string list =
        kept ? name_list(std::vector<std::string_view>(kEffectNames + 6, kEffectNames + 8))
             : name_list(std::vector<std::string_view>(kEffectNames, kEffectNames + 6));
    check.fail("effect type must be one of " + list + ", not " + repr(type), cid, key);
  }
  Effect effect;
  effect.kind = static_cast<EffectKind>(kind);
  const bool has_count = effect.kind == EffectKind::kDraw || effect.kind == EffectKind::kDeploy ||
                         effect.kind == EffectKind::kDiscardReserve ||
                         effect.kind == EffectKind::kVictoryPoints ||
                         effect.kind == EffectKind::kReinforce;
  const bool has_types =
      effect.kind == EffectKind::kReveal || effect.kind == EffectKind::kCombatBonus;
  const bool has_stack = effect.kind == EffectKind::kDestroyStack;
  const bool bonus = effect.kind == EffectKind::kCombatBonus;
  std::vector<std::string_view> required = {"type"};
  if (has_count) required.push_back("count");
  if (has_types) required.push_back("types");
  if (has_stack) required.push_back("stack");
  if (bonus) {
    required.push_back("attack");
    required.push_back("defence");
  }
  if (!kept) required.push_back("who");
  const std::string what = "a " + std::string(kEffectNames[kind]) + " effect";
  check.keys(obj, required, {}, cid, what);
  if (!kept) {
    const int who = index_of(kWho, *obj.find("who"));
    if (who < 0)
      check.fail("who must be one of " + name_list(kWho) + ", not " + repr(*obj.find("who")), cid,
                 "who");
    effect.who = static_cast<Who>(who);
  }
  if (has_count) effect.count = static_cast<std::int8_t>(check.int_range(obj, "count", 1, 10, cid));
  if (has_types) effect.types = check.types(obj, "types", cid);
  if (has_stack) {
    const int stack = type_index(*obj.find("stack"));
    if (stack < 0)
      check.fail("must be one of " + name_list(kTypeNames) + ", not " + repr(*obj.find("stack")),
                 cid, "stack");
    effect.stack = static_cast<std::int8_t>(stack);
  }
  if (bonus) {
    effect.attack = static_cast<std::int8_t>(check.int_range(obj, "attack", 0, 10, cid));
    effect.defence = static_cast<std::int8_t>(check.int_range(obj, "defence", 0, 10, cid));
    if (effect.attack == 0 && effect.defence == 0)
      check.fail("a combat_bonus needs attack or defence above 0", cid, "effect");
  }
  return effect;
}

// Prerequisites name battles by id until the whole set is known.
struct ParsedConflict {
  ConflictCard card;
  std::vector<std::string> prerequisite_ids;
};

ParsedConflict parse_conflict_card(const Checker& check, const Json& obj) {
  ParsedConflict parsed;
  ConflictCard& card = parsed.card;
  const std::string cid = check.card_id(obj, "conflict card");
  const Json* kind_value = obj.find("kind");
  const int kind = kind_value == nullptr ? -1 : index_of(kKinds, *kind_value);
  if (kind < 0)
    check.fail("must be one of " + name_list(kKinds) + ", not " +
                   (kind_value == nullptr ? std::string("None") : repr(*kind_value)),
               cid, "kind");
  card.kind = static_cast<Kind>(kind);
  if (card.kind == Kind::kBattle)
    check.keys(obj, {"id", "name", "action", "kind", "aggressor", "types", "vp"},
               {"decisive", "prerequisites", "homeland", "loser_destroyed"}, cid, "a battle card");
  else if (card.kind == Kind::kKept)
    check.keys(obj, {"id", "name", "action", "kind", "effect"}, {}, cid, "a kept card");
  else
    check.keys(obj, {"id", "name", "action", "kind", "effects"}, {}, cid,
               "a " + std::string(kKinds[kind]) + " card");
  card.id = cid;
  card.name = check.string(obj, "name", cid);
  card.action = static_cast<std::int8_t>(check.int_range(obj, "action", 1, 20, cid));
  if (card.kind == Kind::kBattle) {
    const int aggressor = index_of(kSideKeys, *obj.find("aggressor"));
    if (aggressor < 0)
      check.fail("must be 'german' or 'british', not " + repr(*obj.find("aggressor")), cid,
                 "aggressor");
    card.aggressor = static_cast<std::int8_t>(aggressor);
    card.types = check.types(obj, "types", cid);
    card.decisive = obj.find("decisive") ? check.types(obj, "decisive", cid) : card.types;
    if (card.decisive & ~card.types)
      check.fail("must be a subset of the battle's types", cid, "decisive");
    card.loser_destroyed =
        obj.find("loser_destroyed") ? check.types(obj, "loser_destroyed", cid, true) : 0;
    if (card.loser_destroyed & ~card.types)
      check.fail("must be a subset of the battle's types", cid, "loser_destroyed");
    if (const Json* prerequisites = obj.find("prerequisites")) {
      if (!prerequisites->is_array()) check.fail("must be a list", cid, "prerequisites");
      for (const Json& pre : prerequisites->as_array()) {
        check.keys(pre, {"battle", "won_by"}, {}, cid, "a prerequisite");
        if (!pre.find("battle")->is_string())
          check.fail("a prerequisite's battle must be a card id", cid, "prerequisites");
        const int won_by = index_of(kWonBy, *pre.find("won_by"));
        if (won_by < 0)
          check.fail(
              "won_by must be one of " + name_list(kWonBy) + ", not " + repr(*pre.find("won_by")),
              cid, "prerequisites");
        parsed.prerequisite_ids.push_back(pre.find("battle")->as_string());
        card.prerequisites.push_back({-1, static_cast<WonBy>(won_by)});
      }
    }
    card.vp = static_cast<std::int8_t>(check.int_range(obj, "vp", 0, 20, cid));
    card.homeland = check.boolean(obj, "homeland", cid);
    return parsed;
  }
  if (card.kind == Kind::kKept) {
    card.effects.push_back(parse_effect(check, *obj.find("effect"), cid, true));
    return parsed;
  }
  const Json& effects = *obj.find("effects");
  if (!effects.is_array() || effects.as_array().empty())
    check.fail("must be a non-empty list of effects", cid, "effects");
  for (const Json& effect : effects.as_array())
    card.effects.push_back(parse_effect(check, effect, cid, false));
  if (card.kind == Kind::kBuildUp)
    for (const Effect& effect : card.effects)
      if (effect.kind != EffectKind::kDraw)
        check.fail("a build_up card has only draw effects", cid, "effects");
  return parsed;
}

void check_header(const Checker& check, const Json& data, const char* format, Keys required,
                  Keys optional) {
  if (!data.is_object()) check.fail("a JSON object is expected");
  std::set<std::string> accepted(required.begin(), required.end());
  accepted.insert(optional.begin(), optional.end());
  for (const auto& [key, value] : data.as_object()) {
    if (!accepted.count(key)) {
      std::string list;
      for (const auto& name : accepted) list += (list.empty() ? "" : ", ") + name;
      check.fail("unknown top-level key (accepted: " + list + ")", {}, key);
    }
  }
  const std::set<std::string> sorted(required.begin(), required.end());
  for (const auto& key : sorted)
    if (data.find(key) == nullptr) check.fail("missing top-level key", {}, key);
  const Json& fmt = *data.find("format");
  if (!fmt.is_string() || fmt.as_string() != format)
    check.fail("format must be " + repr_text(format) + ", not " + repr(fmt), {}, "format");
  const Json& version = *data.find("version");
  if (!version.is_int() || version.as_int() != 1)
    check.fail("version must be 1, not " + repr(version), {}, "version");
  if (!data.find("name")->is_string()) check.fail("must be a string", {}, "name");
  for (const char* key : {"conflict", "german", "british"})
    if (const Json* list = data.find(key); list != nullptr && !list->is_array())
      check.fail("must be a list of cards", {}, key);
}

// The document of a parameter value (a path or an object) and how messages name it.
std::pair<Json, std::string> read_source(const Json& source, const std::string& what) {
  if (source.is_object()) return {source, "(" + what + " object)"};
  if (!source.is_string())
    throw std::invalid_argument("bad " + what + ": a path or an object is expected, not " +
                                repr(source));
  const std::string name = repr(source);
  // Opened here first so that an unreadable file and a malformed one get different messages.
  std::error_code error;
  if (std::filesystem::is_directory(source.as_string(), error))
    throw std::invalid_argument("bad Battlecards card set " + name +
                                ": cannot read it (Is a directory)");
  if (!std::ifstream(source.as_string()))
    throw std::invalid_argument("bad Battlecards card set " + name + ": cannot read it (" +
                                std::strerror(errno) + ")");
  try {
    return {load_data(source, "battlecards"), name};
  } catch (const std::invalid_argument& bad) {
    throw std::invalid_argument("bad Battlecards card set " + name + ": not valid JSON (" +
                                bad.what() + ")");
  }
}

const std::vector<Json>& list_of(const Json& data, const char* key) {
  static const std::vector<Json> empty;
  const Json* list = data.find(key);
  return list == nullptr ? empty : list->as_array();
}

void check_whole(const Checker& check, const std::vector<ParsedConflict>& conflict,
                 const std::array<std::vector<ArsenalCard>, 2>& arsenals) {
  for (int seat = 0; seat < 2; ++seat) {
    const auto size = arsenals[seat].size();
    if (size < kSetupDraw || size > kMaxArsenal)
      check.fail(std::string("the ") + kSideKeys[seat] + " arsenal must hold " +
                     std::to_string(kSetupDraw) + "-" + std::to_string(kMaxArsenal) +
                     " cards, not " + std::to_string(size),
                 {}, kSideKeys[seat]);
  }
  if (conflict.empty() || conflict.size() > kMaxConflict)
    check.fail("the conflict deck must hold 1-" + std::to_string(kMaxConflict) + " cards, not " +
                   std::to_string(conflict.size()),
               {}, "conflict");
  std::map<std::string, std::size_t> battles;
  std::vector<std::size_t> order;
  bool other = false;
  for (std::size_t k = 0; k < conflict.size(); ++k) {
    const Kind kind = conflict[k].card.kind;
    if (kind == Kind::kBattle) {
      battles[conflict[k].card.id] = k;
      order.push_back(k);
    }
    other = other || kind == Kind::kBuildUp || kind == Kind::kImmediate;
  }
  if (battles.empty()) check.fail("the conflict deck needs at least one battle", {}, "conflict");
  if (!other)
    check.fail("the conflict deck needs a card that is neither a battle nor a kept card", {},
               "conflict");
  for (const std::size_t k : order)
    for (const std::string& id : conflict[k].prerequisite_ids)
      if (!battles.count(id) || id == conflict[k].card.id)
        check.fail("prerequisite " + repr_text(id) + " is not another battle of the set",
                   conflict[k].card.id, "prerequisites");
  // Prerequisites must not form a cycle (depth-first search, three colours), visited in the
  // reference's order so that the same card is named.
  std::map<std::string, int> colour;
  std::function<void(const std::string&)> visit = [&](const std::string& id) {
    colour[id] = 1;
    for (const std::string& pre : conflict[battles.at(id)].prerequisite_ids) {
      const auto found = colour.find(pre);
      if (found != colour.end() && found->second == 1)
        check.fail("the prerequisites form a cycle", id, "prerequisites");
      if (found == colour.end()) visit(pre);
    }
    colour[id] = 2;
  };
  for (const std::size_t k : order)
    if (!colour.count(conflict[k].card.id)) visit(conflict[k].card.id);
}

void derive_tables(CardSet& cs) {
  for (int seat = 0; seat < 2; ++seat) {
    cs.arsenal_size[seat] = static_cast<int>(cs.arsenals[seat].size());
    for (int slot = 0; slot < cs.arsenal_size[seat]; ++slot) {
      const ArsenalCard& card = cs.arsenals[seat][static_cast<std::size_t>(slot)];
      const u128 bit = card_bit(slot);
      cs.all_arsenal[seat] |= bit;
      cs.of_type[seat][card.type] |= bit;
      cs.of_phase[seat][card.phase] |= bit;
      if (card.support_types) cs.supporters[seat] |= bit;
      const auto a = static_cast<std::size_t>(kMaxArsenal * seat + slot);
      cs.type_of[a] = card.type;
      if (card.support_types >> card.type & 1) {
        cs.self_attack[a] = card.support_attack;
        cs.self_defence[a] = card.support_defence;
      }
    }
  }
  cs.conflict_size = static_cast<int>(cs.conflict.size());
  for (int k = 0; k < cs.conflict_size; ++k) {
    const ConflictCard& card = cs.conflict[static_cast<std::size_t>(k)];
    cs.action_of[static_cast<std::size_t>(k)] = card.action;
    if (card.kind == Kind::kBattle) cs.battles |= card_bit(k);
    if (card.kind == Kind::kKept) {
      cs.kept |= card_bit(k);
      if (card.effects[0].kind == EffectKind::kCombatBonus) cs.combat_bonus |= card_bit(k);
    }
  }
}

}  // namespace

CardSet load_card_set(const Json& cards, const Json& expansions) {
  Json data;
  std::string source;
  if (cards.is_null()) {
    data = load_data(cards, "battlecards");
    source = "battlecards.json (shipped)";
  } else {
    std::tie(data, source) = read_source(cards, "card set");
  }
  const Checker check(source);
  check_header(check, data, kSetFormat,
               {"format", "version", "name", "battle_list", "conflict", "german", "british"}, {});

  const Json& list = *data.find("battle_list");
  const std::string list_id = check.card_id(list, "battle list");
  check.keys(list, {"id", "name", "battles"}, {}, list_id, "the battle list");
  check.string(list, "name", list_id);
  const Json& listed = *list.find("battles");
  bool strings = listed.is_array();
  if (strings)
    for (const Json& id : listed.as_array()) strings = strings && id.is_string();
  if (!strings) check.fail("must be a list of battle card ids", list_id, "battles");

  std::vector<ParsedConflict> conflict;
  for (const Json& obj : list_of(data, "conflict"))
    conflict.push_back(parse_conflict_card(check, obj));
  std::array<std::vector<ArsenalCard>, 2> arsenals;
  for (int seat = 0; seat < 2; ++seat)
    for (const Json& obj : list_of(data, kSideKeys[seat]))
      arsenals[seat].push_back(parse_arsenal_card(check, obj));

  std::set<std::string> seen = {list_id};
  auto claim = [&](const std::string& id) {
    if (seen.count(id)) check.fail("the id is used twice", id, "id");
    seen.insert(id);
  };
  for (const auto& parsed : conflict) claim(parsed.card.id);
  for (int seat = 0; seat < 2; ++seat)
    for (const auto& card : arsenals[seat]) claim(card.id);
  for (int seat = 0; seat < 2; ++seat) {
    std::set<std::string> leaders;
    for (const auto& card : arsenals[seat]) {
      if (!card.leader) continue;
      if (leaders.count(card.name))
        check.fail(
            "leader " + repr_text(card.name) + " is twice in the " + kSideKeys[seat] + " arsenal",
            card.id, "leader");
      leaders.insert(card.name);
    }
  }
  std::multiset<std::string> in_list, in_set;
  for (const Json& id : listed.as_array()) in_list.insert(id.as_string());
  for (const auto& parsed : conflict)
    if (parsed.card.kind == Kind::kBattle) in_set.insert(parsed.card.id);
  if (in_list != in_set ||
      std::set<std::string>(in_list.begin(), in_list.end()).size() != in_list.size())
    check.fail("must list every battle card of the set exactly once", list_id, "battles");

  if (!expansions.is_array())
    throw std::invalid_argument("bad value expansions=" + repr(expansions) +
                                ": a list of paths or objects is expected");
  for (const Json& expansion : expansions.as_array()) {
    const auto [edata, esource] = read_source(expansion, "expansion");
    const Checker echeck(esource);
    check_header(echeck, edata, kExpansionFormat, {"format", "version", "name"},
                 {"conflict", "german", "british"});
    for (const Json& obj : list_of(edata, "conflict")) {
      ParsedConflict parsed = parse_conflict_card(echeck, obj);
      if (seen.count(parsed.card.id))
        echeck.fail("the id is already in the card set", parsed.card.id, "id");
      seen.insert(parsed.card.id);
      conflict.push_back(std::move(parsed));
    }
    for (int seat = 0; seat < 2; ++seat) {
      std::set<std::string> names;
      for (const auto& card : arsenals[seat])
        if (card.leader) names.insert(card.name);
      for (const Json& obj : list_of(edata, kSideKeys[seat])) {
        ArsenalCard card = parse_arsenal_card(echeck, obj);
        if (card.leader && names.count(card.name)) continue;  // each leader once per arsenal
        if (seen.count(card.id)) echeck.fail("the id is already in the card set", card.id, "id");
        seen.insert(card.id);
        if (card.leader) names.insert(card.name);
        arsenals[seat].push_back(std::move(card));
      }
    }
  }
  check_whole(check, conflict, arsenals);

  CardSet cs;
  cs.arsenals = std::move(arsenals);
  std::map<std::string, int> index;
  for (std::size_t k = 0; k < conflict.size(); ++k)
    index[conflict[k].card.id] = static_cast<int>(k);
  for (auto& parsed : conflict) {
    for (std::size_t i = 0; i < parsed.prerequisite_ids.size(); ++i)
      parsed.card.prerequisites[i].battle = index.at(parsed.prerequisite_ids[i]);
    cs.conflict.push_back(std::move(parsed.card));
  }
  derive_tables(cs);
  return cs;
}

}  // namespace rivals::battlecards
