// Battlecards' hot path, one file as its rules page's Flow procedure is one sequence of steps
// (docs/rules/battlecards.md); the game's presentation is game.cpp, resampling hidden.cpp.
#include "rivals/battlecards/state.h"

#include "rivals/core/zobrist.h"

namespace rivals::battlecards {
namespace {

namespace keys {
constexpr auto kArsenal = zobrist_keys<kNumArsenalPiles * 2 * kMaxArsenal>(0xbc0101);
constexpr auto kConflict = zobrist_keys<kNumConflictPiles * kMaxConflict>(0xbc0102);
}  // namespace keys

// Bits of a 128-bit mask above `slot` (all of them for -1).
constexpr u128 above(int slot) {
  if (slot < 0) return ~static_cast<u128>(0);
  if (slot >= kMaxArsenal - 1) return 0;
  return ~(bit128(slot + 1) - 1);
}

// Writes `base + index` for every set bit in ascending order; returns the count written.
int emit(u128 cards, Action base, Action* out) {
  int n = 0;
  for (; cards; cards &= cards - 1) out[n++] = base + lowest_bit(cards);
  return n;
}

}  // namespace

State::State(const CardSet* cards, std::int32_t max_turns) : cs_(cards), max_turns_(max_turns) {
  for (int seat = 0; seat < 2; ++seat)
    for (u128 m = cs_->all_arsenal[seat]; m; m &= m - 1)
      toggle(kArsenalDeck, kMaxArsenal * seat + lowest_bit(m));
  for (int k = 0; k < cs_->conflict_size; ++k) toggle(kConflictDeck, k);
}

Player State::current_player() const {
  switch (phase_) {
    case Phase::kSetupDeploy:
    case Phase::kEffectDeploy:
      return subject_;
    case Phase::kTurnDeploy:
      return drawing_;
    case Phase::kChoice:
      return battle_.aggressor;
    case Phase::kWindow:
    case Phase::kReinforce:
      return battle_.window;
    case Phase::kFire:
      return battle_.firing_side;
    case Phase::kWithdraw:
      return battle_.withdrawing;
    case Phase::kTerminal:
      return kTerminalPlayer;
    default:
      return kChancePlayer;
  }
}

State::ChanceCards State::chance_cards() const {
  switch (phase_) {
    case Phase::kConflictDraw:
    case Phase::kFlip:
      return {conflict_[kConflictDeck], -1};
    case Phase::kEffectDiscard:
      return {arsenal_[kReserve][subject_], subject_};
    case Phase::kEffectDestroy:
      return {stack(subject_, current_effect().stack), subject_};
    default:  // deal, effect_draw
      return {arsenal_[kArsenalDeck][subject_], subject_};
  }
}

int State::legal_actions(Action* out) const {
  switch (phase_) {
    case Phase::kDeal:
    case Phase::kConflictDraw:
    case Phase::kEffectDraw:
    case Phase::kEffectDiscard:
    case Phase::kEffectDestroy:
    case Phase::kFlip: {
      return emit(chance_cards().cards, 0, out);
    }
    case Phase::kSetupDeploy:
      return emit(arsenal_[kReserve][subject_], kDeploy + kMaxArsenal * subject_, out);
    case Phase::kTurnDeploy:
    case Phase::kEffectDeploy: {
      const int seat = current_player();
      out[0] = kPass;
      return 1 + emit(arsenal_[kReserve][seat], kDeploy + kMaxArsenal * seat, out + 1);
    }
    case Phase::kChoice:
      out[0] = kFight;
      out[1] = kDecline;
      return 2;
    case Phase::kWindow: {
      const int seat = battle_.window;
      const u128 playable = conflict_[kKept + seat] &
                            (arsenal_[kReserve][seat] ? ~static_cast<u128>(0) : cs_->combat_bonus);
      out[0] = kPass;
      return 1 + emit(playable, kPlay, out + 1);
    }
    case Phase::kReinforce: {
      const int seat = battle_.window;
      const u128 fitting = arsenal_[kReserve][seat] & of_types(seat, cs_->conflict[card_].types);
      out[0] = kPass;
      return 1 + emit(fitting, kDeploy + kMaxArsenal * seat, out + 1);
    }
    case Phase::kFire:
      return targets(battle_.unit, out);
    case Phase::kWithdraw: {
      const int seat = battle_.withdrawing;
      out[0] = kPass;
      return 1 + emit(arsenal_[kTakingPart][seat], kWithdraw + kMaxArsenal * seat, out + 1);
    }
    case Phase::kTerminal:
      break;
  }
  return 0;
}

int State::chance_outcomes(ChanceOutcome* out) const {
  const ChanceCards chance = chance_cards();
  const double p = 1.0 / popcount(chance.cards);
  int n = 0;
  for (u128 m = chance.cards; m; m &= m - 1) out[n++] = {lowest_bit(m), p};
  return n;
}

void State::returns(double* out) const {
  out[0] = out[1] = 0.0;
  if (phase_ != Phase::kTerminal || winner_ < 0) return;
  out[winner_] = 1.0;
  out[1 - winner_] = -1.0;
}

std::uint64_t State::hash() const {
  // The counters change on most actions; mixing them here is cheaper than a key per value.
  const auto u = [](int v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)); };
  std::uint64_t h = hash_;
  h ^= mix64(u(turn_) | u(static_cast<int>(phase_)) << 32 | u(drawing_ + 1) << 40 |
             u(card_ + 1) << 48 | u(subject_ + 1) << 56 | u(winner_ + 1) << 60);
  h ^= mix64(0x100000000ULL * 3 +
             (u(left_) | u(effect_index_ + 1) << 16 | u(static_cast<int>(end_reason_)) << 32));
  h ^= mix64(0x200000000ULL * 5 + (u(vp_[0]) | u(vp_[1]) << 32));
  if (in_battle()) {
    const Battle& b = battle_;
    h ^= mix64(0x300000000ULL * 7 + (u(b.aggressor) | u(b.round) << 4 | u(b.firing_phase) << 8 |
                                     u(b.firing_side + 1) << 12 | u(b.window + 1) << 16 |
                                     u(b.withdrawing + 1) << 20 | u(b.unit + 1) << 24 |
                                     u(b.target + 1) << 40));
    for (int seat = 0; seat < 2; ++seat)
      for (int t = 0; t < kNumTypes; ++t)
        h ^= mix64(0x400000000ULL * 11 + (seat * kNumTypes + t) +
                   (u(b.bonus[seat][t][0]) << 8 | u(b.bonus[seat][t][1]) << 32));
  }
  return h;
}

