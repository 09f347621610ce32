// What a game must provide to plug into the engine. Every game folder follows this shape, so the
// fifth game reads like the first:
//
//   struct MyGame {
//     static constexpr const char* kName = "mygame";
//     static std::vector<ParamSpec> param_specs();
//     static GameInfo info();                              // names, information, utility...
//     explicit MyGame(const Json& resolved_params);       // throws std::invalid_argument
//     // resolved_params: resolve_params(kName, param_specs(), given) (params.h), every parameter
//     // present and accepted; the constructor checks only what needs the rules.
//     class State;                                         // a plain value, no heap
//     State initial_state() const;
//     ... sizes, presentation (strings, snapshot, observation) ...
//     const Json& data() const;  // optional: {parameter: document} of its data (data.h)
//     using ExtraBots = BotList<MySolver>;  // optional: bots of this game alone (see below)
//   };
//
// The members that every game declares alike and defines in its own way are in
// RIVALS_GAME_DECLARATIONS (below), so that a game's class lists only what is its own.
//
// The State is a value type that owns the hot path: legal actions into a caller's fixed buffer,
// apply without checks, chance sampling, incremental hash. Copying it is the clone. Everything a
// person reads (strings, snapshots, observations) lives on the game, away from the hot path.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rivals/core/deadline.h"
#include "rivals/core/error.h"
#include "rivals/core/game_info.h"
#include "rivals/core/json.h"
#include "rivals/core/params.h"
#include "rivals/core/rng.h"
#include "rivals/core/types.h"

