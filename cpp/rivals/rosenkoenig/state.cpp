#include "rivals/rosenkoenig/state.h"

namespace rivals::rosenkoenig {

State::State(const Setup& setup) : setup_(setup) {
  for (int seat = 0; seat < setup.players; ++seat) {
    heroes_[seat] = static_cast<std::int8_t>(setup.heroes);
    hash_ ^= keys::heroes(seat, setup.heroes);
  }
  hash_ ^= keys::kCrown[crown_];
}

// A finished position's hash is computed here rather than kept: random playouts, which end
// there, then need not keep it move by move (3% of a playout), and searches hash positions that
// still have moves.
std::uint64_t State::hash() const {
  if (is_terminal()) return position_hash() ^ keys::kTurn[15];
  const int turn = is_chance_node() ? 4 + receiving_ + (dealing_ ? 4 : 0) : to_move_;
  return hash_ ^ keys::kTurn[turn];
}

std::uint64_t State::position_hash() const {
  std::uint64_t hash = keys::kCrown[crown_];
  // Over 64-bit halves: stepping through the set bits of a 128-bit integer costs twice as much.
  for (const Colour colour : {kRed, kWhite}) {
    for (auto low = static_cast<std::uint64_t>(stones_[colour]); low; low &= low - 1)
      hash ^= keys::stone(colour, std::countr_zero(low));
    for (auto high = static_cast<std::uint64_t>(stones_[colour] >> 64); high; high &= high - 1)
      hash ^= keys::stone(colour, 64 + std::countr_zero(high));
  }
  for (Player seat = 0; seat < setup_.players; ++seat) {
    for (std::uint32_t cards = hands_[seat]; cards; cards &= cards - 1)
      hash ^= keys::hand(seat, std::countr_zero(cards));
    hash ^= keys::heroes(seat, heroes_[seat]);
  }
  for (std::uint32_t cards = discard_; cards; cards &= cards - 1)
    hash ^= keys::kDiscard[std::countr_zero(cards)];
  return hash;
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