// -- piles ---------------------------------------------------------------------------------------

void State::toggle(ArsenalPile pile, int a) {
  arsenal_[pile][seat_of(a)] ^= card_bit(slot_of(a));
  hash_ ^= keys::kArsenal[static_cast<std::size_t>(pile * 2 * kMaxArsenal + a)];
}

void State::toggle(ConflictPile pile, int k) {
  conflict_[pile] ^= card_bit(k);
  hash_ ^= keys::kConflict[static_cast<std::size_t>(pile * kMaxConflict + k)];
}

void State::deploy(int a, bool face_up) {
  move(kReserve, kStack, a);
  if (face_up) toggle(kFaceUp, a);
}

void State::destroy(int a) {
  const int seat = seat_of(a);
  const u128 bit = card_bit(slot_of(a));
  const bool fought = (arsenal_[kTakingPart][seat] & bit) != 0;
  for (const ArsenalPile pile : {kFaceUp, kTakingPart, kWithdrawn})
    if (arsenal_[pile][seat] & bit) toggle(pile, a);
  move(kStack, kArsenalDiscard, a);
  if (fought) refresh_boost(seat);
}

void State::refill_arsenal(int seat) {
  if (arsenal_[kArsenalDeck][seat]) return;
  for (u128 m = arsenal_[kArsenalDiscard][seat]; m; m &= m - 1)
    move(kArsenalDiscard, kArsenalDeck, kMaxArsenal * seat + lowest_bit(m));
}

void State::refill_conflict() {
  if (conflict_[kConflictDeck]) return;
  for (u128 m = conflict_[kConflictDiscard]; m; m &= m - 1) {
    toggle(kConflictDiscard, lowest_bit(m));
    toggle(kConflictDeck, lowest_bit(m));
  }
}

void State::discard_card() {
  toggle(kConflictDiscard, card_);
  card_ = -1;
  clear_battle();
}

void State::clear_battle() {
  for (int seat = 0; seat < 2; ++seat)
    for (const ArsenalPile pile : {kTakingPart, kWithdrawn})
      for (u128 m = arsenal_[pile][seat]; m; m &= m - 1)
        toggle(pile, kMaxArsenal * seat + lowest_bit(m));
  battle_ = Battle{};
}

