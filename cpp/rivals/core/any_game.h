// The type-erased face of a game, for Python and for C++ users who pick a game by name.
//
// Calls through these interfaces are per call from the outside world (one Python call, one batch
// of playouts), never per move inside a loop: the loops themselves are templates on the concrete
// game (playout.h, the bots), instantiated once per game behind `AnyGame`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/game_info.h"
#include "rivals/core/json.h"
#include "rivals/core/types.h"

namespace rivals {

class AnyGame;

class AnyState {
 public:
  virtual ~AnyState() = default;

  virtual const AnyGame& game() const = 0;
  virtual std::unique_ptr<AnyState> clone() const = 0;

  virtual Player current_player() const = 0;
  virtual bool is_chance_node() const = 0;
  virtual bool is_terminal() const = 0;
  virtual std::vector<Action> legal_actions() const = 0;
  virtual std::vector<ChanceOutcome> chance_outcomes() const = 0;
  virtual bool is_legal(Action action) const = 0;

  // Throws std::invalid_argument naming the action and the player when the action is not legal;
  // the state is then unchanged.
  virtual void apply_action(Action action) = 0;
  // Takes back the last action. Throws std::out_of_range when there is none.
  virtual void undo() = 0;

  virtual std::vector<double> returns() const = 0;
  virtual std::vector<double> scores() const = 0;
  // The game's evaluation of the position from `player`'s side (its rules page, "Evaluation (for
  // search bots)"): what a search bot uses where it stops looking ahead, strictly inside (-1, 1)
  // and on the scale of returns(). Defined at decision and chance nodes alike (a search may stop
  // at either); it reads the whole state, hidden cards included. Throws std::invalid_argument at
  // the end (returns() is the value there), for a player who is not a seat, for a game without an
  // evaluation (GameInfo::evaluation) and for an evaluation it does not offer (by name, one of
  // GameInfo::evaluations). The evaluation "net" reads the compact observation of `player`'s seat
  // through the network that `network` names (null: the game's shipped one; core/network.h).
  virtual double evaluate(Player player, const std::string& evaluation,
                          const Json& network) const = 0;
  // The policy head of the network `network` names (as evaluate's) over the legal decisions of
  // the player to move: (decision, probability) in ascending order of decisions. Throws
  // std::invalid_argument where nobody decides, for a game without an evaluation and for a
  // network without a policy head.
  virtual std::vector<ChanceOutcome> policy(const Json& network) const = 0;
  virtual const std::vector<Action>& history() const = 0;
  virtual std::uint64_t hash() const = 0;

  virtual std::string action_to_string(Action action) const = 0;
  virtual Action string_to_action(const std::string& text) const = 0;

