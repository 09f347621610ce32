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
inline constexpr int kMaxHand = 5;  // the hand limit of the two-player game, the larger one
inline constexpr std::uint32_t kAllCards = (1u << kCards) - 1;

enum Colour : int { kRed = 0, kWhite = 1 };

// Bytes, so the state stays within 96 bytes.
struct Setup {
  std::int8_t players = 2;     // 2 or 4
  std::int8_t hand_limit = 5;  // also the number of cards dealt to each seat
  std::int8_t heroes = 4;      // per seat
};

// Zobrist keys of the incremental hash; the hot path below updates it, so it lives here.
namespace keys {
inline constexpr auto kStone = zobrist_keys<2 * kSquares>(0x520501);
inline constexpr auto kCrown = zobrist_keys<kSquares>(0x520502);
inline constexpr auto kHand = zobrist_keys<kMaxSeats * kCards>(0x520503);
inline constexpr auto kDiscard = zobrist_keys<kCards>(0x520504);
inline constexpr auto kHeroes = zobrist_keys<kMaxSeats * 8>(0x520505);
// Turn: seats 0-3, chance receiving seat 0-3, dealing flag, terminal.
inline constexpr auto kTurn = zobrist_keys<16>(0x520506);

constexpr std::uint64_t stone(Colour colour, int sq) { return kStone[colour * kSquares + sq]; }
constexpr std::uint64_t hand(Player seat, int card) { return kHand[seat * kCards + card]; }
constexpr std::uint64_t heroes(Player seat, int count) { return kHeroes[seat * 8 + count]; }
}  // namespace keys

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
    int n = 0;
    for (int i = 0; i < moves_.play_count; ++i) out[n++] = moves_.plays[i];
    for (int i = 0; i < moves_.hero_count; ++i) out[n++] = kFirstHero + moves_.heroes[i];
    if (moves_.draw) out[n++] = kDraw;
    if (n == 0) out[n++] = kPass;
    return n;
  }

  int chance_outcomes(ChanceOutcome* out) const {
    const double p = 1.0 / popcount(static_cast<std::uint64_t>(draw_pile_));
    int n = 0;
    for (std::uint32_t pile = draw_pile_; pile; pile &= pile - 1)
      out[n++] = {std::countr_zero(pile), p};
    return n;
  }

  Action sample_chance(Rng& rng) const {
    return nth_set_bit24(draw_pile_,
                         static_cast<int>(rng.below(static_cast<std::uint32_t>(pile_size_))));
  }

  // The action a uniformly random choice among legal_actions() would take with the same `rng`
  // (the same random number, the same order), without writing the list: what random playouts
  // call at a decision (core/playout.h).
  Action random_decision(Rng& rng) const {
    const int plays = moves_.play_count;
    const int heroes = moves_.hero_count;
    const int count = plays + heroes + moves_.draw;
    if (count == 0) {
      rng.below(1);  // the pass is a choice among one action, as legal_actions() lists it
      return kPass;
    }
    const int r = static_cast<int>(rng.below(static_cast<std::uint32_t>(count)));
    if (r < plays) return moves_.plays[r];
    if (r < plays + heroes) return kFirstHero + moves_.heroes[r - plays];
    return kDraw;
  }

  // The player count is a template argument of the hot path below: the seat after the last one
  // is then found without reading it from the state (which every byte the hot path writes may
  // alias, so the compiler reads it again after each), and random two-player games ran 7%
  // faster. A seat count known to be 2 or 4 (Setup) takes one branch the predictor never misses.
  void apply(Action action) {
    if (setup_.players == 2)
      step<true, 2>(action);
    else
      step<true, 4>(action);
  }

  // Plays to the end with uniformly random actions: the actions the generic loop of
  // core/playout.h would take with the same `rng` (it calls this instead), the same numbers
  // drawn in the same order, without keeping the hash up move by move: hash() computes a
  // finished position's from scratch.
  int random_playout(Rng& rng) {
    return setup_.players == 2 ? random_playout_of<2>(rng) : random_playout_of<4>(rng);
  }

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

 private:
  // What a seat may do: the cards it may play, those it may play with a hero (both ascending) and
  // whether it may draw.
  struct Moves {
    std::array<std::int8_t, kMaxHand> plays;
    std::array<std::int8_t, kMaxHand> heroes;
    std::int8_t play_count;
    std::int8_t hero_count;
    std::int8_t draw;
  };

  // What a square holds, one byte per square (cells_): a legality test is then two look-ups, the
  // landing square and what is on it, with no bit arithmetic on the 128-bit board.
  enum Cell : std::uint8_t { kEmpty = 0, kRedStone = 1, kWhiteStone = 2, kOutside = 3 };
  static constexpr std::uint8_t stone_cell(Colour colour) {
    return static_cast<std::uint8_t>(kRedStone + static_cast<int>(colour));
  }
  static constexpr auto kEmptyCells = [] {
    std::array<std::uint8_t, kSquares + 1> cells{};
    for (int sq = 0; sq <= kSquares; ++sq)
      cells[sq] = sq < kSquares && col_of(sq) < kSize ? kEmpty : kOutside;
    return cells;
  }();

  // One pass over the hand (at most five cards); returns how many moves there are, the pass aside.
  int find_moves(Player seat, Moves& moves) const {
    // A seat without heroes flips nothing: no cell holds 0xff. Without a branch, as above.
    const std::uint8_t enemy = stone_cell(static_cast<Colour>(colour_of(seat) ^ 1)) |
                               static_cast<std::uint8_t>(-static_cast<int>(heroes_[seat] <= 0));
    const auto& landing = kLanding[crown_];
    int plays = 0;
    int heroes = 0;
    for (std::uint32_t cards = hands_[seat]; cards; cards &= cards - 1) {
      const int card = std::countr_zero(cards);
      const std::uint8_t cell = cells_[landing[card]];
      const int free = cell == kEmpty;
      const int flip = cell == enemy;
      moves.plays[plays] = static_cast<std::int8_t>(card);
      moves.heroes[heroes] = static_cast<std::int8_t>(card);
      plays += free;
      heroes += flip;
    }
    moves.play_count = static_cast<std::int8_t>(plays);
    moves.hero_count = static_cast<std::int8_t>(heroes);
    const bool draw = pile_size_ != 0 && hand_size_[seat] < setup_.hand_limit;
    moves.draw = draw;
    return plays + heroes + draw;
  }

  template <int kPlayers>
  int random_playout_of(Rng& rng) {
    int length = 0;
    while (!is_terminal()) {
      step<false, kPlayers>(is_chance_node() ? sample_chance(rng) : random_decision(rng));
      ++length;
    }
    return length;
  }
  template <bool kHashed, int kPlayers>
  void step(Action action);
  template <bool kHashed, int kPlayers>
  void play(int card, bool hero);
  void start_draw() {
    receiving_ = to_move_;
    to_move_ = kChancePlayer;
  }
  // The seat after `seat` (the counts are 2 and 4). Without a branch: in random games the
  // predictor would miss it often.
  template <int kPlayers>
  static Player seat_after(Player seat) {
    static_assert(kPlayers == 2 || kPlayers == 4);
    return (seat + 1) & (kPlayers - 1);
  }
  template <bool kHashed, int kPlayers>
  void receive(Action card);
  bool can_act(Player seat) const;
  template <int kPlayers>
  void pass_turn_to(Player seat);
  void finish();
  // The hash_ of this position computed from scratch (the turn aside).
  std::uint64_t position_hash() const;

  std::array<u128, 2> stones_{};
  std::array<std::uint32_t, kMaxSeats> hands_{};
  std::uint32_t draw_pile_ = kAllCards;
  std::uint32_t discard_ = 0;
  // Stones, crown, hands, discard and heroes; the turn is mixed in by hash(). Stale once the game
  // is over (random_playout stops keeping it), where hash() does not read it.
  std::uint64_t hash_ = 0;
  std::array<std::int8_t, kMaxSeats> heroes_{};
  Setup setup_;
  std::int8_t to_move_ = kChancePlayer;
  std::int8_t receiving_ = 0;
  bool dealing_ = true;
  std::int8_t winner_ = -1;  // colour, or 2 for a draw; set when the game ends
  std::int8_t crown_ = kCentre;
  std::int8_t stones_left_ = kTotalStones;
  // Counts of the masks above, kept so the hot path needs no popcount (a wheel for every x86-64
  // has no popcount instruction).
  std::array<std::int8_t, kMaxSeats> hand_size_{};
  std::int8_t pile_size_ = kCards;
  // The moves of the seat to move (stale elsewhere), found when the turn passes to it: the test
  // whether it can act needs them anyway, and every decision reads them.
  Moves moves_{};
  std::array<std::uint8_t, kSquares + 1> cells_ =
      kEmptyCells;  // the stones again, and the sentinel
};