// -- combat numbers -----------------------------------------------------------------------------

void State::refresh_boost(int seat) {
  battle_.boost[seat] = battle_.bonus[seat];
  for (u128 m = arsenal_[kTakingPart][seat] & cs_->supporters[seat]; m; m &= m - 1) {
    const ArsenalCard& card = cs_->arsenals[seat][static_cast<std::size_t>(lowest_bit(m))];
    for (int t = 0; t < kNumTypes; ++t) {
      if (!(card.support_types >> t & 1)) continue;
      auto& boost = battle_.boost[seat][t];
      boost[0] = static_cast<std::int16_t>(boost[0] + card.support_attack);
      boost[1] = static_cast<std::int16_t>(boost[1] + card.support_defence);
    }
  }
}

bool State::has_target(int unit) const {
  const int enemy = 1 - seat_of(unit);
  const ArsenalCard& card = cs_->arsenal(unit);
  const int bonus = support(unit)[0];
  for (u128 m = arsenal_[kTakingPart][enemy]; m; m &= m - 1) {
    const int target = kMaxArsenal * enemy + lowest_bit(m);
    const int base = card.attack[cs_->type_of[static_cast<std::size_t>(target)]];
    if (base > 0 && base + bonus > defence_score(target)) return true;
  }
  return false;
}

int State::targets(int unit, Action* out) const {
  const int enemy = 1 - seat_of(unit);
  const ArsenalCard& card = cs_->arsenal(unit);
  const int bonus = support(unit)[0];
  int n = 0;
  for (u128 m = arsenal_[kTakingPart][enemy]; m; m &= m - 1) {
    const int target = kMaxArsenal * enemy + lowest_bit(m);
    const int base = card.attack[cs_->type_of[static_cast<std::size_t>(target)]];
    if (base > 0 && base + bonus > defence_score(target)) out[n++] = kFire + target;
  }
  return n;
}

bool State::has_decisive(int seat) const {
  return (arsenal_[kTakingPart][seat] & of_types(seat, cs_->conflict[card_].decisive)) != 0;
}

// -- applying actions (the Flow of the rules page) ----------------------------------------------

void State::apply(Action action) {
  switch (phase_) {
    case Phase::kDeal: {
      move(kArsenalDeck, kReserve, kMaxArsenal * subject_ + action);
      if (--left_ > 0) return;
      if (subject_ == 0) {
        subject_ = 1;
        left_ = kSetupDraw;
      } else {
        subject_ = 0;
        left_ = kSetupDeploy;
        phase_ = Phase::kSetupDeploy;
      }
      return;
    }
    case Phase::kEffectDraw:
      move(kArsenalDeck, kReserve, kMaxArsenal * subject_ + action);
      --left_;
      run_effects();
      return;
    case Phase::kEffectDiscard:
      move(kReserve, kArsenalDiscard, kMaxArsenal * subject_ + action);
      --left_;
      run_effects();
      return;
    case Phase::kEffectDestroy:
      destroy(kMaxArsenal * subject_ + action);
      --left_;
      run_effects();
      return;
    case Phase::kConflictDraw:
      toggle(kConflictDeck, action);
      conflict_drawn(action);
      return;
    case Phase::kFlip:
      toggle(kConflictDeck, action);
      flipped(action);
      return;
    case Phase::kSetupDeploy:
      deploy(action - kDeploy, false);
      if (--left_ > 0) return;
      if (subject_ == 0) {
        subject_ = 1;
        left_ = kSetupDeploy;
      } else {
        subject_ = -1;
        left_ = 0;
        drawing_ = 0;
        turn_ = 0;
        start_turn();
      }
      return;
    case Phase::kTurnDeploy:
      if (action != kPass) deploy(action - kDeploy, false);
      begin_conflict_draw();
      return;
    case Phase::kEffectDeploy:
      if (action == kPass) {
        left_ = 0;
      } else {
        deploy(action - kDeploy, false);
        --left_;
      }
      run_effects();
      return;
    case Phase::kChoice:
      if (action == kDecline) {
        discard_card();
        end_turn();
      } else {
        fight();
      }
      return;
    case Phase::kWindow: {
      const int seat = battle_.window;
      if (action != kPass) {
        play(seat, action - kPlay);
      } else if (seat == battle_.aggressor) {
        open_window(1 - seat);
      } else {
        battle_.window = -1;
        begin_round();
      }
      return;
    }
    case Phase::kReinforce: {
      const int seat = battle_.window;
      if (action == kPass) {
        left_ = 0;
        open_window(seat);
        return;
      }
      const int a = action - kDeploy;
      deploy(a, true);
      toggle(kTakingPart, a);
      refresh_boost(seat);
      if (!(--left_ > 0 && arsenal_[kReserve][seat])) {
        left_ = 0;
        open_window(seat);
      }
      return;
    }
    case Phase::kFire:
      battle_.target = static_cast<std::int16_t>(action - kFire);
      refill_conflict();
      phase_ = Phase::kFlip;
      return;
    case Phase::kWithdraw: {
      const int seat = battle_.withdrawing;
      if (action == kPass) {
        end_withdrawal(seat);
        return;
      }
      move(kTakingPart, kWithdrawn, action - kWithdraw);
      refresh_boost(seat);
      if (!arsenal_[kTakingPart][seat]) end_withdrawal(seat);
      return;
    }
    case Phase::kTerminal:
      return;
  }
}

