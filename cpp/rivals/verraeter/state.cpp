#include "rivals/verraeter/state.h"

#include <algorithm>

#include "rivals/core/zobrist.h"

namespace rivals::verraeter {
namespace {

// The hash is a sum of keys (mod 2^64) rather than an xor: supply cards are multisets, and a
// sum counts copies, so adding a card adds its key and taking it away subtracts it.
namespace keys {
constexpr auto kType = zobrist_keys<kRingSize * kTypes>(0x7e0101);
constexpr auto kRose = zobrist_keys<kRingSize>(0x7e0102);
constexpr auto kEstate = zobrist_keys<kRingSize * kMaxSeats>(0x7e0103);
constexpr auto kKontor = zobrist_keys<kRingSize>(0x7e0104);
constexpr auto kHand = zobrist_keys<kMaxSeats * kMaxValues>(0x7e0105);
constexpr auto kPlayed = zobrist_keys<kMaxSeats * kMaxValues>(0x7e0106);
constexpr auto kPile = zobrist_keys<kMaxValues>(0x7e0107);
constexpr auto kDiscard = zobrist_keys<kMaxValues>(0x7e0108);
constexpr auto kAction = zobrist_keys<kMaxSeats * kActionCards>(0x7e0109);
}  // namespace keys

constexpr std::uint8_t kAllCards = (1u << kActionCards) - 1;

}  // namespace

State::State(const Setup& setup) : setup_(&setup) {
  const Cards& cards = setup.cards;
  for (Player s = 0; s < setup.players; ++s) {
    houses_ |= static_cast<std::uint8_t>((s & 1) << s);  // even seats eagle, odd seats rose
    hands_[s] = cards.start_hand;
    for (int v = 0; v < cards.num_values; ++v) {
      hand_size_[s] = static_cast<std::uint8_t>(hand_size_[s] + cards.start_hand[v]);
      hash_ += keys::kHand[s * kMaxValues + v] * cards.start_hand[v];
    }
  }
  for (int v = 0; v < cards.num_values; ++v) {
    pile_[v] = static_cast<std::uint8_t>(cards.counts[v] - setup.players * cards.start_hand[v]);
    pile_size_ = static_cast<std::uint8_t>(pile_size_ + pile_[v]);
    hash_ += keys::kPile[v] * pile_[v];
  }
}

std::uint64_t State::hash() const {
  // The small scalars change on most actions; mixing them here is cheaper than keys per value.
  const std::uint64_t scalars =
      static_cast<std::uint64_t>(phase_) | static_cast<std::uint64_t>(to_move_ + 4) << 4 |
      static_cast<std::uint64_t>(round_) << 8 | static_cast<std::uint64_t>(start_) << 14 |
      static_cast<std::uint64_t>(strategist_) << 16 |
      static_cast<std::uint64_t>(conflict_ + 1) << 18 |
      static_cast<std::uint64_t>(aside_ + 1) << 22 | static_cast<std::uint64_t>(pool_) << 25 |
      static_cast<std::uint64_t>(houses_) << 31 | static_cast<std::uint64_t>(queue_len_) << 35 |
      static_cast<std::uint64_t>(ring_size_) << 41;
  std::uint64_t points = 0;
  for (int s = 0; s < kMaxSeats; ++s)
    points |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(vp_[s])) << (16 * s);
  const auto low = static_cast<std::uint64_t>(queue_);
  const auto high = static_cast<std::uint64_t>(queue_ >> 64);
  return hash_ ^ mix64(scalars ^ mix64(points ^ mix64(low ^ mix64(high))));
}

int State::chance_outcomes(ChanceOutcome* out) const {
  int n = 0;
  switch (phase_) {
    case Phase::kRing: {
      const std::uint16_t left = kAllLandscapes & ~laid_;
      const double p = 1.0 / popcount(static_cast<std::uint64_t>(left));
      for (unsigned l = left; l; l &= l - 1) out[n++] = {kLand + std::countr_zero(l), p};
      return n;
    }
    case Phase::kDraft:
      for (int c = 0; c < kActionCards; ++c) out[n++] = {kAside + c, 1.0 / kActionCards};
      return n;
    default:
      for (int v = 0; v < setup_->cards.num_values; ++v)
        if (pile_[v]) out[n++] = {kDrawCard + v, static_cast<double>(pile_[v]) / pile_size_};
      return n;
  }
}

int State::received_pool(Player seat) const {
  if (aside_ < 0) return -1;
  int taken = 0;
  for (Player s = start_; s != seat; s = (s + 1) % setup_->players) {
    if (actions_[s] < 0) return -1;
    taken |= 1 << actions_[s];
  }
  return kAllCards & ~(1 << aside_) & ~taken;
}

int State::final_bonus(Player seat) const {
  const Cards& cards = setup_->cards;
  return std::min<int>(popcount(static_cast<std::uint64_t>(estates_[seat] & kontor_)),
                       cards.bonus_kontore_max) *
         std::min<int>(hand_size_[seat], cards.bonus_cards_max);
}

