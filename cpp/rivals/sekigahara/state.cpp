#include "rivals/sekigahara/state.h"

#include <algorithm>

#include "rivals/core/zobrist.h"

namespace rivals::sekigahara {
namespace {

namespace keys {
constexpr int kCounts = 8;  // influence 0..5 fits; 0 has no key
constexpr auto kInfluence = zobrist_keys<2 * (kNumCards + 1) * kCounts>(0x5e0101);
constexpr auto kStart = zobrist_keys<2 * (kNumCards + 1) * kCounts>(0x5e0102);
constexpr auto kCamp = zobrist_keys<2 * kNumCards*(kNumCards + 1)>(0x5e0103);
constexpr auto kBlank = zobrist_keys<kNumCards + 1>(0x5e0104);
constexpr auto kCentral = zobrist_keys<kNumCards + 1>(0x5e0105);
constexpr auto kDeck = zobrist_keys<kNumCards + 1>(0x5e0106);
constexpr auto kLocked = zobrist_keys<kNumCards + 1>(0x5e0107);
}  // namespace keys

std::uint64_t influence_key(Player seat, int card, int value) {
  return value == 0 ? 0 : keys::kInfluence[(seat * (kNumCards + 1) + card) * keys::kCounts + value];
}
std::uint64_t start_key(Player seat, int card, int value) {
  return value == 0 ? 0 : keys::kStart[(seat * (kNumCards + 1) + card) * keys::kCounts + value];
}
std::uint64_t camp_key(Player seat, int position, int card) {
  return keys::kCamp[(seat * kNumCards + position) * (kNumCards + 1) + card];
}

}  // namespace

State::State(const Setup& setup) : setup_(setup) {
  for (int card = 1; card <= kNumCards; ++card) hash_ ^= keys::kDeck[card];
}

std::uint64_t State::key(bool with_turn) const {
  // The small counters change on most actions; mixing them here is cheaper than keys per value.
  // Without the turn the parity stays: it says whose turn it is.
  const std::uint64_t scalars =
      static_cast<std::uint64_t>(static_cast<std::uint32_t>(with_turn ? turn_ : turn_ & 1)) |
      static_cast<std::uint64_t>(static_cast<std::uint8_t>(phase_)) << 32 |
      static_cast<std::uint64_t>(static_cast<std::uint8_t>(to_move_)) << 36 |
      static_cast<std::uint64_t>(actions_left_) << 44 |
      static_cast<std::uint64_t>(reveals_pending_) << 48 |
      static_cast<std::uint64_t>(static_cast<std::uint8_t>(end_reason_)) << 56;
  std::uint64_t start = 0;
  // The start influence is shown (and so hashed) only in the action phase under turn_start;
  // hashing it here rather than at every turn start keeps it off the playout path.
  if (has_start_influence())
    for (unsigned c = central_; c; c &= c - 1) {
      const int card = std::countr_zero(c);
      start ^= start_key(0, card, start_[0][card]) ^ start_key(1, card, start_[1][card]);
    }
  return hash_ ^ start ^ mix64(scalars);
}

void State::set_influence(Player seat, int card, int value) {
  hash_ ^= influence_key(seat, card, influence_[seat][card]) ^ influence_key(seat, card, value);
  influence_[seat][card] = static_cast<std::int8_t>(value);
}

void State::apply(Action action) {
  switch (phase_) {
    case Phase::kReveal:
      reveal(action - kRevealOffset);
      return;
    case Phase::kAction:
      act(action);
      return;
    case Phase::kOrder:
      if (!acquire(action - kOrderOffset)) continue_acquisition();
      return;
    case Phase::kBlank:
      blank_ |= card_bit(action - kBlankOffset);
      hash_ ^= keys::kBlank[action - kBlankOffset];
      continue_acquisition();
      return;
    case Phase::kSwap:
      swap(action - kSwapOffset);
      continue_acquisition();
      return;
    case Phase::kTerminal:
      return;
  }
}

void State::reveal(int card) {
  deck_ &= ~card_bit(card);
  central_ |= card_bit(card);
  hash_ ^= keys::kDeck[card] ^ keys::kCentral[card];
  if (--reveals_pending_ > 0) return;
  // The first turn never acquires, so reveals ending during turn 0 are the setup's.
  if (turn_ == 0) {
    begin_action_phase(2);
    return;
  }
  end_turn();
}

void State::act(Action action) {
  const Player seat = to_move_;
  if (action == kEnd) {
    end_action_phase();
    return;
  }
  if (action < kFirstMove) {
    --supply_[seat];
    set_influence(seat, action, influence_[seat][action] + 1);
  } else {
    const int from = move_from(action);
    const int to = move_to(action);
    set_influence(seat, from, influence_[seat][from] - 1);
    set_influence(seat, to, influence_[seat][to] + 1);
  }
  if (--actions_left_ == 0) end_action_phase();
}

void State::begin_action_phase(int actions) {
  phase_ = Phase::kAction;
  to_move_ = turn_player_;
  actions_left_ = static_cast<std::int8_t>(actions);
  if (setup_.rule == RepetitionRule::kTurnStart) start_ = influence_;
}

void State::end_action_phase() {
  actions_left_ = 0;
  continue_acquisition();
}

void State::continue_acquisition() {
  to_move_ = turn_player_;
  while (locked_ != 0) {
    if (count_cards(locked_) >= 2) {
      phase_ = Phase::kOrder;
      return;
    }
    if (acquire(std::countr_zero(locked_))) return;
  }
  reveals_pending_ = static_cast<std::int8_t>(std::min<int>(reveals_pending_, count_cards(deck_)));
  if (reveals_pending_ > 0) {
    phase_ = Phase::kReveal;
    to_move_ = kChancePlayer;
    return;
  }
  end_turn();
}

// Returns true when the card's ability now waits for a decision.
bool State::acquire(int card) {
  const Player seat = turn_player_;
  const Player other = 1 - seat;
  locked_ &= ~card_bit(card);
  central_ &= ~card_bit(card);
  hash_ ^= keys::kLocked[card] ^ keys::kCentral[card];
  // Returning tokens is not moving them, so tokens on card 8 come back too.
  for (Player s = 0; s < 2; ++s) {
    supply_[s] = static_cast<std::int8_t>(supply_[s] + influence_[s][card]);
    set_influence(s, card, 0);
  }
  Camp& camp = camps_[seat];
  hash_ ^= camp_key(seat, camp.size, card);
  camp.cards[camp.size++] = static_cast<std::int8_t>(card);
  camp_mask_[seat] |= card_bit(card);
  ++reveals_pending_;
  if (card == kHosokawa) {
    phase_ = Phase::kBlank;
    return true;
  }
  if (card == kKobayakawa && camps_[other].size > 0) {
    phase_ = Phase::kSwap;
    to_move_ = static_cast<std::int8_t>(has_unblanked(other, kOtani) ? other : seat);
    return true;
  }
  return false;
}

// Card 7 sits at the right end of the turn player's camp; `card` takes its place there and card 7
// takes `card`'s place in the opponent's camp.
void State::swap(int card) {
  const Player seat = turn_player_;
  const Player other = 1 - seat;
  Camp& mine = camps_[seat];
  Camp& theirs = camps_[other];
  const int i = mine.size - 1;
  int j = 0;
  while (theirs.cards[j] != card) ++j;
  hash_ ^= camp_key(seat, i, kKobayakawa) ^ camp_key(seat, i, card);
  hash_ ^= camp_key(other, j, card) ^ camp_key(other, j, kKobayakawa);
  mine.cards[i] = static_cast<std::int8_t>(card);
  theirs.cards[j] = kKobayakawa;
  camp_mask_[seat] ^= card_bit(card) | card_bit(kKobayakawa);
  camp_mask_[other] ^= card_bit(card) | card_bit(kKobayakawa);
}

void State::end_turn() {
  reveals_pending_ = 0;
  ++turn_;
  if (deck_ == 0) {
    finish(EndReason::kDeck);
  } else if (dead()) {
    finish(EndReason::kDead);
  } else if (turn_ >= setup_.max_turns) {
    finish(EndReason::kMaxTurns);
  } else {
    turn_player_ = static_cast<std::int8_t>(turn_ & 1);
    for (unsigned c = central_; c; c &= c - 1) {
      const int card = std::countr_zero(c);
      if (meets_lock(turn_player_, card)) {
        locked_ |= card_bit(card);
        hash_ ^= keys::kLocked[card];
      }
    }
    begin_action_phase(3);
  }
}

// Nobody can place, move or lock: all tokens sit on card 8 and neither side has the advantage.
bool State::dead() const {
  for (Player seat = 0; seat < 2; ++seat) {
    if (supply_[seat] > 0) return false;
    for (unsigned c = central_; c; c &= c - 1) {
      const int card = std::countr_zero(c);
      if (card != kFukushima && influence_[seat][card] > 0) return false;
      if (meets_lock(seat, card)) return false;
    }
  }
  return true;
}

void State::finish(EndReason reason) {
  phase_ = Phase::kTerminal;
  to_move_ = kTerminalPlayer;
  end_reason_ = reason;
  actions_left_ = 0;
  if (reason == EndReason::kMaxTurns) {
    winner_ = 2;
    return;
  }
  const auto total = totals();
  winner_ = static_cast<std::int8_t>(total[0] > total[1] ? 0 : (total[1] > total[0] ? 1 : 2));
}

void State::returns(double* out) const {
  for (Player seat = 0; seat < 2; ++seat)
    out[seat] = !is_terminal() || winner_ == 2 ? 0.0 : (seat == winner_ ? 1.0 : -1.0);
}

}  // namespace rivals::sekigahara
