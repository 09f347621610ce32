// A Verräter position and its rules: the hot path of playouts and search.
// Rules and encoding: docs/rules/verraeter.md.
//
// Supply cards are counted per value id (hands, played cards, piles), the ring is a set of
// 12-bit masks (rose side up, Kontor, each seat's estates) plus the landscape types, and the draw
// queue is a string of 2-bit seats in one 128-bit word. The card numbers live in the game's
// Setup, which every state points to.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "rivals/core/bits.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"
#include "rivals/verraeter/cards.h"

namespace rivals::verraeter {

// Decision ids (docs/rules/verraeter.md, "Actions").
inline constexpr Action kConflict = 0;  // 0-11: conflict site i
inline constexpr Action kBuild = 12;    // 12-23: new Gutshof below ring position i
inline constexpr Action kUpgrade = 24;  // 24-35: own Gutshof at ring position i to a Kontor
inline constexpr Action kPick = 36;     // 36-41: draft action card c
inline constexpr Action kPlay = 42;     // 42-47: play a supply card of value id v
inline constexpr Action kDone = 48;     // stop playing supply cards
inline constexpr Action kDiscard = 49;  // 49-54: discard a supply card of value id v
inline constexpr Action kPass = 55;     // the builder does nothing
inline constexpr int kNumActions = 56;
// Chance outcome ids, numbered from 0 at each chance node (OpenSpiel's convention); the node
// says which kind they are.
inline constexpr Action kLand = 0;      // 0-11: landscape card 2 * type + start house
inline constexpr Action kAside = 0;     // 0-5: action card c set aside
inline constexpr Action kDrawCard = 0;  // 0-5: a supply card of value id v drawn

inline constexpr std::uint16_t kAllPositions = (1u << kRingSize) - 1;
inline constexpr int kLandscapeCards = 2 * kTypes;
inline constexpr std::uint16_t kAllLandscapes = (1u << kLandscapeCards) - 1;
inline constexpr int kMaxQueue = 42;  // 5 Bauer draws + 3 estates x 4 seats + 5 x 5 other draws

// In the observation's order; the names are the snapshot's "phase".
enum class Phase : std::int8_t {
  kRing,
  kEstates,
  kConflict,
  kDraft,
  kSupply,
  kBuilder,
  kDraw,
  kDiscard,
  kEnd
};
inline constexpr int kNumPhases = 9;
inline constexpr const char* kPhaseNames[kNumPhases] = {
    "ring", "estates", "conflict", "draft", "supply", "builder", "draw", "discard", "end"};

struct Setup {
  Cards cards;
  int players = 4;
  int rounds = 8;
};

using Counts = std::array<std::uint8_t, kMaxValues>;  // supply cards per value id

class State : public ToMove<State> {
 public:
  // A builder has at most 13 choices: every position without an estate, or an own Gutshof to
  // upgrade, plus pass. Everything else offers at most 12 (positions, landscape cards).
  static constexpr int kMaxLegalActions = 13;
  static constexpr int kMaxChanceOutcomes = kLandscapeCards;

  explicit State(const Setup& setup);

  int legal_actions(Action* out) const {
    switch (phase_) {
      case Phase::kRing:
        return bits_to_actions(kAllLandscapes & ~laid_, kLand, out);
      case Phase::kEstates:
        return bits_to_actions(free_positions(), kBuild, out);
      case Phase::kConflict:
        return bits_to_actions(conflict_sites(), kConflict, out);
      case Phase::kDraft:
        return is_chance_node() ? bits_to_actions((1u << kActionCards) - 1, kAside, out)
                                : bits_to_actions(pool_, kPick, out);
      case Phase::kSupply: {
        const int n = values_to_actions(hands_[to_move_], kPlay, out);
        out[n] = kDone;
        return n + 1;
      }
      case Phase::kBuilder:
        return builder_actions(out);
      case Phase::kDraw:
        return values_to_actions(pile_, kDrawCard, out);
      case Phase::kDiscard:
        return values_to_actions(hands_[to_move_], kDiscard, out);
      case Phase::kEnd:
        break;
    }
    return 0;
  }

  int chance_outcomes(ChanceOutcome* out) const;
  Action sample_chance(Rng& rng) const {
    switch (phase_) {
      case Phase::kRing:
        return kLand + random_set_bit(kAllLandscapes & ~laid_, rng);
      case Phase::kDraft:
        return kAside + static_cast<Action>(rng.below(kActionCards));
      default: {
        int k = static_cast<int>(rng.below(pile_size_));
        int v = 0;
        while (k >= pile_[v]) k -= pile_[v++];
        return kDrawCard + v;
      }
    }
  }

  void apply(Action action);
  void returns(double* out) const;
  std::uint64_t hash() const;