void State::returns(double* out) const {
  const int n = setup_->players;
  std::fill(out, out + n, 0.0);
  if (!is_terminal()) return;
  const int best = *std::max_element(vp_.begin(), vp_.begin() + n);
  int leaders = 0;
  for (int s = 0; s < n; ++s) leaders += vp_[s] == best;
  if (leaders == n) return;
  for (int s = 0; s < n; ++s) out[s] = vp_[s] == best ? 1.0 / leaders : -1.0 / (n - leaders);
}

void State::apply(Action action) {
  if (to_move_ == kChancePlayer)
    apply_chance(action);
  else
    apply_decision(action);
}

void State::set_rose(int position, bool rose) {
  if (((rose_ >> position) & 1) == rose) return;
  rose_ ^= static_cast<std::uint16_t>(1u << position);
  hash_ += rose ? keys::kRose[position] : -keys::kRose[position];
}

void State::set_action(Player seat, int card) {
  actions_[seat] = static_cast<std::int8_t>(card);
  owner_[card] = static_cast<std::int8_t>(seat);
  hash_ += keys::kAction[seat * kActionCards + card];
}

void State::apply_chance(Action action) {
  switch (phase_) {
    case Phase::kRing: {
      const int card = action - kLand;
      const int position = ring_size_++;
      type_[position] = static_cast<std::int8_t>(card / 2);
      laid_ |= static_cast<std::uint16_t>(1u << card);
      hash_ += keys::kType[position * kTypes + card / 2];
      set_rose(position, card % 2 != 0);
      if (ring_size_ == kRingSize) {
        // Setup 2: estates, from the start player (seat 0) in seat order.
        phase_ = Phase::kEstates;
        to_move_ = 0;
      }
      return;
    }
    case Phase::kDraft:
      aside_ = static_cast<std::int8_t>(action - kAside);
      pool_ = static_cast<std::uint8_t>(kAllCards & ~(1u << aside_));
      to_move_ = start_;
      return;
    default: {
      const int v = action - kDrawCard;
      const Player seat = queue_at(0);
      queue_ >>= 2;
      --queue_len_;
      --pile_[v];
      --pile_size_;
      ++hands_[seat][v];
      ++hand_size_[seat];
      hash_ += keys::kHand[seat * kMaxValues + v] - keys::kPile[v];
      next_draw();
      return;
    }
  }
}

void State::apply_decision(Action action) {
  const Player seat = to_move_;
  const int n = setup_->players;
  switch (phase_) {
    case Phase::kEstates: {
      const int position = action - kBuild;
      estates_[seat] |= static_cast<std::uint16_t>(1u << position);
      hash_ += keys::kEstate[position * kMaxSeats + seat];
      if (seat + 1 < n)
        to_move_ = static_cast<std::int8_t>(seat + 1);
      else
        begin_round();
      return;
    }
    case Phase::kConflict:
      conflict_ = static_cast<std::int8_t>(action - kConflict);
      phase_ = Phase::kDraft;
      to_move_ = kChancePlayer;
      return;
    case Phase::kDraft: {
      const int card = action - kPick;
      set_action(seat, card);
      pool_ &= static_cast<std::uint8_t>(~(1u << card));
      const Player next = (seat + 1) % n;
      if (next == start_) {
        pool_ = 0;  // the cards left over go back face down
        phase_ = Phase::kSupply;
      }
      to_move_ = static_cast<std::int8_t>(next);
      return;
    }
    case Phase::kSupply: {
      if (action == kDone) {
        const Player next = (seat + 1) % n;
        if (next == start_)
          resolve();
        else
          to_move_ = static_cast<std::int8_t>(next);
        return;
      }
      const int v = action - kPlay;
      --hands_[seat][v];
      --hand_size_[seat];
      ++played_[seat][v];
      hash_ += keys::kPlayed[seat * kMaxValues + v] - keys::kHand[seat * kMaxValues + v];
      return;
    }
    case Phase::kBuilder:
      if (action < kUpgrade) {
        const int position = action - kBuild;
        estates_[seat] |= static_cast<std::uint16_t>(1u << position);
        hash_ += keys::kEstate[position * kMaxSeats + seat];
      } else if (action < kPick) {
        const int position = action - kUpgrade;
        kontor_ |= static_cast<std::uint16_t>(1u << position);
        hash_ += keys::kKontor[position];
      }
      after_builder();
      return;
    case Phase::kDiscard: {
      const int v = action - kDiscard;
      --hands_[seat][v];
      --hand_size_[seat];
      ++discard_[v];
      hash_ += keys::kDiscard[v] - keys::kHand[seat * kMaxValues + v];
      next_discard();
      return;
    }
    default:
      return;
  }
}

void State::begin_round() {
  // Phase 1: the holder of the strategist card picks the conflict site.
  phase_ = Phase::kConflict;
  to_move_ = strategist_;
}

