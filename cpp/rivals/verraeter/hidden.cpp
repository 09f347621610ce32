// Hidden information: what one player has seen (the information state string) and histories
// that player cannot tell apart from the real one (docs/rules/verraeter.md, "Hidden
// information"). resample_history runs once per ISMCTS iteration, so it works on action ids and
// small arrays only.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "rivals/verraeter/game.h"

namespace rivals::verraeter {
namespace {

constexpr std::uint8_t kAllCards = (1u << kActionCards) - 1;
// Proposals of the Metropolis chain per hidden slot (rules page, "Resampling").
constexpr std::uint32_t kSwapsPerSlot = 16;

// What `player` knows of the supply cards drawn over a history (docs/rules/verraeter.md,
// "Resampling"): who drew when and from which draw pile, the values of the player's own draws,
// every card played or discarded, the contents of each draw pile when it was formed, and this
// round's draft as far as it is hidden. It is read off a replay's public part and the player's
// own cards only, so histories with one information state give one view.
struct Slot {
  std::int32_t index;  // in the history, or -1 for a card still in the draw pile
  std::int16_t epoch;  // the draw pile it comes from: a new one after each reshuffle
  std::int8_t seat;    // the receiver, or -1 for a card still in the draw pile
  std::int8_t value;   // value id; -1 while hidden from the player
};

// A draw (`code` = the slot's number, >= 0) or a card played or discarded (-1 - value id).
struct Event {
  std::int32_t index;
  std::int16_t code;
};

struct View {
  std::vector<Slot> slots;                           // draws in history order, then the pile
  std::array<std::vector<Event>, kMaxSeats> events;  // per seat, in history order
  std::vector<Counts> unknown;                       // per epoch: its hidden slots' values
  std::vector<std::int32_t> hidden;                  // slot numbers, in slot order
  int aside_index = -1;    // this round's set-aside outcome, while the draft is hidden
  std::vector<int> picks;  // this round's picks so far (history indices), from the start player
};

// `replay` is the state after the history (from the game's initial state).
View view_of(const std::vector<Action>& history, Player player, State& replay) {
  View view;
  view.slots.reserve(history.size() / 4 + static_cast<std::size_t>(replay.setup().cards.deck_size));
  view.unknown.push_back(replay.pile());
  // The draw pile only shrinks, one card per draw, until the discard pile replaces it: a pile
  // that is not exactly one card smaller than after the last draw starts a new epoch, and its
  // contents are the discard pile's, which everybody saw.
  int left = replay.pile_size();
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Action action = history[i];
    const auto index = static_cast<std::int32_t>(i);
    if (replay.is_chance_node() && replay.phase() == Phase::kDraw) {
      if (replay.pile_size() != left) view.unknown.push_back(replay.pile());
      const auto epoch = static_cast<std::int16_t>(view.unknown.size() - 1);
      const Player seat = replay.queue_at(0);
      const bool own = seat == player;
      view.events[seat].push_back({index, static_cast<std::int16_t>(view.slots.size())});
      view.slots.push_back({index, epoch, static_cast<std::int8_t>(seat),
                            static_cast<std::int8_t>(own ? action - kDrawCard : -1)});
      if (own) --view.unknown[epoch][action - kDrawCard];
      left = replay.pile_size() - 1;
    } else if (replay.is_chance_node() && replay.phase() == Phase::kDraft) {
      view.aside_index = static_cast<int>(i);
      view.picks.clear();
    } else if (!replay.is_chance_node() && replay.phase() == Phase::kDraft) {
      view.picks.push_back(static_cast<int>(i));
    } else if (!replay.is_chance_node() &&
               ((action >= kPlay && action < kDone) || (action >= kDiscard && action < kPass))) {
      const int v = action - (action < kDone ? kPlay : kDiscard);
      view.events[replay.current_player()].push_back({index, static_cast<std::int16_t>(-1 - v)});
    }
    replay.apply(action);
  }
  if (replay.pile_size() != left) view.unknown.push_back(replay.pile());
  const auto epoch = static_cast<std::int16_t>(view.unknown.size() - 1);
  for (int c = 0; c < replay.pile_size(); ++c) view.slots.push_back({-1, epoch, -1, -1});
  for (std::size_t s = 0; s < view.slots.size(); ++s)
    if (view.slots[s].seat != player) view.hidden.push_back(static_cast<std::int32_t>(s));
  // The picks are hidden from the set-aside outcome to the reveal, which ends the supply phase.
  if (!(replay.phase() == Phase::kDraft || replay.phase() == Phase::kSupply) || replay.aside() < 0)
    view.aside_index = -1;
  return view;
}

// Whether `seat` never holds a negative number of cards of value id `v` under the slots' values.
// Only a seat that lost a value in a swap can go negative, and only in that value.
bool hand_stays_valid(const View& view, const Cards& cards, int seat, int v) {
  if (seat < 0) return true;
  int count = cards.start_hand[v];
  for (const Event& event : view.events[seat]) {
    if (event.code >= 0)
      count += view.slots[event.code].value == v;
    else if (-1 - event.code == v && --count < 0)
      return false;
  }
  return true;
}

// Step 1: the set-aside card and the hidden picks of the current round, before its reveal.
void resample_draft(const State& now, const View& view, const std::vector<Action>& history,
                    Player player, Rng& rng, std::vector<Action>& out) {
  const int count = static_cast<int>(view.picks.size());
  const int n = now.players();
  const int k = (player - now.start_player() + n) % n;
  int pool = kAllCards;
  int j = 0;
  if (count >= k) {
    // `player` has received a pool: the set-aside card and the earlier picks are the other
    // cards, in a random order.
    pool = now.received_pool(player);
    std::array<int, kActionCards> before{};
    int size = 0;
    for (int c = 0; c < kActionCards; ++c)
      if (!((pool >> c) & 1)) before[size++] = c;
    for (int i = size - 1; i > 0; --i)
      std::swap(before[i], before[rng.below(static_cast<std::uint32_t>(i + 1))]);
    out[view.aside_index] = kAside + before[0];
    for (; j < k; ++j) out[view.picks[j]] = kPick + before[j + 1];
    if (j < count) pool &= ~(1 << (history[view.picks[j++]] - kPick));  // the player's own pick
  } else {
    const int card = static_cast<int>(rng.below(kActionCards));
    out[view.aside_index] = kAside + card;
    pool &= ~(1 << card);
  }
  for (; j < count; ++j) {
    const int card = random_set_bit(static_cast<std::uint64_t>(pool), rng);
    out[view.picks[j]] = kPick + card;
    pool &= ~(1 << card);
  }
}

// Step 2: values for the hidden slots that keep every hand valid, from the view alone. A use of
// value v by seat s beyond the v cards of its starting hand is a demand: one of s's earlier
// draws must be a v. The demands, in history order, each take an epoch (the latest first) that
// has a v left and a draw of s before the demand that no earlier demand of that epoch took; a
// dead end backtracks. Some assignment exists (the real history's), so the search ends with one.
// Per seat and epoch, the demands then take the seat's draws in order, and each epoch's other
// hidden slots take the values left, ascending.
void canonical_values(View& view, const Cards& cards, Player player) {
  struct Demand {
    std::int32_t index;
    std::int8_t seat;
    std::int8_t value;
  };
  const int epochs = static_cast<int>(view.unknown.size());
  std::vector<Demand> demands;
  // draws[s][e]: s's hidden draws from epoch e (slot numbers), in history order.
  std::array<std::vector<std::vector<std::int16_t>>, kMaxSeats> draws;
  for (int s = 0; s < kMaxSeats; ++s) {
    if (s == player || view.events[s].empty()) continue;
    draws[s].resize(static_cast<std::size_t>(epochs));
    std::array<int, kMaxValues> used{};
    for (const Event& event : view.events[s]) {
      if (event.code >= 0) {
        draws[s][view.slots[event.code].epoch].push_back(event.code);
      } else {
        const int v = -1 - event.code;
        if (++used[v] > cards.start_hand[v])
          demands.push_back(
              {event.index, static_cast<std::int8_t>(s), static_cast<std::int8_t>(v)});
      }
    }
  }
  std::sort(demands.begin(), demands.end(),
            [](const Demand& a, const Demand& b) { return a.index < b.index; });
  auto draws_before = [&](int s, int e, std::int32_t index) {
    const auto& list = draws[s][static_cast<std::size_t>(e)];
    return static_cast<int>(
        std::partition_point(list.begin(), list.end(),
                             [&](std::int16_t slot) { return view.slots[slot].index < index; }) -
        list.begin());
  };
  std::vector<Counts> left = view.unknown;
  std::vector<std::array<int, kMaxSeats>> taken(static_cast<std::size_t>(epochs));
  std::vector<int> chosen(demands.size(), epochs);  // the epoch taken, or `epochs` for none yet
  const int count = static_cast<int>(demands.size());
  for (int d = 0; d >= 0 && d < count;) {
    const Demand& demand = demands[d];
    int e = chosen[d];
    if (e < epochs) {  // back here after a dead end: give the epoch back, try an earlier one
      ++left[e][demand.value];
      --taken[e][demand.seat];
    }
    for (--e; e >= 0; --e)
      if (left[e][demand.value] > 0 &&
          taken[e][demand.seat] < draws_before(demand.seat, e, demand.index))
        break;
    if (e >= 0) {
      chosen[d] = e;
      --left[e][demand.value];
      ++taken[e][demand.seat];
      ++d;
    } else {
      chosen[d] = epochs;
      --d;  // the real history's assignment exists, so the first demand never runs out
    }
  }
  std::vector<std::array<int, kMaxSeats>> next(static_cast<std::size_t>(epochs));
  for (int d = 0; d < count; ++d) {
    const Demand& demand = demands[d];
    const int e = chosen[d];
    if (e == epochs) continue;  // unreachable for a history of the game
    const std::int16_t slot =
        draws[demand.seat][static_cast<std::size_t>(e)][next[e][demand.seat]++];
    view.slots[slot].value = demand.value;
  }
  for (const std::int32_t s : view.hidden) {
    Slot& slot = view.slots[s];
    if (slot.value >= 0) continue;
    auto& counts = left[slot.epoch];
    int v = 0;
    while (counts[v] == 0) ++v;
    --counts[v];
    slot.value = static_cast<std::int8_t>(v);
  }
}

}  // namespace

