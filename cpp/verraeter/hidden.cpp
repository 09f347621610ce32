// Hidden information: what one player has seen (the information state string) and histories
// that player cannot tell apart from the real one (docs/rules/verraeter.md, "Hidden
// information"). resample_history runs once per ISMCTS iteration, so it works on action ids and
// small arrays only.
#include <array>
#include <cstdint>
#include <utility>

#include "rivals/verraeter/game.h"

namespace rivals::verraeter {
namespace {

constexpr std::uint8_t kAllCards = (1u << kActionCards) - 1;

// A hidden draw (or, for the current draw pile, a card still in it) whose value may move to
// another slot of the same epoch.
struct Slot {
  std::int32_t index;  // in the history, or -1 for a card in the draw pile
  std::int16_t epoch;  // draws from one draw pile, between two reshuffles of the discard pile
  std::int8_t seat;    // the receiver, or -1 for a card in the draw pile
  std::int8_t value;   // value id
};

// Per seat, in history order: a draw (the slot's number, >= 0) or a card played or discarded
// (-1 - value id).
using Events = std::array<std::vector<std::int16_t>, kMaxSeats>;

// Whether `seat` never holds a negative number of cards of value id `v` under the slots' values.
// Only a seat that lost a value in a swap can go negative, and only in that value.
bool hand_stays_valid(const Events& events, const std::vector<Slot>& slots, const Cards& cards,
                      int seat, int v) {
  if (seat < 0) return true;
  int count = cards.start_hand[v];
  for (const std::int16_t event : events[seat]) {
    if (event >= 0)
      count += slots[event].value == v;
    else if (-1 - event == v && --count < 0)
      return false;
  }
  return true;
}

// Step 1: the set-aside card and the hidden picks of the current round, before its reveal.
void resample_draft(const State& now, const std::vector<Action>& history, int aside_index,
                    Player player, Rng& rng, std::vector<Action>& out) {
  std::array<int, kMaxSeats> picks{};  // history indices of this round's picks, in seat order
  int count = 0;
  for (int i = aside_index + 1; i < static_cast<int>(history.size()); ++i)
    if (history[i] >= kPick && history[i] < kPlay) picks[count++] = i;
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
    out[aside_index] = kAside + before[0];
    for (; j < k; ++j) out[picks[j]] = kPick + before[j + 1];
    if (j < count) pool &= ~(1 << (history[picks[j++]] - kPick));  // the player's own pick
  } else {
    const int card = static_cast<int>(rng.below(kActionCards));
    out[aside_index] = kAside + card;
    pool &= ~(1 << card);
  }
  for (; j < count; ++j) {
    const int card = random_set_bit(static_cast<std::uint64_t>(pool), rng);
    out[picks[j]] = kPick + card;
    pool &= ~(1 << card);
  }
}

}  // namespace

std::vector<Action> Verraeter::resample_history(const std::vector<Action>& history, Player player,
                                                Rng& rng) const {
  const Cards& cards = setup_->cards;
  std::vector<Action> out = history;
  std::vector<Slot> slots;
  slots.reserve(history.size() / 4 + cards.deck_size);
  Events events;
  State replay = initial_state();
  int aside_index = -1;
  int epoch = 0;
  // The draw pile only shrinks, one card per draw, until the discard pile replaces it: a pile
  // that is not exactly one card smaller than after the last draw starts a new epoch.
  int left = replay.pile_size();
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Action action = history[i];
    if (replay.is_chance_node() && replay.phase() == Phase::kDraw) {
      if (replay.pile_size() != left) ++epoch;
      const Player seat = replay.queue_at(0);
      events[seat].push_back(static_cast<std::int16_t>(slots.size()));
      slots.push_back({static_cast<std::int32_t>(i), static_cast<std::int16_t>(epoch),
                       static_cast<std::int8_t>(seat),
                       static_cast<std::int8_t>(action - kDrawCard)});
      left = replay.pile_size() - 1;
    } else if (replay.is_chance_node() && replay.phase() == Phase::kDraft) {
      aside_index = static_cast<int>(i);
    } else if (!replay.is_chance_node() &&
               ((action >= kPlay && action < kDone) || (action >= kDiscard && action < kPass))) {
      const int v = action - (action < kDone ? kPlay : kDiscard);
      events[replay.current_player()].push_back(static_cast<std::int16_t>(-1 - v));
    }
    replay.apply(action);
  }
  // The cards in the draw pile are slots of the current epoch (of an epoch of their own if the
  // discard pile has just become the draw pile).
  if (replay.pile_size() != left) ++epoch;
  for (int v = 0; v < cards.num_values; ++v)
    for (int c = 0; c < replay.pile()[v]; ++c)
      slots.push_back({-1, static_cast<std::int16_t>(epoch), -1, static_cast<std::int8_t>(v)});

  if ((replay.phase() == Phase::kDraft || replay.phase() == Phase::kSupply) && replay.aside() >= 0)
    resample_draft(replay, history, aside_index, player, rng, out);

  // Step 2: swap values between hidden slots of one epoch while every hand stays valid.
  std::vector<std::int32_t> hidden;
  hidden.reserve(slots.size());
  for (std::size_t s = 0; s < slots.size(); ++s)
    if (slots[s].seat != player) hidden.push_back(static_cast<std::int32_t>(s));
  const auto size = static_cast<std::uint32_t>(hidden.size());
  for (std::uint32_t step = 0; size > 0 && step < 16 * size; ++step) {
    Slot& a = slots[hidden[rng.below(size)]];
    Slot& b = slots[hidden[rng.below(size)]];
    if (a.epoch != b.epoch || a.value == b.value) continue;
    std::swap(a.value, b.value);
    // a's seat lost its old value (now b's), b's seat lost a's.
    if (!hand_stays_valid(events, slots, cards, a.seat, b.value) ||
        !hand_stays_valid(events, slots, cards, b.seat, a.value))
      std::swap(a.value, b.value);
  }
  for (const Slot& slot : slots)
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
             (before == Phase::kDraft && seat != player
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