// The hot path of playouts and search, inline so the loops that call it (core/playout.h, the
// bots) compile it into themselves.

template <bool kHashed, int kPlayers>
void State::step(Action action) {
  if (is_chance_node()) {
    receive<kHashed, kPlayers>(action);
  } else if (action == kPass) {
    pass_turn_to<kPlayers>(seat_after<kPlayers>(to_move_));
  } else if (action == kDraw) {
    start_draw();
  } else {
    const bool hero = action >= kFirstHero;
    play<kHashed, kPlayers>(hero ? action - kFirstHero : action, hero);
  }
}

template <bool kHashed, int kPlayers>
void State::play(int card, bool hero) {
  const Player seat = to_move_;
  const Colour colour = colour_of(seat);
  const int target = kLanding[crown_][card];
  hands_[seat] &= ~(1u << card);
  --hand_size_[seat];
  discard_ |= 1u << card;
  if constexpr (kHashed) {
    hash_ ^= keys::hand(seat, card) ^ keys::kDiscard[card];
    hash_ ^= keys::kCrown[crown_] ^ keys::kCrown[target] ^ keys::stone(colour, target);
  }
  crown_ = static_cast<std::int8_t>(target);
  stones_[colour] |= bit128(target);
  cells_[target] = stone_cell(colour);
  if (hero) {
    stones_[colour ^ 1] &= ~bit128(target);
    if constexpr (kHashed) {
      hash_ ^= keys::stone(static_cast<Colour>(colour ^ 1), target);
      hash_ ^= keys::heroes(seat, heroes_[seat]) ^ keys::heroes(seat, heroes_[seat] - 1);
    }
    --heroes_[seat];
  } else if (--stones_left_ == 0) {
    finish();
    return;
  }
  pass_turn_to<kPlayers>(seat_after<kPlayers>(seat));
}

