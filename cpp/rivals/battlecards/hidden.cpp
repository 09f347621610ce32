// Hidden information: what one player has seen (the information state string) and histories
// that player cannot tell apart from the real one (docs/rules/battlecards.md, "Information state"
// and "Resampling"). resample_history runs once per ISMCTS iteration.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rivals/battlecards/game.h"

namespace rivals::battlecards {
namespace {

constexpr std::int32_t kNever = std::numeric_limits<std::int32_t>::max();
// Proposals of the Metropolis chain per hidden action (rules page, "Resampling").
constexpr std::uint32_t kStepsPerSlot = 16;

bool is_deploy_phase(Phase phase) {
  return phase == Phase::kSetupDeploy || phase == Phase::kTurnDeploy ||
         phase == Phase::kEffectDeploy;
}

// Whether `player` sees which card `action` names when it is applied in `before`; the rules
// page's list of hidden actions.
bool hidden_from(const State& before, Action action, Player player) {
  const Phase phase = before.phase();
  if (before.is_chance_node()) {
    if (phase == Phase::kDeal || phase == Phase::kEffectDraw) return before.subject() != player;
    if (phase == Phase::kConflictDraw && before.drawing() != player)
      return before.cards().conflict[static_cast<std::size_t>(action)].kind == Kind::kKept;
    return false;
  }
  return before.current_player() != player && is_deploy_phase(phase) && action != kPass;
}

// What an action turns face up of the cards of `o`: those not face up before it that are face up
// after it (flipped in a battle, shown by a reveal, also a card the same action deployed face
// down) or that left a stack during it (a battle turned them face up and destroyed them within
// the action, when nothing was left to decide), except the card that the action itself names (a
// reinforcement deployed face up, a destroy_stack outcome).
class Turning {
 public:
  Turning(const State& before, Action action, int o)
      : o_(o), face_up_(before.pile(kFaceUp, o)), stack_(before.pile(kStack, o)) {
    if (before.is_chance_node()) {
      if (before.outcome_seat() == o) named_ = card_bit(action);
    } else if (before.phase() == Phase::kReinforce && action >= kDeploy && action < kFire) {
      const int a = action - kDeploy;
      if (seat_of(a) == o) named_ = card_bit(slot_of(a));
    }
  }
  u128 turned(const State& after) const {
    const u128 shown = after.pile(kFaceUp, o_) | (stack_ & ~after.pile(kStack, o_));
    return shown & ~face_up_ & ~named_;
  }

 private:
  int o_;
  u128 face_up_;
  u128 stack_;
  u128 named_ = 0;
};

// Times on one line: action i happens at 2i, the automatic steps after it at 2i + 1.
std::int32_t at(std::size_t i) { return 2 * static_cast<std::int32_t>(i); }
std::int32_t after(std::size_t i) { return at(i) + 1; }

enum class Seen : std::int8_t {
  kNot,      // not seen since it entered the deck
  kReserve,  // first seen in the reserve (discarded from it, or reinforcing from it)
  kStack,    // first seen in its stack (face up or destroyed); for a kept card: played
  kGone,     // a kept card the player saw leave the deck (drawn by them or turned over)
};

// A stretch of one of the opponent's cards (an arsenal card, or a kept-kind conflict card) from
// entering its deck (the start of the game, or a refill from the discard pile) to its first
// sighting by the player; after that it is public until it is back in the discard pile.
struct Life {
  std::int32_t start;
  std::int32_t seen_at = kNever;
  std::int16_t epoch;  // the deck it entered: one per refill
  std::int16_t card;   // slot of the opponent's arsenal, or the conflict index
  Seen seen = Seen::kNot;
  std::int32_t draw = -1;    // the hidden draw (or kept draw) that took it, or -1 (in the deck)
  std::int32_t deploy = -1;  // the hidden deploy that put it in its stack, or -1
};

// A hidden action of the opponent: a draw (`group` the deck's epoch), a face-down deploy
// (`group` the stack's type) or a kept card drawn (`group` the conflict deck's epoch).
struct Slot {
  std::int32_t time;
  std::int32_t index;  // in the history
  std::int16_t group;
  std::int32_t life = -1;
};

struct View {
  std::vector<Life> lives;  // the opponent's arsenal cards
  std::vector<Life> kept;   // kept-kind conflict cards
  std::vector<Slot> draws;
  std::vector<Slot> deploys;
  std::vector<Slot> takes;  // kept cards the opponent drew
  int epochs = 1;
  int conflict_epochs = 1;
  std::vector<std::int8_t> type;                      // per arsenal life: the card's type
  std::vector<std::vector<std::int32_t>> draw_times;  // per epoch: its draws' times, ascending
  std::vector<std::vector<std::int32_t>> of_epoch;    // per epoch: its lives, in order
  std::array<std::vector<std::int32_t>, kNumTypes> of_type;  // per type: its lives, in order

