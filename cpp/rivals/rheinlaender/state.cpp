#include "rivals/rheinlaender/state.h"

#include <algorithm>

#include "rivals/core/zobrist.h"

namespace rivals::rheinlaender {
namespace {

namespace keys {
constexpr auto kKnight = zobrist_keys<kMaxPlayers * kMaxSpaces>(0x4e0101);
constexpr auto kOwner = zobrist_keys<kMaxPlayers * kMaxSpaces>(0x4e0102);
constexpr auto kBastion = zobrist_keys<kMaxSpaces>(0x4e0103);
constexpr auto kChip = zobrist_keys<kMaxSites * kChipKinds>(0x4e0104);
constexpr auto kCastle = zobrist_keys<kMaxPlayers * kMaxSites>(0x4e0105);
constexpr auto kHand = zobrist_keys<kMaxPlayers * 64>(0x4e0106);
constexpr auto kDiscard = zobrist_keys<64>(0x4e0107);
}  // namespace keys

constexpr std::uint64_t bit(int i) { return std::uint64_t{1} << i; }

}  // namespace

State::State(const Setup& setup) : setup_(&setup) {
  const Board& board = setup.board;
  deck_ = board.max_number == 63 ? ~std::uint64_t{0} : bit(board.max_number + 1) - 1;
  chip_.fill(-1);
  for (int k = 0; k < kChipKinds; ++k) chips_left_[k] = static_cast<std::int8_t>(board.chips[k]);
  for (int seat = 0; seat < setup.players; ++seat) {
    knights_left_[seat] = static_cast<std::int8_t>(setup.knights);
    bastions_left_[seat] = kBastions;
  }
  if (board.sites == 0) {
    phase_ = Phase::kDeal;
    receiving_ = 0;
  }
}

// ------------------------------------------------------------------------------------------
// Queries

Player State::knight_at(int space) const {
  for (int seat = 0; seat < setup_->players; ++seat)
    if (knights_[seat].test(space)) return seat;
  return -1;
}

Player State::owner_at(int space) const {
  for (int seat = 0; seat < setup_->players; ++seat)
    if (owned_[seat].test(space)) return seat;
  return -1;
}

Player State::castle_knight(int site) const {
  for (int seat = 0; seat < setup_->players; ++seat)
    if ((castles_[seat] >> site) & 1) return seat;
  return -1;
}

Bits State::component(int start) const {
  const auto& neighbours = setup_->board.neighbours;
  Bits domain = Bits::single(start);
  Bits frontier = domain;
  while (frontier.any()) {
    Bits grown;
    frontier.for_each([&](int s) { grown |= neighbours[s]; });
    frontier = minus(grown & occupied_, domain);
    domain |= frontier;
  }
  return domain;
}

std::uint64_t State::sites_touching(const Bits& spaces) const {
  std::uint64_t sites = 0;
  (spaces & setup_->board.site_spaces).for_each([&](int s) { sites |= setup_->board.sites_at[s]; });
  return sites;
}

int State::landmark_value(const Bits& spaces) const { return sites_value(sites_touching(spaces)); }

int State::sites_value(std::uint64_t sites) const {
  int value = 0;
  for (std::uint64_t t = sites; t; t &= t - 1) {
    const int kind = chip_[std::countr_zero(t)];
    if (kind >= 0) value += chip_value(kind);
  }
  return value;
}

// The seat with at least 2 knights in the domain (on its spaces and on its castle sites: manned
// castles have both spaces occupied, so a manned site touching the domain lies in it) and strictly
// more than every other seat, or -1.
Player State::majority(const Bits& domain, std::uint64_t sites) const {
  int best = 1;
  Player leader = -1;
  for (int seat = 0; seat < setup_->players; ++seat) {
    const int count = (domain & knights_[seat]).count() + count_bits(sites & castles_[seat]);
    if (count > best) {
      best = count;
      leader = seat;
    } else if (count == best) {
      leader = -1;
    }
  }
  return leader;
}

void State::totals(int* out) const {
  if (phase_ == Phase::kTerminal) return final_totals(out);
  for (int seat = 0; seat < setup_->players; ++seat) out[seat] = points_[seat];
}

void State::final_totals(int* out) const {
  const int n = setup_->players;
  for (int seat = 0; seat < n; ++seat) {
    out[seat] = points_[seat];
    Bits rest = owned_[seat];
    while (rest.any()) {
      const Bits domain = component(rest.first());
      out[seat] += kFinalDuke + landmark_value(domain);
      rest.remove(domain);
    }
  }
  if (archbishop_ >= 0) out[archbishop_] += kArchbishopBonus;
}

void State::returns(double* out) const {
  const int n = setup_->players;
  std::fill(out, out + n, 0.0);
  if (end_reason_ != EndReason::kKnights) return;
  int total[kMaxPlayers];
  totals(total);
  const int best = *std::max_element(total, total + n);
  const int winners = static_cast<int>(std::count(total, total + n, best));
  if (winners == n) return;
  for (int seat = 0; seat < n; ++seat)
    out[seat] = total[seat] == best ? 1.0 / winners : -1.0 / (n - winners);
}

std::uint64_t State::hash() const {
  // The counters change on most actions; mixing them here is cheaper than keys per value.
  std::uint64_t h =
      hash_ ^ mix64(static_cast<std::uint64_t>(static_cast<std::uint32_t>(turn_)) |
                    static_cast<std::uint64_t>(phase_) << 32 |
                    static_cast<std::uint64_t>(static_cast<std::uint8_t>(to_move_)) << 40 |
                    static_cast<std::uint64_t>(static_cast<std::uint8_t>(receiving_)) << 48 |
                    static_cast<std::uint64_t>(end_reason_) << 56 |
                    static_cast<std::uint64_t>(bastion_placed_) << 60);
  for (int seat = 0; seat < setup_->players; ++seat)
    h ^= mix64(static_cast<std::uint64_t>(static_cast<std::uint32_t>(points_[seat])) |
               static_cast<std::uint64_t>(knights_left_[seat]) << 32 |
               static_cast<std::uint64_t>(bastions_left_[seat]) << 40 |
               static_cast<std::uint64_t>(seat + 1) << 48);
  return h;
}

// ------------------------------------------------------------------------------------------
// Legal actions and chance

bool State::can_place() const {
  Action buffer[kMaxLegalActions];
  const int count = legal_actions(buffer);
  return count > 0 && buffer[0] < setup_->bastion_base;
}

// The spaces open to the player to move this turn, whatever the card.
State::Openings State::openings() const {
  const Setup& g = *setup_;
  const Player p = to_move_;
  Openings open;
  open.free_land = minus(g.board.land, occupied_ | bastions_);
  Bits others_near;
  for (int seat = 0; seat < g.players; ++seat)
    if (seat != p) others_near |= near_[seat];
  open.reinforce = minus(open.free_land & near_[p], others_near);
  if (archbishop_ == p) open.displaceable = minus(occupied_, knights_[p]);
  return open;
}

// The spaces where `card` places a knight of the player to move, in action order.
Bits State::targets(const Openings& open, int card) const {
  const Board& board = setup_->board;
  const Bits& lands = board.land_of[card];
  const Bits free_lands = lands & open.free_land;
  Bits targets = open.reinforce | free_lands | (lands & open.displaceable);
  const int river = board.river_of[card];
  if (river >= 0 && !free_lands.any() && !occupied_.test(river)) targets.set(river);
  return targets;
}

bool State::may_place_bastion() const { return bastions_left_[to_move_] > 0 && !bastion_placed_; }

int State::legal_actions(Action* out) const {
  const Setup& g = *setup_;
  int n = 0;
  switch (phase_) {
    case Phase::kLandmarks:
      for (int k = 0; k < kChipKinds; ++k)
        if (chips_left_[k] > 0) out[n++] = k;
      return n;
    case Phase::kDraw:
      for (std::uint64_t d = deck_; d; d &= d - 1) out[n++] = std::countr_zero(d);
      return n;
    case Phase::kDeal:
    case Phase::kRedraw:
      for (std::uint64_t d = deck_ & ~bit(0); d; d &= d - 1) out[n++] = std::countr_zero(d);
      return n;
    case Phase::kTerminal:
      return 0;
    case Phase::kPlay:
      break;
  }
  const Player p = to_move_;
  const Openings open = openings();
  for (std::uint64_t h = hands_[p]; h; h &= h - 1) {
    const int card = std::countr_zero(h);
    const Action base = (card - 1) * g.board.spaces;
    targets(open, card).for_each([&](int s) { out[n++] = base + s; });
  }
  const bool stuck = n == 0;
  if (may_place_bastion()) open.free_land.for_each([&](int s) { out[n++] = g.bastion_base + s; });
  // Discards come last in id order: after the bastions.
  if (stuck)
    for (std::uint64_t h = hands_[p]; h; h &= h - 1)
      out[n++] = g.discard_base + std::countr_zero(h) - 1;
  return n;
}

// legal_actions() counted instead of written: a turn has up to hundreds of moves (every card on
// every reinforcement space), and listing them took 40% of a random playout.
Action State::random_decision(Rng& rng) const {
  if (phase_ != Phase::kPlay) {
    Action legal[kMaxLegalActions];
    return legal[rng.below(static_cast<std::uint32_t>(legal_actions(legal)))];
  }
  const Setup& g = *setup_;
  const std::uint64_t hand = hands_[to_move_];
  const Openings open = openings();
  std::array<Bits, kHandSize> by_card;
  std::array<int, kHandSize> counts{};
  int plays = 0;
  int held = 0;
  for (std::uint64_t h = hand; h; h &= h - 1, ++held) {
    by_card[held] = targets(open, std::countr_zero(h));
    counts[held] = by_card[held].count();
    plays += counts[held];
  }
  const int bastions = may_place_bastion() ? open.free_land.count() : 0;
  const int discards = plays == 0 ? held : 0;
  int r = static_cast<int>(rng.below(static_cast<std::uint32_t>(plays + bastions + discards)));
  if (r < plays) {
    int k = 0;
    std::uint64_t h = hand;
    for (; r >= counts[k]; r -= counts[k++]) h &= h - 1;
    return (std::countr_zero(h) - 1) * g.board.spaces + by_card[k].nth(r);
  }
  r -= plays;
  if (r < bastions) return g.bastion_base + open.free_land.nth(r);
  return g.discard_base + nth_set_bit(hand, r - bastions) - 1;
}

std::uint64_t State::placeable_cards() const {
  const Setup& g = *setup_;
  const Board& board = g.board;
  const Player p = to_move_;
  const Bits free_land = minus(board.land, occupied_ | bastions_);
  Bits others_near;
  for (int seat = 0; seat < g.players; ++seat)
    if (seat != p) others_near |= near_[seat];
  const std::uint64_t numbers = (bit(board.max_number) - 1) << 1;      // cards 1..N
  if (minus(free_land & near_[p], others_near).any()) return numbers;  // reinforcement
  const Bits others = minus(occupied_, knights_[p]);
  std::uint64_t out = 0;
  for (int card = 1; card <= board.max_number; ++card) {
    const Bits& lands = board.land_of[card];
    const bool by_number = (lands & free_land).any();
    const int river = board.river_of[card];
    const bool by_river = river >= 0 && !by_number && !occupied_.test(river);
    const bool by_displacement = archbishop_ == p && (lands & others).any();
    if (by_number || by_river || by_displacement) out |= bit(card);
  }
  return out;
}

int State::chance_outcomes(ChanceOutcome* out) const {
  const Setup& g = *setup_;
  int n = 0;
  if (phase_ == Phase::kLandmarks) {
    const double total = g.board.sites - laid_;
    for (int k = 0; k < kChipKinds; ++k)
      if (chips_left_[k] > 0) out[n++] = {k, chips_left_[k] / total};
    return n;
  }
  // A deal or redraw never yields the reshuffle card (docs/rules/rheinlaender.md, "Flow").
  const std::uint64_t cards = phase_ == Phase::kDraw ? deck_ : deck_ & ~bit(0);
  const double p = 1.0 / count_bits(cards);
  for (std::uint64_t d = cards; d; d &= d - 1) out[n++] = {std::countr_zero(d), p};
  return n;
}

Action State::sample_chance(Rng& rng) const {
  const Setup& g = *setup_;
  if (phase_ == Phase::kLandmarks) {
    auto r = static_cast<int>(rng.below(static_cast<std::uint32_t>(g.board.sites - laid_)));
    int k = 0;
    while (r >= chips_left_[k]) r -= chips_left_[k++];
    return k;
  }
  const std::uint64_t cards = phase_ == Phase::kDraw ? deck_ : deck_ & ~bit(0);
  return nth_set_bit(cards,
                     static_cast<int>(rng.below(static_cast<std::uint32_t>(count_bits(cards)))));
}

// ------------------------------------------------------------------------------------------
// Applying actions

void State::apply(Action action) {
  switch (phase_) {
    case Phase::kLandmarks:
      lay_chip(action);
      return;
    case Phase::kDeal:
    case Phase::kDraw:
    case Phase::kRedraw:
      receive(action);
      return;
    case Phase::kPlay:
      decide(action);
      return;
    case Phase::kTerminal:
      return;
  }
}

void State::lay_chip(int kind) {
  const Board& board = setup_->board;
  const int site = laid_++;
  chip_[site] = static_cast<std::int8_t>(kind);
  --chips_left_[kind];
  hash_ ^= keys::kChip[site * kChipKinds + kind];
  if (kind == kChurch) {
    church_spaces_.set(board.touches[site][0]);
    church_spaces_.set(board.touches[site][1]);
  }
  if (laid_ == board.sites) {
    phase_ = Phase::kDeal;
    receiving_ = 0;
  }
}

void State::receive(int card) {
  const Player seat = receiving_;
  if (card == 0) {
    // The reshuffle card goes back into the deck together with the whole discard pile.
    for (std::uint64_t d = discard_; d; d &= d - 1) hash_ ^= keys::kDiscard[std::countr_zero(d)];
    deck_ |= discard_;
    discard_ = 0;
    phase_ = Phase::kRedraw;
    return;
  }
  deck_ &= ~bit(card);
  hands_[seat] |= bit(card);
  hash_ ^= keys::kHand[seat * 64 + card];
  if (phase_ != Phase::kDeal) {
    end_turn(seat);
    return;
  }
  if (count_bits(hands_[seat]) < kHandSize) return;
  if (seat + 1 < setup_->players) {
    receiving_ = static_cast<std::int8_t>(seat + 1);
  } else {
    receiving_ = -1;
    phase_ = Phase::kPlay;
    to_move_ = 0;
  }
}

void State::end_turn(Player seat) {
  ++turn_;
  receiving_ = -1;
  bastion_placed_ = false;
  if (turn_ >= setup_->max_turns) {
    finish(EndReason::kMaxTurns);
    return;
  }
  phase_ = Phase::kPlay;
  to_move_ = static_cast<std::int8_t>((seat + 1) % setup_->players);
}

void State::finish(EndReason reason) {
  phase_ = Phase::kTerminal;
  to_move_ = kTerminalPlayer;
  receiving_ = -1;
  bastion_placed_ = false;
  end_reason_ = reason;
}

void State::decide(Action action) {
  const Setup& g = *setup_;
  const Player seat = to_move_;
  if (action >= g.bastion_base && action < g.discard_base) {
    const int space = action - g.bastion_base;
    bastions_.set(space);
    hash_ ^= keys::kBastion[space];
    --bastions_left_[seat];
    bastion_placed_ = true;
    return;
  }
  bastion_placed_ = false;
  bool emptied = false;
  if (action >= g.discard_base) {
    play_card(seat, action - g.discard_base + 1);
  } else {
    const int space = action % g.board.spaces;
    play_card(seat, action / g.board.spaces + 1);
    emptied = occupied_.test(space) ? displace(seat, space) : place(seat, space);
    update_archbishop();
  }
  if (emptied) {
    // The game ends at once; the draw could change nothing.
    ++turn_;
    finish(EndReason::kKnights);
    return;
  }
  phase_ = Phase::kDraw;
  to_move_ = kChancePlayer;
  receiving_ = static_cast<std::int8_t>(seat);
}

void State::play_card(Player seat, int card) {
  hands_[seat] &= ~bit(card);
  discard_ |= bit(card);
  hash_ ^= keys::kHand[seat * 64 + card] ^ keys::kDiscard[card];
}

// Takes a knight from the supply; an empty supply gives an extra knight instead. Returns whether
// this took the supply's last knight, which ends the game.
bool State::take_knight(Player seat) {
  if (knights_left_[seat] == 0) return false;
  return --knights_left_[seat] == 0;
}

void State::put_knight(Player seat, int space) {
  knights_[seat].set(space);
  occupied_.set(space);
  near_[seat] |= setup_->board.neighbours[space];
  hash_ ^= keys::kKnight[seat * kMaxSpaces + space];
}

void State::set_owner(const Bits& domain, Player owner) {
  for (int seat = 0; seat < setup_->players; ++seat) {
    Bits after = owned_[seat];
    if (seat == owner)
      after |= domain;
    else
      after.remove(domain);
    (after ^ owned_[seat]).for_each([&](int s) { hash_ ^= keys::kOwner[seat * kMaxSpaces + s]; });
    owned_[seat] = after;
  }
}

// Rules step 4: in an owned domain (touching `sites`) every castle knight becomes the owner's.
bool State::castles_follow(std::uint64_t sites, Player owner) {
  if (owner < 0) return false;
  bool emptied = false;
  for (int seat = 0; seat < setup_->players; ++seat) {
    if (seat == owner) continue;
    for (std::uint64_t t = sites & castles_[seat]; t; t &= t - 1) {
      const int site = std::countr_zero(t);
      ++knights_left_[seat];
      castles_[seat] &= ~bit(site);
      castles_[owner] |= bit(site);
      hash_ ^= keys::kCastle[seat * kMaxSites + site] ^ keys::kCastle[owner * kMaxSites + site];
      emptied |= take_knight(owner);
    }
  }
  return emptied;
}

// A knight of `seat` on the free `space`, then the consequences (rules: steps 1-5). Returns
// whether a supply's last knight was taken.
bool State::place(Player seat, int space) {
  const Board& board = setup_->board;
  // Step 1: the old domains around the space, with their owners and values before the knight.
  struct Old {
    Player owner;
    int value;
    bool church;
  };
  std::array<Old, kMaxNeighbours> old;
  int olds = 0;
  Bits domain = Bits::single(space);
  (board.neighbours[space] & occupied_).for_each([&](int t) {
    if (domain.test(t)) return;
    const Bits part = component(t);
    domain |= part;
    if (!part.several()) return;
    const Player owner = owner_at(t);
    old[olds++] = {owner, (owner >= 0) + landmark_value(part), touches_church(part)};
  });
  put_knight(seat, space);
  bool emptied = take_knight(seat);
  if (!domain.several()) return emptied;
  const std::uint64_t sites = sites_touching(domain);

  // Step 2: ownership, counting the castle knights already in the domain.
  const Player leader = majority(domain, sites);
  Player owner = leader;
  if (olds >= 2) {
    // The leader keeps the duke of their most valuable old domain and banks the others.
    int kept_sum = 0;
    int kept_max = -1;
    for (int i = 0; i < olds; ++i) {
      if (old[i].owner < 0) continue;
      if (old[i].owner == leader) {
        kept_sum += old[i].value;
        kept_max = std::max(kept_max, old[i].value);
      } else {
        points_[old[i].owner] += old[i].value;
      }
    }
    if (kept_max >= 0) points_[leader] += kept_sum - kept_max;
  } else if (olds == 1 && old[0].owner >= 0) {
    const Player previous = old[0].owner;
    if (leader >= 0 && leader != previous)
      points_[previous] += old[0].value;
    else
      owner = previous;  // equal counts never oust an owner
  }
  set_owner(domain, owner);

  // Step 3: castles completed by this knight.
  const std::uint64_t manned = castles_[0] | castles_[1] | castles_[2] | castles_[3] | castles_[4];
  bool completed = false;
  for (std::uint64_t t = board.sites_at[space] & ~manned; t; t &= t - 1) {
    const int site = std::countr_zero(t);
    if (chip_[site] != kCastle) continue;
    const auto& pair = board.touches[site];
    if (!occupied_.test(pair[0]) || !occupied_.test(pair[1])) continue;
    const Player holder = owner >= 0 ? owner : seat;
    castles_[holder] |= bit(site);
    hash_ ^= keys::kCastle[holder * kMaxSites + site];
    emptied |= take_knight(holder);
    completed = true;
  }
  if (completed && owner < 0) {
    owner = majority(domain, sites);
    set_owner(domain, owner);
  }

  // Step 4, then the bishops of step 5 (the archbishop follows in decide).
  emptied |= castles_follow(sites, owner);
  for (int i = 0; i < olds; ++i)
    if (old[i].owner >= 0 && old[i].church) --bishops_[old[i].owner];
  if (owner >= 0 && touches_church(domain)) ++bishops_[owner];
  return emptied;
}

// The archbishop's displacement of another seat's knight on `space`.
bool State::displace(Player seat, int space) {
  const Board& board = setup_->board;
  const Player ousted = knight_at(space);
  ++knights_left_[ousted];
  knights_[ousted].reset(space);
  hash_ ^= keys::kKnight[ousted * kMaxSpaces + space];
  Bits near;
  knights_[ousted].for_each([&](int s) { near |= board.neighbours[s]; });
  near_[ousted] = near;
  put_knight(seat, space);
  bool emptied = take_knight(seat);
  const Bits domain = component(space);
  if (!domain.several()) return emptied;
  const std::uint64_t sites = sites_touching(domain);
  const Player previous = owner_at(space);
  const Player leader = majority(domain, sites);
  Player owner = previous;
  if (previous < 0) {
    owner = leader;
  } else if (leader >= 0 && leader != previous) {
    points_[previous] += 1 + sites_value(sites);
    owner = leader;
  }
  set_owner(domain, owner);
  emptied |= castles_follow(sites, owner);
  if (touches_church(domain)) {
    if (previous >= 0) --bishops_[previous];
    if (owner >= 0) ++bishops_[owner];
  }
  return emptied;
}

void State::update_archbishop() {
  int best = 0;
  archbishop_ = -1;
  for (int seat = 0; seat < setup_->players; ++seat) {
    if (bishops_[seat] > best) {
      best = bishops_[seat];
      archbishop_ = static_cast<std::int8_t>(seat);
    } else if (bishops_[seat] == best) {
      archbishop_ = -1;
    }
  }
}

}  // namespace rivals::rheinlaender
