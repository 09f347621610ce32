// The Battlecards card set: arsenal units and conflict cards read from data
// (`rivals-battlecards-set` plus `rivals-battlecards-expansion` packs, docs/formats.md), checked
// and compiled into the tables and masks the hot path reads. Rules: docs/rules/battlecards.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/bits.h"
#include "rivals/core/data.h"

namespace rivals::battlecards {

inline constexpr int kMaxArsenal = 128;   // cards per arsenal; global index a = 128 * seat + slot
inline constexpr int kMaxConflict = 128;  // conflict cards, battle list excluded
inline constexpr int kNumTypes = 3;       // ground, air, sea: also the stacks
inline constexpr int kNumPhases = 4;      // firing phases of a combat round
inline constexpr int kSetupDraw = 6;
inline constexpr int kSetupDeploy = 3;
inline constexpr int kMaxRounds = 4;

inline constexpr const char* kTypeNames[kNumTypes] = {"ground", "air", "sea"};
inline constexpr const char* kSideNames[2] = {"germany", "britain"};  // by seat
inline constexpr const char* kSideKeys[2] = {"german", "british"};    // card-set keys, by seat

// Sets of cards are 128-bit masks: bit `slot` of a seat's arsenal, or bit `k` of the conflict deck.
constexpr u128 card_bit(int index) { return bit128(index); }

enum class Kind : std::int8_t { kBattle, kBuildUp, kImmediate, kKept };
enum class EffectKind : std::int8_t {
  kDraw,
  kDeploy,
  kDiscardReserve,
  kReveal,
  kDestroyStack,
  kVictoryPoints,
  kCombatBonus,
  kReinforce,
};
enum class Who : std::int8_t { kDrawer, kOpponent, kGerman, kBritish, kHolder };
enum class WonBy : std::int8_t { kAggressor, kDefender, kEither };

struct ArsenalCard {
  std::string id;
  std::string name;
  std::int8_t type = 0;
  std::array<std::int8_t, kNumTypes> attack{};
  std::int8_t defence = 0;
  std::int8_t phase = 1;
  std::uint8_t support_types = 0;  // bit t: gives its support to units of type t
  std::int8_t support_attack = 0;
  std::int8_t support_defence = 0;
  bool leader = false;
};

struct Effect {
  EffectKind kind = EffectKind::kDraw;
  Who who = Who::kHolder;
  std::int8_t count = 0;
  std::uint8_t types = 0;  // reveal, combat_bonus: bit t per type
  std::int8_t stack = 0;   // destroy_stack
  std::int8_t attack = 0;  // combat_bonus
  std::int8_t defence = 0;
};

struct Prerequisite {
  int battle = 0;  // conflict index
  WonBy won_by = WonBy::kEither;
};

struct ConflictCard {
  std::string id;
  std::string name;
  std::int8_t action = 1;
  Kind kind = Kind::kBattle;
  // battle
  std::int8_t aggressor = 0;  // seat
  std::uint8_t types = 0;     // bit t per type that fights
  std::uint8_t decisive = 0;
  std::uint8_t loser_destroyed = 0;
  std::int8_t vp = 0;
  bool homeland = false;
  std::vector<Prerequisite> prerequisites;
  // build_up and immediate: the effects in order; kept: exactly one
  std::vector<Effect> effects;
};

// A merged, validated card set and the masks derived from it. Immutable once built; states keep
// a pointer to it.
struct CardSet {
  std::array<std::vector<ArsenalCard>, 2> arsenals;
  std::vector<ConflictCard> conflict;

  std::array<int, 2> arsenal_size{};
  int conflict_size = 0;
  std::array<u128, 2> all_arsenal{};
  std::array<std::array<u128, kNumTypes>, 2> of_type{};        // [seat][type]
  std::array<std::array<u128, kNumPhases + 1>, 2> of_phase{};  // [seat][phase 1-4]
  std::array<u128, 2> supporters{};                            // units with a support
  u128 battles = 0;
  u128 kept = 0;          // kept-kind conflict cards
  u128 combat_bonus = 0;  // kept cards whose effect is a combat_bonus
  // Per-card numbers copied out of the vectors above into flat arrays the hot path indexes by the
  // global arsenal index.
  std::array<std::int8_t, 2 * kMaxArsenal> type_of{};
  std::array<std::int8_t, kMaxConflict> action_of{};
  // The support a unit gives its own type. A battle's running support totals count every unit
  // taking part; a unit's own scores take its share back out (support goes to the other units).
  std::array<std::int8_t, 2 * kMaxArsenal> self_attack{};
  std::array<std::int8_t, 2 * kMaxArsenal> self_defence{};
  // Its best attack value plus its defence: what the evaluation counts a unit as worth.
  std::array<std::int8_t, 2 * kMaxArsenal> strength{};

  const ArsenalCard& arsenal(int a) const {
    return arsenals[a / kMaxArsenal][static_cast<std::size_t>(a % kMaxArsenal)];
  }
};

// Merges and checks a card set and its expansion packs (docs/formats.md). Throws
// std::invalid_argument naming the document and the JSON path of the entry:
// `battlecards: cards file 'x.json': conflict[4].action must be an int 1-20, got 25`.
CardSet load_card_set(const DataDocument& cards, const std::vector<DataDocument>& expansions);

}  // namespace rivals::battlecards