  // The latest time its draw may have: before its deploy, or before it was seen in the reserve.
  std::int32_t draw_deadline(const Life& life) const {
    if (life.deploy >= 0) return deploys[life.deploy].time;
    return life.seen == Seen::kReserve ? life.seen_at : kNever;
  }
  bool needs_draw(const Life& life) const {
    return life.seen != Seen::kNot || life.deploy >= 0 || life.epoch < epochs - 1;
  }
};

// What `player` knows (rules page, "Resampling"): read off a replay's public part (counts, face-up
// cards, discard piles, the cards named by visible actions, the types of the face-down deploys)
// only, so histories with one information state give one view.
View view_of(const Battlecards& game, const std::vector<Action>& history, Player player) {
  const CardSet& cs = game.card_set();
  const int o = 1 - player;
  View view;
  std::array<std::int32_t, kMaxArsenal> current{};  // each arsenal card's life
  std::array<std::int32_t, kMaxConflict> current_kept{};
  for (int c = 0; c < cs.arsenal_size[o]; ++c) {
    current[c] = static_cast<std::int32_t>(view.lives.size());
    view.lives.push_back({-1, kNever, 0, static_cast<std::int16_t>(c)});
  }
  for (u128 m = cs.kept; m; m &= m - 1) {
    current_kept[lowest_bit(m)] = static_cast<std::int32_t>(view.kept.size());
    view.kept.push_back({-1, kNever, 0, static_cast<std::int16_t>(lowest_bit(m))});
  }
  auto sight = [](Life& life, std::int32_t time, Seen where) {
    if (life.seen != Seen::kNot) return;
    life.seen = where;
    life.seen_at = time;
  };
  State replay = game.initial_state();
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Action action = history[i];
    const Phase phase = replay.phase();
    const u128 deck = replay.pile(kArsenalDeck, o);
    u128 conflict_deck = replay.pile(kConflictDeck);
    const auto index = static_cast<std::int32_t>(i);
    const bool hidden = hidden_from(replay, action, player);
    const Turning turning(replay, action, o);
    // A conflict card drawn or turned over in sight may come straight back with a refill of
    // the deck during the same action: it counts among the refilled cards.
    if (!hidden && replay.is_chance_node() && replay.outcome_seat() < 0)
      conflict_deck &= ~card_bit(action);
    if (hidden) {
      if (phase == Phase::kConflictDraw)
        view.takes.push_back({at(i), index, static_cast<std::int16_t>(view.conflict_epochs - 1)});
      else if (replay.is_chance_node())
        view.draws.push_back({at(i), index, static_cast<std::int16_t>(view.epochs - 1)});
      else
        view.deploys.push_back(
            {at(i), index, cs.type_of[static_cast<std::size_t>(action - kDeploy)]});
    } else if (replay.is_chance_node()) {
      const int seat = replay.outcome_seat();
      if (seat == o)  // discarded from the reserve, or destroyed in a stack
        sight(view.lives[current[action]], at(i),
              phase == Phase::kEffectDiscard ? Seen::kReserve : Seen::kStack);
      else if (seat < 0 && (cs.kept & card_bit(action)))  // drawn by the player, or turned over
        sight(view.kept[current_kept[action]], at(i), Seen::kGone);
    } else if (action >= kPlay) {
      if (replay.current_player() == o)
        sight(view.kept[current_kept[action - kPlay]], at(i), Seen::kStack);
    } else if (action >= kDeploy) {
      const int a = (action - kDeploy) % (2 * kMaxArsenal);
      const Seen where =
          action < kFire ? Seen::kReserve : Seen::kStack;  // reinforce, fire, withdraw
      if (seat_of(a) == o) sight(view.lives[current[slot_of(a)]], at(i), where);
    }
    replay.apply(action);
    // The cards it turned face up were seen in their stacks, also those it destroyed at once
    // (face up after no action). A card turns face up in no other way: a reinforcement is named,
    // and seen in the reserve.
    for (u128 m = turning.turned(replay); m; m &= m - 1)
      sight(view.lives[current[lowest_bit(m)]], after(i), Seen::kStack);
    // A refill brings the discard pile, which everybody saw, back into the deck.
    if (const u128 refilled = replay.pile(kArsenalDeck, o) & ~deck) {
      ++view.epochs;
      for (u128 m = refilled; m; m &= m - 1) {
        current[lowest_bit(m)] = static_cast<std::int32_t>(view.lives.size());
        view.lives.push_back({after(i), kNever, static_cast<std::int16_t>(view.epochs - 1),
                              static_cast<std::int16_t>(lowest_bit(m))});
      }
    }
    if (const u128 refilled = replay.pile(kConflictDeck) & ~conflict_deck) {
      ++view.conflict_epochs;
      for (u128 m = refilled & cs.kept; m; m &= m - 1) {
        current_kept[lowest_bit(m)] = static_cast<std::int32_t>(view.kept.size());
        view.kept.push_back({after(i), kNever, static_cast<std::int16_t>(view.conflict_epochs - 1),
                             static_cast<std::int16_t>(lowest_bit(m))});
      }
    }
  }
  for (const Life& life : view.lives)
    view.type.push_back(cs.type_of[static_cast<std::size_t>(kMaxArsenal * o + life.card)]);
  view.draw_times.resize(static_cast<std::size_t>(view.epochs));
  for (const Slot& d : view.draws) view.draw_times[d.group].push_back(d.time);
  view.of_epoch.resize(static_cast<std::size_t>(view.epochs));
  for (std::size_t l = 0; l < view.lives.size(); ++l) {
    view.of_epoch[view.lives[l].epoch].push_back(static_cast<std::int32_t>(l));
    view.of_type[view.type[l]].push_back(static_cast<std::int32_t>(l));
  }
  return view;
}

// Whether the draws of `epoch` can still go to the lives that need one before their deadlines
// (Hall's condition for deadlines: the k-th earliest needs k draws of the epoch before it). A
// seen card not yet deployed is taken at its latest possible deadline. `ranks` is scratch space.
bool draws_suffice(const View& view, int epoch, std::vector<int>& ranks) {
  const auto& times = view.draw_times[static_cast<std::size_t>(epoch)];
  ranks.assign(times.size() + 1, 0);  // lives by the number of the epoch's draws before them
  for (const std::int32_t l : view.of_epoch[static_cast<std::size_t>(epoch)]) {
    const Life& life = view.lives[l];
    if (!view.needs_draw(life)) continue;
    const std::int32_t deadline =
        life.seen == Seen::kStack && life.deploy < 0 ? life.seen_at : view.draw_deadline(life);
    ++ranks[std::lower_bound(times.begin(), times.end(), deadline) - times.begin()];
  }
  int lives = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    if ((lives += ranks[r]) > static_cast<int>(r)) return false;
  return true;
}

// Whether `life` may be the card of deploy `y`: of its type (the caller's list), in the deck
// before it, and face down in the stack from then on until it was seen.
bool may_deploy(const Life& life, const Slot& y) {
  return life.start < y.time && life.seen != Seen::kReserve &&
         !(life.seen == Seen::kStack && life.seen_at <= y.time);
}

// A consistent assignment from the view alone (rules page, "Resampling", step 1): the deploys
// in history order take a candidate each by depth-first search (the first candidate that keeps
// every card seen in a stack deployable and the draws sufficient; the candidates of a type in
// the order of the time they were seen, then of their epoch); then per epoch the draws, and per
// conflict epoch the kept draws, take in history order the life needing one with the earliest
// deadline (Glover's rule).
void canonical(View& view) {
  const auto deploys = static_cast<int>(view.deploys.size());
  std::array<std::vector<std::int32_t>, kNumTypes> candidates = view.of_type;
  for (auto& list : candidates)
    std::stable_sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
      const Life& x = view.lives[a];
      const Life& z = view.lives[b];
      return x.seen_at != z.seen_at ? x.seen_at < z.seen_at : x.epoch < z.epoch;
    });
  // The time of the next deploy of the same type after each one, or kNever.
  std::vector<std::int32_t> next_time(static_cast<std::size_t>(deploys), kNever);
  std::array<std::int32_t, kNumTypes> later;
  later.fill(kNever);
  for (int j = deploys - 1; j >= 0; --j) {
    next_time[j] = later[view.deploys[j].group];
    later[view.deploys[j].group] = view.deploys[j].time;
  }
  // A life seen in a stack must be deployed before it is seen: dead end once its type has no
  // deploy left before that.
  auto stack_lives_covered = [&](int j) {
    for (const std::int32_t l : view.of_type[view.deploys[j].group]) {
      const Life& life = view.lives[l];
      if (life.seen == Seen::kStack && life.deploy < 0 && life.seen_at <= next_time[j])
        return false;
    }
    return true;
  };
  std::vector<std::size_t> tried(static_cast<std::size_t>(deploys), 0);
  std::vector<int> ranks;
  for (int j = 0; j >= 0 && j < deploys;) {
    Slot& y = view.deploys[j];
    if (y.life >= 0) {  // back here after a dead end: free the life, try the next candidate
      view.lives[y.life].deploy = -1;
      y.life = -1;
    }
    bool placed = false;
    const auto& list = candidates[y.group];
    while (tried[j] < list.size() && !placed) {
      const std::int32_t l = list[tried[j]++];
      Life& life = view.lives[l];
      if (life.deploy >= 0 || !may_deploy(life, y)) continue;
      life.deploy = j;
      y.life = l;
      placed = draws_suffice(view, life.epoch, ranks) && stack_lives_covered(j);
      if (!placed) {
        life.deploy = -1;
        y.life = -1;
      }
    }
    if (placed) {
      ++j;
      if (j < deploys) tried[j] = 0;
    } else {
      --j;  // the real history's assignment exists, so the first deploy never runs out
    }
  }
  // The draws. In the current epoch the cards not yet needed that fill its remaining draws are
  // the lowest slots among those never seen.
  const int last = view.epochs - 1;
  int needed = 0;
  int current_draws = 0;
  for (const Slot& d : view.draws) current_draws += d.group == last;
  for (const Life& life : view.lives) needed += life.epoch == last && view.needs_draw(life);
  std::vector<std::uint8_t> in_reserve(view.lives.size(), 0);
  for (std::size_t l = 0; l < view.lives.size() && needed < current_draws; ++l) {
    const Life& life = view.lives[l];
    if (life.epoch == last && !view.needs_draw(life)) {
      in_reserve[l] = 1;
      ++needed;
    }
  }
  // All lives of an epoch enter the deck together, so Glover's rule is the earliest deadline
  // first: the epoch's k-th draw takes its k-th life needing one by deadline (then card).
  std::vector<std::size_t> next(static_cast<std::size_t>(view.epochs), 0);
  std::vector<std::vector<std::int32_t>> by_deadline(static_cast<std::size_t>(view.epochs));
  for (int e = 0; e < view.epochs; ++e) {
    auto& list = by_deadline[static_cast<std::size_t>(e)];
    for (const std::int32_t l : view.of_epoch[static_cast<std::size_t>(e)])
      if (view.needs_draw(view.lives[l]) || in_reserve[l]) list.push_back(l);
    std::stable_sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
      return view.draw_deadline(view.lives[a]) < view.draw_deadline(view.lives[b]);
    });
  }
  for (std::size_t s = 0; s < view.draws.size(); ++s) {
    Slot& d = view.draws[s];
    const auto& list = by_deadline[d.group];
    if (next[d.group] == list.size()) continue;  // unreachable for a history of the game
    d.life = list[next[d.group]++];
    view.lives[d.life].draw = static_cast<std::int32_t>(s);
  }
  for (std::size_t s = 0; s < view.takes.size(); ++s) {
    Slot& k = view.takes[s];
    std::int32_t best = -1;
    for (std::size_t l = 0; l < view.kept.size(); ++l) {
      const Life& life = view.kept[l];
      if (life.epoch != k.group || life.draw >= 0 || life.seen == Seen::kGone ||
          life.seen_at <= k.time)
        continue;
      if (best < 0 || life.seen_at < view.kept[best].seen_at) best = static_cast<std::int32_t>(l);
    }
    if (best < 0) continue;  // unreachable for a history of the game
    k.life = best;
    view.kept[best].draw = static_cast<std::int32_t>(s);
  }
}

}  // namespace

