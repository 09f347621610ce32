#include "rivals/rosenkoenig/game.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "rivals/core/error.h"

namespace rivals::rosenkoenig {
namespace {

int parse_card(std::string_view text) {
  for (int card = 0; card < kCards; ++card)
    if (card_name(card) == text) return card;
  return -1;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

Json cards_json(std::uint32_t cards) {
  Json out = Json::array();
  for (; cards; cards &= cards - 1) out.push_back(card_name(std::countr_zero(cards)));
  return out;
}

char cell(const State& state, int sq) {
  if ((state.stones(kRed) >> sq) & 1) return 'R';
  if ((state.stones(kWhite) >> sq) & 1) return 'W';
  return '.';
}

std::string hand_text(std::uint32_t cards) {
  std::string out;
  for (; cards; cards &= cards - 1)
    out += (out.empty() ? "" : " ") + card_name(std::countr_zero(cards));
  return out.empty() ? "-" : out;
}

}  // namespace

std::string card_name(int card) {
  return std::string(kDirectionNames[card_direction(card)]) + std::to_string(card_distance(card));
}

GameInfo Rosenkoenig::info() {
  // Hands are public; the colours get +1 and -1 (0 each in a draw); the tensor is scaled into
  // [0, 1]; with four players seats 0 and 2 are Red, 1 and 3 White (docs/rules/rosenkoenig.md).
  return {
      .long_name = "Rosenkönig (The Rose King)",
      .description = "the Wars of the Roses: lay rose stones with the crown; big armies score",
      .information = Information::kPerfect,
      .utility = Utility::kZeroSum,
      .observation_low = 0,
      .observation_high = 1,
      .teams = {{4, {{0, 2}, {1, 3}}}},
      .presets = {{"best", "mcts",
                   Json::object({{"time_s", 0.1},
                                 {"exploration", 0.7},
                                 {"rollout_depth", 8},
                                 {"evaluation", "calibrated"},
                                 {"minimax_weight", 0.5}}),
                   "mcts backing up the calibrated evaluation (docs/bots.md)"}},
  };
}

std::vector<ParamSpec> Rosenkoenig::param_specs() {
  return {ParamSpec::choice("players", Json(2), {Json(2), Json(4)}, "4 plays in two teams")};
}

Rosenkoenig::Rosenkoenig(const Json& params) {
  setup_.players = static_cast<std::int8_t>(params.find("players")->as_int());
  setup_.hand_limit = setup_.players == 2 ? 5 : 3;
  setup_.heroes = setup_.players == 2 ? 4 : 2;
}

Json Rosenkoenig::params() const { return Json::object({{"players", setup_.players}}); }

// Card plays (stones placed plus hero flips) bound everything: each draw needs a card played
// before it, and a pass needs another seat able to act. See docs/rules/rosenkoenig.md.
int Rosenkoenig::max_game_length() const {
  const int n = setup_.players;
  const int plays = kTotalStones + setup_.heroes * n;
  return n * setup_.hand_limit + plays * 3 + (n - 1) * (2 * plays + 1);
}

std::vector<int> Rosenkoenig::observation_shape() const {
  return {29 + 26 * setup_.players, kSize, kSize};
}

std::string Rosenkoenig::action_to_string(const State& state, Action action) const {
  if (state.is_chance_node()) {
    if (action < 0 || action >= kCards)
      throw InvalidArgument("rosenkoenig: " + std::to_string(action) +
                            " is not a card (chance outcomes are 0-23)");
    return card_name(action);
  }
  if (action < 0 || action >= kNumActions)
    throw InvalidArgument("rosenkoenig: " + std::to_string(action) + " is not an action (0-49)");
  if (action == kDraw) return "draw";
  if (action == kPass) return "pass";
  if (action >= kFirstHero) return "hero " + card_name(action - kFirstHero);
  return card_name(action);
}

Action Rosenkoenig::string_to_action(const State& state, std::string_view text) const {
  const std::string_view word = trim(text);
  Action action = -1;
  if (state.is_chance_node()) {
    action = parse_card(word);
  } else if (word == "draw") {
    action = kDraw;
  } else if (word == "pass") {
    action = kPass;
  } else if (word.substr(0, 5) == "hero ") {
    const int card = parse_card(trim(word.substr(5)));
    action = card < 0 ? -1 : kFirstHero + card;
  } else {
    action = parse_card(word);
  }
  if (action < 0)
    throw InvalidArgument("rosenkoenig: cannot read action " + quoted(text) + "; expected " +
                          (state.is_chance_node()
                               ? std::string("a card such as NE2")
                               : std::string("a card such as NE2, 'hero NE2', 'draw' or 'pass'")));
  return action;
}

void Rosenkoenig::scores(const State& state, double* out) const {
  const int points[2] = {score_stones(state.stones(kRed)).points,
                         score_stones(state.stones(kWhite)).points};
  for (Player seat = 0; seat < setup_.players; ++seat) out[seat] = points[State::colour_of(seat)];
}

Json Rosenkoenig::to_json(const State& state) const {
  Json board = Json::array();
  for (int r = 0; r < kSize; ++r) {
    std::string row;
    for (int c = 0; c < kSize; ++c) row += cell(state, square(r, c));
    board.push_back(row);
  }
  Json hands = Json::array(), heroes = Json::array(), scores_json = Json::array();
  double points[kMaxSeats];
  scores(state, points);
  for (Player seat = 0; seat < setup_.players; ++seat) {
    hands.push_back(cards_json(state.hand(seat)));
    heroes.push_back(state.heroes(seat));
    scores_json.push_back(static_cast<int>(points[seat]));
  }
  return Json::object({
      {"board", board},
      {"crown", Json::array_of(std::array{row_of(state.crown()), col_of(state.crown())},
                               [](int v) { return Json(v); })},
      {"hands", hands},
      {"heroes", heroes},
      {"stones_left", state.stones_left()},
      {"draw_pile", cards_json(state.draw_pile())},
      {"discard", cards_json(state.discard())},
      {"current_player", state.current_player()},
      {"receiving", state.receiving() >= 0 ? Json(state.receiving()) : Json(nullptr)},
      {"scores", scores_json},
  });
}

std::string Rosenkoenig::to_string(const State& state) const {
  // Three characters a square; the crown's square is bracketed: [R], or [+] while it is empty.
  std::string out = "    0  1  2  3  4  5  6  7  8\n";
  for (int r = 0; r < kSize; ++r) {
    out += std::to_string(r) + " ";
    for (int c = 0; c < kSize; ++c) {
      const int sq = square(r, c);
      const char mark = cell(state, sq);
      if (sq == state.crown())
        out += std::string("[") + (mark == '.' ? '+' : mark) + "]";
      else
        out += std::string(" ") + mark + " ";
    }
    out += "\n";
  }
  double points[kMaxSeats];
  scores(state, points);
  for (Player seat = 0; seat < setup_.players; ++seat) {
    out += "seat " + std::to_string(seat) + (State::colour_of(seat) == kRed ? " Red  " : " White") +
           " heroes " + std::to_string(state.heroes(seat)) + "  score " +
           std::to_string(static_cast<int>(points[seat])) + "  hand " +
           hand_text(state.hand(seat)) + "\n";
  }
  out += "stones left " + std::to_string(state.stones_left()) + ", draw pile " +
         std::to_string(popcount(static_cast<std::uint64_t>(state.draw_pile()))) + ", discard " +
         std::to_string(popcount(static_cast<std::uint64_t>(state.discard()))) + "\n";
  if (state.is_terminal()) {
    double result[kMaxSeats];
    state.returns(result);
    out += result[0] > 0 ? "Red wins\n" : (result[0] < 0 ? "White wins\n" : "draw\n");
  } else if (state.is_chance_node()) {
    out += "dealing a card to seat " + std::to_string(state.receiving()) + "\n";
  } else {
    out += "seat " + std::to_string(state.current_player()) + " to move\n";
  }
  return out;
}

// Everything is public in Rosenkönig, so every player sees the whole table.
std::string Rosenkoenig::observation_string(const State& state, Player /*player*/) const {
  return to_string(state);
}

void Rosenkoenig::observation_tensor(const State& state, Player player, float* out) const {
  const int n = setup_.players;
  const int plane = kSize * kSize;
  std::fill(out, out + observation_shape()[0] * plane, 0.0f);
  auto fill_plane = [&](int index, float value) {
    std::fill(out + index * plane, out + (index + 1) * plane, value);
  };
  const Colour mine = State::colour_of(player);
  for (int r = 0; r < kSize; ++r) {
    for (int c = 0; c < kSize; ++c) {
      const int sq = square(r, c);
      const int at = r * kSize + c;
      const char mark = cell(state, sq);
      if (mark == '.')
        out[2 * plane + at] = 1;
      else
        out[((mark == 'R') == (mine == kRed) ? 0 : 1) * plane + at] = 1;
      if (sq == state.crown()) out[3 * plane + at] = 1;
    }
  }
  for (int r = 0; r < n; ++r) {
    const Player seat = (player + r) % n;
    for (std::uint32_t h = state.hand(seat); h; h &= h - 1)
      fill_plane(4 + 24 * r + std::countr_zero(h), 1);
    fill_plane(28 + 24 * n + r, static_cast<float>(state.heroes(seat)) / setup_.heroes);
    if (state.current_player() == seat) fill_plane(29 + 25 * n + r, 1);
  }
  for (std::uint32_t d = state.discard(); d; d &= d - 1)
    fill_plane(4 + 24 * n + std::countr_zero(d), 1);
  fill_plane(28 + 25 * n, static_cast<float>(state.stones_left()) / kTotalStones);
}

void Rosenkoenig::compact_observation(const State& state, Player player, std::uint8_t* board,
                                      float* features) const {
  const int n = setup_.players;
  const int plane = kSize * kSize;
  std::fill(features, features + compact_features_size(), 0.0f);
  const Colour mine = State::colour_of(player);
  // A row's 9 squares are 9 bits of the board (the guard bit after them): its cells are the bytes
  // of two table entries, with no loop over the stones.
  static constexpr auto kRowBytes = [] {
    std::array<std::array<std::uint8_t, 8>, 256> bytes{};
    for (int bits = 0; bits < 256; ++bits)
      for (int col = 0; col < 8; ++col)
        bytes[bits][col] = static_cast<std::uint8_t>((bits >> col) & 1);
    return bytes;
  }();
  auto mark = [&](int index, u128 stones) {
    std::uint8_t* cells = board + index * plane;
    for (int row = 0; row < kSize; ++row, stones >>= kStride) {
      const auto bits = static_cast<std::uint32_t>(stones) & 0x1ff;
      std::memcpy(cells + row * kSize, kRowBytes[bits & 0xff].data(), 8);
      cells[row * kSize + 8] = static_cast<std::uint8_t>(bits >> 8);
    }
  };
  std::fill(board + 2 * plane, board + 3 * plane, std::uint8_t{0});
  mark(0, state.stones(mine));
  mark(1, state.stones(static_cast<Colour>(mine ^ 1)));
  board[2 * plane + row_of(state.crown()) * kSize + col_of(state.crown())] = 1;
  for (int r = 0; r < n; ++r) {
    const Player seat = (player + r) % n;
    for (std::uint32_t h = state.hand(seat); h; h &= h - 1)
      features[24 * r + std::countr_zero(h)] = 1;
    features[24 + 24 * n + r] = static_cast<float>(state.heroes(seat)) / setup_.heroes;
    if (state.current_player() == seat) features[25 + 25 * n + r] = 1;
  }
  for (std::uint32_t d = state.discard(); d; d &= d - 1) features[24 * n + std::countr_zero(d)] = 1;
  features[24 + 25 * n] = static_cast<float>(state.stones_left()) / kTotalStones;
}

// The evaluations count the score difference, which decides the game, plus a worth for every
// hero a side holds more than the other.
// - default: a hero is worth about one flipped stone in a mid-sized group (6 points), and tanh
//   squashes the lead into (-0.9, 0.9), so a few points decide much when the game is close.
// - thesis: the published thesis engine's rule, a hero worth 30 points, and the value linear in
//   the lead (as the engine's own scores are), scaled by the largest lead possible (all 52 stones
//   in one group, every hero of a side in hand) so it stays inside (-0.9, 0.9).
// - calibrated: the thesis engine's hero worth with the default's squashing on the wider scale
//   that the outcomes of played games follow (a lead of 80 points wins about three games in four).
// Either way the value stays below any proven result.
double Rosenkoenig::evaluate(const State& state, Player player, int evaluation) const {
  const Colour mine = State::colour_of(player);
  const int score[2] = {score_stones(state.stones(kRed)).points,
                        score_stones(state.stones(kWhite)).points};
  int heroes[2] = {0, 0};
  for (Player seat = 0; seat < setup_.players; ++seat)
    heroes[State::colour_of(seat)] += state.heroes(seat);
  const int score_lead = score[mine] - score[mine ^ 1];
  const int hero_lead = heroes[mine] - heroes[mine ^ 1];
  constexpr double kThesisHero = 30;
  if (evaluation == 0) return 0.9 * std::tanh((score_lead + 6.0 * hero_lead) / 40.0);
  if (evaluation == 2) return 0.9 * std::tanh((score_lead + kThesisHero * hero_lead) / 80.0);
  const double widest =
      kTotalStones * kTotalStones + kThesisHero * setup_.heroes * setup_.players / 2;
  return 0.9 * (score_lead + kThesisHero * hero_lead) / widest;
}

}  // namespace rivals::rosenkoenig