std::vector<Action> Verraeter::resample_history(const std::vector<Action>& history, Player player,
                                                Rng& rng) const {
  const Cards& cards = setup_->cards;
  std::vector<Action> out = history;
  State now = initial_state();
  View view = view_of(history, player, now);
  if (view.aside_index >= 0) resample_draft(now, view, history, player, rng, out);
  canonical_values(view, cards, player);
  // Step 3: a Metropolis chain of swaps between hidden slots of one epoch, each kept when every
  // hand stays valid; its stationary distribution is uniform over the valid assignments.
  const auto size = static_cast<std::uint32_t>(view.hidden.size());
  for (std::uint32_t step = 0; step < kSwapsPerSlot * size; ++step) {
    Slot& a = view.slots[view.hidden[rng.below(size)]];
    Slot& b = view.slots[view.hidden[rng.below(size)]];
    if (a.epoch != b.epoch || a.value == b.value) continue;
    std::swap(a.value, b.value);
    // a's seat lost its old value (now b's), b's seat lost a's.
    if (!hand_stays_valid(view, cards, a.seat, b.value) ||
        !hand_stays_valid(view, cards, b.seat, a.value))
      std::swap(a.value, b.value);
  }
  for (const Slot& slot : view.slots)
    if (slot.index >= 0) out[slot.index] = kDrawCard + slot.value;
  return out;
}