  // Read access for presentation, observation, hidden information and tests.
  const Setup& setup() const { return *setup_; }
  int players() const { return setup_->players; }
  Phase phase() const { return phase_; }
  int ring_size() const { return ring_size_; }
  int type_at(int position) const { return type_[position]; }
  int house_at(int position) const { return (rose_ >> position) & 1; }
  // The seat whose estate lies below `position`, or -1.
  Player estate_at(int position) const {
    for (Player s = 0; s < setup_->players; ++s)
      if ((estates_[s] >> position) & 1) return s;
    return -1;
  }
  bool kontor_at(int position) const { return (kontor_ >> position) & 1; }
  // The seat's Gutshöfe below a landscape of its own house: each draws a card in phase 10.
  int drawing_estates(Player seat) const {
    return popcount(
        static_cast<std::uint64_t>(estates_[seat] & ~kontor_ & own_house_positions(seat)));
  }
  int house_of(Player seat) const { return (houses_ >> seat) & 1; }
  int vp(Player seat) const { return vp_[seat]; }
  int round() const { return round_; }
  Player start_player() const { return start_; }
  Player strategist() const { return strategist_; }
  int conflict() const { return conflict_; }  // -1 outside phases 1-10
  int aside() const { return aside_; }        // -1 before its chance node and after phase 11
  int action_of(Player seat) const { return actions_[seat]; }  // -1 if none this round
  std::uint8_t pool() const { return pool_; }
  const Counts& hand(Player seat) const { return hands_[seat]; }
  int hand_size(Player seat) const { return hand_size_[seat]; }
  const Counts& played(Player seat) const { return played_[seat]; }
  const Counts& pile() const { return pile_; }
  int pile_size() const { return pile_size_; }
  const Counts& discard_pile() const { return discard_; }
  // The conflict total of each house (eagle, rose), kept from the reveal to phase 11.
  int conflict_total(int house) const { return totals_[house]; }
  int queue_length() const { return queue_len_; }
  Player queue_at(int i) const { return static_cast<Player>((queue_ >> (2 * i)) & 3); }
  // Action cards are face up from the reveal to phase 11.
  bool revealed() const {
    return phase_ == Phase::kBuilder || phase_ == Phase::kDraw || phase_ == Phase::kDiscard;
  }
  // The action cards passed to `seat` in this round's draft, as a mask, or -1 before it gets
  // them (docs/rules/verraeter.md, "Hidden information").
  int received_pool(Player seat) const;
  int final_bonus(Player seat) const;

 private:
  static int bits_to_actions(unsigned bits, Action offset, Action* out) {
    int n = 0;
    for (; bits; bits &= bits - 1) out[n++] = offset + std::countr_zero(bits);
    return n;
  }
  int values_to_actions(const Counts& counts, Action offset, Action* out) const {
    int n = 0;
    for (int v = 0; v < setup_->cards.num_values; ++v) {
      out[n] = offset + v;
      n += counts[v] != 0;
    }
    return n;
  }
  std::uint16_t occupied() const {
    std::uint16_t all = 0;
    for (const std::uint16_t e : estates_) all |= e;
    return all;
  }
  std::uint16_t free_positions() const { return kAllPositions & ~occupied(); }
  // Sites between different houses: bit i compares positions i and i + 1 (mod 12).
  std::uint16_t conflict_sites() const {
    const unsigned next = (rose_ >> 1) | ((rose_ & 1u) << (kRingSize - 1));
    return static_cast<std::uint16_t>(rose_ ^ next);
  }
  std::uint16_t own_house_positions(Player seat) const {
    return house_of(seat) ? rose_ : static_cast<std::uint16_t>(kAllPositions & ~rose_);
  }
  int builder_actions(Action* out) const {
    const std::uint16_t own = estates_[to_move_];
    int n = 0;
    if (popcount(static_cast<std::uint64_t>(own)) < setup_->cards.estates_per_player)
      n = bits_to_actions(free_positions(), kBuild, out);
    n += bits_to_actions(own & ~kontor_, kUpgrade, out + n);
    out[n] = kPass;
    return n + 1;
  }

  void apply_chance(Action action);
  void apply_decision(Action action);
  void move_card(Counts& from, Counts& to, const std::uint64_t* from_keys,
                 const std::uint64_t* to_keys, int value);
  void set_rose(int position, bool rose);
  void set_action(Player seat, int card);
  void begin_round();
  void resolve();
  void after_builder();
  void next_draw();
  void next_discard();
  void end_round();

  const Setup* setup_;
  std::uint64_t hash_ = 0;  // ring, estates, cards and action cards; the rest is mixed by hash()
  u128 queue_ = 0;          // the draw queue, 2 bits a seat, front in the low bits
  std::array<Counts, kMaxSeats> hands_{};
  std::array<Counts, kMaxSeats> played_{};
  Counts pile_{};
  Counts discard_{};
  std::array<std::int16_t, kMaxSeats> vp_{};
  std::array<std::int16_t, 2> totals_{};            // this round's conflict totals, once resolved
  std::array<std::uint16_t, kMaxSeats> estates_{};  // ring positions with the seat's estate
  std::uint16_t rose_ = 0;                          // positions showing the rose
  std::uint16_t kontor_ = 0;                        // estates turned to their Kontor side
  std::uint16_t laid_ = 0;                          // landscape cards in the ring
  std::array<std::int8_t, kRingSize> type_{};
  std::array<std::int8_t, kMaxSeats> actions_{-1, -1, -1, -1};
  std::array<std::int8_t, kActionCards> owner_{-1, -1, -1, -1, -1, -1};
  std::array<std::uint8_t, kMaxSeats> hand_size_{};
  std::uint8_t pile_size_ = 0;
  std::uint8_t pool_ = 0;    // action cards still to pick in the draft
  std::uint8_t houses_ = 0;  // bit s: seat s belongs to the rose
  Phase phase_ = Phase::kRing;
  friend class ToMove<State>;  // reads to_move_
  std::int8_t to_move_ = kChancePlayer;
  std::int8_t ring_size_ = 0;
  std::int8_t round_ = 0;
  std::int8_t start_ = 0;
  std::int8_t strategist_ = 1;  // the player to the left of the first start player
  std::int8_t conflict_ = -1;
  std::int8_t aside_ = -1;
  std::int8_t queue_len_ = 0;
};

}  // namespace rivals::verraeter
