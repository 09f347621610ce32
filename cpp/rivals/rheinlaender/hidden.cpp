// Hidden information: what one player has seen (the information state string) and histories
// that player cannot tell apart from the real one (docs/rules/rheinlaender.md, "Hidden
// information" and "Resampling"). resample_history runs once per ISMCTS iteration.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "rivals/rheinlaender/game.h"

namespace rivals::rheinlaender {
namespace {

constexpr std::uint64_t bit(int i) { return std::uint64_t{1} << i; }
constexpr std::int32_t kNever = std::numeric_limits<std::int32_t>::max();
// Proposals of the Metropolis chain per hidden card (rules page, "Resampling").
constexpr std::uint32_t kStepsPerSlot = 16;

// The card a decision plays or discards, or 0 (a bastion).
int played_card(const Setup& g, Action action) {
  if (action < g.bastion_base) return action / g.board.spaces + 1;
  if (action >= g.discard_base) return action - g.discard_base + 1;
  return 0;
}

// A stretch of a card's time in the deck as `player` sees it: it enters the deck at `start` (the
// start of the game or a reshuffle) and leaves it for a hand that is hidden from the player; it
// shows up next when `seat` plays or discards it at `end`, or never (`end` kNever, `seat` -1:
// the card is still in the deck or in a hand).
struct Life {
  std::int32_t start;
  std::int32_t end;
  std::int8_t seat;
  std::int8_t card;
};

// A card dealt or drawn to a seat other than the player: which card is hidden.
struct Slot {
  std::int32_t index;
  std::int8_t seat;
};

// A seat stuck with its hand: every card it held then was one that could not place.
struct Discard {
  std::int32_t index;
  std::uint64_t blocked;  // the cards that could not place
};

struct View {
  std::vector<Slot> slots;
  std::vector<Life> lives;
  std::array<std::vector<Discard>, kMaxPlayers> discards;  // per seat, in history order

  // Whether the card of `life` can be the one dealt or drawn at `slot`.
  bool fits(const Slot& slot, const Life& life) const {
    if (life.start >= slot.index || slot.index >= life.end) return false;
    if (life.seat >= 0 && life.seat != slot.seat) return false;
    for (const Discard& d : discards[slot.seat])
      if (d.index > slot.index && d.index < life.end && !((d.blocked >> life.card) & 1))
        return false;
    return true;
  }
};

// What `player` knows (rules page, "Resampling"): read off a replay's public part and the
// player's own cards only, so histories with one information state give one view.
View view_of(const Setup& g, const std::vector<Action>& history, Player player) {
  View view;
  std::vector<std::int32_t> since(static_cast<std::size_t>(g.board.max_number) + 1, -1);
  std::vector<bool> out(since.size(), false);  // held by the player or in the discard pile
  State replay(g);
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Action action = history[i];
    const auto index = static_cast<std::int32_t>(i);
    if (replay.is_chance_node() && replay.phase() != Phase::kLandmarks) {
      if (action == kReshuffleCard) {
        for (std::uint64_t d = replay.discard(); d; d &= d - 1) {
          since[std::countr_zero(d)] = index;
          out[std::countr_zero(d)] = false;
        }
      } else if (replay.receiving() == player) {
        out[action] = true;
      } else {
        view.slots.push_back({index, static_cast<std::int8_t>(replay.receiving())});
      }
    } else if (!replay.is_chance_node()) {
      const Player seat = replay.current_player();
      const int card = played_card(g, action);
      if (card && seat != player) {
        view.lives.push_back(
            {since[card], index, static_cast<std::int8_t>(seat), static_cast<std::int8_t>(card)});
        if (action >= g.discard_base)
          view.discards[seat].push_back({index, ~replay.placeable_cards()});
      }
      if (card) out[card] = true;
    }
    replay.apply(action);
  }
  for (int card = 1; card <= g.board.max_number; ++card)
    if (!out[card]) view.lives.push_back({since[card], kNever, -1, static_cast<std::int8_t>(card)});
  return view;
}

// A consistent deal of the hidden cards from the view alone (rules page, "Resampling", step 1):
// per seat, its hidden cards in history order each take the played card that fits with the
// earliest play (Glover's rule for intervals: every played card gets one of its receiver's
// hidden cards); the hidden cards left (those still in hands) then take the cards never seen
// again, by augmenting paths in card order. `owner[l]` is the slot holding life `l`, or -1.
std::vector<std::int32_t> canonical_deal(const View& view, std::vector<std::int32_t>& owner) {
  const auto slots = static_cast<std::int32_t>(view.slots.size());
  std::vector<std::int32_t> life_of(view.slots.size(), -1);
  owner.assign(view.lives.size(), -1);
  // Each seat's played cards, by the end of their lives (the order they were pushed in).
  std::array<std::vector<std::int32_t>, kMaxPlayers> played;
  for (std::size_t l = 0; l < view.lives.size(); ++l)
    if (view.lives[l].seat >= 0) played[view.lives[l].seat].push_back(static_cast<std::int32_t>(l));
  std::array<std::size_t, kMaxPlayers> first{};  // lives before it end before every later slot
  for (std::int32_t s = 0; s < slots; ++s) {
    const Slot& slot = view.slots[s];
    const auto& lives = played[slot.seat];
    std::size_t& from = first[slot.seat];
    while (from < lives.size() && view.lives[lives[from]].end <= slot.index) ++from;
    for (std::size_t k = from; k < lives.size(); ++k) {
      const std::int32_t l = lives[k];
      if (owner[l] < 0 && view.fits(slot, view.lives[l])) {
        life_of[s] = l;
        owner[l] = s;
        break;
      }
    }
  }
  std::vector<std::uint8_t> visited(view.lives.size());
  // Kuhn's augmenting path from slot `s` through the lives never seen again.
  auto augment = [&](auto&& self, std::int32_t s) -> bool {
    for (std::size_t l = 0; l < view.lives.size(); ++l) {
      const Life& life = view.lives[l];
      if (life.seat >= 0 || visited[l] || !view.fits(view.slots[s], life)) continue;
      visited[l] = 1;
      if (owner[l] < 0 || self(self, owner[l])) {
        owner[l] = s;
        life_of[s] = static_cast<std::int32_t>(l);
        return true;
      }
    }
    return false;
  };
  for (std::int32_t s = 0; s < slots; ++s) {
    if (life_of[s] >= 0) continue;
    std::fill(visited.begin(), visited.end(), 0);
    augment(augment, s);  // the real history shows a full matching exists
  }
  return life_of;
}

}  // namespace