std::string Battlecards::information_state_string(const State& /*state*/,
                                                  const std::vector<Action>& history,
                                                  Player player) const {
  const CardSet& cs = *cards_;
  std::string out = "seat " + std::to_string(player) + " " + kSideNames[player];
  State replay = initial_state();
  for (const Action action : history) {
    const Player mover = replay.current_player();
    out += "\n";
    out += mover == kChancePlayer ? "chance" : kSideNames[mover];
    if (!hidden_from(replay, action, player))
      out += " " + action_to_string(replay, action);
    else if (replay.is_chance_node())
      out += " ?";
    else
      out += std::string(" deploy ? (") +
             kTypeNames[cs.type_of[static_cast<std::size_t>(action - kDeploy)]] + ")";
    // A battle or an effect may turn the opponent's cards face up: which ones, player sees,
    // though no action names them.
    const int o = 1 - player;
    const Turning turning(replay, action, o);
    replay.apply(action);
    if (const u128 turned = turning.turned(replay)) {
      out += "; turned face up:";
      for (u128 m = turned; m; m &= m - 1)
        out += " " + cs.arsenal(kMaxArsenal * o + lowest_bit(m)).id;
    }
  }
  return out;
}

bool Battlecards::sees_chance(const State& before, Action outcome, Player observer) const {
  return !hidden_from(before, outcome, observer);
}

