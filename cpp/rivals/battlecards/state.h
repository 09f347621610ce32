// A Battlecards position and its rules: the hot path of playouts and search.
//
// Every pile is a 128-bit mask per seat (arsenal cards by slot) or of the conflict deck (cards by
// conflict index), so a move, a draw or a destruction is a few bit operations and the state is a
// plain value. The card numbers live in the shared, immutable CardSet the state points to.
#pragma once

#include <array>
#include <cstdint>

#include "rivals/battlecards/cards.h"
#include "rivals/core/bits.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"

namespace rivals::battlecards {

// Decision ids (docs/rules/battlecards.md, "Actions"); `a` is the global arsenal index.
inline constexpr Action kPass = 0;
inline constexpr Action kFight = 1;
inline constexpr Action kDecline = 2;
inline constexpr Action kDeploy = 3;                          // + a
inline constexpr Action kFire = kDeploy + 2 * kMaxArsenal;    // 259 + a
inline constexpr Action kWithdraw = kFire + 2 * kMaxArsenal;  // 515 + a
inline constexpr Action kPlay = kWithdraw + 2 * kMaxArsenal;  // 771 + k
inline constexpr int kNumActions = kPlay + kMaxConflict;      // 899
// Chance outcomes are numbered from 0 (OpenSpiel's convention) and read by the node: at a node
// on an arsenal the slot of the card in the subject's arsenal, at a node on the conflict deck
// the conflict index.

// In the order of the rules page's node table (the observation's one-hot).
enum class Phase : std::int8_t {
  kDeal,
  kSetupDeploy,
  kTurnDeploy,
  kConflictDraw,
  kEffectDraw,
  kEffectDeploy,
  kEffectDiscard,
  kEffectDestroy,
  kChoice,
  kWindow,
  kReinforce,
  kFire,
  kFlip,
  kWithdraw,
  kTerminal,
};
inline constexpr int kNumPhaseNodes = 15;

enum class EndReason : std::int8_t { kNone, kHomeland, kBattles, kMaxTurns };

// The piles of arsenal cards, one mask per seat each. A card in a stack may in addition be face
// up, and during a battle taking part or withdrawn.
enum ArsenalPile : std::int8_t {
  kArsenalDeck,
  kArsenalDiscard,
  kReserve,
  kStack,
  kFaceUp,
  kTakingPart,
  kWithdrawn,
  kNumArsenalPiles,
};

// The piles of conflict cards.
enum ConflictPile : std::int8_t {
  kConflictDeck,
  kConflictDiscard,
  kKept,             // + seat
  kWon = kKept + 2,  // + seat
  kCancelled = kWon + 2,
  kNumConflictPiles,
};

constexpr int seat_of(int a) { return a / kMaxArsenal; }
constexpr int slot_of(int a) { return a % kMaxArsenal; }
constexpr int nth_set_bit(u128 mask, int k) {
  const auto low = static_cast<std::uint64_t>(mask);
  const int in_low = popcount(low);
  return k < in_low ? rivals::nth_set_bit(low, k)
                    : 64 + rivals::nth_set_bit(static_cast<std::uint64_t>(mask >> 64), k - in_low);
}

// The battle in progress (docs/rules/battlecards.md, snapshot key `battle`); -1 stands for null.
struct Battle {
  std::array<std::array<std::array<std::int16_t, 2>, kNumTypes>, 2> bonus{};  // [seat][type][a/d]
  // The bonuses plus the supports of every unit taking part, kept up to date for the hot path
  // (not part of the snapshot: it follows from the rest).
  std::array<std::array<std::array<std::int16_t, 2>, kNumTypes>, 2> boost{};
  std::int16_t unit = -1;      // global arsenal index
  std::int16_t target = -1;    // global arsenal index
  std::int8_t aggressor = -1;  // -1: no battle
  std::int8_t round = 0;
  std::int8_t firing_phase = 0;
  std::int8_t firing_side = -1;
  std::int8_t window = -1;
  std::int8_t withdrawing = -1;
};

class State {
 public:
  // A reserve, a set of kept cards or the units taking part, plus pass; chance: one deck.
  static constexpr int kMaxLegalActions = kMaxArsenal + 1;
  static constexpr int kMaxChanceOutcomes = kMaxArsenal;

  State(const CardSet* cards, std::int32_t max_turns);

  Player current_player() const;
  bool is_chance_node() const {
    switch (phase_) {
      case Phase::kDeal:
      case Phase::kConflictDraw:
      case Phase::kEffectDraw:
      case Phase::kEffectDiscard:
      case Phase::kEffectDestroy:
      case Phase::kFlip:
        return true;
      default:
        return false;
    }
  }
  bool is_terminal() const { return phase_ == Phase::kTerminal; }