  virtual Json to_json() const = 0;
  virtual std::string to_string() const = 0;
  virtual std::string observation_string(Player player) const = 0;
  virtual std::string information_state_string(Player player) const = 0;
  // Writes game().observation_size() floats.
  virtual void observation_tensor(Player player, float* out) const = 0;
  // Writes game().compact_board_size() bytes (0 or 1) and game().compact_features_size() floats.
  virtual void compact_observation(Player player, std::uint8_t* board, float* features) const = 0;
  virtual std::unique_ptr<AnyState> resample_from_infostate(Player player,
                                                            std::uint64_t seed) const = 0;
};

class AnyBot {
 public:
  virtual ~AnyBot() = default;
  // The bot that plays, a preset's bot for a preset.
  virtual const std::string& name() const = 0;
  // The preset it was made from (GameInfo::presets), or empty.
  virtual const std::string& preset() const = 0;
  // Every parameter, defaults filled in.
  virtual const Json& params() const = 0;
  // An action legal in `state` for the player to move. Throws std::invalid_argument when the
  // state belongs to another game (or the same game with other rules: see AnyGame::same_rules)
  // or is not a decision node, and Interrupted (interrupt.h) when asked to stop.
  virtual Action step(const AnyState& state) = 0;
  // Progress of a bot that works for long (the solver: {"contexts": n}); may be read from
  // another thread while step() runs. An empty object for most bots.
  virtual Json stats() const = 0;
  // An exact solver's value of any state of its game (chance and the end included), as the bot
  // documents it; std::invalid_argument for a bot that is not a solver (GameInfo::solvers) and
  // for a state of another game.
  virtual Json analyse(const AnyState& state) = 0;
};

struct BotSpec {
  std::string name;
  Json params;  // an object; may be empty
};

// Results of a batch of games, one row per game; columns are seats (returns) or bots (bot_returns).
struct MatchResults {
  int num_games = 0;
  int num_players = 0;
  std::vector<double> returns;        // num_games x num_players, by seat
  std::vector<std::int32_t> lengths;  // actions per game, chance included
  std::vector<std::int32_t> seating;  // num_games x num_players: which bot sat in each seat
  std::vector<std::vector<Action>> histories;  // filled only when asked for
};

// The decisions of games played by bots (AnyGame::self_play), for learning: a row per decision and
// seat, with the compact observation from that seat's view, the seat, the seat to move, the game
// (a row of results), the game's own evaluations from that seat's side (GameInfo::evaluations,
// "net" left out) and, in the mover's row, the mover's search value of the move played (NaN
// elsewhere and for a bot that gives none).
struct Positions {
  MatchResults results;
  int board_size = 0;
  int features = 0;
  int evaluations = 0;
  std::vector<std::uint8_t> boards;    // decisions x board_size
  std::vector<float> feature_rows;     // decisions x features
  std::vector<float> evaluation_rows;  // decisions x evaluations
  std::vector<std::int32_t> games;
  std::vector<std::int8_t> players;
  std::vector<std::int8_t> movers;
  std::vector<float> search_values;
  // The searches' visits, for a policy: entry k is decision `policy_actions[k]` in the mover's row
  // `policy_rows[k]`, with the share `policy_shares[k]` of the root's simulations.
  std::vector<std::int32_t> policy_rows;
  std::vector<std::int32_t> policy_actions;
  std::vector<float> policy_shares;
};

// What a vectorised environment writes on every step besides players, rewards and ends.
enum class ObservationKind : std::uint8_t { kNone, kPlanes, kCompact };
struct VectorEnvOptions {
  ObservationKind observation = ObservationKind::kPlanes;
  bool half_floats = false;    // observations as IEEE float16 rather than float32
  bool legal_mask = true;      // the dense mask over num_distinct_actions
  bool legal_indices = false;  // the legal actions as a padded index array with counts
  // Per seat, the bot that plays it inside step(); a seat with an empty name is the learner's.
  // Empty: the learner plays every seat.
  std::vector<BotSpec> opponents;
};

// Where a vectorised environment writes each step's results; every array has one row per env, and
// the arrays its options leave out may be null.
struct VectorBuffers {
  // planes: num_envs x observation_size; compact: num_envs x compact_features_size. float32, or
  // float16 bits (std::uint16_t) with half_floats; from the view of the player to move.
  void* obs;
  std::uint8_t* board;          // compact: num_envs x compact_board_size, 0 or 1
  bool* legal_mask;             // num_envs x num_distinct_actions
  std::int32_t* legal_indices;  // num_envs x max_legal_actions, ascending, then -1
  std::int32_t* num_legal;      // num_envs
  std::int32_t* player;         // num_envs
  float* rewards;               // num_envs x num_players: the returns on the step that ends a game
  bool* terminated;             // num_envs
};

// The largest batch one call plays (random_playouts, play_match): its results are held in memory
// at once, so a bigger run goes in several calls (first_game keeps their seeds apart).
inline constexpr int kMaxBatchGames = 10'000'000;
// The largest first_game of play_match, so first_game + num_games stays far inside 64 bits.
inline constexpr std::int64_t kMaxFirstGame = std::int64_t{1} << 62;
// The most games of play_match that share one chance stream (a duplicate group: every seat
// rotation of the largest game).
inline constexpr int kMaxChanceGroup = 64;
// The most copies copy_ns makes (a few seconds).
inline constexpr int kMaxCopies = 100'000'000;
// The most states undo_ns times at once (each holds its history).
inline constexpr int kMaxUndoCopies = 100'000;
// The most environments of one vectorised environment, and the most memory they may hold, so a
// mistyped count is an error rather than the machine running out of memory.
inline constexpr int kMaxEnvs = 1 << 20;
inline constexpr std::size_t kMaxEnvBytes = std::size_t{4} << 30;

// Many games stepped together, chance resolved inside from per-environment random streams.
class AnyVectorEnv {
 public:
  virtual ~AnyVectorEnv() = default;
  virtual int num_envs() const = 0;
  // With a seed, first every environment's streams start over: environment e draws its chance
  // outcomes (and its bots their choices) from the streams derived from (seed, e), so the games
  // are those of an environment made with this seed. All or nothing: when it throws, every
  // environment is as it was, its streams and its bots' included.
  virtual void reset(const VectorBuffers& out, std::optional<std::uint64_t> seed) = 0;
  // One action per environment for its player to move; an environment that terminated on the
  // previous step restarts instead and ignores its action. Throws std::invalid_argument naming the
  // first environment whose action is illegal, before any environment changes.
  virtual void step(const std::int32_t* actions, const VectorBuffers& out) = 0;
  // The actions of environment e's current game, chance included, to rebuild it as a state.
  virtual const std::vector<Action>& history(int env) const = 0;
  // Per environment, one of the legal actions of the last results, uniformly at random, or -1
  // where nobody is to move (a finished game, which the next step restarts whatever its action).
  // Environment e draws from a stream of its own derived from (seed, e), apart from its chance
  // and its bots: sampling never changes the games, and reset with a seed starts it over.
  virtual void sample_legal(std::int32_t* out) = 0;
};

class AnyGame : public std::enable_shared_from_this<AnyGame> {
 public:
  virtual ~AnyGame() = default;