namespace rivals {

template <class S>
concept GameState = std::copyable<S> && requires(const S& cs, S& s, Action a, Action* buffer,
                                                 ChanceOutcome* outcomes, Rng& rng, double* out) {
  { S::kMaxLegalActions } -> std::convertible_to<int>;
  { S::kMaxChanceOutcomes } -> std::convertible_to<int>;
  { cs.current_player() } -> std::same_as<Player>;
  { cs.is_chance_node() } -> std::same_as<bool>;
  { cs.is_terminal() } -> std::same_as<bool>;
  // Ascending legal actions of the player to move, or chance outcomes at a chance node.
  { cs.legal_actions(buffer) } -> std::same_as<int>;
  { cs.chance_outcomes(outcomes) } -> std::same_as<int>;
  { cs.sample_chance(rng) } -> std::same_as<Action>;
  { s.apply(a) } -> std::same_as<void>;  // unchecked: the caller guarantees legality
  { cs.returns(out) } -> std::same_as<void>;
  { cs.hash() } -> std::same_as<std::uint64_t>;
};

template <class G>
concept Game = GameState<typename G::State> &&
               requires(const G& g, const typename G::State& s, Action a, Player p,
                        std::string_view text, float* tensor, std::uint8_t* bits, double* out) {
                 { G::kName } -> std::convertible_to<const char*>;
                 { G::param_specs() } -> std::same_as<std::vector<ParamSpec>>;
                 { G::info() } -> std::same_as<GameInfo>;
                 { g.params() } -> std::convertible_to<Json>;
                 { g.num_players() } -> std::same_as<int>;
                 { g.num_distinct_actions() } -> std::same_as<int>;
                 { g.max_chance_outcomes() } -> std::same_as<int>;
                 { g.max_game_length() } -> std::same_as<int>;
                 { g.observation_shape() } -> std::same_as<std::vector<int>>;
                 { g.initial_state() } -> std::same_as<typename G::State>;
                 { g.action_to_string(s, a) } -> std::same_as<std::string>;
                 {
                   g.string_to_action(s, text)
                 } -> std::same_as<Action>;  // throws std::invalid_argument
                 { g.scores(s, out) } -> std::same_as<void>;
                 { g.to_json(s) } -> std::same_as<Json>;
                 { g.to_string(s) } -> std::same_as<std::string>;
                 { g.observation_string(s, p) } -> std::same_as<std::string>;
                 { g.observation_tensor(s, p, tensor) } -> std::same_as<void>;
                 // The compact observation: the board as 0/1 bytes of compact_board_shape() and
                 // every other entry as compact_features_size() floats (docs/rules/<game>.md).
                 { g.compact_board_shape() } -> std::same_as<std::vector<int>>;
                 { g.compact_features_size() } -> std::same_as<int>;
                 { g.compact_observation(s, p, bits, tensor) } -> std::same_as<void>;
               };

// The members a game declares alike and defines in its game.cpp: its name, State, parameters and
// facts, and a state's presentation (strings, snapshot, observations). `folder` is the game's
// folder and namespace (the State's home), `Class` its class; the line goes in the class's public
// part: RIVALS_GAME_DECLARATIONS(mygame, MyGame);
#define RIVALS_GAME_DECLARATIONS(folder, Class)                                    \
  static constexpr const char* kName = #folder;                                    \
  using State = folder::State;                                                     \
  static std::vector<ParamSpec> param_specs();                                     \
  static GameInfo info();                                                          \
  explicit Class(const Json& params);                                              \
  Json params() const;                                                             \
  std::string action_to_string(const State& state, Action action) const;           \
  Action string_to_action(const State& state, std::string_view text) const;        \
  void scores(const State& state, double* out) const;                              \
  Json to_json(const State& state) const;                                          \
  std::string to_string(const State& state) const;                                 \
  std::string observation_string(const State& state, Player player) const;         \
  void observation_tensor(const State& state, Player player, float* out) const;    \
  void compact_observation(const State& state, Player player, std::uint8_t* board, \
                           float* features) const

// Optional for games with hidden information: a history that `player` cannot tell apart from
// `history` (hidden chance outcomes and hidden choices of others resampled), and the string of
// what `player` knows.
template <class G>
concept HiddenInformationGame =
    Game<G> && requires(const G& g, const typename G::State& s, const std::vector<Action>& history,
                        Player p, Rng& rng) {
      { g.resample_history(history, p, rng) } -> std::same_as<std::vector<Action>>;
      { g.information_state_string(s, history, p) } -> std::same_as<std::string>;
    };

// Optional for a game where some decisions are hidden from the other players (a card deployed
// face down, a card drafted in secret): the decision `action`, taken by the player to move in
// `before`, as `observer` sees it. The mover sees their own decision, so for them, and wherever
// nothing is hidden, it is `action`; decisions `observer` cannot tell apart share one id at or
// above num_distinct_actions(). Tree searches key their nodes by it, so that a seat's tree never
// branches on what that seat did not see.
template <class G>
concept PartlyHiddenDecisions =
    HiddenInformationGame<G> &&
    requires(const G& g, const typename G::State& s, Action a, Player p) {
      { g.observed_action(s, a, p) } -> std::same_as<Action>;
    };

// Optional for a game where some chance outcomes are hidden from some players (a card dealt to
// another seat): whether `observer` learns which outcome the chance node `before` had. Where the
// game does not say, or hides nothing, every outcome is seen. A tree search may branch on an
// outcome its seat sees without splitting that seat's information sets.
template <class G>
concept PartlyHiddenChance = HiddenInformationGame<G> &&
                             requires(const G& g, const typename G::State& s, Action a, Player p) {
                               { g.sees_chance(s, a, p) } -> std::same_as<bool>;
                             };

template <Game G>
bool sees_chance(const G& game, const typename G::State& before, Action outcome, Player observer) {
  if constexpr (PartlyHiddenChance<G>)
    return game.sees_chance(before, outcome, observer);
  else
    return true;
}

// Optional for a game whose play can go round in circles until its turn limit ends it as a draw:
// a key that is equal for two positions exactly when they differ at most in the turn counter, so
// that a search can see that a line of play has come back to where it was.
template <class S>
concept RepeatingState = GameState<S> && requires(const S& cs) {
  { cs.position_key() } -> std::same_as<std::uint64_t>;
};

// Optional for a game with an exact solver fast enough near the end: an optimal decision for the
// player to move in `state` when the game's solver finds one within `seconds` of `clock`
// (core/deadline.h), nothing otherwise. A search bot asked to (mcts's `solve_s`) plays it
// instead of searching.
template <class G>
concept EndgameSolvingGame =
    Game<G> && requires(const G& g, const typename G::State& s, double seconds, BudgetClock clock) {
      { g.solved_action(s, seconds, clock) } -> std::same_as<std::optional<Action>>;
    };

// The bots a game brings of its own (an exact solver), beside the engine's bots for every game:
// `using ExtraBots = BotList<Bot...>;` in the game. Each Bot has the shape of the engine's bots
// (bots/random_bot.h): kName, param_specs(), a constructor (const G&, const Json& params, seed),
// reseed(seed) and step(state); optionally stats(), and, for an exact solver, kSolver = true and
// analyse(state) -> Json (the value of any state of the game).
template <class... Bots>
struct BotList {};

}  // namespace rivals
