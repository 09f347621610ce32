// A Rheinländer position and its rules: the hot path of playouts and search.
//
// The board is a handful of space sets (knights per seat, bastions, the spaces of the domains
// each seat owns, the spaces next to each seat's knights); domains are never stored, they are
// the connected parts of the occupied set, found by flood fill over the map's neighbour masks.
// Cards are 64-bit masks with bit c for card c (bit 0: the reshuffle card).
#pragma once

#include <array>
#include <cstdint>

#include "rivals/core/bits.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"
#include "rivals/rheinlaender/board.h"

namespace rivals::rheinlaender {

inline constexpr int kHandSize = 5;
inline constexpr int kBastions = 3;
inline constexpr int kFinalDuke = 5;  // a duke's worth at the end (1 during play)
inline constexpr int kArchbishopBonus = 5;
inline constexpr Action kReshuffleCard = 0;  // the card, and its chance outcome id

// In the observation's and to_dict's order.
enum class Phase : std::int8_t { kLandmarks, kDeal, kPlay, kDraw, kRedraw, kTerminal };
enum class EndReason : std::int8_t { kNone, kKnights, kMaxTurns };

// Everything a state needs that does not change during a game. The game keeps it on the heap,
// shared by all copies of the game, so the pointer each state holds stays valid while any copy
// of the game lives.
struct Setup {
  Board board;
  int players = 3;
  int knights = 25;  // per player
  int max_turns = 1000;
  // Decision id offsets (docs/rules/rheinlaender.md, "Actions"). Chance outcomes are numbered
  // apart from decisions: card c (0 the reshuffle card) at a deal or draw, chip kind k at a
  // landmark site.
  Action bastion_base = 0;
  Action discard_base = 0;
  int num_actions = 0;
};

class State : public ToMove<State> {
 public:
  // Five cards on any space each, plus a bastion on any space (discards come only instead of
  // card plays).
  static constexpr int kMaxLegalActions = (kHandSize + 1) * kMaxSpaces;
  static constexpr int kMaxChanceOutcomes = kMaxNumber + 1;

  explicit State(const Setup& setup);

  int legal_actions(Action* out) const;
  // The action a uniform choice among legal_actions() would take with the same `rng` (the same
  // random number, the same order), without writing the list (core/playout.h).
  Action random_decision(Rng& rng) const;
  int chance_outcomes(ChanceOutcome* out) const;
  Action sample_chance(Rng& rng) const;
  void apply(Action action);
  void returns(double* out) const;
  std::uint64_t hash() const;

  // Whether the player to move can place a knight with some card of their hand.
  bool can_place() const;
  // The cards (bit c for card c) with which the player to move could place a knight now, held
  // or not; public, unlike the hand.
  std::uint64_t placeable_cards() const;

  // Read access for presentation, observation and hidden-information sampling.
  Phase phase() const { return phase_; }
  EndReason end_reason() const { return end_reason_; }
  int turn() const { return turn_; }
  Player receiving() const { return receiving_; }
  bool bastion_placed() const { return bastion_placed_; }
  const Bits& knights(Player seat) const { return knights_[seat]; }
  const Bits& occupied() const { return occupied_; }
  const Bits& bastions() const { return bastions_; }
  // The spaces of the domains `seat` owns.
  const Bits& owned(Player seat) const { return owned_[seat]; }
  // The seat whose knight stands on `space`, or -1.
  Player knight_at(int space) const;
  // The owner of the domain holding `space`, or -1 (no domain, or no duke).
  Player owner_at(int space) const;
  int chip(int site) const { return chip_[site]; }  // kind, or -1 before it is laid
  // The seat manning castle site `site`, or -1.
  Player castle_knight(int site) const;
  std::uint64_t hand(Player seat) const { return hands_[seat]; }
  std::uint64_t discard() const { return discard_; }
  std::uint64_t deck() const { return deck_; }
  int points(Player seat) const { return points_[seat]; }
  int knights_left(Player seat) const { return knights_left_[seat]; }
  int bastions_left(Player seat) const { return bastions_left_[seat]; }
  int bishops(Player seat) const { return bishops_[seat]; }
  Player archbishop() const { return archbishop_; }

  // The spaces holding knights connected to `start` (which holds one).
  Bits component(int start) const;
  // The landmarks touching the domain, added up (city 2-4, castle 1, church 1).
  int landmark_value(const Bits& spaces) const;
  bool touches_church(const Bits& spaces) const { return spaces.intersects(church_spaces_); }
  // Banked points plus, at the end, the final scoring.
  void totals(int* out) const;
  // Banked points plus the final scoring as it would count now, game over or not.
  void final_totals(int* out) const;

 private:
  // What a card may take this turn: free land of its number, reinforcement spaces next to the
  // mover's knights and no one else's, and, for the archbishop, spaces of other knights.
  struct Openings {
    Bits free_land;
    Bits reinforce;
    Bits displaceable;
  };
  Openings openings() const;
  Bits targets(const Openings& open, int card) const;
  bool may_place_bastion() const;
  std::uint64_t sites_touching(const Bits& spaces) const;
  int sites_value(std::uint64_t sites) const;
  Player majority(const Bits& domain, std::uint64_t sites) const;
  void lay_chip(int kind);
  void receive(int card);
  void decide(Action action);
  void end_turn(Player seat);
  void finish(EndReason reason);
  void play_card(Player seat, int card);
  bool take_knight(Player seat);
  void put_knight(Player seat, int space);
  void set_owner(const Bits& domain, Player owner);
  bool castles_follow(std::uint64_t sites, Player owner);
  bool place(Player seat, int space);
  bool displace(Player seat, int space);
  void update_archbishop();

  const Setup* setup_;
  std::array<Bits, kMaxPlayers> knights_{};
  std::array<Bits, kMaxPlayers> near_{};   // spaces next to a knight of the seat (reinforcement)
  std::array<Bits, kMaxPlayers> owned_{};  // spaces of the domains the seat owns
  Bits occupied_;
  Bits bastions_;
  Bits church_spaces_;  // spaces a church touches: a domain holding one earns its owner a bishop
  std::array<std::uint64_t, kMaxPlayers> hands_{};
  std::array<std::uint64_t, kMaxPlayers> castles_{};  // castle sites manned by the seat
  std::uint64_t discard_ = 0;
  std::uint64_t deck_ = 0;
  // Knights, owned spaces, bastions, chips, castle knights, hands, discard; the counters are
  // mixed in by hash().
  std::uint64_t hash_ = 0;
  std::array<std::int32_t, kMaxPlayers> points_{};
  std::int32_t turn_ = 0;
  std::array<std::int8_t, kMaxSites> chip_{};
  std::array<std::int8_t, kChipKinds> chips_left_{};
  std::array<std::int8_t, kMaxPlayers> knights_left_{};
  std::array<std::int8_t, kMaxPlayers> bastions_left_{};
  std::array<std::int8_t, kMaxPlayers> bishops_{};
  std::int8_t laid_ = 0;  // landmark chips laid so far
  Phase phase_ = Phase::kLandmarks;
  EndReason end_reason_ = EndReason::kNone;
  friend class ToMove<State>;  // reads to_move_
  std::int8_t to_move_ = kChancePlayer;
  std::int8_t receiving_ = -1;
  std::int8_t archbishop_ = -1;
  bool bastion_placed_ = false;
};

}  // namespace rivals::rheinlaender
