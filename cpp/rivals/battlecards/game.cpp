#include "rivals/battlecards/game.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "rivals/core/error.h"
#include "rivals/core/evaluation.h"

namespace rivals::battlecards {
namespace {

constexpr int kMaxTurnsLimit = 100000;
constexpr const char* kPhaseNames[kNumPhaseNodes] = {
    "deal",          "setup_deploy",   "turn_deploy",    "conflict_draw", "effect_draw",
    "effect_deploy", "effect_discard", "effect_destroy", "choice",        "window",
    "reinforce",     "fire",           "flip",           "withdraw",      "terminal"};
constexpr const char* kEndNames[] = {nullptr, "homeland", "battles", "max_turns"};

// The card an action names, played at `before`: the card index (the global arsenal index, or
// the conflict index) and the offset with action = offset + index; index -1 for pass, fight and
// decline.
struct Named {
  Action offset;
  int index;
  bool conflict;  // a conflict index (play, conflict outcome) rather than an arsenal index
};

Named named_card(const State& before, Action action) {
  if (before.is_chance_node()) {
    const int seat = before.outcome_seat();
    if (seat < 0) return {0, action, true};
    return {-kMaxArsenal * seat, kMaxArsenal * seat + action, false};
  }
  if (action >= kPlay) return {kPlay, action - kPlay, true};
  if (action >= kWithdraw) return {kWithdraw, action - kWithdraw, false};
  if (action >= kFire) return {kFire, action - kFire, false};
  if (action >= kDeploy) return {kDeploy, action - kDeploy, false};
  return {0, -1, false};
}

template <class Fn>
void for_each_card(u128 cards, int offset, Fn&& fn) {
  for (; cards; cards &= cards - 1) fn(offset + lowest_bit(cards));
}

}  // namespace

GameInfo Battlecards::info() {
  // Hands and the arsenals' order are hidden; the two sides' returns are +1 and -1, or 0 each in a
  // draw (docs/rules/battlecards.md).
  return {
      .long_name = "Battlecards: Western European Theater",
      .description = "World War II card battles on the Western European front",
      .information = Information::kImperfect,
      .utility = Utility::kZeroSum,
      .presets = {{"best", "ismcts",
                   Json::object(
                       {{"time_s", 0.1}, {"rollout_depth", 12}, {"simulations_per_deal", 16}}),
                   "ismcts, rollouts cut off by the evaluation after 12 decisions, 16 "
                   "simulations per deal of the hidden cards (docs/bots.md)"}},
  };
}

std::vector<ParamSpec> Battlecards::param_specs() {
  return {
      ParamSpec::data("cards", Json(nullptr), ParamSpec::kString | ParamSpec::kObject,
                      "a shipped name, a path to a card-set file or the card set")
          .or_null("the shipped card set"),
      ParamSpec::data("expansions", Json::array(), ParamSpec::kArray,
                      "a list of at most " + std::to_string(kMaxExpansions) +
                          " expansion packs, each a shipped name, a path or the pack",
                      ParamSpec::kString | ParamSpec::kObject, kMaxExpansions),
      ParamSpec::integer("max_turns", Json(1000), 1, kMaxTurnsLimit),
  };
}

Battlecards::Battlecards(const Json& params) : params_(params) {
  max_turns_ = static_cast<std::int32_t>(params.find("max_turns")->as_int());
  DataDocument cards = read_data(kName, "cards", *params.find("cards"), kName);
  const Json::Array& expansions = params.find("expansions")->as_array();
  std::vector<DataDocument> packs;
  for (std::size_t i = 0; i < expansions.size(); ++i)
    packs.push_back(read_data(kName, "expansions[" + std::to_string(i) + "]", expansions[i],
                              "battlecards_commanders"));
  cards_ = std::make_shared<const CardSet>(load_card_set(cards, packs));
  Json documents = Json::array();
  for (DataDocument& pack : packs) documents.push_back(std::move(pack.document));
  data_ = std::make_shared<const Json>(
      Json::object({{"cards", std::move(cards.document)}, {"expansions", std::move(documents)}}));
  const CardSet& cs = *cards_;

  for (int seat = 0; seat < 2; ++seat)
    for (int slot = 0; slot < cs.arsenal_size[seat]; ++slot)
      arsenal_ids_[cs.arsenals[seat][static_cast<std::size_t>(slot)].id] =
          kMaxArsenal * seat + slot;
  for (int k = 0; k < cs.conflict_size; ++k)
    conflict_ids_[cs.conflict[static_cast<std::size_t>(k)].id] = k;

  // max_game_length (rules page): per turn a deployment, a draw and then the effects of one card
  // or a battle's choice; on top of that, once per battle card (a battle with combat is always
  // won, and a won card leaves the deck), its battle window and combat rounds.
  const std::int64_t arsenal = cs.arsenal_size[0] + cs.arsenal_size[1];
  std::int64_t window = 2;
  std::int64_t effects = 0;
  std::int64_t battles = 0;
  for (const ConflictCard& card : cs.conflict) {
    if (card.kind == Kind::kBattle) {
      ++battles;
    } else if (card.kind == Kind::kKept) {
      const Effect& e = card.effects[0];
      window += 1 + (e.kind == EffectKind::kReinforce ? e.count : 0);
    } else {
      std::int64_t cost = 0;
      for (const Effect& e : card.effects) {
        if (e.kind == EffectKind::kDraw || e.kind == EffectKind::kDeploy ||
            e.kind == EffectKind::kDiscardReserve)
          cost += e.count;
        else if (e.kind == EffectKind::kDestroyStack)
          cost += 1;
      }
      effects = std::max(effects, cost);
    }
  }
  const std::int64_t combat = window + (2 * kMaxRounds + 1) * arsenal + 2 * kMaxRounds;
  const std::int64_t length = 2 * kSetupDraw + 2 * kSetupDeploy +
                              max_turns_ * (2 + std::max<std::int64_t>(effects, 1)) +
                              battles * combat;
  if (length > std::numeric_limits<int>::max())
    throw InvalidArgument(
        "battlecards: the card set and max_turns allow games longer than 2**31 - 1 actions; "
        "lower max_turns");
  max_game_length_ = static_cast<int>(length);
  observation_size_ = static_cast<int>(9 * arsenal + 6 * cs.conflict_size + kObservationGlobals);
  arsenal_cards_ = static_cast<int>(arsenal);
}

Json Battlecards::params() const { return params_; }

std::string Battlecards::action_to_string(const State& state, Action action) const {
  const CardSet& cs = *cards_;
  if (state.is_chance_node()) {
    const int seat = state.outcome_seat();
    const int size = seat < 0 ? cs.conflict_size : cs.arsenal_size[seat];
    if (action < 0 || action >= size)
      throw InvalidArgument("battlecards: chance outcome " + std::to_string(action) +
                            " is out of range 0.." + std::to_string(size - 1) +
                            (seat < 0 ? std::string(" (conflict cards)")
                                      : std::string(" (") + kSideNames[seat] + "'s arsenal)"));
    return seat < 0 ? cs.conflict[static_cast<std::size_t>(action)].id
                    : cs.arsenals[seat][static_cast<std::size_t>(action)].id;
  }
  if (action == kPass) return "pass";
  if (action == kFight) return "fight";
  if (action == kDecline) return "decline";
  if (action < 0 || action >= kNumActions)
    throw InvalidArgument("battlecards: action " + std::to_string(action) + " is out of range 0.." +
                          std::to_string(kNumActions - 1));
  const Named named = named_card(state, action);
  std::string id;
  if (named.conflict) {
    if (named.index >= cs.conflict_size)
      throw InvalidArgument("battlecards: action " + std::to_string(action) +
                            " names conflict card " + std::to_string(named.index) +
                            ", which the set lacks");
    id = cs.conflict[static_cast<std::size_t>(named.index)].id;
  } else {
    if (slot_of(named.index) >= cs.arsenal_size[seat_of(named.index)])
      throw InvalidArgument("battlecards: action " + std::to_string(action) +
                            " names arsenal card " + std::to_string(named.index) +
                            ", which the set lacks");
    id = cs.arsenal(named.index).id;
  }
  switch (named.offset) {
    case kDeploy:
      return "deploy " + id;
    case kFire:
      return "fire " + id;
    case kWithdraw:
      return "withdraw " + id;
    default:
      return "play " + id;
  }
}

Action Battlecards::string_to_action(const State& state, std::string_view text) const {
  if (state.is_chance_node()) {
    const int seat = state.outcome_seat();
    const std::string id(text);
    if (seat < 0) {
      if (const auto found = conflict_ids_.find(id); found != conflict_ids_.end())
        return found->second;
    } else if (const auto found = arsenal_ids_.find(id);
               found != arsenal_ids_.end() && seat_of(found->second) == seat) {
      return slot_of(found->second);
    }
    throw InvalidArgument(
        "battlecards: unknown chance outcome " + quoted(id) + "; accepted here: the id of " +
        (seat < 0 ? std::string("a conflict card such as 'C33'")
                  : std::string("a card of ") + kSideNames[seat] + "'s arsenal such as '" +
                        cards_->arsenals[seat][0].id + "'"));
  }
  if (text == "pass") return kPass;
  if (text == "fight") return kFight;
  if (text == "decline") return kDecline;
  const auto space = text.find(' ');
  if (space != std::string_view::npos) {
    const std::string_view verb = text.substr(0, space);
    const std::string id(text.substr(space + 1));
    if (verb == "play") {
      if (const auto found = conflict_ids_.find(id); found != conflict_ids_.end())
        return kPlay + found->second;
    } else if (verb == "deploy" || verb == "fire" || verb == "withdraw") {
      if (const auto found = arsenal_ids_.find(id); found != arsenal_ids_.end())
        return (verb == "deploy" ? kDeploy : verb == "fire" ? kFire : kWithdraw) + found->second;
    }
  }
  throw InvalidArgument("battlecards: unknown action " + quoted(text) +
                        "; accepted: 'pass', 'fight', 'decline', 'deploy G07', "
                        "'fire B12', 'withdraw G03', 'play C21', or a card id such as "
                        "'G07'");
}

void Battlecards::scores(const State& state, double* out) const {
  out[0] = state.vp(0);
  out[1] = state.vp(1);
}

namespace {
// Victory points per point of a unit's strength (its best attack plus its defence): units on the
// stacks fight the battles to come, reserve cards only once deployed; a kept card is a bonus in a
// battle of its holder's choice.
constexpr double kStackWorth = 0.15;
constexpr double kReserveWorth = 0.05;
constexpr double kKeptWorth = 0.5;
// How far the VP difference can still move: about one battle.
constexpr double kSpread = 2.5;

int strength(const CardSet& cs, int seat, u128 cards) {
  int total = 0;
  for (; cards; cards &= cards - 1) total += cs.strength[seat * kMaxArsenal + lowest_bit(cards)];
  return total;
}
}  // namespace

double Battlecards::evaluate(const State& state, Player player) const {
  const CardSet& cs = *cards_;
  double projected[2];
  for (int seat = 0; seat < 2; ++seat)
    projected[seat] = state.vp(seat) + kStackWorth * strength(cs, seat, state.pile(kStack, seat)) +
                      kReserveWorth * strength(cs, seat, state.pile(kReserve, seat)) +
                      kKeptWorth * popcount(state.pile(static_cast<ConflictPile>(kKept + seat)));
  return expected_return(projected, 2, player, kSpread);
}

Json Battlecards::to_json(const State& state) const {
  const CardSet& cs = *cards_;
  auto arsenal_ids = [&](u128 cards, int seat) {
    Json out = Json::array();
    for_each_card(cards, kMaxArsenal * seat, [&](int a) { out.push_back(cs.arsenal(a).id); });
    return out;
  };
  auto conflict_ids = [&](u128 cards) {
    Json out = Json::array();
    for_each_card(cards, 0,
                  [&](int k) { out.push_back(cs.conflict[static_cast<std::size_t>(k)].id); });
    return out;
  };
  auto per_seat = [&](ArsenalPile pile) {
    return Json(
        Json::Array{arsenal_ids(state.pile(pile, 0), 0), arsenal_ids(state.pile(pile, 1), 1)});
  };
  auto seat_or_null = [](int seat) { return seat < 0 ? Json(nullptr) : Json(seat); };
  auto id_or_null = [&](int a) { return a < 0 ? Json(nullptr) : Json(cs.arsenal(a).id); };

  Json stacks = Json::array();
  for (int seat = 0; seat < 2; ++seat) {
    Json by_type = Json::object();
    for (int t = 0; t < kNumTypes; ++t) {
      Json cards = Json::array();
      const u128 face_up = state.pile(kFaceUp, seat);
      for (u128 m = state.stack(seat, t); m; m &= m - 1) {
        const int slot = lowest_bit(m);
        cards.push_back(Json::object({{"id", cs.arsenal(kMaxArsenal * seat + slot).id},
                                      {"face_up", (face_up & card_bit(slot)) != 0}}));
      }
      by_type.set(kTypeNames[t], cards);
    }
    stacks.push_back(by_type);
  }
  Json battle = nullptr;
  if (state.in_battle()) {
    const Battle& b = state.battle();
    Json bonus = Json::array();
    for (int seat = 0; seat < 2; ++seat) {
      Json attack = Json::object();
      Json defence = Json::object();
      for (int t = 0; t < kNumTypes; ++t) {
        attack.set(kTypeNames[t], static_cast<int>(b.bonus[seat][t][0]));
        defence.set(kTypeNames[t], static_cast<int>(b.bonus[seat][t][1]));
      }
      bonus.push_back(Json::object({{"attack", attack}, {"defence", defence}}));
    }
    battle = Json::object({
        {"aggressor", static_cast<int>(b.aggressor)},
        {"round", static_cast<int>(b.round)},
        {"firing_phase", static_cast<int>(b.firing_phase)},
        {"firing_side", seat_or_null(b.firing_side)},
        {"unit", id_or_null(b.unit)},
        {"target", id_or_null(b.target)},
        {"window", seat_or_null(b.window)},
        {"withdrawing", seat_or_null(b.withdrawing)},
        {"taking_part", per_seat(kTakingPart)},
        {"withdrawn", per_seat(kWithdrawn)},
        {"bonus", bonus},
    });
  }
  const Json vp(Json::Array{Json(state.vp(0)), Json(state.vp(1))});
  return Json::object({
      {"phase", kPhaseNames[static_cast<int>(state.phase())]},
      {"current_player", state.current_player()},
      {"turn", state.turn()},
      {"drawing_player", seat_or_null(state.drawing())},
      {"sides", Json(Json::Array{Json(kSideNames[0]), Json(kSideNames[1])})},
      {"reserve", per_seat(kReserve)},
      {"stacks", stacks},
      {"kept", Json(Json::Array{conflict_ids(state.pile(static_cast<ConflictPile>(kKept))),
                                conflict_ids(state.pile(static_cast<ConflictPile>(kKept + 1)))})},
      {"won", Json(Json::Array{conflict_ids(state.pile(static_cast<ConflictPile>(kWon))),
                               conflict_ids(state.pile(static_cast<ConflictPile>(kWon + 1)))})},
      {"arsenal_deck", per_seat(kArsenalDeck)},
      {"arsenal_discard", per_seat(kArsenalDiscard)},
      {"conflict_deck", conflict_ids(state.pile(kConflictDeck))},
      {"conflict_discard", conflict_ids(state.pile(kConflictDiscard))},
      {"cancelled", conflict_ids(state.pile(kCancelled))},
      {"card", state.card() < 0 ? Json(nullptr)
                                : Json(cs.conflict[static_cast<std::size_t>(state.card())].id)},
      {"effect_index", state.effect_index() < 0 ? Json(nullptr) : Json(state.effect_index())},
      {"subject", seat_or_null(state.subject())},
      {"left", state.left()},
      {"battle", battle},
      {"vp", vp},
      {"end_reason", state.end_reason() == EndReason::kNone
                         ? Json(nullptr)
                         : Json(kEndNames[static_cast<int>(state.end_reason())])},
      {"winner", seat_or_null(state.winner())},
      {"scores", vp},
  });
}

std::string Battlecards::picture(const State& state, Player viewer) const {
  const CardSet& cs = *cards_;
  auto unit_text = [&](int a) {
    const ArsenalCard& u = cs.arsenal(a);
    return u.id + " " + u.name + " [" + std::to_string(u.attack[0]) + "/" +
           std::to_string(u.attack[1]) + "/" + std::to_string(u.attack[2]) + " d" +
           std::to_string(u.defence) + " p" + std::to_string(u.phase) + "]";
  };
  auto join = [](const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out.empty() ? std::string("-") : out;
  };
  auto arsenal_ids = [&](u128 cards, int seat) {
    std::vector<std::string> out;
    for_each_card(cards, kMaxArsenal * seat, [&](int a) { out.push_back(cs.arsenal(a).id); });
    return join(out, ", ");
  };
  auto conflict_ids = [&](u128 cards) {
    std::vector<std::string> out;
    for_each_card(cards, 0,
                  [&](int k) { out.push_back(cs.conflict[static_cast<std::size_t>(k)].id); });
    return join(out, ", ");
  };
  std::string out = "turn " + std::to_string(state.turn()) + ", phase " +
                    kPhaseNames[static_cast<int>(state.phase())] + "\n";
  for (int seat = 0; seat < 2; ++seat) {
    const bool sees = viewer < 0 || viewer == seat;
    const u128 face_up = state.pile(kFaceUp, seat);
    out += std::string(kSideNames[seat]) + " (seat " + std::to_string(seat) +
           "): " + std::to_string(state.vp(seat)) + " VP\n";
    for (int t = 0; t < kNumTypes; ++t) {
      std::vector<std::string> shown;
      int hidden = 0;
      for_each_card(state.stack(seat, t), kMaxArsenal * seat, [&](int a) {
        const bool up = (face_up & card_bit(slot_of(a))) != 0;
        if (sees || up)
          shown.push_back(unit_text(a) + (up ? "" : " (face down)"));
        else
          ++hidden;
      });
      if (hidden) shown.push_back(std::to_string(hidden) + " face down");
      out += std::string("  ") + kTypeNames[t] + ": " + join(shown, "; ") + "\n";
    }
    const u128 kept = state.pile(static_cast<ConflictPile>(kKept + seat));
    if (sees) {
      out += "  reserve: " + arsenal_ids(state.pile(kReserve, seat), seat) + "\n";
      out += "  kept: " + conflict_ids(kept) + "\n";
    } else {
      out += "  reserve: " + std::to_string(popcount(state.pile(kReserve, seat))) +
             " cards; kept: " + std::to_string(popcount(kept)) + " cards\n";
    }
    out += "  won: " + conflict_ids(state.pile(static_cast<ConflictPile>(kWon + seat))) + "\n";
    out += "  arsenal deck " + std::to_string(popcount(state.pile(kArsenalDeck, seat))) +
           ", discard " + arsenal_ids(state.pile(kArsenalDiscard, seat), seat) + "\n";
  }
  out += "conflict deck " + std::to_string(popcount(state.pile(kConflictDeck))) + ", discard " +
         std::to_string(popcount(state.pile(kConflictDiscard))) + "\n";
  if (state.card() >= 0) {
    const ConflictCard& card = cs.conflict[static_cast<std::size_t>(state.card())];
    out += "card: " + card.id + " " + card.name + "\n";
  }
  if (state.in_battle()) {
    const Battle& b = state.battle();
    out += std::string("battle: aggressor ") + kSideNames[b.aggressor] + ", round " +
           std::to_string(b.round) + ", phase " + std::to_string(b.firing_phase) + "\n";
    for (int seat = 0; seat < 2; ++seat)
      out += std::string("  ") + kSideNames[seat] +
             " taking part: " + arsenal_ids(state.pile(kTakingPart, seat), seat) + "\n";
  }
  if (state.is_terminal()) {
    out += std::string("game over (") + kEndNames[static_cast<int>(state.end_reason())] + "): " +
           (state.winner() < 0 ? std::string("draw")
                               : std::string(kSideNames[state.winner()]) + " wins");
  } else {
    out += "to move: " + std::to_string(state.current_player());
  }
  return out;
}

std::string Battlecards::to_string(const State& state) const { return picture(state, -1); }

std::string Battlecards::observation_string(const State& state, Player player) const {
  return "view of seat " + std::to_string(player) + " (" + kSideNames[player] + ")\n" +
         picture(state, player);
}

template <class Cell>
void Battlecards::write_observation(const State& state, Player player, Cell* arsenal,
                                    int card_stride, int flag_stride, float* rest) const {
  const CardSet& cs = *cards_;
  std::fill(arsenal, arsenal + 9 * arsenal_cards_, Cell{0});
  std::fill(rest, rest + observation_size_ - 9 * arsenal_cards_, 0.0f);
  const Battle& b = state.battle();
  const bool battle = state.in_battle();
  int card = 0;
  for (int r = 0; r < 2; ++r) {
    const int seat = (player + r) % 2;
    for (int slot = 0; slot < cs.arsenal_size[seat]; ++slot, ++card) {
      auto flag = [&](int j, bool on) {
        if (on) arsenal[card * card_stride + j * flag_stride] = Cell{1};
      };
      const u128 bit = card_bit(slot);
      const int a = kMaxArsenal * seat + slot;
      const bool in_stack = (state.pile(kStack, seat) & bit) != 0;
      const bool up = (state.pile(kFaceUp, seat) & bit) != 0;
      if (r == 0) {
        flag(0, (state.pile(kArsenalDeck, seat) & bit) != 0);
        flag(1, (state.pile(kReserve, seat) & bit) != 0);
        flag(2, in_stack && !up);
      }
      flag(3, in_stack && up);
      flag(4, (state.pile(kTakingPart, seat) & bit) != 0);
      flag(5, (state.pile(kWithdrawn, seat) & bit) != 0);
      flag(6, (state.pile(kArsenalDiscard, seat) & bit) != 0);
      flag(7, battle && b.unit == a);
      flag(8, battle && b.target == a);
    }
  }
  float* out = rest;
  int offset = 0;
  for (int k = 0; k < cs.conflict_size; ++k, offset += 6) {
    const u128 bit = card_bit(k);
    out[offset + 0] = (state.pile(static_cast<ConflictPile>(kKept + player)) & bit) != 0;
    out[offset + 1] = (state.pile(kConflictDiscard) & bit) != 0;
    out[offset + 2] = (state.pile(static_cast<ConflictPile>(kWon + player)) & bit) != 0;
    out[offset + 3] = (state.pile(static_cast<ConflictPile>(kWon + 1 - player)) & bit) != 0;
    out[offset + 4] = (state.pile(kCancelled) & bit) != 0;
    out[offset + 5] = state.card() == k;
  }
  float* o = out + offset;
  for (int r = 0; r < 2; ++r) {
    const int seat = (player + r) % 2;
    float* row = o + 9 * r;
    row[0] = static_cast<float>(popcount(state.pile(kArsenalDeck, seat)));
    row[1] = static_cast<float>(popcount(state.pile(kArsenalDiscard, seat)));
    row[2] = static_cast<float>(popcount(state.pile(kReserve, seat)));
    for (int t = 0; t < kNumTypes; ++t)
      row[3 + t] = static_cast<float>(popcount(state.stack(seat, t) & ~state.pile(kFaceUp, seat)));
    row[6] = static_cast<float>(popcount(state.pile(static_cast<ConflictPile>(kKept + seat))));
    row[7] = static_cast<float>(state.vp(seat));
    row[8] = static_cast<float>(popcount(state.pile(static_cast<ConflictPile>(kWon + seat))));
  }
  o[18] = static_cast<float>(popcount(state.pile(kConflictDeck)));
  o[19] = player == 0;
  o[20] = static_cast<float>(state.turn());
  o[21 + static_cast<int>(state.phase())] = 1;
  const Player mover = state.current_player();
  if (mover >= 0) o[36 + (mover - player + 2) % 2] = 1;
  if (battle) {
    o[38] = 1;
    o[39 + (b.aggressor - player + 2) % 2] = 1;
    o[41] = b.round;
    o[42] = b.firing_phase;
    const int seats[3][2] = {{43, b.firing_side}, {45, b.window}, {47, b.withdrawing}};
    for (const auto& [base, seat] : seats)
      if (seat >= 0) o[base + (seat - player + 2) % 2] = 1;
    for (int r = 0; r < 2; ++r) {
      const int seat = (player + r) % 2;
      for (int t = 0; t < kNumTypes; ++t) {
        o[49 + 6 * r + 2 * t] = b.bonus[seat][t][0];
        o[50 + 6 * r + 2 * t] = b.bonus[seat][t][1];
      }
    }
  }
  if (state.subject() >= 0) o[61 + (state.subject() - player + 2) % 2] = 1;
  o[63] = static_cast<float>(state.left());
  o[64] = static_cast<float>(state.effect_index() + 1);
  o[65] = state.drawing() == player;
}

void Battlecards::observation_tensor(const State& state, Player player, float* out) const {
  write_observation(state, player, out, 9, 1, out + 9 * arsenal_cards_);
}

void Battlecards::compact_observation(const State& state, Player player, std::uint8_t* board,
                                      float* features) const {
  write_observation(state, player, board, 1, arsenal_cards_, features);
}

}  // namespace rivals::battlecards
