#include "rivals/rheinlaender/game.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "rivals/core/data.h"
#include "rivals/core/error.h"
#include "rivals/core/evaluation.h"

namespace rivals::rheinlaender {
namespace {

constexpr int kMaxTurnsLimit = 100000;
constexpr const char* kPhaseNames[] = {"landmarks", "deal", "play", "draw", "redraw", "terminal"};
constexpr const char* kEndNames[] = {"", "knights", "max_turns"};

std::string chip_name(int kind) {
  if (kind == kCastle) return "castle";
  if (kind == kChurch) return "church";
  return "city " + std::to_string(chip_value(kind));
}

const char* chip_kind(int kind) {
  return kind == kCastle ? "castle" : kind == kChurch ? "church" : "city";
}

std::string cards_text(std::uint64_t cards) {
  std::string out;
  for (; cards; cards &= cards - 1) {
    if (!out.empty()) out += ' ';
    out += std::to_string(std::countr_zero(cards));
  }
  return out;
}

Json cards_json(std::uint64_t cards) {
  Json out = Json::array();
  for (; cards; cards &= cards - 1) out.push_back(std::countr_zero(cards));
  return out;
}

// Divided in double and then rounded, as numpy does with Python's float division.
float ratio(int a, int b) { return static_cast<float>(static_cast<double>(a) / b); }

// The domains (2+ connected knights) in the order of their first space.
template <class Fn>
void for_each_domain(const State& state, Fn&& fn) {
  Bits rest = state.occupied();
  while (rest.any()) {
    const Bits part = state.component(rest.first());
    rest.remove(part);
    if (part.several()) fn(part);
  }
}

}  // namespace

GameInfo Rheinlaender::info() {
  // Hands are hidden; k tied leaders get 1/k each and the others -1/(n - k), so the returns sum
  // to zero with any number of seats (docs/rules/rheinlaender.md, "Returns").
  return {
      .long_name = "Rheinländer",
      .description = "knights, bastions and bishops carve domains out of the Rhine valley",
      .information = Information::kImperfect,
      .utility = Utility::kZeroSum,
      .presets = {{"best", "ismcts", Json::object({{"time_s", 0.1}, {"rollout_depth", 12}}),
                   "ismcts, rollouts cut off by the evaluation after 12 decisions (docs/bots.md)"}},
  };
}

std::vector<ParamSpec> Rheinlaender::param_specs() {
  return {
      ParamSpec::choice("players", Json(3), {Json(3), Json(4), Json(5)}),
      ParamSpec::data("map", Json(nullptr), ParamSpec::kString | ParamSpec::kObject,
                      "a shipped name, a path to a map file or the map document")
          .or_null("the shipped map"),
      ParamSpec::integer("max_turns", Json(1000), 1, kMaxTurnsLimit),
  };
}

Rheinlaender::Rheinlaender(const Json& params) {
  auto data = std::make_shared<Data>();
  Setup& g = data->setup;
  g.players = static_cast<int>(params.find("players")->as_int());
  g.knights = g.players == 3 ? 25 : g.players == 4 ? 20 : 17;
  g.max_turns = static_cast<int>(params.find("max_turns")->as_int());

  data->map_param = *params.find("map");
  DataDocument map = read_data(kName, "map", data->map_param, kName);
  g.board = parse_map(map);
  const Board& board = g.board;
  if (board.max_number < kHandSize * g.players)
    throw InvalidArgument(map.source + ": the map has " + std::to_string(board.max_number) +
                          " numbers; players=" + std::to_string(g.players) + " needs at least " +
                          std::to_string(kHandSize * g.players));
  data->data = Json::object({{"map", std::move(map.document)}});
  const int S = board.spaces;
  const int N = board.max_number;
  g.bastion_base = N * S;
  g.discard_base = N * S + S;
  g.num_actions = N * S + S + N;

  auto& names = data->names;
  names.reserve(static_cast<std::size_t>(g.num_actions));
  for (int card = 1; card <= N; ++card) {
    for (int s = 0; s < S; ++s) {
      const auto& numbers = board.numbers[s];
      const std::string& id = board.ids[s];
      if (std::find(numbers.begin(), numbers.end(), card) == numbers.end())
        names.push_back("reinforce " + id + " with " + std::to_string(card));
      else
        names.push_back(numbers.size() == 1 ? id : id + " with " + std::to_string(card));
    }
  }
  for (int s = 0; s < S; ++s) names.push_back("bastion " + board.ids[s]);
  for (int card = 1; card <= N; ++card) names.push_back("discard " + std::to_string(card));
  for (Action a = 0; a < g.num_actions; ++a) data->ids.emplace(names[a], a);
  data->card_names.push_back("reshuffle");
  for (int card = 1; card <= N; ++card) data->card_names.push_back("card " + std::to_string(card));
  for (int kind = 0; kind < kChipKinds; ++kind) data->chip_names.push_back(chip_name(kind));
  data_ = std::move(data);
}

Json Rheinlaender::params() const {
  return Json::object({{"players", data_->setup.players},
                       {"map", data_->map_param},
                       {"max_turns", data_->setup.max_turns}});
}

std::vector<int> Rheinlaender::observation_shape() const {
  const Setup& g = data_->setup;
  const int n = g.players;
  const int S = g.board.spaces;
  const int T = g.board.sites;
  const int N = g.board.max_number;
  return {2 * n * S + 2 * S + 4 * T + n * T + 2 * N + 8 * n + 9};
}

std::string Rheinlaender::action_name(Action action) const {
  if (action < 0 || action >= data_->setup.num_actions)
    throw InvalidArgument("rheinlaender: action " + std::to_string(action) +
                          " is out of range 0.." + std::to_string(data_->setup.num_actions - 1));
  return data_->names[action];
}

const std::vector<std::string>& Rheinlaender::outcome_names(const State& state) const {
  return state.phase() == Phase::kLandmarks ? data_->chip_names : data_->card_names;
}

std::string Rheinlaender::action_to_string(const State& state, Action action) const {
  if (!state.is_chance_node()) return action_name(action);
  const auto& names = outcome_names(state);
  if (action < 0 || action >= static_cast<Action>(names.size()))
    throw InvalidArgument("rheinlaender: chance outcome " + std::to_string(action) +
                          " is out of range 0.." + std::to_string(names.size() - 1) +
                          (state.phase() == Phase::kLandmarks ? " (landmark chips)" : " (cards)"));
  return names[action];
}

Action Rheinlaender::string_to_action(const State& state, std::string_view text) const {
  if (state.is_chance_node()) {
    const auto& names = outcome_names(state);
    const auto found = std::find(names.begin(), names.end(), text);
    if (found == names.end())
      throw InvalidArgument("unknown Rheinländer chance outcome " + quoted(text) +
                            "; accepted here: " +
                            (state.phase() == Phase::kLandmarks ? "'castle', 'church', 'city 3'"
                                                                : "'card 12', 'reshuffle'"));
    return static_cast<Action>(found - names.begin());
  }
  const auto found = data_->ids.find(std::string(text));
  if (found == data_->ids.end())
    throw InvalidArgument(
        "unknown Rheinländer action " + quoted(text) +
        "; accepted: a space id such as '12L' or '12W' (card of that number), '10-11 with 10' "
        "(an island), 'reinforce 12L with 40', 'bastion 12L', 'discard 12'");
  return found->second;
}

void Rheinlaender::scores(const State& state, double* out) const {
  int total[kMaxPlayers];
  state.totals(total);
  for (int seat = 0; seat < data_->setup.players; ++seat) out[seat] = total[seat];
}

// Every domain is worth its final score now (a duke 5 and its landmarks, the archbishop 5), since
// a duke kept to the end scores there; how far the totals can still move shrinks with the knights
// the nearest player to the end has left, as the game ends when one supply runs out.
double Rheinlaender::evaluate(const State& state, Player player) const {
  const int n = data_->setup.players;
  int total[kMaxPlayers];
  state.final_totals(total);
  double projected[kMaxPlayers];
  int fewest_knights = data_->setup.knights;
  for (int seat = 0; seat < n; ++seat) {
    projected[seat] = total[seat];
    fewest_knights = std::min(fewest_knights, state.knights_left(seat));
  }
  return expected_return(projected, n, player, 3.0 + 1.5 * std::sqrt(fewest_knights));
}

Json Rheinlaender::to_json(const State& state) const {
  const Setup& g = data_->setup;
  const Board& board = g.board;
  const int n = g.players;
  auto ids = [&](const Bits& spaces) {
    Json out = Json::array();
    spaces.for_each([&](int s) { out.push_back(board.ids[s]); });
    return out;
  };
  Json knights = Json::object();
  state.occupied().for_each([&](int s) { knights.set(board.ids[s], state.knight_at(s)); });
  Json landmarks = Json::object();
  Json castles = Json::object();
  for (int t = 0; t < board.sites; ++t) {
    const int kind = state.chip(t);
    if (kind >= 0)
      landmarks.set(board.site_ids[t],
                    Json::object({{"kind", chip_kind(kind)}, {"value", chip_value(kind)}}));
    const Player holder = state.castle_knight(t);
    if (holder >= 0) castles.set(board.site_ids[t], holder);
  }
  Json domains = Json::array();
  for_each_domain(state, [&](const Bits& part) {
    const Player owner = state.owner_at(part.first());
    domains.push_back(Json::object({
        {"spaces", ids(part)},
        {"owner", owner >= 0 ? Json(owner) : Json(nullptr)},
        {"duke", owner >= 0},
        {"bishop", owner >= 0 && state.touches_church(part)},
        {"value", (owner >= 0) + state.landmark_value(part)},
    }));
  });
  int total[kMaxPlayers];
  state.totals(total);
  Json bishops = Json::array(), points = Json::array(), knights_left = Json::array(),
       bastions_left = Json::array(), hands = Json::array(), scores_json = Json::array();
  for (Player seat = 0; seat < n; ++seat) {
    bishops.push_back(state.bishops(seat));
    points.push_back(state.points(seat));
    knights_left.push_back(state.knights_left(seat));
    bastions_left.push_back(state.bastions_left(seat));
    hands.push_back(cards_json(state.hand(seat)));
    scores_json.push_back(total[seat]);
  }
  const auto nullable = [](int seat) { return seat >= 0 ? Json(seat) : Json(nullptr); };
  const EndReason reason = state.end_reason();
  return Json::object({
      {"knights", knights},
      {"bastions", ids(state.bastions())},
      {"landmarks", landmarks},
      {"castle_knights", castles},
      {"domains", domains},
      {"bishops", bishops},
      {"archbishop", nullable(state.archbishop())},
      {"points", points},
      {"knights_left", knights_left},
      {"bastions_left", bastions_left},
      {"hands", hands},
      {"discard", cards_json(state.discard())},
      {"deck_size", std::popcount(state.deck())},
      {"current_player", state.current_player()},
      {"phase", kPhaseNames[static_cast<int>(state.phase())]},
      {"receiving", nullable(state.receiving())},
      {"bastion_placed", state.bastion_placed()},
      {"turn", state.turn()},
      {"end_reason",
       reason == EndReason::kNone ? Json(nullptr) : Json(kEndNames[static_cast<int>(reason)])},
      {"scores", scores_json},
  });
}

std::string Rheinlaender::board_lines(const State& state) const {
  const Board& board = data_->setup.board;
  std::string out = "spaces: seat number = knight, # bastion, . free; sites: chip [castle knight]";
  for (int s = 0; s < board.spaces; ++s) {
    const Player seat = state.knight_at(s);
    const std::string& id = board.ids[s];
    out += "\n  " + std::string(id.size() < 6 ? 6 - id.size() : 0, ' ') + id + " " +
           (seat >= 0                  ? std::to_string(seat)
            : state.bastions().test(s) ? "#"
                                       : ".");
    std::string extra;
    for (std::uint64_t t = board.sites_at[s]; t; t &= t - 1) {
      const int site = std::countr_zero(t);
      if (board.touches[site][0] != s) continue;
      const int kind = state.chip(site);
      extra += (extra.empty() ? "" : ", ") + board.site_ids[site] + " " +
               (kind >= 0 ? chip_name(kind) : "?");
      const Player holder = state.castle_knight(site);
      if (holder >= 0) extra += " [" + std::to_string(holder) + "]";
    }
    if (!extra.empty()) out += "  " + extra;
  }
  for_each_domain(state, [&](const Bits& part) {
    const Player owner = state.owner_at(part.first());
    std::string names;
    part.for_each([&](int s) { names += " " + board.ids[s]; });
    out += "\ndomain of " + (owner >= 0 ? "seat " + std::to_string(owner) : "nobody") + ", value " +
           std::to_string((owner >= 0) + state.landmark_value(part)) + ":" + names;
  });
  return out;
}

std::string Rheinlaender::status_lines(const State& state) const {
  const int n = data_->setup.players;
  std::string out;
  for (Player seat = 0; seat < n; ++seat)
    out += "seat " + std::to_string(seat) + ": knights " +
           std::to_string(state.knights_left(seat)) + ", bastions " +
           std::to_string(state.bastions_left(seat)) + ", bishops " +
           std::to_string(state.bishops(seat)) + ", points " + std::to_string(state.points(seat)) +
           "\n";
  const Player holder = state.archbishop();
  out += "archbishop: " + (holder >= 0 ? "seat " + std::to_string(holder) : "nobody") + "\n";
  const std::string discard = cards_text(state.discard());
  out += "discard: " + (discard.empty() ? "-" : discard) + "; deck " +
         std::to_string(std::popcount(state.deck())) + "\n";
  const char* phase = kPhaseNames[static_cast<int>(state.phase())];
  out += "turn " + std::to_string(state.turn()) + ", phase " + phase + "\n";
  if (state.is_terminal()) {
    int total[kMaxPlayers];
    state.totals(total);
    std::string scores;
    for (Player seat = 0; seat < n; ++seat)
      scores += (seat ? ", " : "") + std::to_string(total[seat]);
    out += std::string("game over (") + kEndNames[static_cast<int>(state.end_reason())] +
           "): scores [" + scores + "]";
  } else if (state.is_chance_node()) {
    out += std::string("chance: ") + phase +
           (state.receiving() >= 0 ? " for seat " + std::to_string(state.receiving()) : "");
  } else {
    out += "seat " + std::to_string(state.current_player()) + " to move" +
           (state.bastion_placed() ? " (bastion placed)" : "");
  }
  return out;
}

std::string Rheinlaender::to_string(const State& state) const {
  std::string out = board_lines(state) + "\n" + status_lines(state);
  for (Player seat = 0; seat < data_->setup.players; ++seat) {
    const std::string hand = cards_text(state.hand(seat));
    out += "\nseat " + std::to_string(seat) + " hand: " + (hand.empty() ? "-" : hand);
  }
  return out;
}

std::string Rheinlaender::observation_string(const State& state, Player player) const {
  std::string out = "view of seat " + std::to_string(player) + "\n" + board_lines(state) + "\n" +
                    status_lines(state);
  for (Player seat = 0; seat < data_->setup.players; ++seat) {
    const std::uint64_t hand = state.hand(seat);
    out += "\nseat " + std::to_string(seat) + " hand: " +
           (seat == player ? cards_text(hand) : std::to_string(std::popcount(hand)) + " cards");
  }
  return out;
}

int Rheinlaender::compact_features_size() const {
  const Setup& g = data_->setup;
  return 4 * g.board.sites + g.players * g.board.sites + 2 * g.board.max_number + 8 * g.players + 9;
}

template <class Cell>
void Rheinlaender::write_observation(const State& state, Player player, Cell* spaces,
                                     float* rest) const {
  const Setup& g = data_->setup;
  const Board& board = g.board;
  const int n = g.players;
  const int S = board.spaces;
  const int T = board.sites;
  const int N = board.max_number;
  // The space planes, then the rest with offsets counted from its start (the tensor's A4).
  const int a1 = n * S;
  const int a2 = a1 + S;
  const int a3 = a2 + n * S;
  const int a5 = 4 * T;
  const int a6 = a5 + n * T;
  const int a7 = a6 + N;
  const int a8 = a7 + N;
  const int a9 = a8 + 8 * n;
  std::fill(spaces, spaces + a3 + S, Cell{0});
  std::fill(rest, rest + a9 + 9, 0.0f);
  const Bits& occupied = state.occupied();
  state.bastions().for_each([&](int s) { spaces[a1 + s] = Cell{1}; });
  // A knight is in a domain exactly when a neighbouring space holds a knight too.
  occupied.for_each([&](int s) {
    if (board.neighbours[s].intersects(occupied)) spaces[a3 + s] = Cell{1};
  });
  for (int t = 0; t < T; ++t) {
    const int kind = state.chip(t);
    if (kind >= 0) {
      rest[4 * t + std::min(kind, 2)] = 1;
      rest[4 * t + 3] = ratio(chip_value(kind), 4);
    }
  }
  for (std::uint64_t h = state.hand(player); h; h &= h - 1) rest[a6 + std::countr_zero(h) - 1] = 1;
  for (std::uint64_t d = state.discard(); d; d &= d - 1) rest[a7 + std::countr_zero(d) - 1] = 1;
  int owned[kMaxPlayers] = {};
  for_each_domain(state, [&](const Bits& part) {
    const Player owner = state.owner_at(part.first());
    if (owner >= 0) ++owned[owner];
  });
  for (Player seat = 0; seat < n; ++seat) {
    const int r = (seat - player + n) % n;
    state.knights(seat).for_each([&](int s) { spaces[r * S + s] = Cell{1}; });
    state.owned(seat).for_each([&](int s) { spaces[a2 + r * S + s] = Cell{1}; });
    for (int t = 0; t < T; ++t)
      if (state.castle_knight(t) == seat) rest[a5 + r * T + t] = 1;
    float* row = rest + a8 + 8 * r;
    row[0] = ratio(state.knights_left(seat), g.knights);
    row[1] = ratio(state.bastions_left(seat), kBastions);
    row[2] = ratio(owned[seat], 10);
    row[3] = ratio(state.bishops(seat), 7);
    row[4] = ratio(state.points(seat), 100);
    row[5] = state.archbishop() == seat ? 1.0f : 0.0f;
    row[6] = state.current_player() == seat ? 1.0f : 0.0f;
    row[7] = state.is_chance_node() && state.receiving() == seat ? 1.0f : 0.0f;
  }
  rest[a9 + 0] = ratio(std::popcount(state.deck()), N + 1);
  rest[a9 + 1] = state.bastion_placed() ? 1.0f : 0.0f;
  rest[a9 + 2 + static_cast<int>(state.phase())] = 1;
  rest[a9 + 8] = ratio(state.turn(), g.max_turns);
}

void Rheinlaender::observation_tensor(const State& state, Player player, float* out) const {
  const Setup& g = data_->setup;
  write_observation(state, player, out, out + (2 * g.players + 2) * g.board.spaces);
}

void Rheinlaender::compact_observation(const State& state, Player player, std::uint8_t* board,
                                       float* features) const {
  write_observation(state, player, board, features);
}

}  // namespace rivals::rheinlaender
