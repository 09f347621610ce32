// A Rosenkönig position and its rules: the hot path of playouts and search.
#pragma once

#include <array>
#include <cstdint>

#include "rivals/core/bits.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"
#include "rivals/core/zobrist.h"
#include "rivals/rosenkoenig/board.h"

namespace rivals::rosenkoenig {

inline constexpr Action kFirstHero = kCards;  // 24..47: hero with card (a - 24)
inline constexpr Action kDraw = 2 * kCards;   // 48
inline constexpr Action kPass = kDraw + 1;    // 49
inline constexpr int kNumActions = kPass + 1;
inline constexpr int kTotalStones = 52;
inline constexpr int kMaxSeats = 4;
inline constexpr std::uint32_t kAllCards = (1u << kCards) - 1;

enum Colour : int { kRed = 0, kWhite = 1 };

struct Setup {
  int players = 2;
  int hand_limit = 5;  // also the number of cards dealt to each seat
  int heroes = 4;      // per seat
};

class State {
 public:
  // A decision has at most 11 actions (5 plays, 5 hero plays, draw); a deal or draw at most 24.
  static constexpr int kMaxLegalActions = kCards;
  static constexpr int kMaxChanceOutcomes = kCards;

  explicit State(const Setup& setup);

  Player current_player() const { return to_move_; }
  bool is_chance_node() const { return to_move_ == kChancePlayer; }
  bool is_terminal() const { return to_move_ == kTerminalPlayer; }

  int legal_actions(Action* out) const {
    if (is_chance_node()) {
      int n = 0;
      for (std::uint32_t pile = draw_pile_; pile; pile &= pile - 1)
        out[n++] = std::countr_zero(pile);
      return n;
    }
    const int n = decisions(to_move_, out);
    if (n == 0) out[0] = kPass;
    return n == 0 ? 1 : n;
  }

  int chance_outcomes(ChanceOutcome* out) const {
    const double p = 1.0 / popcount(static_cast<std::uint64_t>(draw_pile_));
    int n = 0;
    for (std::uint32_t pile = draw_pile_; pile; pile &= pile - 1)
      out[n++] = {std::countr_zero(pile), p};
    return n;
  }

  Action sample_chance(Rng& rng) const { return random_set_bit(draw_pile_, rng); }

  void apply(Action action);
  void returns(double* out) const;
  std::uint64_t hash() const;

  // Read access for presentation, observation and tests.
  int players() const { return setup_.players; }
  const Setup& setup() const { return setup_; }
  u128 stones(Colour colour) const { return stones_[colour]; }
  int crown() const { return crown_; }
  std::uint32_t hand(Player seat) const { return hands_[seat]; }
  int heroes(Player seat) const { return heroes_[seat]; }
  int stones_left() const { return stones_left_; }
  std::uint32_t draw_pile() const { return draw_pile_; }
  std::uint32_t discard() const { return discard_; }
  // The seat receiving the next chance card, or -1 when this is not a chance node.
  Player receiving() const { return receiving_; }
  static Colour colour_of(Player seat) { return static_cast<Colour>(seat & 1); }

  // Non-pass actions of `seat` in ascending order; 0 means the seat can only pass.
  int decisions(Player seat, Action* out) const {
    const Colour colour = colour_of(seat);
    const u128 blocked = stones_[kRed] | stones_[kWhite] | kOffBoardBit;
    const u128 enemy = stones_[colour ^ 1];
    const auto& landing = kLanding[crown_];
    const std::uint32_t hand = hands_[seat];
    int n = 0;
    for (std::uint32_t h = hand; h; h &= h - 1) {
      const int card = std::countr_zero(h);
      out[n] = card;
      n += !static_cast<bool>((blocked >> landing[card]) & 1);
    }
    if (heroes_[seat] > 0) {
      for (std::uint32_t h = hand; h; h &= h - 1) {
        const int card = std::countr_zero(h);
        out[n] = kFirstHero + card;
        n += static_cast<bool>((enemy >> landing[card]) & 1);
      }
    }
    if (draw_pile_ != 0 && popcount(static_cast<std::uint64_t>(hand)) < setup_.hand_limit)
      out[n++] = kDraw;
    return n;
  }

 private:
  bool can_act(Player seat) const;
  void pass_turn_to(Player seat);
  void receive(Action card);
  void finish();

  std::array<u128, 2> stones_{};
  std::array<std::uint32_t, kMaxSeats> hands_{};
  std::uint32_t draw_pile_ = kAllCards;
  std::uint32_t discard_ = 0;
  std::uint64_t hash_ =
      0;  // stones, crown, hands, discard and heroes; the turn is mixed in by hash()
  std::array<std::int8_t, kMaxSeats> heroes_{};
  Setup setup_;
  std::int8_t to_move_ = kChancePlayer;
  std::int8_t receiving_ = 0;
  bool dealing_ = true;
  std::int8_t winner_ = -1;  // colour, or 2 for a draw; set when the game ends
  std::int8_t crown_ = kCentre;
  std::int8_t stones_left_ = kTotalStones;
};

}  // namespace rivals::rosenkoenig