// The flow of a game follows from its action ids alone: T chip outcomes, 5n deals in seat order,
// then turns in seat order: bastions, one card played or discarded, and the card its player draws
// (after a reshuffle card, the card redrawn).
Rheinlaender::Roles Rheinlaender::roles(const std::vector<Action>& history) const {
  const Setup& g = data_->setup;
  const std::size_t length = history.size();
  Roles out{std::vector<std::int8_t>(length, -1), std::vector<std::int8_t>(length, -1)};
  const std::size_t chips = static_cast<std::size_t>(g.board.sites);
  const std::size_t setup = chips + static_cast<std::size_t>(kHandSize * g.players);
  std::int8_t seat = 0;
  bool drawing = false;  // the turn's card is down: chance outcomes follow
  for (std::size_t i = chips; i < length; ++i) {
    const Action action = history[i];
    if (i < setup) {
      out.receiver[i] = static_cast<std::int8_t>((i - chips) / kHandSize);
    } else if (!drawing) {
      out.actor[i] = seat;
      drawing = action < g.bastion_base || action >= g.discard_base;
    } else if (action != kReshuffleCard) {
      out.receiver[i] = seat;
      seat = static_cast<std::int8_t>((seat + 1) % g.players);
      drawing = false;
    }
  }
  return out;
}

std::string Rheinlaender::information_state_string(const State& /*state*/,
                                                   const std::vector<Action>& history,
                                                   Player player) const {
  const Roles seen = roles(history);
  std::string out;
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (i) out += ' ';
    const bool hidden = seen.receiver[i] >= 0 && seen.receiver[i] != player;
    out += hidden ? "?" : std::to_string(history[i]);
  }
  return out;
}

std::vector<Action> Rheinlaender::resample_history(const std::vector<Action>& history,
                                                   Player player, Rng& rng) const {
  const View view = view_of(data_->setup, history, player);
  std::vector<std::int32_t> owner;
  std::vector<std::int32_t> life_of = canonical_deal(view, owner);
  // Step 2: a Metropolis chain: swap the cards of two hidden slots, or give a hidden slot a card
  // never seen again in place of its own, when the result fits; its stationary distribution is
  // uniform over the consistent deals.
  const auto slots = static_cast<std::uint32_t>(view.slots.size());
  const auto choices = slots + static_cast<std::uint32_t>(view.lives.size());
  for (std::uint32_t step = 0; step < kStepsPerSlot * slots; ++step) {
    const auto a = static_cast<std::int32_t>(rng.below(slots));
    const std::uint32_t pick = rng.below(choices);
    const std::int32_t la = life_of[a];
    if (la < 0) continue;  // unreachable for a history of the game
    if (pick < slots) {
      const auto b = static_cast<std::int32_t>(pick);
      const std::int32_t lb = life_of[b];
      if (a == b || lb < 0 || !view.fits(view.slots[a], view.lives[lb]) ||
          !view.fits(view.slots[b], view.lives[la]))
        continue;
      life_of[a] = lb;
      life_of[b] = la;
      owner[lb] = a;
      owner[la] = b;
    } else {
      const auto l = static_cast<std::int32_t>(pick - slots);
      if (owner[l] >= 0 || view.lives[la].seat >= 0 || view.lives[l].seat >= 0 ||
          !view.fits(view.slots[a], view.lives[l]))
        continue;
      owner[la] = -1;
      owner[l] = a;
      life_of[a] = l;
    }
  }
  std::vector<Action> out = history;
  for (std::uint32_t s = 0; s < slots; ++s)
    if (life_of[s] >= 0) out[view.slots[s].index] = view.lives[life_of[s]].card;
  return out;
}

}  // namespace rivals::rheinlaender