// -- turns --------------------------------------------------------------------------------------

void State::start_turn() {
  if (arsenal_[kReserve][drawing_])
    phase_ = Phase::kTurnDeploy;
  else
    begin_conflict_draw();
}

void State::begin_conflict_draw() {
  refill_conflict();
  phase_ = Phase::kConflictDraw;
}

void State::conflict_drawn(int k) {
  const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(k)];
  if (card.kind == Kind::kKept) {
    toggle(static_cast<ConflictPile>(kKept + drawing_), k);
    end_turn();
    return;
  }
  card_ = static_cast<std::int8_t>(k);
  if (card.kind == Kind::kBattle) {
    start_battle();
    return;
  }
  effect_index_ = 0;
  enter_effect();
  run_effects();
}

void State::end_turn() {
  if (++turn_ == max_turns_) {
    end(EndReason::kMaxTurns, -1);
    return;
  }
  drawing_ = static_cast<std::int8_t>(1 - drawing_);
  start_turn();
}

void State::end(EndReason reason, int winner) {
  phase_ = Phase::kTerminal;
  end_reason_ = reason;
  winner_ = static_cast<std::int8_t>(winner);
  card_ = -1;
  clear_battle();
  effect_index_ = -1;
  subject_ = -1;
  left_ = 0;
}

// -- effects ------------------------------------------------------------------------------------

const Effect& State::current_effect() const {
  return cs_->conflict[static_cast<std::size_t>(card_)]
      .effects[static_cast<std::size_t>(effect_index_)];
}

void State::enter_effect() {
  const Effect& e = current_effect();
  int s = 0;
  switch (e.who) {
    case Who::kDrawer:
      s = drawing_;
      break;
    case Who::kOpponent:
      s = 1 - drawing_;
      break;
    case Who::kBritish:
      s = 1;
      break;
    default:  // german
      s = 0;
      break;
  }
  subject_ = static_cast<std::int8_t>(s);
  switch (e.kind) {
    case EffectKind::kDraw:
    case EffectKind::kDeploy:
    case EffectKind::kDiscardReserve:
      left_ = e.count;
      break;
    case EffectKind::kDestroyStack:
      left_ = 1;
      break;
    case EffectKind::kReveal: {
      const u128 hidden = arsenal_[kStack][s] & of_types(s, e.types) & ~arsenal_[kFaceUp][s];
      for (u128 m = hidden; m; m &= m - 1) toggle(kFaceUp, kMaxArsenal * s + lowest_bit(m));
      left_ = 0;
      break;
    }
    default:  // victory_points
      vp_[s] += e.count;
      left_ = 0;
      break;
  }
}

void State::run_effects() {
  const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(card_)];
  for (;;) {
    const Effect& e = current_effect();
    const int s = subject_;
    if (left_ > 0) {
      switch (e.kind) {
        case EffectKind::kDraw:
          refill_arsenal(s);
          if (arsenal_[kArsenalDeck][s]) {
            phase_ = Phase::kEffectDraw;
            return;
          }
          break;
        case EffectKind::kDeploy:
        case EffectKind::kDiscardReserve:
          if (arsenal_[kReserve][s]) {
            phase_ = e.kind == EffectKind::kDeploy ? Phase::kEffectDeploy : Phase::kEffectDiscard;
            return;
          }
          break;
        case EffectKind::kDestroyStack:
          if (stack(s, e.stack)) {
            phase_ = Phase::kEffectDestroy;
            return;
          }
          break;
        default:
          break;
      }
    }
    ++effect_index_;
    left_ = 0;
    if (effect_index_ == static_cast<int>(card.effects.size())) {
      discard_card();
      effect_index_ = -1;
      subject_ = -1;
      end_turn();
      return;
    }
    enter_effect();
  }
}