template <bool kHashed, int kPlayers>
void State::receive(Action card) {
  const Player seat = receiving_;
  draw_pile_ &= ~(1u << card);
  --pile_size_;
  hands_[seat] |= 1u << card;
  ++hand_size_[seat];
  if constexpr (kHashed) hash_ ^= keys::hand(seat, card);
  // The rulebook refills the pile the moment its last card is taken, not at the next draw.
  if (draw_pile_ == 0) {
    if constexpr (kHashed)
      for (std::uint32_t d = discard_; d; d &= d - 1) hash_ ^= keys::kDiscard[std::countr_zero(d)];
    draw_pile_ = discard_;
    pile_size_ = static_cast<std::int8_t>(popcount(static_cast<std::uint64_t>(discard_)));
    discard_ = 0;
  }
  if (!dealing_) {
    receiving_ = -1;
    pass_turn_to<kPlayers>(seat_after<kPlayers>(seat));
    return;
  }
  if (hand_size_[seat] < setup_.hand_limit) return;
  if (seat + 1 < kPlayers) {
    receiving_ = static_cast<std::int8_t>(seat + 1);
    return;
  }
  dealing_ = false;
  receiving_ = -1;
  pass_turn_to<kPlayers>(0);
}

// The cheap test first: most of the time a seat can draw.
inline bool State::can_act(Player seat) const {
  if (pile_size_ != 0 && hand_size_[seat] < setup_.hand_limit) return true;
  Moves moves;
  return find_moves(seat, moves) != 0;
}

// The game ends as soon as nobody can act, so a seat that cannot act is only made to pass while
// another seat still can.
template <int kPlayers>
inline void State::pass_turn_to(Player seat) {
  to_move_ = static_cast<std::int8_t>(seat);
  if (find_moves(seat, moves_) != 0) return;
  for (Player other = 0; other < kPlayers; ++other)
    if (other != seat && can_act(other)) return;
  finish();
}

inline void State::finish() {
  to_move_ = kTerminalPlayer;
  const GroupScore red = score_stones(stones_[kRed]);
  const GroupScore white = score_stones(stones_[kWhite]);
  auto compare = [](int a, int b) { return a > b ? kRed : (a < b ? kWhite : -1); };
  int winner = compare(red.points, white.points);
  if (winner < 0) winner = compare(red.largest, white.largest);
  if (winner < 0) winner = compare(red.stones, white.stones);
  winner_ = static_cast<std::int8_t>(winner < 0 ? 2 : winner);
}

}  // namespace rivals::rosenkoenig