Action Battlecards::observed_action(const State& before, Action action, Player observer) const {
  if (before.is_chance_node() || !hidden_from(before, action, observer)) return action;
  return kHiddenDeploy + before.cards().type_of[static_cast<std::size_t>(action - kDeploy)];
}

std::vector<Action> Battlecards::resample_history(const std::vector<Action>& history, Player player,
                                                  Rng& rng) const {
  View view = view_of(*this, history, player);
  canonical(view);
  // Step 2: a Metropolis chain over the assignment; every proposal is its own reverse, and one
  // that breaks a deadline is dropped, so the chain's stationary distribution is uniform over the
  // consistent histories.
  auto& lives = view.lives;
  auto& kept = view.kept;
  auto& draws = view.draws;
  auto& deploys = view.deploys;
  auto& takes = view.takes;
  const int last = view.epochs - 1;
  const int last_conflict = view.conflict_epochs - 1;
  auto below = [&rng](std::size_t n) {
    return static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(n)));
  };
  // The unseen cards, which trade places between deck, reserve and stacks.
  std::vector<std::int32_t> unseen;
  std::vector<std::int32_t> unseen_kept;
  for (std::size_t l = 0; l < lives.size(); ++l)
    if (lives[l].seen == Seen::kNot) unseen.push_back(static_cast<std::int32_t>(l));
  for (std::size_t l = 0; l < kept.size(); ++l)
    if (kept[l].seen == Seen::kNot) unseen_kept.push_back(static_cast<std::int32_t>(l));
  const auto steps =
      kStepsPerSlot * static_cast<std::uint32_t>(draws.size() + deploys.size() + takes.size() +
                                                 unseen.size() + unseen_kept.size());
  for (std::uint32_t step = 0; step < steps; ++step) {
    const std::uint32_t move = rng.below(6);
    if (move == 0 && !draws.empty()) {  // two draws of one epoch swap their cards
      Slot& a = draws[below(draws.size())];
      Slot& b = draws[below(draws.size())];
      if (a.group != b.group || a.life < 0 || b.life < 0) continue;
      Life& x = lives[a.life];
      Life& z = lives[b.life];
      if (b.time >= view.draw_deadline(x) || a.time >= view.draw_deadline(z)) continue;
      std::swap(x.draw, z.draw);
      std::swap(a.life, b.life);
    } else if (move == 1 && !deploys.empty()) {  // two deploys of one type swap their cards
      Slot& a = deploys[below(deploys.size())];
      Slot& b = deploys[below(deploys.size())];
      if (a.group != b.group || a.life < 0 || b.life < 0) continue;
      Life& x = lives[a.life];
      Life& z = lives[b.life];
      auto fits = [&](const Life& life, const Slot& y) {
        return life.draw >= 0 && draws[life.draw].time < y.time &&
               (life.seen != Seen::kStack || y.time < life.seen_at);
      };
      if (!fits(x, b) || !fits(z, a)) continue;
      std::swap(x.deploy, z.deploy);
      std::swap(a.life, b.life);
    } else if (move == 2 && !unseen.empty()) {  // a card in the reserve and one in the deck trade
      std::int32_t nx = unseen[below(unseen.size())];
      std::int32_t nz = unseen[below(unseen.size())];
      if (lives[nx].draw >= 0) std::swap(nx, nz);
      Life& x = lives[nx];
      Life& z = lives[nz];
      if (x.draw >= 0 || z.draw < 0 || z.deploy >= 0 || x.epoch != last || z.epoch != last)
        continue;
      draws[z.draw].life = nx;
      x.draw = z.draw;
      z.draw = -1;
    } else if (move == 3 && !unseen.empty()) {  // a face-down card and one in the reserve trade
      std::int32_t nx = unseen[below(unseen.size())];
      std::int32_t nz = unseen[below(unseen.size())];
      if (lives[nx].deploy < 0) std::swap(nx, nz);
      Life& x = lives[nx];
      Life& z = lives[nz];
      if (x.deploy < 0 || z.deploy >= 0 || z.draw < 0 || view.type[nx] != view.type[nz] ||
          draws[z.draw].time >= deploys[x.deploy].time)
        continue;
      deploys[x.deploy].life = nz;
      z.deploy = x.deploy;
      x.deploy = -1;
    } else if (move == 4 && !takes.empty()) {  // two kept draws of one epoch swap their cards
      Slot& a = takes[below(takes.size())];
      Slot& b = takes[below(takes.size())];
      if (a.group != b.group || a.life < 0 || b.life < 0) continue;
      Life& x = kept[a.life];
      Life& z = kept[b.life];
      if (b.time >= x.seen_at || a.time >= z.seen_at) continue;
      std::swap(x.draw, z.draw);
      std::swap(a.life, b.life);
    } else if (move == 5 && !unseen_kept.empty()) {  // a kept card held and one in the deck trade
      std::int32_t nx = unseen_kept[below(unseen_kept.size())];
      std::int32_t nz = unseen_kept[below(unseen_kept.size())];
      if (kept[nx].draw >= 0) std::swap(nx, nz);
      Life& x = kept[nx];
      Life& z = kept[nz];
      if (x.draw >= 0 || z.draw < 0 || x.epoch != last_conflict || z.epoch != last_conflict)
        continue;
      takes[z.draw].life = nx;
      x.draw = z.draw;
      z.draw = -1;
    }
  }
  std::vector<Action> out = history;
  const int o = 1 - player;
  for (const Slot& d : draws)
    if (d.life >= 0) out[d.index] = lives[d.life].card;
  for (const Slot& y : deploys)
    if (y.life >= 0) out[y.index] = kDeploy + kMaxArsenal * o + lives[y.life].card;
  for (const Slot& k : takes)
    if (k.life >= 0) out[k.index] = kept[k.life].card;
  return out;
}

}  // namespace rivals::battlecards