std::string Verraeter::information_state_string(const State& /*state*/,
                                                const std::vector<Action>& history,
                                                Player player) const {
  const Cards& cards = setup_->cards;
  const int n = setup_->players;
  std::string out = "seat " + std::to_string(player);
  State replay = initial_state();
  for (const Action action : history) {
    const Phase before = replay.phase();
    out += "\n";
    if (replay.is_chance_node()) {
      if (before == Phase::kRing) {
        out += "chance " + action_name(action, IdKind::kLandscape, cards);
      } else if (before == Phase::kDraft) {
        out += "chance aside ?";
      } else {
        const Player seat = replay.queue_at(0);
        out +=
            "chance draw " +
            (seat == player ? std::to_string(cards.values[action - kDrawCard]) : std::string("?")) +
            " to seat " + std::to_string(seat);
      }
    } else {
      const Player seat = replay.current_player();
      out += "seat " + std::to_string(seat) + " " +
             (observed_action(replay, action, player) == kHiddenPick
                  ? std::string("pick ?")
                  : action_name(action, IdKind::kDecision, cards));
    }
    std::array<int, kMaxSeats> drafted{};
    for (Player s = 0; s < n; ++s) drafted[s] = replay.action_of(s);
    replay.apply(action);
    if (replay.phase() == Phase::kDraft && replay.current_player() == player) {
      out += "\nseat " + std::to_string(player) + " receives";
      for (int c = 0; c < kActionCards; ++c)
        if ((replay.pool() >> c) & 1) out += std::string(" ") + kCardNames[c];
    }
    if (before == Phase::kSupply && replay.phase() != Phase::kSupply) {
      out += "\nreveal";
      for (Player s = 0; s < n; ++s) out += std::string(" ") + kCardNames[drafted[s]];
    }
  }
  return out;
}

}  // namespace rivals::verraeter