// -- battles ------------------------------------------------------------------------------------

bool State::prerequisite_met(const ConflictCard& card, const Prerequisite& pre) const {
  const u128 bit = card_bit(pre.battle);
  switch (pre.won_by) {
    case WonBy::kAggressor:
      return (conflict_[kWon + card.aggressor] & bit) != 0;
    case WonBy::kDefender:
      return (conflict_[kWon + 1 - card.aggressor] & bit) != 0;
    case WonBy::kEither:
      break;
  }
  return ((conflict_[kWon] | conflict_[kWon + 1]) & bit) != 0;
}

bool State::prerequisite_dead(const ConflictCard& card, const Prerequisite& pre) const {
  const u128 bit = card_bit(pre.battle);
  if (conflict_[kCancelled] & bit) return true;
  switch (pre.won_by) {
    case WonBy::kAggressor:
      return (conflict_[kWon + 1 - card.aggressor] & bit) != 0;
    case WonBy::kDefender:
      return (conflict_[kWon + card.aggressor] & bit) != 0;
    case WonBy::kEither:
      break;
  }
  return false;
}

void State::start_battle() {
  const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(card_)];
  for (const Prerequisite& pre : card.prerequisites) {
    if (!prerequisite_met(card, pre)) {
      discard_card();
      end_turn();
      return;
    }
  }
  battle_ = Battle{};
  battle_.aggressor = card.aggressor;
  phase_ = Phase::kChoice;
}

void State::fight() {
  const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(card_)];
  const bool field0 = (arsenal_[kStack][0] & of_types(0, card.decisive)) != 0;
  const bool field1 = (arsenal_[kStack][1] & of_types(1, card.decisive)) != 0;
  if (!field0 && !field1) {  // shelved
    discard_card();
    end_turn();
    return;
  }
  if (field0 != field1) {
    battle_won(field0 ? 0 : 1);
    return;
  }
  for (int seat = 0; seat < 2; ++seat) {
    const u128 fighting = arsenal_[kStack][seat] & of_types(seat, card.types);
    for (u128 m = fighting & ~arsenal_[kFaceUp][seat]; m; m &= m - 1)
      toggle(kFaceUp, kMaxArsenal * seat + lowest_bit(m));
    for (u128 m = fighting; m; m &= m - 1) toggle(kTakingPart, kMaxArsenal * seat + lowest_bit(m));
    refresh_boost(seat);
  }
  open_window(battle_.aggressor);
}

void State::open_window(int seat) {
  // A loop rather than the rules page's recursion: the aggressor's empty window passes to the
  // defender's.
  for (;;) {
    battle_.window = static_cast<std::int8_t>(seat);
    if (conflict_[kKept + seat]) {
      phase_ = Phase::kWindow;
      return;
    }
    if (seat != battle_.aggressor) break;
    seat = 1 - seat;
  }
  battle_.window = -1;
  begin_round();
}

void State::play(int seat, int k) {
  toggle(static_cast<ConflictPile>(kKept + seat), k);
  toggle(kConflictDiscard, k);
  const Effect& effect = cs_->conflict[static_cast<std::size_t>(k)].effects[0];
  if (effect.kind == EffectKind::kCombatBonus) {
    for (int t = 0; t < kNumTypes; ++t) {
      if (!(effect.types >> t & 1)) continue;
      battle_.bonus[seat][t][0] =
          static_cast<std::int16_t>(battle_.bonus[seat][t][0] + effect.attack);
      battle_.bonus[seat][t][1] =
          static_cast<std::int16_t>(battle_.bonus[seat][t][1] + effect.defence);
    }
    refresh_boost(seat);
    open_window(seat);
  } else {
    left_ = effect.count;
    phase_ = Phase::kReinforce;
  }
}

