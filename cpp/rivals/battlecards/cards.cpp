#include "rivals/battlecards/cards.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace rivals::battlecards {
namespace {

// Lists whose length the checks of the merged set bound (or the size of a file).
constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();
// Effects of one build-up or immediate card: the state counts through them in 16 bits, and a
// card's victory points (10 an effect at most) stay far inside 32 bits over the longest game.
constexpr std::size_t kMaxEffects = 16;
constexpr const char* kSetFormat = "rivals-battlecards-set";
constexpr const char* kExpansionFormat = "rivals-battlecards-expansion";
constexpr std::string_view kWho[] = {"drawer", "opponent", "german", "british"};
constexpr std::string_view kWonBy[] = {"aggressor", "defender", "either"};
constexpr std::string_view kKinds[] = {"battle", "build_up", "immediate", "kept"};
constexpr std::string_view kEffectNames[] = {"draw",         "deploy",        "discard_reserve",
                                             "reveal",       "destroy_stack", "victory_points",
                                             "combat_bonus", "reinforce"};
constexpr int kEffectKinds = static_cast<int>(std::size(kEffectNames));
constexpr int kFirstKeptEffect = static_cast<int>(EffectKind::kCombatBonus);

// A list of distinct type names as a mask of bit t per type.
std::uint8_t types_of(const DataNode& node, bool allow_empty = false) {
  std::uint8_t mask = 0;
  bool ok = node.json().is_array() && (allow_empty || !node.json().as_array().empty());
  for (std::size_t i = 0; ok && i < node.json().as_array().size(); ++i) {
    const Json& item = node.json().as_array()[i];
    int t = -1;
    for (int k = 0; k < kNumTypes; ++k)
      if (item.is_string() && item.as_string() == kTypeNames[k]) t = k;
    ok = t >= 0 && !(mask >> t & 1);
    if (ok) mask = static_cast<std::uint8_t>(mask | 1 << t);
  }
  if (!ok)
    node.fail(std::string("must be ") + (allow_empty ? "a" : "a non-empty") +
              " list of distinct types from \"ground\", \"air\", \"sea\", got " + node.shown());
  return mask;
}

// Card ids name cards in action strings, so they are short and plain.
std::string card_id(const DataNode& card) {
  if (!card.json().is_object())
    card.fail(std::string("must be an object, got ") + card.json().kind_name());
  const DataNode id = card["id"];
  bool ok = id.json().is_string();
  if (ok) {
    const std::string& text = id.json().as_string();
    ok = !text.empty() && text.size() <= 16 && std::all_of(text.begin(), text.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '-';
    }) && std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  if (!ok)
    id.fail("must be 1-16 letters, digits, '_' or '-' with at least one digit, got " + id.shown());
  return id.json().as_string();
}

ArsenalCard parse_arsenal_card(const DataNode& node) {
  ArsenalCard card;
  card.id = card_id(node);
  node.keys({"id", "name", "type", "attack", "defence", "phase"}, {"support", "leader"});
  card.name = node["name"].string(1);
  card.type = static_cast<std::int8_t>(node["type"].choice(kTypeNames));
  const DataNode attack = node["attack"];
  attack.keys({"ground", "air", "sea"});
  for (int t = 0; t < kNumTypes; ++t)
    card.attack[t] = static_cast<std::int8_t>(attack[kTypeNames[t]].small_int(0, 20));
  card.defence = static_cast<std::int8_t>(node["defence"].small_int(0, 20));
  card.phase = static_cast<std::int8_t>(node["phase"].small_int(1, kNumPhases));
  if (const auto support = node.get("support")) {
    support->keys({"types", "attack", "defence"});
    card.support_types = types_of((*support)["types"]);
    card.support_attack = static_cast<std::int8_t>((*support)["attack"].small_int(0, 10));
    card.support_defence = static_cast<std::int8_t>((*support)["defence"].small_int(0, 10));
    if (card.support_attack == 0 && card.support_defence == 0)
      support->fail("needs attack or defence above 0");
  }
  if (const auto leader = node.get("leader")) card.leader = leader->boolean();
  return card;
}

Effect parse_effect(const DataNode& node, bool kept) {
  if (!node.json().is_object())
    node.fail(std::string("must be an object, got ") + node.json().kind_name());
  const DataNode type = node["type"];
  const int kind = type.json().is_string() ? [&] {
    for (int k = 0; k < kEffectKinds; ++k)
      if (type.json().as_string() == kEffectNames[k]) return k;
    return -1;
  }()
                                           : -1;
  const bool allowed = kept ? kind >= kFirstKeptEffect : kind >= 0 && kind < kFirstKeptEffect;
  if (!allowed) {
    std::string list;
    for (int k = kept ? kFirstKeptEffect : 0; k < (kept ? kEffectKinds : kFirstKeptEffect); ++k)
      list += (list.empty() ? "" : ", ") + Json(std::string(kEffectNames[k])).dump();
    type.fail("must be one of " + list + ", got " + type.shown());
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
  // The keys an effect of this kind has: type, then count, types, stack, attack and defence as
  // its kind needs, and who for the effects of build-up and immediate cards.
  std::vector<std::string_view> required = {"type"};
  if (has_count) required.push_back("count");
  if (has_types) required.push_back("types");
  if (has_stack) required.push_back("stack");
  if (bonus) {
    required.push_back("attack");
    required.push_back("defence");
  }
  if (!kept) required.push_back("who");
  for (const auto& [key, value] : node.json().as_object())
    if (std::find(required.begin(), required.end(), key) == required.end()) {
      std::vector<std::string_view> sorted = required;
      std::sort(sorted.begin(), sorted.end());
      std::string list;
      for (const auto name : sorted) list += (list.empty() ? "" : ", ") + std::string(name);
      node.fail("has an unknown key " + Json(key).dump() + " for a " +
                std::string(kEffectNames[kind]) + " effect (accepted: " + list + ")");
    }
  for (const auto key : required) node[key];  // fails when missing
  if (!kept) effect.who = static_cast<Who>(node["who"].choice(kWho));
  if (has_count) effect.count = static_cast<std::int8_t>(node["count"].small_int(1, 10));
  if (has_types) effect.types = types_of(node["types"]);
  if (has_stack) effect.stack = static_cast<std::int8_t>(node["stack"].choice(kTypeNames));
  if (bonus) {
    effect.attack = static_cast<std::int8_t>(node["attack"].small_int(0, 10));
    effect.defence = static_cast<std::int8_t>(node["defence"].small_int(0, 10));
    if (effect.attack == 0 && effect.defence == 0) node.fail("needs attack or defence above 0");
  }
  return effect;
}

// Prerequisites name battles by id until the whole set is known.
struct ParsedConflict {
  ConflictCard card;
  DataNode node;
  std::vector<DataNode> prerequisites;  // the "battle" entries
};

ParsedConflict parse_conflict_card(const DataNode& node) {
  ParsedConflict parsed{{}, node, {}};
  ConflictCard& card = parsed.card;
  card.id = card_id(node);
  card.kind = static_cast<Kind>(node["kind"].choice(kKinds));
  if (card.kind == Kind::kBattle)
    node.keys({"id", "name", "action", "kind", "aggressor", "types", "vp"},
              {"decisive", "prerequisites", "homeland", "loser_destroyed"});
  else if (card.kind == Kind::kKept)
    node.keys({"id", "name", "action", "kind", "effect"});
  else
    node.keys({"id", "name", "action", "kind", "effects"});
  card.name = node["name"].string(1);
  card.action = static_cast<std::int8_t>(node["action"].small_int(1, 20));
  if (card.kind == Kind::kBattle) {
    card.aggressor = static_cast<std::int8_t>(node["aggressor"].choice(kSideKeys));
    card.types = types_of(node["types"]);
    card.decisive = card.types;
    if (const auto decisive = node.get("decisive")) {
      card.decisive = types_of(*decisive);
      if (card.decisive & ~card.types) decisive->fail("must be a subset of the battle's types");
    }
    if (const auto destroyed = node.get("loser_destroyed")) {
      card.loser_destroyed = types_of(*destroyed, true);
      if (card.loser_destroyed & ~card.types)
        destroyed->fail("must be a subset of the battle's types");
    }
    if (const auto prerequisites = node.get("prerequisites")) {
      const std::size_t count = prerequisites->list(0, kUnbounded);
      for (std::size_t i = 0; i < count; ++i) {
        const DataNode pre = (*prerequisites)[i];
        pre.keys({"battle", "won_by"});
        pre["battle"].string();
        const int won_by = pre["won_by"].choice(kWonBy);
        parsed.prerequisites.push_back(pre["battle"]);
        card.prerequisites.push_back({-1, static_cast<WonBy>(won_by)});
      }
    }
    card.vp = static_cast<std::int8_t>(node["vp"].small_int(0, 20));
    if (const auto homeland = node.get("homeland")) card.homeland = homeland->boolean();
    return parsed;
  }
  if (card.kind == Kind::kKept) {
    card.effects.push_back(parse_effect(node["effect"], true));
    return parsed;
  }
  const DataNode effects = node["effects"];
  const std::size_t count = effects.list(1, kMaxEffects);
  for (std::size_t i = 0; i < count; ++i) {
    card.effects.push_back(parse_effect(effects[i], false));
    if (card.kind == Kind::kBuildUp && card.effects.back().kind != EffectKind::kDraw)
      effects[i]["type"].fail("must be \"draw\": a build_up card has only draw effects");
  }
  return parsed;
}

void check_header(const DataNode& root, const char* format, bool expansion) {
  if (expansion)
    root.keys({"format", "version", "name"}, {"conflict", "german", "british"});
  else
    root.keys({"format", "version", "name", "battle_list", "conflict", "german", "british"});
  if (root["format"].json() != Json(format))
    root["format"].fail("must be " + Json(format).dump() + ", got " + root["format"].shown());
  root["version"].integer(1, 1);
  root["name"].string();
  for (const char* key : {"conflict", "german", "british"})
    if (const auto list = root.get(key)) list->list(0, kUnbounded);
}

std::vector<DataNode> items_of(const DataNode& root, const char* key) {
  std::vector<DataNode> out;
  if (const auto list = root.get(key))
    for (std::size_t i = 0; i < list->json().as_array().size(); ++i) out.push_back((*list)[i]);
  return out;
}

void check_whole(const DataNode& root, const std::vector<ParsedConflict>& conflict,
                 const std::array<std::vector<ArsenalCard>, 2>& arsenals) {
  for (int seat = 0; seat < 2; ++seat) {
    const auto size = arsenals[seat].size();
    if (size < kSetupDraw || size > kMaxArsenal)
      root[kSideKeys[seat]].fail("must hold " + std::to_string(kSetupDraw) + "-" +
                                 std::to_string(kMaxArsenal) + " cards with the expansions, got " +
                                 std::to_string(size));
  }
  if (conflict.empty() || conflict.size() > kMaxConflict)
    root["conflict"].fail("must hold 1-" + std::to_string(kMaxConflict) +
                          " cards with the expansions, got " + std::to_string(conflict.size()));
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
  if (battles.empty()) root["conflict"].fail("needs at least one battle");
  if (!other) root["conflict"].fail("needs a card that is neither a battle nor a kept card");
  for (const std::size_t k : order)
    for (const DataNode& pre : conflict[k].prerequisites) {
      const std::string& id = pre.json().as_string();
      if (!battles.count(id) || id == conflict[k].card.id)
        pre.fail("must be another battle of the set, got " + pre.shown());
    }
  // Prerequisites must not form a cycle (depth-first search, three colours), visited in the
  // reference's order so that the same card is named.
  std::map<std::string, int> colour;
  std::function<void(const std::string&)> visit = [&](const std::string& id) {
    colour[id] = 1;
    const ParsedConflict& battle = conflict[battles.at(id)];
    for (const DataNode& pre : battle.prerequisites) {
      const std::string& other_id = pre.json().as_string();
      const auto found = colour.find(other_id);
      if (found != colour.end() && found->second == 1)
        battle.node["prerequisites"].fail("form a cycle through battle " + Json(other_id).dump());
      if (found == colour.end()) visit(other_id);
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
      cs.strength[a] = static_cast<std::int8_t>(
          *std::max_element(card.attack.begin(), card.attack.end()) + card.defence);
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

CardSet load_card_set(const DataDocument& cards, const std::vector<DataDocument>& expansions) {
  const DataNode root(cards);
  check_header(root, kSetFormat, false);

  const DataNode list = root["battle_list"];
  const std::string list_id = card_id(list);
  list.keys({"id", "name", "battles"});
  list["name"].string(1);
  const DataNode listed = list["battles"];
  const std::size_t listed_count = listed.list(0, kUnbounded);
  for (std::size_t i = 0; i < listed_count; ++i) listed[i].string();

  // Every id names one card of the merged set: the card that first took it, for messages.
  std::map<std::string, DataNode> seen = {{list_id, list}};
  auto claim = [&](const std::string& id, const DataNode& card) {
    const auto [at, fresh] = seen.emplace(id, card);
    if (fresh) return;
    const DataNode& first = at->second;
    card["id"].fail(
        Json(id).dump() + " is already the id of " + first.path() +
        (&first.document() == &card.document() ? "" : " of " + first.document().source));
  };
  std::vector<ParsedConflict> conflict;
  for (const DataNode& node : items_of(root, "conflict")) {
    conflict.push_back(parse_conflict_card(node));
    claim(conflict.back().card.id, node);
  }
  std::array<std::vector<ArsenalCard>, 2> arsenals;
  for (int seat = 0; seat < 2; ++seat) {
    std::map<std::string, std::string> leaders;  // name -> card id
    for (const DataNode& node : items_of(root, kSideKeys[seat])) {
      ArsenalCard card = parse_arsenal_card(node);
      claim(card.id, node);
      if (card.leader) {
        const auto [at, fresh] = leaders.emplace(card.name, card.id);
        if (!fresh)
          node["leader"].fail("names leader " + Json(card.name).dump() + " a second time in the " +
                              kSideKeys[seat] + " arsenal (card " + card.id + "; first " +
                              at->second + ")");
      }
      arsenals[seat].push_back(std::move(card));
    }
  }
  std::multiset<std::string> in_list, in_set;
  for (std::size_t i = 0; i < listed_count; ++i) in_list.insert(listed[i].json().as_string());
  for (const auto& parsed : conflict)
    if (parsed.card.kind == Kind::kBattle) in_set.insert(parsed.card.id);
  if (in_list != in_set ||
      std::set<std::string>(in_list.begin(), in_list.end()).size() != in_list.size())
    listed.fail("must list every battle card of the set exactly once");

  for (const DataDocument& expansion : expansions) {
    const DataNode pack(expansion);
    check_header(pack, kExpansionFormat, true);
    for (const DataNode& node : items_of(pack, "conflict")) {
      conflict.push_back(parse_conflict_card(node));
      claim(conflict.back().card.id, node);
    }
    for (int seat = 0; seat < 2; ++seat) {
      std::set<std::string> names;
      for (const auto& card : arsenals[seat])
        if (card.leader) names.insert(card.name);
      for (const DataNode& node : items_of(pack, kSideKeys[seat])) {
        ArsenalCard card = parse_arsenal_card(node);
        if (card.leader && names.count(card.name)) continue;  // each leader once per arsenal
        claim(card.id, node);
        if (card.leader) names.insert(card.name);
        arsenals[seat].push_back(std::move(card));
      }
    }
  }
  check_whole(root, conflict, arsenals);

  CardSet cs;
  cs.arsenals = std::move(arsenals);
  std::map<std::string, int> index;
  for (std::size_t k = 0; k < conflict.size(); ++k)
    index[conflict[k].card.id] = static_cast<int>(k);
  for (auto& parsed : conflict) {
    for (std::size_t i = 0; i < parsed.prerequisites.size(); ++i)
      parsed.card.prerequisites[i].battle = index.at(parsed.prerequisites[i].json().as_string());
    cs.conflict.push_back(std::move(parsed.card));
  }
  derive_tables(cs);
  return cs;
}

}  // namespace rivals::battlecards
