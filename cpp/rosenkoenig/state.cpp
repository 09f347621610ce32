#include "rivals/rosenkoenig/state.h"

namespace rivals::rosenkoenig {
namespace {

namespace keys {
constexpr auto kStone = zobrist_keys<2 * kSquares>(0x520501);
constexpr auto kCrown = zobrist_keys<kSquares>(0x520502);
constexpr auto kHand = zobrist_keys<kMaxSeats * kCards>(0x520503);
constexpr auto kDiscard = zobrist_keys<kCards>(0x520504);
constexpr auto kHeroes = zobrist_keys<kMaxSeats * 8>(0x520505);
// Turn: seats 0-3, chance receiving seat 0-3, dealing flag, terminal.
constexpr auto kTurn = zobrist_keys<16>(0x520506);
}  // namespace keys

std::uint64_t stone_key(Colour colour, int sq) { return keys::kStone[colour * kSquares + sq]; }
std::uint64_t hand_key(Player seat, int card) { return keys::kHand[seat * kCards + card]; }
std::uint64_t heroes_key(Player seat, int count) { return keys::kHeroes[seat * 8 + count]; }

}  // namespace

State::State(const Setup& setup) : setup_(setup) {
  for (int seat = 0; seat < setup.players; ++seat) {
    heroes_[seat] = static_cast<std::int8_t>(setup.heroes);
    hash_ ^= heroes_key(seat, setup.heroes);
  }
  hash_ ^= keys::kCrown[crown_];
}

std::uint64_t State::hash() const {
  int turn;
  if (is_terminal())
    turn = 15;
  else if (is_chance_node())
    turn = 4 + receiving_ + (dealing_ ? 4 : 0);
  else
    turn = to_move_;
  return hash_ ^ keys::kTurn[turn];
}

void State::apply(Action action) {
  if (is_chance_node()) {
    receive(action);
    return;
  }
  const Player seat = to_move_;
  const Player next = seat + 1 == setup_.players ? 0 : seat + 1;
  if (action == kPass) {
    pass_turn_to(next);
    return;
  }
  if (action == kDraw) {
    receiving_ = static_cast<std::int8_t>(seat);
    to_move_ = kChancePlayer;
    return;
  }
  const bool hero = action >= kFirstHero;
  const int card = hero ? action - kFirstHero : action;
  const Colour colour = colour_of(seat);
  const int target = kLanding[crown_][card];

  hands_[seat] &= ~(1u << card);
  discard_ |= 1u << card;
  hash_ ^= hand_key(seat, card) ^ keys::kDiscard[card];
  hash_ ^= keys::kCrown[crown_] ^ keys::kCrown[target];
  crown_ = static_cast<std::int8_t>(target);
  stones_[colour] |= bit128(target);
  hash_ ^= stone_key(colour, target);
  if (hero) {
    stones_[colour ^ 1] &= ~bit128(target);
    hash_ ^= stone_key(static_cast<Colour>(colour ^ 1), target);
    hash_ ^= heroes_key(seat, heroes_[seat]) ^ heroes_key(seat, heroes_[seat] - 1);
    --heroes_[seat];
  } else if (--stones_left_ == 0) {
    finish();
    return;
  }
  pass_turn_to(next);
}

void State::receive(Action card) {
  const Player seat = receiving_;
  draw_pile_ &= ~(1u << card);
  hands_[seat] |= 1u << card;
  hash_ ^= hand_key(seat, card);
  // The rulebook refills the pile the moment its last card is taken, not at the next draw.
  if (draw_pile_ == 0) {
    for (std::uint32_t d = discard_; d; d &= d - 1) hash_ ^= keys::kDiscard[std::countr_zero(d)];
    draw_pile_ = discard_;
    discard_ = 0;
  }
  if (!dealing_) {
    receiving_ = -1;
    pass_turn_to(seat + 1 == setup_.players ? 0 : seat + 1);
    return;
  }
  if (popcount(static_cast<std::uint64_t>(hands_[seat])) < setup_.hand_limit) return;
  if (seat + 1 < setup_.players) {
    receiving_ = static_cast<std::int8_t>(seat + 1);
    return;
  }
  dealing_ = false;
  receiving_ = -1;
  pass_turn_to(0);
}

// The cheap test first: most of the time a seat can draw.
bool State::can_act(Player seat) const {
  const std::uint32_t hand = hands_[seat];
  if (draw_pile_ != 0 && popcount(static_cast<std::uint64_t>(hand)) < setup_.hand_limit)
    return true;
  const u128 blocked = stones_[kRed] | stones_[kWhite] | kOffBoardBit;
  const u128 enemy = heroes_[seat] > 0 ? stones_[colour_of(seat) ^ 1] : 0;
  const auto& landing = kLanding[crown_];
  for (std::uint32_t h = hand; h; h &= h - 1) {
    const int target = landing[std::countr_zero(h)];
    if (!((blocked >> target) & 1) || ((enemy >> target) & 1)) return true;
  }
  return false;
}

// The game ends as soon as nobody can act, so a seat that cannot act is only made to pass while
// another seat still can.
void State::pass_turn_to(Player seat) {
  to_move_ = static_cast<std::int8_t>(seat);
  if (can_act(seat)) return;
  for (Player other = 0; other < setup_.players; ++other)
    if (other != seat && can_act(other)) return;
  finish();
}

void State::finish() {
  to_move_ = kTerminalPlayer;
  const GroupScore red = score_stones(stones_[kRed]);
  const GroupScore white = score_stones(stones_[kWhite]);
  auto compare = [](int a, int b) { return a > b ? kRed : (a < b ? kWhite : -1); };
  int winner = compare(red.points, white.points);
  if (winner < 0) winner = compare(red.largest, white.largest);
  if (winner < 0) winner = compare(red.stones, white.stones);
  winner_ = static_cast<std::int8_t>(winner < 0 ? 2 : winner);
}

void State::returns(double* out) const {
  for (Player seat = 0; seat < setup_.players; ++seat) {
    if (!is_terminal() || winner_ == 2)
      out[seat] = 0.0;
    else
      out[seat] = colour_of(seat) == winner_ ? 1.0 : -1.0;
  }
}

}  // namespace rivals::rosenkoenig