void State::begin_round() {
  ++battle_.round;
  bool any = false;
  for (int seat = 0; seat < 2 && !any; ++seat)
    for (u128 m = arsenal_[kTakingPart][seat]; m && !any; m &= m - 1)
      any = has_target(kMaxArsenal * seat + lowest_bit(m));
  if (!any) {  // stalemate: the aggressor withdraws
    battle_won(1 - battle_.aggressor);
    return;
  }
  battle_.firing_phase = 1;
  battle_.firing_side = battle_.aggressor;
  battle_.unit = -1;
  next_shooter();
}

void State::next_shooter() {
  for (;;) {
    const int side = battle_.firing_side;
    const int after = battle_.unit < 0 ? -1 : slot_of(battle_.unit);
    const u128 candidates =
        arsenal_[kTakingPart][side] & cs_->of_phase[side][battle_.firing_phase] & above(after);
    if (candidates) {
      battle_.unit = static_cast<std::int16_t>(kMaxArsenal * side + lowest_bit(candidates));
      if (has_target(battle_.unit)) {
        phase_ = Phase::kFire;
        return;
      }
    } else if (side == battle_.aggressor) {
      battle_.firing_side = static_cast<std::int8_t>(1 - side);
      battle_.unit = -1;
    } else if (battle_.firing_phase < kNumPhases) {
      ++battle_.firing_phase;
      battle_.firing_side = battle_.aggressor;
      battle_.unit = -1;
    } else {
      battle_.firing_phase = 0;
      battle_.firing_side = -1;
      battle_.unit = -1;
      open_withdrawal(battle_.aggressor);
      return;
    }
  }
}

void State::flipped(int k) {
  toggle(kConflictDiscard, k);
  const int target = battle_.target;
  const int number = cs_->action_of[static_cast<std::size_t>(k)];
  if (defence_score(target) < number &&
      number <= attack_score(battle_.unit, cs_->type_of[static_cast<std::size_t>(target)]))
    destroy(target);
  battle_.target = -1;
  const int side = battle_.firing_side;
  if (!has_decisive(1 - side))
    battle_won(side);
  else
    next_shooter();
}

void State::open_withdrawal(int seat) {
  battle_.withdrawing = static_cast<std::int8_t>(seat);
  if (arsenal_[kTakingPart][seat])
    phase_ = Phase::kWithdraw;
  else
    end_withdrawal(seat);
}

void State::end_withdrawal(int seat) {
  battle_.withdrawing = -1;
  if (!has_decisive(seat))
    battle_won(1 - seat);
  else if (seat == battle_.aggressor)
    open_withdrawal(1 - seat);
  else if (battle_.round == kMaxRounds)
    battle_won(1 - battle_.aggressor);  // the offensive stalls
  else
    begin_round();
}

void State::battle_won(int winner) {
  const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(card_)];
  const int loser = 1 - winner;
  const u128 lost = (arsenal_[kTakingPart][loser] | arsenal_[kWithdrawn][loser]) &
                    of_types(loser, card.loser_destroyed);
  for (u128 m = lost; m; m &= m - 1) destroy(kMaxArsenal * loser + lowest_bit(m));
  clear_battle();
  toggle(static_cast<ConflictPile>(kWon + winner), card_);
  vp_[winner] += card.vp;
  card_ = -1;
  if (card.homeland && winner == card.aggressor) {
    end(EndReason::kHomeland, winner);
    return;
  }
  cancel_dead_battles();
  if (!(cs_->battles & ~(conflict_[kWon] | conflict_[kWon + 1] | conflict_[kCancelled]))) {
    end(EndReason::kBattles, vp_[0] == vp_[1] ? -1 : (vp_[0] > vp_[1] ? 0 : 1));
    return;
  }
  end_turn();
}

void State::cancel_dead_battles() {
  for (bool changed = true; changed;) {
    changed = false;
    const u128 open =
        cs_->battles & ~(conflict_[kWon] | conflict_[kWon + 1] | conflict_[kCancelled]);
    for (u128 m = open; m; m &= m - 1) {
      const int k = lowest_bit(m);
      const ConflictCard& card = cs_->conflict[static_cast<std::size_t>(k)];
      for (const Prerequisite& pre : card.prerequisites) {
        if (!prerequisite_dead(card, pre)) continue;
        toggle(kCancelled, k);
        if (conflict_[kConflictDeck] & card_bit(k)) toggle(kConflictDeck, k);
        if (conflict_[kConflictDiscard] & card_bit(k)) toggle(kConflictDiscard, k);
        changed = true;
        break;
      }
    }
  }
}

}  // namespace rivals::battlecards
