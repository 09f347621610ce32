// A Sekigahara position and its rules: the hot path of playouts and search.
//
// Influence is kept per card id (not per table slot), so "card 7" means the same array entry
// wherever the card lies; card sets (centre, deck, locked, blank) are 16-bit masks.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "rivals/core/bits.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"
#include "rivals/sekigahara/cards.h"

namespace rivals::sekigahara {

// Decision ids (docs/rules/sekigahara.md, "Actions"). Chance outcomes are numbered apart from
// them, from 0 (OpenSpiel's convention): revealing card c is outcome c - 1.
inline constexpr Action kEnd = 0;
inline constexpr Action kFirstMove = 10;
inline constexpr Action kOrderOffset = 81;  // order c = 81 + c
inline constexpr Action kBlankOffset = 90;  // blank c = 90 + c
inline constexpr Action kSwapOffset = 99;   // swap c = 99 + c
inline constexpr int kNumActions = 109;
inline constexpr Action kRevealOffset = -1;  // reveal c = c - 1, a chance outcome

constexpr Action move_action(int from, int to) {
  return kFirstMove + 8 * (from - 1) + (to < from ? to - 1 : to - 2);
}
constexpr int move_from(Action action) { return (action - kFirstMove) / 8 + 1; }
constexpr int move_to(Action action) {
  const int from = move_from(action);
  const int k = (action - kFirstMove) % 8 + 1;
  return k < from ? k : k + 1;
}

enum class RepetitionRule : std::int8_t { kTurnStart, kSymmetric, kOff };

// In the observation's order.
enum class Phase : std::int8_t { kAction, kOrder, kBlank, kSwap, kReveal, kTerminal };

enum class EndReason : std::int8_t { kNone, kDeck, kDead, kMaxTurns };

struct Setup {
  CardNumbers numbers;
  RepetitionRule rule = RepetitionRule::kTurnStart;
  std::int32_t max_turns = 500;
};

using Influence = std::array<std::array<std::int8_t, kNumCards + 1>, 2>;  // [seat][card id]

class State : public ToMove<State> {
 public:
  // An action phase offers at most end + 3 places + 6 moves; a reveal at most 9 cards.
  static constexpr int kMaxLegalActions = 10;
  static constexpr int kMaxChanceOutcomes = kNumCards;

  explicit State(const Setup& setup);

  int legal_actions(Action* out) const {
    switch (phase_) {
      case Phase::kAction:
        return action_phase_actions(out);
      case Phase::kOrder:
        return cards_to_actions(locked_, kOrderOffset, out);
      case Phase::kBlank:
        return cards_to_actions(camp_mask_[0] | camp_mask_[1], kBlankOffset, out);
      case Phase::kSwap:
        return cards_to_actions(camp_mask_[1 - turn_player_], kSwapOffset, out);
      case Phase::kReveal:
        return cards_to_actions(deck_, kRevealOffset, out);
      case Phase::kTerminal:
        break;
    }
    return 0;
  }

  int chance_outcomes(ChanceOutcome* out) const {
    const double p = 1.0 / count_cards(deck_);
    int n = 0;
    for (unsigned d = deck_; d; d &= d - 1) out[n++] = {kRevealOffset + std::countr_zero(d), p};
    return n;
  }

  Action sample_chance(Rng& rng) const {
    return kRevealOffset + nth_set_bit(deck_, static_cast<int>(rng.below(count_cards(deck_))));
  }

  void apply(Action action);
  void returns(double* out) const;
  std::uint64_t hash() const { return key(true); }
  // The position without the turn counter: a standoff that goes round comes back to it.
  std::uint64_t position_key() const { return key(false); }

  // Read access for presentation, observation, the solver and tests.
  const Setup& setup() const { return setup_; }
  Phase phase() const { return phase_; }
  EndReason end_reason() const { return end_reason_; }
  int turn() const { return turn_; }
  // The seat whose turn it is (at the end: the seat of the last turn played).
  Player turn_player() const { return turn_player_; }
  int actions_left() const { return actions_left_; }
  int reveals_pending() const { return reveals_pending_; }
  int influence(Player seat, int card) const { return influence_[seat][card]; }
  const Influence& influence() const { return influence_; }
  // Meaningful only in the action phase under the turn_start rule.
  int start_influence(Player seat, int card) const { return start_[seat][card]; }
  bool has_start_influence() const {
    return phase_ == Phase::kAction && setup_.rule == RepetitionRule::kTurnStart;
  }
  int supply(Player seat) const { return supply_[seat]; }
  const Camp& camp(Player seat) const { return camps_[seat]; }
  const std::array<Camp, 2>& camps() const { return camps_; }
  std::uint16_t central() const { return central_; }
  std::uint16_t deck() const { return deck_; }
  std::uint16_t locked() const { return locked_; }
  std::uint16_t blank() const { return blank_; }
  bool has_unblanked(Player seat, int card) const {
    return (camp_mask_[seat] & ~blank_ & card_bit(card)) != 0;
  }
  // The advantage check's condition for `seat` on central card `card`.
  bool meets_lock(Player seat, int card) const {
    const int own = influence_[seat][card];
    const int other = influence_[1 - seat][card];
    const bool ahead = has_unblanked(seat, kAnkokuji) ? own >= other : own > other;
    return ahead && own > setup_.numbers.requirement[card];
  }
  std::array<int, 2> totals() const { return camp_totals(camps_, blank_, setup_.numbers); }

