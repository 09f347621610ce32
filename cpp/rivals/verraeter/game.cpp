#include "rivals/verraeter/game.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "rivals/core/data.h"
#include "rivals/core/error.h"
#include "rivals/core/evaluation.h"

namespace rivals::verraeter {
namespace {

constexpr int kMaxRounds = 50;

std::string value_name(int value_id, const Cards& cards) {
  if (value_id >= cards.num_values) {
    std::string values;
    for (int v = 0; v < cards.num_values; ++v)
      values += (v ? ", " : "") + std::to_string(cards.values[v]);
    throw InvalidArgument("verraeter: supply value id " + std::to_string(value_id) +
                          " does not exist (values: [" + values + "])");
  }
  return std::to_string(cards.values[value_id]);
}

// "3 4 4 5": the values of a pile or hand, ascending, one word per card.
std::string values_text(const Counts& counts, const Cards& cards) {
  std::string out;
  for (int v = 0; v < cards.num_values; ++v)
    for (int k = 0; k < counts[v]; ++k)
      out += (out.empty() ? "" : " ") + std::to_string(cards.values[v]);
  return out;
}

Json values_json(const Counts& counts, const Cards& cards) {
  Json out = Json::array();
  for (int v = 0; v < cards.num_values; ++v)
    for (int k = 0; k < counts[v]; ++k) out.push_back(static_cast<int>(cards.values[v]));
  return out;
}

std::string cards_text(int mask) {
  std::string out;
  for (int c = 0; c < kActionCards; ++c)
    if ((mask >> c) & 1) out += (out.empty() ? "" : " ") + std::string(kCardNames[c]);
  return out;
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

std::string to_move_text(const State& state) {
  if (state.is_terminal()) return "nobody";
  if (state.is_chance_node()) return "chance";
  return "seat " + std::to_string(state.current_player());
}

std::string header(const State& state) {
  return std::string("phase ") + kPhaseNames[static_cast<int>(state.phase())] +
         "; rounds completed " + std::to_string(state.round()) + "/" +
         std::to_string(state.setup().rounds) + "; start player " +
         std::to_string(state.start_player()) + "; strategist " +
         std::to_string(state.strategist()) + "; to move " + to_move_text(state);
}

std::string ring_line(const State& state) {
  std::string out;
  for (int i = 0; i < state.ring_size(); ++i) {
    out += (i ? " | " : "") + std::to_string(i) + " " + kTypeNames[state.type_at(i)] + " " +
           kHouseNames[state.house_at(i)];
    const Player owner = state.estate_at(i);
    if (owner >= 0)
      out += std::string(" ") + (state.kontor_at(i) ? "K" : "G") + std::to_string(owner);
  }
  return "ring: " + or_dash(out);
}

std::string conflict_line(const State& state) {
  return "conflict: " +
         (state.conflict() < 0 ? std::string("none") : std::to_string(state.conflict()));
}

std::string queue_text(const State& state) {
  std::string out;
  for (int i = 0; i < state.queue_length(); ++i)
    out += (i ? " " : "") + std::to_string(state.queue_at(i));
  return or_dash(out);
}

// The action card of `seat` as `viewer` sees it: -1 if there is none or it is hidden.
int visible_action(const State& state, Player seat, Player viewer) {
  const int card = state.action_of(seat);
  return card < 0 || (seat != viewer && !state.revealed()) ? -1 : card;
}

int parse_index(std::string_view word, std::string_view arg, std::string_view name, int limit) {
  if (word != name) return -1;
  for (int i = 0; i < limit; ++i)
    if (arg == std::to_string(i)) return i;
  return -1;
}

int parse_card(std::string_view arg) {
  for (int c = 0; c < kActionCards; ++c)
    if (arg == kCardNames[c]) return c;
  return -1;
}

}  // namespace

IdKind id_kind(const State& state) {
  if (!state.is_chance_node()) return IdKind::kDecision;
  if (state.phase() == Phase::kRing) return IdKind::kLandscape;
  return state.phase() == Phase::kDraft ? IdKind::kAside : IdKind::kDraw;
}

std::string action_name(Action action, IdKind kind, const Cards& cards) {
  const int range = kind == IdKind::kDecision    ? kNumActions
                    : kind == IdKind::kLandscape ? kLandscapeCards
                    : kind == IdKind::kAside     ? kActionCards
                                                 : kMaxValues;
  if (action < 0 || action >= range)
    throw InvalidArgument(
        "verraeter: " + std::string(kind == IdKind::kDecision ? "action " : "chance outcome ") +
        std::to_string(action) + " is out of range 0.." + std::to_string(range - 1) +
        (kind == IdKind::kLandscape ? " (landscape cards)"
         : kind == IdKind::kAside   ? " (action cards)"
         : kind == IdKind::kDraw    ? " (supply value ids)"
                                    : ""));
  switch (kind) {
    case IdKind::kLandscape: {
      const int card = action - kLand;
      return std::string(kTypeNames[card / 2]) + " " + kHouseNames[card % 2];
    }
    case IdKind::kAside:
      return std::string("aside ") + kCardNames[action - kAside];
    case IdKind::kDraw:
      return "draw " + value_name(action - kDrawCard, cards);
    case IdKind::kDecision:
      break;
  }
  if (action < kBuild) return "conflict " + std::to_string(action - kConflict);
  if (action < kUpgrade) return "build " + std::to_string(action - kBuild);
  if (action < kPick) return "upgrade " + std::to_string(action - kUpgrade);
  if (action < kPlay) return std::string("pick ") + kCardNames[action - kPick];
  if (action < kDone) return "play " + value_name(action - kPlay, cards);
  if (action == kDone) return "done";
  if (action < kPass) return "discard " + value_name(action - kDiscard, cards);
  return "pass";
}

GameInfo Verraeter::info() {
  // Hands and drafted cards are hidden; k tied leaders get 1/k each and the others -1/(n - k)
  // (docs/rules/verraeter.md, "Returns").
  return {
      .long_name = "Verräter (Traitor)",
      .description =
          "the houses of the eagle and the rose fight over twelve landscapes; switch sides",
      .information = Information::kImperfect,
      .utility = Utility::kZeroSum,
      .presets = {{"best", "ismcts", Json::object({{"time_s", 0.1}}),
                   "ismcts with full rollouts: cutting them off by the evaluation lost "
                   "(docs/bots.md)"}},
  };
}

std::vector<ParamSpec> Verraeter::param_specs() {
  return {
      ParamSpec::choice("players", Json(4), {Json(3), Json(4)}),
      ParamSpec::integer("rounds", Json(nullptr), 1, kMaxRounds).or_null("2 * players"),
      ParamSpec::data("cards", Json(nullptr), ParamSpec::kString | ParamSpec::kObject,
                      "a shipped name, a path to a card file or the card document")
          .or_null("the shipped cards"),
  };
}

Verraeter::Verraeter(const Json& params) {
  auto setup = std::make_shared<Setup>();
  setup->players = static_cast<int>(params.find("players")->as_int());
  const Json& rounds = *params.find("rounds");
  // Each player is start player twice unless the rounds are given.
  setup->rounds = rounds.is_null() ? 2 * setup->players : static_cast<int>(rounds.as_int());
  cards_param_ = *params.find("cards");
  DataDocument cards = read_data(kName, "cards", cards_param_, kName);
  setup->cards = parse_cards(cards, setup->players);
  data_ = std::make_shared<const Json>(Json::object({{"cards", std::move(cards.document)}}));
  setup_ = std::move(setup);
}

Json Verraeter::params() const {
  return Json::object(
      {{"players", setup_->players}, {"rounds", setup_->rounds}, {"cards", cards_param_}});
}

// Ring and estates; per round the conflict, the set-aside card and the builder, n picks, at most
// 5 plays and a done per seat, the draws and at most as many discards (hands hold at most 5
// cards when the draws begin).
int Verraeter::max_game_length() const {
  const int n = setup_->players;
  const int draws = setup_->cards.estates_per_player * n + setup_->cards.card_draws_total();
  return kRingSize + n + setup_->rounds * (3 + 7 * n + 2 * draws);
}

std::string Verraeter::action_to_string(const State& state, Action action) const {
  return action_name(action, id_kind(state), setup_->cards);
}

Action Verraeter::string_to_action(const State& state, std::string_view text) const {
  const Cards& cards = setup_->cards;
  const IdKind kind = id_kind(state);
  const auto space = text.find(' ');
  const std::string_view word = space == std::string_view::npos ? text : text.substr(0, space);
  const std::string_view arg =
      space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  const int card = parse_card(arg);
  int value = -1;
  for (int v = 0; v < cards.num_values; ++v)
    if (space != std::string_view::npos && arg == std::to_string(cards.values[v])) value = v;
  switch (kind) {
    case IdKind::kDecision:
      if (text == "done") return kDone;
      if (text == "pass") return kPass;
      if (int i = parse_index(word, arg, "conflict", kRingSize); i >= 0) return kConflict + i;
      if (int i = parse_index(word, arg, "build", kRingSize); i >= 0) return kBuild + i;
      if (int i = parse_index(word, arg, "upgrade", kRingSize); i >= 0) return kUpgrade + i;
      if (word == "pick" && card >= 0) return kPick + card;
      if (word == "play" && value >= 0) return kPlay + value;
      if (word == "discard" && value >= 0) return kDiscard + value;
      break;
    case IdKind::kLandscape:
      for (int t = 0; t < kTypes; ++t) {
        if (word != kTypeNames[t] && !(t == 0 && word == "Oednis")) continue;
        for (int h = 0; h < 2; ++h)
          if (arg == kHouseNames[h]) return kLand + 2 * t + h;
      }
      break;
    case IdKind::kAside:
      if (word == "aside" && card >= 0) return kAside + card;
      break;
    case IdKind::kDraw:
      if (word == "draw" && value >= 0) return kDrawCard + value;
      break;
  }
  // The supply values only where the accepted forms take one (v).
  std::string values;
  for (int v = 0; v < cards.num_values; ++v)
    values += (v ? ", " : "") + std::to_string(cards.values[v]);
  const std::string accepted =
      kind == IdKind::kDecision
          ? "'conflict 3', 'build 7', 'upgrade 7', 'pick Diplomat5', 'play v', 'done', "
            "'discard v', 'pass' (v one of [" +
                values + "])"
      : kind == IdKind::kLandscape ? "a landscape card such as 'Stadt eagle'"
      : kind == IdKind::kAside     ? "'aside Bauer'"
                                   : "'draw v' (v one of [" + values + "])";
  throw InvalidArgument("verraeter: unknown " +
                        std::string(kind == IdKind::kDecision ? "action " : "chance outcome ") +
                        quoted(text) + "; accepted here: " + accepted);
}

void Verraeter::scores(const State& state, double* out) const {
  for (Player s = 0; s < setup_->players; ++s) out[s] = state.vp(s);
}

namespace {
// A point of supply card in hand is worth this many victory points: cards win conflicts.
constexpr double kHandWorth = 0.2;
// A Gutshof on a landscape of its owner's house draws a card every round still to come.
constexpr double kGutshofWorth = 0.5;
// A lead of this many conflict points before the last cards are played decides the conflict.
constexpr double kConflictMargin = 10.0;
}  // namespace

// The points scored, the final bonus as it would count now, the cards in hand and the Gutshöfe
// that still draw, and (from the conflict's choice to the reveal) the conflict of this round as
// it stands: each house's share of the losing landscape's points weighted by its lead, and the
// action card's own points. The totals can still move by about a conflict per round to come.
double Verraeter::evaluate(const State& state, Player player) const {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  const int rounds_left = setup_->rounds - state.round();
  double projected[kMaxSeats];
  for (Player s = 0; s < n; ++s) {
    int hand = 0;
    for (int v = 0; v < cards.num_values; ++v) hand += cards.values[v] * state.hand(s)[v];
    projected[s] = state.vp(s) + state.final_bonus(s) + kHandWorth * hand +
                   kGutshofWorth * rounds_left * state.drawing_estates(s);
  }
  const Phase phase = state.phase();
  if (state.conflict() >= 0 && (phase == Phase::kDraft || phase == Phase::kSupply)) {
    const int sides[2] = {state.conflict(), (state.conflict() + 1) % kRingSize};
    int house[kMaxSeats];
    int totals[2] = {0, 0};
    int members[2] = {0, 0};
    int showing[2] = {0, 0};  // the landscape at the site that shows each house
    for (const int position : sides) {
      showing[state.house_at(position)] = state.type_at(position);
      totals[state.house_at(position)] += cards.conflict[state.type_at(position)];
    }
    for (Player s = 0; s < n; ++s) {
      const int action = state.action_of(s);
      house[s] = state.house_of(s) ^ (action == kVerraeter);
      ++members[house[s]];
      int strength = action >= 0 ? cards.card_conflict[action] : 0;
      for (int v = 0; v < cards.num_values; ++v) strength += cards.values[v] * state.played(s)[v];
      totals[house[s]] += strength;
    }
    for (Player s = 0; s < n; ++s) {
      const int h = house[s];
      const double lead = std::clamp(0.5 + (totals[h] - totals[1 - h]) / kConflictMargin, 0.0, 1.0);
      projected[s] += lead * cards.vp[showing[1 - h]][members[h] - 1];
      if (state.action_of(s) >= 0) projected[s] += cards.card_vp[state.action_of(s)];
    }
  }
  return expected_return(projected, n, player, 2.0 + 2.0 * std::sqrt(rounds_left));
}

Json Verraeter::to_json(const State& state) const {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  Json ring = Json::array();
  for (int i = 0; i < state.ring_size(); ++i) {
    const Player owner = state.estate_at(i);
    ring.push_back(Json::object(
        {{"type", kTypeNames[state.type_at(i)]},
         {"house", kHouseNames[state.house_at(i)]},
         {"estate", owner < 0
                        ? Json(nullptr)
                        : Json::object({{"owner", owner}, {"kontor", state.kontor_at(i)}})}}));
  }
  Json houses = Json::array(), vp = Json::array(), hands = Json::array(), played = Json::array(),
       actions = Json::array(), pool = Json::array(), queue = Json::array();
  for (Player s = 0; s < n; ++s) {
    houses.push_back(kHouseNames[state.house_of(s)]);
    vp.push_back(state.vp(s));
    hands.push_back(values_json(state.hand(s), cards));
    played.push_back(values_json(state.played(s), cards));
    const int card = state.action_of(s);
    actions.push_back(card < 0 ? Json(nullptr) : Json(kCardNames[card]));
  }
  for (int c = 0; c < kActionCards; ++c)
    if ((state.pool() >> c) & 1) pool.push_back(kCardNames[c]);
  for (int i = 0; i < state.queue_length(); ++i) queue.push_back(state.queue_at(i));
  return Json::object({
      {"houses", houses},
      {"ring", ring},
      {"conflict", state.conflict() < 0 ? Json(nullptr) : Json(state.conflict())},
      {"conflict_totals", state.revealed() ? Json::object({{"eagle", state.conflict_total(0)},
                                                           {"rose", state.conflict_total(1)}})
                                           : Json(nullptr)},
      {"vp", vp},
      {"round", state.round()},
      {"start_player", state.start_player()},
      {"strategist", state.strategist()},
      {"hands", hands},
      {"played", played},
      {"actions", actions},
      {"phase", kPhaseNames[static_cast<int>(state.phase())]},
      {"current_player", state.current_player()},
      {"aside", state.aside() < 0 ? Json(nullptr) : Json(kCardNames[state.aside()])},
      {"pool", pool},
      {"draw_queue", queue},
      {"draw_pile", values_json(state.pile(), cards)},
      {"discard", values_json(state.discard_pile(), cards)},
  });
}

std::string Verraeter::to_string(const State& state) const {
  const Cards& cards = setup_->cards;
  std::string out = header(state) + "\n" + ring_line(state) + "\n" + conflict_line(state) + "\n";
  for (Player s = 0; s < setup_->players; ++s) {
    const int card = state.action_of(s);
    out += "seat " + std::to_string(s) + " " + kHouseNames[state.house_of(s)] + " vp " +
           std::to_string(state.vp(s)) + ": hand " + or_dash(values_text(state.hand(s), cards)) +
           "; played " + or_dash(values_text(state.played(s), cards)) + "; action " +
           (card < 0 ? "-" : kCardNames[card]) + "\n";
  }
  out += std::string("aside ") + (state.aside() < 0 ? "-" : kCardNames[state.aside()]) + "; pool " +
         or_dash(cards_text(state.pool())) + "\n";
  out += "draw pile " + or_dash(values_text(state.pile(), cards)) + "; discard " +
         or_dash(values_text(state.discard_pile(), cards)) + "; draw queue " + queue_text(state);
  if (state.is_terminal()) {
    double result[kMaxSeats];
    state.returns(result);
    out += "\ngame over: returns";
    for (Player s = 0; s < setup_->players; ++s) {
      char number[32];
      std::snprintf(number, sizeof number, " %+.3f", result[s]);
      out += number;
    }
  }
  return out;
}

std::string Verraeter::observation_string(const State& state, Player player) const {
  const Cards& cards = setup_->cards;
  std::string out = "verraeter view of seat " + std::to_string(player) + "\n" + header(state) +
                    "\n" + ring_line(state) + "\n" + conflict_line(state) + "\n";
  for (Player s = 0; s < setup_->players; ++s) {
    const std::string hand = s == player ? or_dash(values_text(state.hand(s), cards))
                                         : std::to_string(state.hand_size(s)) + " cards";
    const int card = visible_action(state, s, player);
    const char* action = card >= 0 ? kCardNames[card] : (state.action_of(s) < 0 ? "-" : "?");
    out += "seat " + std::to_string(s) + " " + kHouseNames[state.house_of(s)] + " vp " +
           std::to_string(state.vp(s)) + ": hand " + hand + "; played " +
           or_dash(values_text(state.played(s), cards)) + "; action " + action + "\n";
  }
  const int pool = state.received_pool(player);
  out += "pool: " + or_dash(pool < 0 ? std::string() : cards_text(pool)) + "\n";
  out += "discard: " + or_dash(values_text(state.discard_pile(), cards)) + "; draw pile " +
         std::to_string(state.pile_size()) + " cards; draw queue " + queue_text(state);
  return out;
}

template <class Cell>
void Verraeter::write_observation(const State& state, Player player, Cell* ring,
                                  int position_stride, int flag_stride, float* rest) const {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  std::fill(ring, ring + kRingSize * (10 + n), Cell{0});
  std::fill(rest, rest + 20 * n + 29, 0.0f);
  // Divided in double and then rounded, as numpy does with Python's float division.
  auto ratio = [](int a, int b) { return static_cast<float>(static_cast<double>(a) / b); };
  for (int i = 0; i < state.ring_size(); ++i) {
    auto flag = [&](int k) { ring[i * position_stride + k * flag_stride] = Cell{1}; };
    flag(state.type_at(i));
    flag(6 + state.house_at(i));
    const Player owner = state.estate_at(i);
    if (owner >= 0) {
      flag(8 + (owner - player + n) % n);
      if (state.kontor_at(i)) flag(8 + n);
    }
    if (state.conflict() == i) flag(9 + n);
  }
  const bool receiving = state.phase() == Phase::kDraw && state.is_chance_node();
  for (Player s = 0; s < n; ++s) {
    float* seat = rest + 20 * ((s - player + n) % n);
    seat[state.house_of(s)] = 1;
    seat[2] = ratio(state.vp(s), 32);
    seat[3] = ratio(state.hand_size(s), 5);
    for (int v = 0; v < cards.num_values; ++v) seat[4 + v] = ratio(state.played(s)[v], 5);
    if (s == state.start_player()) seat[10] = 1;
    if (s == state.strategist()) seat[11] = 1;
    const int card = visible_action(state, s, player);
    if (card >= 0) seat[12 + card] = 1;
    if (s == state.current_player()) seat[18] = 1;
    if (receiving && state.queue_at(0) == s) seat[19] = 1;
  }
  float* own = rest + 20 * n;
  for (int v = 0; v < cards.num_values; ++v) {
    own[v] = ratio(state.hand(player)[v], 5);
    own[12 + v] = ratio(state.discard_pile()[v], 5);
  }
  const int pool = state.received_pool(player);
  for (int c = 0; c < kActionCards; ++c)
    if (pool >= 0 && ((pool >> c) & 1)) own[6 + c] = 1;
  own[18] = ratio(state.pile_size(), cards.deck_size);
  own[19] = ratio(state.round(), setup_->rounds);
  own[20 + static_cast<int>(state.phase())] = 1;
}

void Verraeter::observation_tensor(const State& state, Player player, float* out) const {
  const int stride = 10 + setup_->players;
  write_observation(state, player, out, stride, 1, out + kRingSize * stride);
}

void Verraeter::compact_observation(const State& state, Player player, std::uint8_t* board,
                                    float* features) const {
  write_observation(state, player, board, 1, kRingSize, features);
}

}  // namespace rivals::verraeter