  int legal_actions(Action* out) const;
  int chance_outcomes(ChanceOutcome* out) const;
  // At a chance node: the seat whose arsenal the outcome is a card of, or -1 when it is a
  // conflict card.
  int outcome_seat() const { return chance_cards().seat; }
  Action sample_chance(Rng& rng) const {
    const ChanceCards chance = chance_cards();
    return nth_set_bit(
        chance.cards,
        static_cast<int>(rng.below(static_cast<std::uint32_t>(popcount(chance.cards)))));
  }
  void apply(Action action);
  void returns(double* out) const;
  std::uint64_t hash() const;

  // Read access for presentation, observation, hidden information and tests.
  const CardSet& cards() const { return *cs_; }
  Phase phase() const { return phase_; }
  EndReason end_reason() const { return end_reason_; }
  int winner() const { return winner_; }
  int turn() const { return turn_; }
  int drawing() const { return drawing_; }
  int card() const { return card_; }
  int effect_index() const { return effect_index_; }
  int subject() const { return subject_; }
  int left() const { return left_; }
  int vp(int seat) const { return vp_[seat]; }
  bool in_battle() const { return battle_.aggressor >= 0; }
  const Battle& battle() const { return battle_; }
  u128 pile(ArsenalPile pile, int seat) const { return arsenal_[pile][seat]; }
  u128 pile(ConflictPile pile) const { return conflict_[pile]; }
  u128 stack(int seat, int type) const { return arsenal_[kStack][seat] & cs_->of_type[seat][type]; }
  // Combat numbers (Firing) of a unit taking part.
  int attack_score(int a, int type) const {
    const int base = cs_->arsenal(a).attack[type];
    return base > 0 ? base + support(a)[0] : 0;
  }
  int defence_score(int a) const { return cs_->arsenal(a).defence + support(a)[1]; }

 private:
  struct ChanceCards {
    u128 cards;  // by slot of the subject's arsenal, or by conflict index
    int seat;    // the arsenal's seat, or -1 for the conflict deck
  };
  ChanceCards chance_cards() const;

  u128 of_types(int seat, unsigned types) const {
    u128 out = 0;
    for (int t = 0; t < kNumTypes; ++t)
      if (types >> t & 1) out |= cs_->of_type[seat][t];
    return out;
  }
  // (attack, defence) that the other units of `a`'s side taking part and the played bonuses
  // give `a`.
  std::array<int, 2> support(int a) const {
    const int seat = seat_of(a);
    const auto& boost = battle_.boost[seat][cs_->type_of[static_cast<std::size_t>(a)]];
    if (!(arsenal_[kTakingPart][seat] & card_bit(slot_of(a)))) return {boost[0], boost[1]};
    return {boost[0] - cs_->self_attack[static_cast<std::size_t>(a)],
            boost[1] - cs_->self_defence[static_cast<std::size_t>(a)]};
  }
  void refresh_boost(int seat);
  bool has_target(int unit) const;
  int targets(int unit, Action* out) const;
  bool has_decisive(int seat) const;

  void toggle(ArsenalPile pile, int a);
  void toggle(ConflictPile pile, int k);
  void move(ArsenalPile from, ArsenalPile to, int a) {
    toggle(from, a);
    toggle(to, a);
  }
  void deploy(int a, bool face_up);
  void destroy(int a);
  void refill_arsenal(int seat);
  void refill_conflict();
  void discard_card();
  void clear_battle();

  void start_turn();
  void begin_conflict_draw();
  void conflict_drawn(int k);
  void end_turn();
  void end(EndReason reason, int winner);
  const Effect& current_effect() const;
  void enter_effect();
  void run_effects();
  bool prerequisite_met(const ConflictCard& card, const Prerequisite& pre) const;
  bool prerequisite_dead(const ConflictCard& card, const Prerequisite& pre) const;
  void start_battle();
  void fight();
  void open_window(int seat);
  void play(int seat, int k);
  void begin_round();
  void next_shooter();
  void flipped(int k);
  void open_withdrawal(int seat);
  void end_withdrawal(int seat);
  void battle_won(int winner);
  void cancel_dead_battles();

  const CardSet* cs_;
  std::array<std::array<u128, 2>, kNumArsenalPiles> arsenal_{};
  std::array<u128, kNumConflictPiles> conflict_{};
  std::uint64_t hash_ = 0;  // the piles; the counters are mixed in by hash()
  std::int32_t max_turns_;
  std::int32_t turn_ = 0;
  std::array<std::int32_t, 2> vp_{};
  Battle battle_;
  std::int16_t left_ = kSetupDraw;
  std::int16_t effect_index_ = -1;
  std::int8_t card_ = -1;
  std::int8_t subject_ = 0;
  std::int8_t drawing_ = -1;
  std::int8_t winner_ = -1;
  Phase phase_ = Phase::kDeal;
  EndReason end_reason_ = EndReason::kNone;
};

}  // namespace rivals::battlecards