  virtual const std::string& name() const = 0;
  // Every parameter as given, defaults filled in (a data parameter as typed: null, a shipped
  // name, a path or a document).
  virtual const Json& params() const = 0;
  // The documents the data parameters resolved to, by parameter name (an array of documents for a
  // list of them); an empty object for a game without data.
  virtual const Json& data() const = 0;
  // params() with every path replaced by the document it named: the same game, made anywhere
  // (what replays record).
  virtual Json portable_params() const = 0;
  // The name, the other parameters and the data documents, as JSON with sorted keys: two games
  // have equal identities exactly when they play by the same rules, however their data was given
  // (a path, the document, a shipped name or null).
  virtual const std::string& identity() const = 0;
  bool same_rules(const AnyGame& other) const {
    return this == &other || identity() == other.identity();
  }
  // What the game is (game_info.h): the same for every game of one name.
  virtual const GameInfo& info() const = 0;
  virtual int num_players() const = 0;
  virtual int num_distinct_actions() const = 0;
  virtual int max_chance_outcomes() const = 0;
  virtual int max_game_length() const = 0;
  virtual const std::vector<int>& observation_shape() const = 0;
  int observation_size() const;
  // The compact observation (docs/rules/<game>.md): the board's bit planes and a flat vector.
  virtual const std::vector<int>& compact_board_shape() const = 0;
  int compact_board_size() const;
  virtual int compact_features_size() const = 0;
  // The most legal actions any decision of the game has: the width of padded index arrays.
  virtual int max_legal_actions() const = 0;

  virtual std::unique_ptr<AnyState> new_initial_state() const = 0;
  // Replays `actions` with full checks; throws std::invalid_argument naming the first bad index.
  std::unique_ptr<AnyState> state_from_history(const std::vector<Action>& actions) const;