  // The same position with the turn limit lifted: the solver values the game without the
  // engine's safety limit.
  State without_turn_limit() const {
    State copy = *this;
    copy.setup_.max_turns = INT32_MAX;
    return copy;
  }

 private:
  static int cards_to_actions(unsigned cards, Action offset, Action* out) {
    int n = 0;
    for (; cards; cards &= cards - 1) out[n++] = offset + std::countr_zero(cards);
    return n;
  }

  int action_phase_actions(Action* out) const {
    const Player seat = to_move_;
    const auto& own = influence_[seat];
    // Rule 2.4 forbids reaching one influence vector (the turn start's, or the opponent's under
    // the symmetric reading). Only the mover's tokens change and an action shifts one token, so
    // at most one place and one move reach it: a place only when the mover is one token short
    // on one card and equal elsewhere, a move only when one card is one over and one one under.
    int forbidden_place = 0;
    Action forbidden_move = -1;
    if (setup_.rule != RepetitionRule::kOff) {
      const auto& target =
          setup_.rule == RepetitionRule::kTurnStart ? start_[seat] : influence_[1 - seat];
      unsigned over = 0, under = 0, apart = 0;
      for (unsigned c = central_; c; c &= c - 1) {
        const int card = std::countr_zero(c);
        const int d = own[card] - target[card];
        over |= d == 1 ? 1u << card : 0;
        under |= d == -1 ? 1u << card : 0;
        apart |= d > 1 || d < -1 ? 1u << card : 0;
      }
      if (apart == 0 && count_cards(under) == 1) {
        if (over == 0) forbidden_place = std::countr_zero(under);
        if (count_cards(over) == 1)
          forbidden_move = move_action(std::countr_zero(over), std::countr_zero(under));
      }
    }
    int n = 0;
    out[n++] = kEnd;
    const unsigned free = central_ & ~locked_;
    if (supply_[seat] > 0)
      for (unsigned f = free; f; f &= f - 1) {
        const int card = std::countr_zero(f);
        out[n] = card;
        n += card != forbidden_place;
      }
    for (unsigned f = free & ~card_bit(kFukushima); f; f &= f - 1) {
      const int from = std::countr_zero(f);
      if (own[from] == 0) continue;
      for (unsigned g = free & ~card_bit(from); g; g &= g - 1) {
        const Action move = move_action(from, std::countr_zero(g));
        out[n] = move;
        n += move != forbidden_move;
      }
    }
    return n;
  }

  std::uint64_t key(bool with_turn) const;
  void set_influence(Player seat, int card, int value);
  void reveal(int card);
  void act(Action action);
  void begin_action_phase(int actions);
  void end_action_phase();
  void continue_acquisition();
  bool acquire(int card);
  void swap(int card);
  void end_turn();
  bool dead() const;
  void finish(EndReason reason);

  Influence influence_{};
  Influence start_{};
  std::array<Camp, 2> camps_{};
  std::uint64_t hash_ = 0;  // influence, camps, blanks, centre, deck, locked
  Setup setup_;
  std::int32_t turn_ = 0;
  std::array<std::uint16_t, 2> camp_mask_{};
  std::uint16_t central_ = 0;
  std::uint16_t deck_ = kAllCards;
  std::uint16_t locked_ = 0;
  std::uint16_t blank_ = 0;
  std::array<std::int8_t, 2> supply_{kTokens, kTokens};
  Phase phase_ = Phase::kReveal;
  EndReason end_reason_ = EndReason::kNone;
  friend class ToMove<State>;  // reads to_move_
  std::int8_t to_move_ = kChancePlayer;
  std::int8_t turn_player_ = 0;
  std::int8_t actions_left_ = 0;
  std::int8_t reveals_pending_ = kCentral;
  std::int8_t winner_ = -1;  // seat, or 2 for a draw; set at the end
};

}  // namespace rivals::sekigahara