// Phases 4-7, after the last player is done playing supply cards.
void State::resolve() {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  if (owner_[kVerraeter] >= 0) houses_ ^= static_cast<std::uint8_t>(1u << owner_[kVerraeter]);
  const int a = conflict_;
  const int b = (conflict_ + 1) % kRingSize;
  int totals[2] = {0, 0};
  totals[house_at(a)] += cards.conflict[type_[a]];
  totals[house_at(b)] += cards.conflict[type_[b]];
  for (Player s = 0; s < n; ++s) {
    int strength = cards.card_conflict[actions_[s]];
    for (int v = 0; v < cards.num_values; ++v) strength += cards.values[v] * played_[s][v];
    totals[house_of(s)] += strength;
  }
  totals_ = {static_cast<std::int16_t>(totals[0]), static_cast<std::int16_t>(totals[1])};
  if (totals[0] != totals[1]) {
    const int winner = totals[1] > totals[0] ? 1 : 0;
    const int loser = house_at(a) != winner ? a : b;
    int winners = 0;
    for (Player s = 0; s < n; ++s) winners += house_of(s) == winner;
    // The landscape turns even when the traitor has emptied the winning house.
    if (winners > 0) {
      const int points = cards.vp[type_[loser]][winners - 1];
      for (Player s = 0; s < n; ++s)
        if (house_of(s) == winner) vp_[s] = static_cast<std::int16_t>(vp_[s] + points);
    }
    set_rose(loser, winner == 1);
  }
  for (Player s = 0; s < n; ++s)
    vp_[s] = static_cast<std::int16_t>(vp_[s] + cards.card_vp[actions_[s]]);
  const int builder = owner_[kBaumeister];
  if (builder >= 0) {
    phase_ = Phase::kBuilder;
    to_move_ = static_cast<std::int8_t>(builder);
  } else {
    after_builder();
  }
}

// Phases 8-10; the draws and the hand limit then go one chance node or decision at a time.
void State::after_builder() {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  if (owner_[kStratege] >= 0) strategist_ = owner_[kStratege];
  for (Player s = 0; s < n; ++s)
    for (int v = 0; v < cards.num_values; ++v) {
      const int count = played_[s][v];
      discard_[v] = static_cast<std::uint8_t>(discard_[v] + count);
      played_[s][v] = 0;
      hash_ += (keys::kDiscard[v] - keys::kPlayed[s * kMaxValues + v]) * count;
    }
  auto push = [&](Player seat, int times) {
    for (; times > 0; --times) queue_ |= static_cast<u128>(seat) << (2 * queue_len_++);
  };
  const Player farmer = owner_[kBauer];
  if (farmer >= 0) push(farmer, cards.card_draws[kBauer]);
  for (int j = 0; j < n; ++j) {
    const Player seat = (start_ + j) % n;
    if (seat == farmer) continue;
    push(seat, popcount(static_cast<std::uint64_t>(estates_[seat] & ~kontor_ &
                                                   own_house_positions(seat))));
  }
  for (int card = 0; card < kActionCards; ++card)
    if (card != kBauer && owner_[card] >= 0) push(owner_[card], cards.card_draws[card]);
  next_draw();
}

void State::next_draw() {
  if (queue_len_ > 0 && pile_size_ == 0) {
    // The discard pile becomes the new draw pile.
    for (int v = 0; v < setup_->cards.num_values; ++v) {
      hash_ += (keys::kPile[v] - keys::kDiscard[v]) * discard_[v];
      pile_size_ = static_cast<std::uint8_t>(pile_size_ + discard_[v]);
      pile_[v] = discard_[v];
      discard_[v] = 0;
    }
    if (pile_size_ == 0) {
      // Nothing left to draw: the remaining draws are skipped.
      queue_ = 0;
      queue_len_ = 0;
    }
  }
  if (queue_len_ > 0) {
    phase_ = Phase::kDraw;
    to_move_ = kChancePlayer;
  } else {
    next_discard();
  }
}

void State::next_discard() {
  const int n = setup_->players;
  for (int j = 0; j < n; ++j) {
    const Player seat = (start_ + j) % n;
    if (hand_size_[seat] > kHandLimit) {
      phase_ = Phase::kDiscard;
      to_move_ = static_cast<std::int8_t>(seat);
      return;
    }
  }
  end_round();
}

// Phases 11-13.
void State::end_round() {
  const int n = setup_->players;
  for (Player s = 0; s < n; ++s) hash_ -= keys::kAction[s * kActionCards + actions_[s]];
  actions_.fill(-1);
  owner_.fill(-1);
  aside_ = -1;
  conflict_ = -1;
  totals_ = {};
  start_ = static_cast<std::int8_t>((start_ + 1) % n);
  ++round_;
  if (round_ >= setup_->rounds || rose_ == 0 || rose_ == kAllPositions) {
    for (Player s = 0; s < n; ++s) vp_[s] = static_cast<std::int16_t>(vp_[s] + final_bonus(s));
    phase_ = Phase::kEnd;
    to_move_ = kTerminalPlayer;
    return;
  }
  begin_round();
}

}  // namespace rivals::verraeter
