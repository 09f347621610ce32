#include "rivals/sekigahara/game.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "rivals/core/data.h"
#include "rivals/core/error.h"
#include "rivals/sekigahara/solver.h"

namespace rivals::sekigahara {
namespace {

constexpr const char* kRuleNames[] = {"turn_start", "symmetric", "off"};
constexpr const char* kPhaseNames[] = {"action", "order", "blank", "swap", "reveal", "terminal"};
constexpr const char* kSeatNames[] = {"Ishida (blue)", "Tokugawa (red)"};
constexpr int kMaxTurnsLimit = 100000;

const std::array<std::string, kNumActions>& decision_names() {
  static const std::array<std::string, kNumActions> names = [] {
    std::array<std::string, kNumActions> out;
    out[kEnd] = "end";
    for (int c = 1; c <= kNumCards; ++c) {
      const std::string card = std::to_string(c);
      out[c] = "place " + card;
      out[kOrderOffset + c] = "order " + card;
      out[kBlankOffset + c] = "blank " + card;
      out[kSwapOffset + c] = "swap " + card;
      for (int to = 1; to <= kNumCards; ++to)
        if (to != c) out[move_action(c, to)] = "move " + card + "->" + std::to_string(to);
    }
    return out;
  }();
  return names;
}

const std::array<std::string, kNumCards>& outcome_names() {
  static const std::array<std::string, kNumCards> names = [] {
    std::array<std::string, kNumCards> out;
    for (int c = 1; c <= kNumCards; ++c) out[c + kRevealOffset] = "reveal " + std::to_string(c);
    return out;
  }();
  return names;
}

Json influence_json(const Influence& influence, std::uint16_t cards) {
  Json out = Json::array();
  for (unsigned c = cards; c; c &= c - 1) {
    const int card = std::countr_zero(c);
    out.push_back(Json::object(
        {{"id", card},
         {"influence", Json::array_of(std::array{influence[0][card], influence[1][card]},
                                      [](std::int8_t v) { return Json(static_cast<int>(v)); })}}));
  }
  return out;
}

Json cards_json(std::uint16_t cards) {
  Json out = Json::array();
  for (unsigned c = cards; c; c &= c - 1) out.push_back(std::countr_zero(c));
  return out;
}

}  // namespace

std::string action_name(Action action, bool chance) {
  if (chance) {
    if (action < 0 || action >= kNumCards)
      throw InvalidArgument("sekigahara: " + std::to_string(action) +
                            " is not a chance outcome (0-8)");
    return outcome_names()[action];
  }
  if (action < 0 || action >= kNumActions)
    throw InvalidArgument("sekigahara: " + std::to_string(action) + " is not an action (0-108)");
  return decision_names()[action];
}

GameInfo Sekigahara::info() {
  // Everything is public and the deck's order is not part of the state; +1/-1/0; the tensor is
  // scaled into [0, 1] (docs/rules/sekigahara.md, "Observation tensor").
  return {
      .long_name = "Sekigahara",
      .description = "1600: win the daimyō over with influence before the battle begins",
      .information = Information::kPerfect,
      .utility = Utility::kZeroSum,
      .observation_low = 0,
      .observation_high = 1,
      .presets = {{"best", "mcts",
                   Json::object({{"time_s", 0.1},
                                 {"rollout_depth", 12},
                                 {"repetition_draw", true},
                                 {"solve_s", 0.3}}),
                   "mcts, rollouts cut off by the evaluation after 12 decisions, a line that "
                   "comes back scored a draw, the exact solver from three cards in the deck on "
                   "(docs/bots.md)"}},
  };
}

std::vector<ParamSpec> Sekigahara::param_specs() {
  return {
      ParamSpec::choice("repetition_rule", Json("turn_start"),
                        {Json(kRuleNames[0]), Json(kRuleNames[1]), Json(kRuleNames[2])}),
      ParamSpec::integer("max_turns", Json(500), 1, kMaxTurnsLimit),
      ParamSpec::data("cards", Json(nullptr), ParamSpec::kString | ParamSpec::kObject,
                      "a shipped name, a path to a card file or the card document")
          .or_null("the shipped cards"),
  };
}

Sekigahara::Sekigahara(const Json& params) {
  const std::string& rule = params.find("repetition_rule")->as_string();
  for (int i = 0; i < 3; ++i)
    if (rule == kRuleNames[i]) setup_.rule = static_cast<RepetitionRule>(i);
  setup_.max_turns = static_cast<std::int32_t>(params.find("max_turns")->as_int());
  cards_param_ = *params.find("cards");
  DataDocument cards = read_data(kName, "cards", cards_param_, kName);
  setup_.numbers = parse_cards(cards);
  data_ = std::make_shared<const Json>(Json::object({{"cards", std::move(cards.document)}}));
}

namespace {
// The largest deck at which solved_action tries the solver.
constexpr int kSolvedDeck = 3;
}  // namespace

std::optional<Action> Sekigahara::solved_action(const State& state, double seconds,
                                                BudgetClock clock) const {
  // Seven cards left to win take the solver about 0.7 s and eight several seconds: beyond six
  // (three in the deck) it is not tried, so a bot's early moves lose no time to it.
  if (std::popcount(state.deck()) > kSolvedDeck) return std::nullopt;
  // A solver of its own, so that searches on several threads share nothing.
  Solver solver(setup_, SolverLimits{.max_contexts = 2'000'000, .time_s = seconds, .clock = clock});
  try {
    return solver.best_action(state);
  } catch (const SolverBudgetExceeded&) {
    return std::nullopt;
  }
}

Json Sekigahara::params() const {
  return Json::object({{"repetition_rule", kRuleNames[static_cast<int>(setup_.rule)]},
                       {"max_turns", setup_.max_turns},
                       {"cards", cards_param_}});
}

std::string Sekigahara::action_to_string(const State& state, Action action) const {
  return action_name(action, state.is_chance_node());
}

Action Sekigahara::string_to_action(const State& state, std::string_view text) const {
  if (state.is_chance_node()) {
    const auto& names = outcome_names();
    const auto found = std::find(names.begin(), names.end(), text);
    if (found == names.end())
      throw InvalidArgument("sekigahara: cannot read chance outcome " + quoted(text) +
                            "; expected 'reveal 7' (cards 1-9)");
    return static_cast<Action>(found - names.begin());
  }
  const auto& names = decision_names();
  const auto found = std::find(names.begin(), names.end(), text);
  if (found == names.end())
    throw InvalidArgument("sekigahara: cannot read action " + quoted(text) +
                          "; expected 'end', 'place 7', 'move 3->5', 'order 5', "
                          "'blank 2' or 'swap 4' (cards 1-9)");
  return static_cast<Action>(found - names.begin());
}

void Sekigahara::scores(const State& state, double* out) const {
  const auto total = state.totals();
  out[0] = total[0];
  out[1] = total[1];
}

// The camps as they would score now, plus for every central card half its strength to whichever
// side leads on it in influence (a lead of three tokens or more counts in full): a card is usually
// won by the side that leads on it. tanh keeps the value inside (-0.9, 0.9), below any result.
double Sekigahara::evaluate(const State& state, Player player) const {
  const auto total = state.totals();
  const Player other = 1 - player;
  double lead = total[player] - total[other];
  for (unsigned c = state.central(); c; c &= c - 1) {
    const int card = std::countr_zero(c);
    const int margin = state.influence(player, card) - state.influence(other, card);
    lead += 0.5 * setup_.numbers.strength[card] * std::clamp(margin / 3.0, -1.0, 1.0);
  }
  return 0.9 * std::tanh(lead / 6.0);
}

Json Sekigahara::to_json(const State& state) const {
  const Strengths counted = camp_strengths(state.camps(), state.blank(), setup_.numbers);
  Json camps = Json::array();
  Json strengths = Json::array();
  for (Player seat = 0; seat < 2; ++seat) {
    Json camp = Json::array();
    Json seat_strengths = Json::array();
    const Camp& cards = state.camp(seat);
    for (int i = 0; i < cards.size; ++i) {
      camp.push_back(Json::object({{"id", static_cast<int>(cards.cards[i])},
                                   {"blank", (state.blank() & card_bit(cards.cards[i])) != 0}}));
      seat_strengths.push_back(counted[seat][i]);
    }
    camps.push_back(camp);
    strengths.push_back(seat_strengths);
  }
  const auto total = state.totals();
  Json start = nullptr;
  if (state.has_start_influence()) {
    Influence influence{};
    for (Player seat = 0; seat < 2; ++seat)
      for (int card = 1; card <= kNumCards; ++card)
        influence[seat][card] = static_cast<std::int8_t>(state.start_influence(seat, card));
    start = influence_json(influence, state.central());
  }
  static constexpr const char* kEndNames[] = {"", "deck", "dead", "max_turns"};
  const EndReason reason = state.end_reason();
  return Json::object({
      {"camps", camps},
      {"neutral", influence_json(state.influence(), state.central())},
      {"supply",
       Json::array_of(std::array{state.supply(0), state.supply(1)}, [](int v) { return Json(v); })},
      {"deck", cards_json(state.deck())},
      {"current_player", state.current_player()},
      {"phase", kPhaseNames[static_cast<int>(state.phase())]},
      {"turn", state.turn()},
      {"turn_player", state.turn_player()},
      {"actions_left", state.actions_left()},
      {"locked", cards_json(state.locked())},
      {"reveals_pending", state.reveals_pending()},
      {"start_influence", start},
      {"end_reason",
       reason == EndReason::kNone ? Json(nullptr) : Json(kEndNames[static_cast<int>(reason)])},
      {"scores", Json::array_of(total, [](int v) { return Json(v); })},
      {"strengths", strengths},
  });
}

std::string Sekigahara::to_string(const State& state) const {
  const Strengths strengths = camp_strengths(state.camps(), state.blank(), setup_.numbers);
  std::string out;
  for (Player seat = 0; seat < 2; ++seat) {
    std::string cards;
    const Camp& camp = state.camp(seat);
    for (int i = 0; i < camp.size; ++i) {
      const int card = camp.cards[i];
      cards += (i ? " " : "") + std::to_string(card) +
               ((state.blank() & card_bit(card)) ? "(blank)" : "") + "=" +
               std::to_string(strengths[seat][i]);
    }
    out += "seat " + std::to_string(seat) + " " + kSeatNames[seat] + ": supply " +
           std::to_string(state.supply(seat)) + ", camp [" + cards + "]\n";
  }
  std::string centre;
  for (unsigned c = state.central(); c; c &= c - 1) {
    const int card = std::countr_zero(c);
    centre += (centre.empty() ? "" : ", ") + std::to_string(card) +
              ((state.locked() & card_bit(card)) ? "*" : "") + " " +
              std::to_string(state.influence(0, card)) + ":" +
              std::to_string(state.influence(1, card));
  }
  const auto total = state.totals();
  out += "centre (blue:red, * locked): " + (centre.empty() ? std::string("-") : centre) + "\n";
  out += "deck " + std::to_string(std::popcount(state.deck())) + ", turn " +
         std::to_string(state.turn()) + ", totals [" + std::to_string(total[0]) + ", " +
         std::to_string(total[1]) + "]\n";
  if (state.is_terminal()) {
    double result[2];
    state.returns(result);
    static constexpr const char* kEndNames[] = {"", "deck", "dead", "max_turns"};
    out += std::string("game over (") + kEndNames[static_cast<int>(state.end_reason())] +
           "): " + (result[0] > 0 ? "seat 0 wins" : (result[0] < 0 ? "seat 1 wins" : "draw"));
  } else if (state.is_chance_node()) {
    out += "chance: reveal (" + std::to_string(state.reveals_pending()) + " to come)";
  } else {
    out += std::string(kPhaseNames[static_cast<int>(state.phase())]) + ": seat " +
           std::to_string(state.current_player()) + " to decide" +
           (state.phase() == Phase::kAction
                ? ", " + std::to_string(state.actions_left()) + " actions left"
                : std::string());
  }
  return out;
}

// Everything is public, so every player sees the whole table.
std::string Sekigahara::observation_string(const State& state, Player player) const {
  return "view of seat " + std::to_string(player) + " (" + kSeatNames[player] + ")\n" +
         to_string(state);
}

template <class Cell>
void Sekigahara::write_observation(const State& state, Player player, Cell* camps,
                                   float* rest) const {
  std::fill(camps, camps + kCampCells, Cell{0});
  std::fill(rest, rest + kObservationSize - kCampCells, 0.0f);
  // Divided in double and then rounded, as numpy does with Python's float division.
  auto ratio = [](int a, int b) { return static_cast<float>(static_cast<double>(a) / b); };
  // `rest` starts at tensor index 162: the offsets below are the tensor's minus 162.
  for (Player seat = 0; seat < 2; ++seat) {
    const int r = (seat - player + 2) % 2;
    const Camp& camp = state.camp(seat);
    for (int i = 0; i < camp.size; ++i) camps[81 * r + 9 * i + camp.cards[i] - 1] = Cell{1};
    for (unsigned c = state.central(); c; c &= c - 1) {
      const int card = std::countr_zero(c);
      rest[18 + 9 * r + card - 1] = ratio(state.influence(seat, card), kTokens);
      if (state.has_start_influence())
        rest[56 + 9 * r + card - 1] = ratio(state.start_influence(seat, card), kTokens);
    }
    rest[54 + r] = ratio(state.supply(seat), kTokens);
  }
  auto mark = [&](int offset, unsigned cards) {
    for (; cards; cards &= cards - 1) rest[offset + std::countr_zero(cards) - 1] = 1;
  };
  mark(0, state.blank());
  mark(9, state.central());
  mark(36, state.locked());
  mark(45, state.deck());
  rest[74 + static_cast<int>(state.phase())] = 1;
  if (state.current_player() >= 0) rest[80 + (state.current_player() - player + 2) % 2] = 1;
  if (!state.is_terminal()) {
    rest[82 + (state.turn_player() - player + 2) % 2] = 1;
    rest[85] = state.turn() == 0 ? 1.0f : 0.0f;
  }
  rest[84] = ratio(state.actions_left(), 3);
  rest[86] = ratio(state.reveals_pending(), 3);
  rest[87] = ratio(state.turn(), setup_.max_turns);
  rest[88] = player == 1 ? 1.0f : 0.0f;
}

void Sekigahara::observation_tensor(const State& state, Player player, float* out) const {
  write_observation(state, player, out, out + kCampCells);
}

void Sekigahara::compact_observation(const State& state, Player player, std::uint8_t* board,
                                     float* features) const {
  write_observation(state, player, board, features);
}

std::vector<Action> Sekigahara::resample_history(const std::vector<Action>& history,
                                                 Player /*player*/, Rng& /*rng*/) const {
  return history;
}

std::string Sekigahara::information_state_string(const State& /*state*/,
                                                 const std::vector<Action>& history,
                                                 Player /*player*/) const {
  std::string out;
  for (const Action action : history) out += (out.empty() ? "" : " ") + std::to_string(action);
  return out;
}

}  // namespace rivals::sekigahara