  // Uniformly random games, chance sampled; game i is seeded from (seed, i) alone, so results do
  // not depend on `threads`. num_games in 0..kMaxBatchGames, threads in 1..kMaxThreads, else
  // std::invalid_argument.
  virtual MatchResults random_playouts(std::uint64_t seed, int num_games, int threads) const = 0;

  // For benchmarks: the size of the concrete state in bytes, and the mean cost in nanoseconds of
  // copying (cloning) a mid-game state, measured over `copies` copies.
  virtual int state_size() const = 0;
  virtual double copy_ns(int copies) const = 0;
  // For benchmarks: the mean CPU nanoseconds of one AnyState::undo(), over `copies` copies of the
  // state after `history` (replayed with full checks) that each take back their last `undos`
  // actions; with `from_start`, of the replay of the whole shorter history that undo() was
  // before it kept snapshots, for comparison. Throws std::invalid_argument for a bad history,
  // `undos` outside 1..history.size() and `copies` outside 1..kMaxUndoCopies.
  virtual double undo_ns(const std::vector<Action>& history, int undos, int copies,
                         bool from_start) const = 0;
  // For benchmarks: the mean CPU nanoseconds of one evaluation (by name, and for "net" the
  // `network`; AnyState::evaluate) of a seat over the decision positions of a random game,
  // measured over `count` evaluations. Throws std::invalid_argument as evaluate does.
  virtual double evaluation_ns(const std::string& evaluation, const Json& network,
                               int count) const = 0;

  virtual std::unique_ptr<AnyBot> make_bot(const BotSpec& spec, std::uint64_t seed) const = 0;

  // Environment e draws its chance outcomes from the stream derived from (seed, e). num_envs in
  // 1..kMaxEnvs, threads in 1..kMaxThreads, else std::invalid_argument.
  virtual std::unique_ptr<AnyVectorEnv> make_vector_env(int num_envs, std::uint64_t seed,
                                                        int threads,
                                                        const VectorEnvOptions& options) const = 0;
  // The planes, the dense mask and no bots.
  std::unique_ptr<AnyVectorEnv> make_vector_env(int num_envs, std::uint64_t seed,
                                                int threads) const {
    return make_vector_env(num_envs, seed, threads, VectorEnvOptions{});
  }

  // Games played as play_match plays them (chance_group 1), recording every decision from every
  // seat's view (Positions). The first `random_decisions` decisions of each game are uniformly
  // random instead of the bot's, from a stream of the game's own, so that games from one position
  // differ.
  virtual Positions self_play(const std::vector<BotSpec>& bots, std::uint64_t seed,
                              std::int64_t first_game, int num_games, int threads,
                              int random_decisions) const = 0;

  // Bots play each other entirely in C++. Game i seats bot (seat + i) mod bots.size() in each
  // seat, so every bot plays every seat equally often; bots.size() must equal num_players().
  // The games are first_game .. first_game + num_games - 1 of the match (first_game in
  // 0..kMaxFirstGame). Games i and j with i / chance_group == j / chance_group draw their chance
  // outcomes from one stream (duplicate games: the same deals, other seats); their bots are
  // seeded apart. Throws Interrupted (interrupt.h) when asked to stop.
  virtual MatchResults play_match(const std::vector<BotSpec>& bots, std::uint64_t seed,
                                  std::int64_t first_game, int num_games, int threads,
                                  bool keep_histories, int chance_group) const = 0;

  // Replays games begin .. end - 1 of a batch of stored games from the initial state, game k
  // being actions[starts[k] .. starts[k + 1] - 1], each action checked as apply_action checks
  // it, and writes each finished game's returns at returns + k * num_players(). Returns the
  // first game that is not a finished game of legal actions, else `end` (check_histories in
  // core/records.h says what is wrong with it). Throws Interrupted when asked to stop.
  virtual std::int64_t replay_games(const Action* actions, const std::int64_t* starts,
                                    std::int64_t begin, std::int64_t end,
                                    double* returns) const = 0;
};

}  // namespace rivals
