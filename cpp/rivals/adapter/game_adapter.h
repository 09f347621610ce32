// Turns a concrete game (see core/game_concept.h) into the type-erased AnyGame/AnyState that
// Python and name-based C++ users see. The checked, history-keeping API lives here once for all
// games; the batch loops (playouts, matches) are instantiated here per game, so they run on the
// concrete State with no virtual call per move.
//
// This layer sits above both the core and the bots (it builds a game's bots by name), so neither
// of them depends on it; each game's register.cpp instantiates it once. One header on purpose:
// it is one class template per type-erased interface, instantiated per game.
#pragma once

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rivals/adapter/stored_games.h"
#include "rivals/bots/bot_factory.h"
#include "rivals/core/any_game.h"
#include "rivals/core/data.h"
#include "rivals/core/deadline.h"
#include "rivals/core/error.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/game_info.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/parallel.h"
#include "rivals/core/playout.h"
#include "rivals/core/threads.h"
#include "rivals/core/vector_env.h"

namespace rivals {

// Game i of a batch uses stream 2i for chance and streams derived from 2i+1 for its bots.
inline std::uint64_t chance_seed(std::uint64_t seed, std::int64_t game_index) {
  return derive_seed(seed, 2 * static_cast<std::uint64_t>(game_index));
}
inline std::uint64_t bot_seed(std::uint64_t seed, std::int64_t game_index, int bot) {
  return derive_seed(derive_seed(seed, 2 * static_cast<std::uint64_t>(game_index) + 1),
                     static_cast<std::uint64_t>(bot));
}

template <Game G>
class GameAdapter;

template <Game G>
class StateAdapter final : public AnyState {
 public:
  using State = typename G::State;

  explicit StateAdapter(std::shared_ptr<const GameAdapter<G>> game)
      : game_(std::move(game)), state_(game_->initial_state()) {}
  StateAdapter(const StateAdapter&) = default;
  StateAdapter& operator=(const StateAdapter&) = delete;
  // Frees the snapshots this state alone holds one at a time: left to free each other, they would
  // recurse once per snapshot, as deep as a long game (a turn limit of 100,000) is long.
  ~StateAdapter() override {
    while (snapshots_ != nullptr && snapshots_.use_count() == 1) {
      std::shared_ptr<const Snapshot> earlier = snapshots_->earlier;
      snapshots_ = std::move(earlier);
    }
  }

  const AnyGame& game() const override { return *game_; }
  const G& rules() const { return game_->rules(); }
  const State& state() const { return state_; }

  std::unique_ptr<AnyState> clone() const override { return std::make_unique<StateAdapter>(*this); }

  Player current_player() const override { return state_.current_player(); }
  bool is_chance_node() const override { return state_.is_chance_node(); }
  bool is_terminal() const override { return state_.is_terminal(); }

  std::vector<Action> legal_actions() const override {
    if (state_.is_terminal()) return {};
    Action buffer[State::kMaxLegalActions];
    const int count = state_.legal_actions(buffer);
    return std::vector<Action>(buffer, buffer + count);
  }

  std::vector<ChanceOutcome> chance_outcomes() const override {
    if (!state_.is_chance_node()) return {};
    ChanceOutcome buffer[State::kMaxChanceOutcomes];
    const int count = state_.chance_outcomes(buffer);
    return std::vector<ChanceOutcome>(buffer, buffer + count);
  }

  bool is_legal(Action action) const override {
    if (state_.is_terminal()) return false;
    Action buffer[State::kMaxLegalActions];
    const int count = state_.legal_actions(buffer);
    return std::find(buffer, buffer + count, action) != buffer + count;
  }

  void apply_action(Action action) override {
    if (!is_legal(action)) throw InvalidArgument(illegal_message(action));
    history_.reserve(static_cast<std::size_t>(rules().max_game_length()));
    // Allocated before anything changes, so that running out of memory leaves the state as it was.
    std::shared_ptr<Snapshot> snapshot;
    if ((history_.size() + 1) % kSnapshotEvery == 0)
      snapshot = std::make_shared<Snapshot>(Snapshot{state_, history_.size() + 1, snapshots_});
    state_.apply(action);
    history_.push_back(action);
    if (snapshot != nullptr) {
      snapshot->state = state_;
      snapshots_ = std::move(snapshot);
    }
  }

  // Restarts from the latest snapshot at or before the shorter history and replays the actions
  // since (fewer than kSnapshotEvery): the cost does not grow with the game, and being the very
  // replay that reached the state, it restores everything a state holds, chance and hidden cards
  // included, in every game alike.
  void undo() override {
    if (history_.empty()) throw std::out_of_range("undo: no action to take back");
    history_.pop_back();
    while (snapshots_ != nullptr && snapshots_->ply > history_.size())
      snapshots_ = snapshots_->earlier;
    std::size_t ply = 0;
    if (snapshots_ == nullptr) {
      state_ = game_->initial_state();
    } else {
      state_ = snapshots_->state;
      ply = snapshots_->ply;
    }
    for (; ply < history_.size(); ++ply) state_.apply(history_[ply]);
  }

  // What undo() did before the snapshots, replaying the whole history from the start; kept for
  // the benchmark that compares the two (AnyGame::undo_ns).
  void undo_by_replay_from_start() {
    if (history_.empty()) throw std::out_of_range("undo: no action to take back");
    history_.pop_back();
    while (snapshots_ != nullptr && snapshots_->ply > history_.size())
      snapshots_ = snapshots_->earlier;
    state_ = game_->initial_state();
    for (const Action action : history_) state_.apply(action);
  }

  std::vector<double> returns() const override {
    std::vector<double> out(static_cast<std::size_t>(rules().num_players()));
    state_.returns(out.data());
    return out;
  }

  std::vector<double> scores() const override {
    std::vector<double> out(static_cast<std::size_t>(rules().num_players()));
    rules().scores(state_, out.data());
    return out;
  }

  double evaluate(Player player, const std::string& evaluation,
                  const Json& network) const override {
    check_player(player);
    if (state_.is_terminal())
      throw InvalidArgument(std::string(G::kName) +
                            ": evaluate: the game is over; its value is returns()");
    if constexpr (EvaluatedGame<G>) {
      const std::vector<std::string> names = evaluation_names_of<G>();
      if (std::find(names.begin(), names.end(), evaluation) == names.end()) {
        std::string choices;
        for (const std::string& name : names) choices += (choices.empty() ? "" : ", ") + name;
        throw InvalidArgument(std::string(G::kName) + ": evaluate: no evaluation " +
                              quoted(evaluation) + " (choices: " + choices + ")");
      }
      const Json settings = Json::object({{"evaluation", evaluation}, {"network", network}});
      check_network_use<G>(std::string(G::kName) + ": evaluate", settings, false);
      return Evaluator<G>(rules(), settings).value(state_, player);
    } else {
      throw InvalidArgument(std::string(G::kName) + " has no evaluation");
    }
  }

  std::vector<ChanceOutcome> policy(const Json& network) const override {
    if (state_.is_terminal() || state_.is_chance_node())
      throw InvalidArgument(std::string(G::kName) + ": policy: no player is to move");
    if constexpr (EvaluatedGame<G>) {
      const Evaluator<G> evaluator(
          rules(), Json::object({{"evaluation", kNetworkEvaluation}, {"network", network}}));
      if (!evaluator.has_policy())
        throw InvalidArgument(std::string(G::kName) + ": policy: the network has no policy head");
      Action legal[State::kMaxLegalActions];
      float priors[State::kMaxLegalActions];
      const int count = state_.legal_actions(legal);
      evaluator.policy(state_, state_.current_player(), legal, count, priors);
      std::vector<ChanceOutcome> out;
      for (int k = 0; k < count; ++k) out.push_back({legal[k], priors[k]});
      return out;
    } else {
      throw InvalidArgument(std::string(G::kName) + " has no evaluation, so no network");
    }
  }

  const std::vector<Action>& history() const override { return history_; }
  std::uint64_t hash() const override { return state_.hash(); }

  std::string action_to_string(Action action) const override {
    return rules().action_to_string(state_, action);
  }
  Action string_to_action(const std::string& text) const override {
    return rules().string_to_action(state_, text);
  }

  Json to_json() const override { return rules().to_json(state_); }
  std::string to_string() const override { return rules().to_string(state_); }

  std::string observation_string(Player player) const override {
    check_player(player);
    return rules().observation_string(state_, player);
  }

  std::string information_state_string(Player player) const override {
    check_player(player);
    if constexpr (HiddenInformationGame<G>) {
      return rules().information_state_string(state_, history_, player);
    } else {
      // Nothing is hidden, so the history is the information state (OpenSpiel's convention for
      // perfect information); the position alone would merge histories and lose perfect recall.
      std::string out;
      for (const Action action : history_) out += (out.empty() ? "" : " ") + std::to_string(action);
      return out;
    }
  }

  void observation_tensor(Player player, float* out) const override {
    check_player(player);
    rules().observation_tensor(state_, player, out);
  }

  void compact_observation(Player player, std::uint8_t* board, float* features) const override {
    check_player(player);
    rules().compact_observation(state_, player, board, features);
  }

  std::unique_ptr<AnyState> resample_from_infostate(Player player,
                                                    std::uint64_t seed) const override {
    check_player(player);
    if constexpr (HiddenInformationGame<G>) {
      Rng rng(seed);
      return game_->state_from_history(rules().resample_history(history_, player, rng));
    } else {
      return clone();  // nothing is hidden: the only state consistent with it is itself
    }
  }

 private:
  // The state after `ply` actions, for undo() to restart from. Shared by a state and its clones,
  // so a clone copies one pointer, never a record that grows with the game; never changed once
  // made, so clones used from several threads only read it.
  struct Snapshot {
    State state;
    std::size_t ply;
    std::shared_ptr<const Snapshot> earlier;
  };
  // One snapshot every so many actions: an undo replays fewer than this many actions, and the
  // snapshots hold a 1/kSnapshotEvery share of the states a game passes through.
  static constexpr std::size_t kSnapshotEvery = 8;

  void check_player(Player player) const {
    if (player < 0 || player >= rules().num_players())
      throw InvalidArgument(std::string(G::kName) + ": player " + std::to_string(player) +
                            " is not a seat (0.." + std::to_string(rules().num_players() - 1) +
                            ")");
  }

  std::string illegal_message(Action action) const {
    const std::string who = state_.is_chance_node()
                                ? std::string("the chance player")
                                : "player " + std::to_string(state_.current_player());
    if (state_.is_terminal())
      return std::string(G::kName) + ": action " + std::to_string(action) +
             " cannot be applied: the game is over";
    std::string text;
    try {
      text = " (" + rules().action_to_string(state_, action) + ")";
    } catch (const std::exception&) {
      text = " (not an action of this game)";
    }
    return std::string(G::kName) + ": action " + std::to_string(action) + text +
           " is not legal for " + who;
  }

  std::shared_ptr<const GameAdapter<G>> game_;
  State state_;
  std::vector<Action> history_;
  std::shared_ptr<const Snapshot> snapshots_;  // the latest; null before the first
};

template <Game G>
class GameAdapter final : public AnyGame {
 public:
  explicit GameAdapter(const Json& given)
      : rules_(resolve_params(G::kName, G::param_specs(), given)),
        initial_(rules_.initial_state()),
        name_(G::kName),
        params_(rules_.params()),
        observation_shape_(rules_.observation_shape()),
        info_(complete_info(rules_)),
        compact_board_shape_(rules_.compact_board_shape()) {
    // The identity is the name, the other parameters and the documents, each with sorted keys.
    Json others = Json::object();
    for (const auto& [key, value] : params_.as_object())
      if (data().find(key) == nullptr) others.set(key, value);
    identity_ = name_ + "\n" + others.dump_sorted() + "\n" + data().dump_sorted();
  }

  const G& rules() const { return rules_; }
  // Made once: undo() restarts from it, and a game may build it piece by piece (Battlecards'
  // decks card by card).
  const typename G::State& initial_state() const { return initial_; }

  const std::string& name() const override { return name_; }
  const Json& params() const override { return params_; }
  const Json& data() const override {
    if constexpr (requires {
                    { rules_.data() } -> std::same_as<const Json&>;
                  }) {
      return rules_.data();
    } else {
      static const Json none = Json::object();
      return none;
    }
  }
  Json portable_params() const override {
    Json portable = params_;
    for (const auto& [key, documents] : data().as_object())
      portable.set(key, portable_data_value(*params_.find(key), documents));
    return portable;
  }
  const std::string& identity() const override { return identity_; }
  const GameInfo& info() const override { return info_; }
  int num_players() const override { return rules_.num_players(); }
  int num_distinct_actions() const override { return rules_.num_distinct_actions(); }
  int max_chance_outcomes() const override { return rules_.max_chance_outcomes(); }
  int max_game_length() const override { return rules_.max_game_length(); }
  const std::vector<int>& observation_shape() const override { return observation_shape_; }
  const std::vector<int>& compact_board_shape() const override { return compact_board_shape_; }
  int compact_features_size() const override { return rules_.compact_features_size(); }
  int max_legal_actions() const override {
    return std::min(G::State::kMaxLegalActions, rules_.num_distinct_actions());
  }

  std::unique_ptr<AnyState> new_initial_state() const override {
    return std::make_unique<StateAdapter<G>>(self());
  }

  MatchResults random_playouts(std::uint64_t seed, int num_games, int threads) const override {
    threads = checked_threads(threads, name_ + " random_playouts");
    MatchResults results = empty_results(num_games);
    const int players = num_players();
    parallel_ranges(num_games, threads, [&](int, int begin, int end) {
      const auto initial = rules_.initial_state();
      for (int i = begin; i < end; ++i) {
        // A random game takes microseconds: reading the clock for every one would show.
        if ((i - begin) % 16 == 0) interruption_point();
        auto state = initial;
        Rng rng(chance_seed(seed, i));
        results.lengths[static_cast<std::size_t>(i)] = play_randomly(state, rng);
        state.returns(&results.returns[static_cast<std::size_t>(i) * players]);
      }
    });
    for (int i = 0; i < num_games; ++i)
      for (int s = 0; s < players; ++s)
        results.seating[static_cast<std::size_t>(i) * players + s] = s;
    return results;
  }

  int state_size() const override { return static_cast<int>(sizeof(typename G::State)); }

  double copy_ns(int copies) const override {
    if (copies < 1 || copies > kMaxCopies)
      throw InvalidArgument(name_ + " copy_ns: copies must be 1.." + std::to_string(kMaxCopies) +
                            ", got " + std::to_string(copies));
    auto state = rules_.initial_state();
    Rng rng(1);
    Action buffer[G::State::kMaxLegalActions];
    for (int ply = 0; ply < 60 && !state.is_terminal(); ++ply) {
      if (state.is_chance_node()) {
        state.apply(state.sample_chance(rng));
      } else {
        const int count = state.legal_actions(buffer);
        state.apply(buffer[rng.below(static_cast<std::uint32_t>(count))]);
      }
    }
    // Copies go through a volatile-indexed array so the compiler cannot drop them.
    std::vector<typename G::State> sink(2, state);
    volatile int slot = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < copies; ++i) {
      if ((i & 0xffff) == 0) interruption_point();
      sink[static_cast<std::size_t>(slot ^ (i & 1))] = sink[slot];
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::nano>(elapsed).count() / copies;
  }

  double undo_ns(const std::vector<Action>& history, int undos, int copies,
                 bool from_start) const override {
    if (undos < 1 || static_cast<std::size_t>(undos) > history.size())
      throw InvalidArgument(name_ + " undo_ns: undos must be 1.." + std::to_string(history.size()) +
                            " (the history's length), got " + std::to_string(undos));
    if (copies < 1 || copies > kMaxUndoCopies)
      throw InvalidArgument(name_ + " undo_ns: copies must be 1.." +
                            std::to_string(kMaxUndoCopies) + ", got " + std::to_string(copies));
    const std::unique_ptr<AnyState> start = state_from_history(history);
    std::vector<StateAdapter<G>> states(static_cast<std::size_t>(copies),
                                        static_cast<const StateAdapter<G>&>(*start));
    const std::int64_t begin = thread_cpu_ns();
    for (StateAdapter<G>& state : states) {
      interruption_point();
      for (int i = 0; i < undos; ++i) {
        if (from_start)
          state.undo_by_replay_from_start();
        else
          state.undo();
      }
    }
    const std::int64_t elapsed = thread_cpu_ns() - begin;
    return static_cast<double>(elapsed) / (static_cast<double>(copies) * undos);
  }

  double evaluation_ns(const std::string& evaluation, const Json& network,
                       int count) const override {
    if (count < 1 || count > kMaxCopies)
      throw InvalidArgument(name_ + " evaluation_ns: count must be 1.." +
                            std::to_string(kMaxCopies) + ", got " + std::to_string(count));
    if constexpr (EvaluatedGame<G>) {
      const auto names = evaluation_names_of<G>();
      if (std::find(names.begin(), names.end(), evaluation) == names.end())
        throw InvalidArgument(name_ + ": evaluation_ns: no evaluation " + quoted(evaluation));
      const Evaluator<G> evaluator(
          rules_, Json::object({{"evaluation", evaluation}, {"network", network}}));
      std::vector<typename G::State> positions;
      auto state = rules_.initial_state();
      Rng rng(1);
      Action buffer[G::State::kMaxLegalActions];
      while (!state.is_terminal()) {
        if (state.is_chance_node()) {
          state.apply(state.sample_chance(rng));
          continue;
        }
        positions.push_back(state);
        const int legal = state.legal_actions(buffer);
        state.apply(buffer[rng.below(static_cast<std::uint32_t>(legal))]);
      }
      double sink = 0;
      const std::int64_t start = thread_cpu_ns();
      for (int i = 0; i < count; ++i) {
        if ((i & 0xfff) == 0) interruption_point();
        const auto& position = positions[static_cast<std::size_t>(i) % positions.size()];
        sink += evaluator.value(position, position.current_player());
      }
      const std::int64_t elapsed = thread_cpu_ns() - start;
      volatile double kept = sink;  // so the evaluations are not dropped
      static_cast<void>(kept);
      return static_cast<double>(elapsed) / count;
    } else {
      throw InvalidArgument(name_ + " has no evaluation");
    }
  }

  std::unique_ptr<AnyBot> make_bot(const BotSpec& spec, std::uint64_t seed) const override;

  using AnyGame::make_vector_env;
  std::unique_ptr<AnyVectorEnv> make_vector_env(int num_envs, std::uint64_t seed, int threads,
                                                const VectorEnvOptions& options) const override;

  MatchResults play_match(const std::vector<BotSpec>& specs, std::uint64_t seed,
                          std::int64_t first_game, int num_games, int threads, bool keep_histories,
                          int chance_group) const override {
    if (chance_group < 1 || chance_group > kMaxChanceGroup)
      throw InvalidArgument(name_ + " play_match: chance_group must be 1.." +
                            std::to_string(kMaxChanceGroup) + ", got " +
                            std::to_string(chance_group));
    check_match(specs, first_game);
    threads = checked_threads(threads, name_ + " play_match");
    MatchResults results = empty_results(num_games);
    if (keep_histories) results.histories.resize(static_cast<std::size_t>(num_games));
    play_games(specs, seed, first_game, num_games, threads, chance_group, results,
               [](int, const State& state, BotOf<G>& bot, const std::vector<Action>& history) {
                 return bot_step<G>(bot, state, history);
               });
    return results;
  }

  std::int64_t replay_games(const Action* actions, const std::int64_t* starts, std::int64_t begin,
                            std::int64_t end, double* returns) const override {
    return replay_stored_games(rules_, actions, starts, begin, end, returns);
  }

  Positions self_play(const std::vector<BotSpec>& specs, std::uint64_t seed,
                      std::int64_t first_game, int num_games, int threads,
                      int random_decisions) const override {
    check_match(specs, first_game);
    if (random_decisions < 0 || random_decisions > rules_.max_game_length())
      throw InvalidArgument(name_ + " self_play: random_decisions must be 0.." +
                            std::to_string(rules_.max_game_length()) + ", got " +
                            std::to_string(random_decisions));
    threads = checked_threads(threads, name_ + " self_play");
    Positions positions;
    positions.results = empty_results(num_games);
    positions.board_size = compact_board_size();
    positions.features = compact_features_size();
    if constexpr (EvaluatedGame<G>)
      positions.evaluations = static_cast<int>(own_evaluation_names_of<G>().size());
    // Each game's decisions are kept apart while the threads play, then joined in game order, so
    // the positions do not depend on the thread count.
    struct Recorded {
      int decisions = 0;
      std::vector<std::uint8_t> boards;
      std::vector<float> features;
      std::vector<float> evaluations;
      std::vector<std::int8_t> players;
      std::vector<std::int8_t> movers;
      std::vector<float> values;
      std::vector<std::int32_t> policy_rows;  // within the game
      std::vector<std::int32_t> policy_actions;
      std::vector<float> policy_shares;
    };
    std::vector<Recorded> recorded(static_cast<std::size_t>(num_games));
    const auto board_size = static_cast<std::size_t>(positions.board_size);
    const auto features = static_cast<std::size_t>(positions.features);
    const auto seats = static_cast<std::size_t>(num_players());
    play_games(specs, seed, first_game, num_games, threads, 1, positions.results,
               [&](int i, const State& state, BotOf<G>& bot, const std::vector<Action>& history) {
                 Recorded& game = recorded[static_cast<std::size_t>(i)];
                 const Player mover = state.current_player();
                 const int decision = game.decisions++;
                 // Every seat's view, so that a value is learnt for each seat whoever moves.
                 const std::size_t first = game.players.size();
                 game.boards.resize((first + seats) * board_size);
                 game.features.resize((first + seats) * features);
                 for (Player seat = 0; seat < static_cast<Player>(seats); ++seat) {
                   const std::size_t row = first + static_cast<std::size_t>(seat);
                   game.players.push_back(static_cast<std::int8_t>(seat));
                   game.movers.push_back(static_cast<std::int8_t>(mover));
                   rules_.compact_observation(state, seat, game.boards.data() + row * board_size,
                                              game.features.data() + row * features);
                   if constexpr (EvaluatedGame<G>)
                     for (int k = 0; k < positions.evaluations; ++k)
                       game.evaluations.push_back(
                           static_cast<float>(own_evaluation(rules_, state, seat, k)));
                 }
                 Action action;
                 double value = std::numeric_limits<double>::quiet_NaN();
                 if (decision < random_decisions) {
                   Action legal[State::kMaxLegalActions];
                   const int count = state.legal_actions(legal);
                   Rng rng(derive_seed(chance_seed(seed, first_game + i),
                                       static_cast<std::uint64_t>(decision) + 1));
                   action = legal[rng.below(static_cast<std::uint32_t>(count))];
                 } else {
                   action = bot_step<G>(bot, state, history);
                   value = bot_last_value<G>(bot);
                   const std::vector<RootMove> moves = bot_root_moves<G>(bot);
                   std::int64_t visits = 0;
                   for (const RootMove& move : moves) visits += move.visits;
                   for (const RootMove& move : moves) {
                     if (move.visits == 0) continue;
                     game.policy_rows.push_back(static_cast<std::int32_t>(first) + mover);
                     game.policy_actions.push_back(move.action);
                     game.policy_shares.push_back(static_cast<float>(move.visits) /
                                                  static_cast<float>(visits));
                   }
                 }
                 for (std::size_t seat = 0; seat < seats; ++seat)
                   game.values.push_back(static_cast<Player>(seat) == mover
                                             ? static_cast<float>(value)
                                             : std::numeric_limits<float>::quiet_NaN());
                 return action;
               });
    for (int i = 0; i < num_games; ++i) {
      Recorded& game = recorded[static_cast<std::size_t>(i)];
      positions.boards.insert(positions.boards.end(), game.boards.begin(), game.boards.end());
      positions.feature_rows.insert(positions.feature_rows.end(), game.features.begin(),
                                    game.features.end());
      positions.evaluation_rows.insert(positions.evaluation_rows.end(), game.evaluations.begin(),
                                       game.evaluations.end());
      positions.games.insert(positions.games.end(), game.players.size(), i);
      positions.players.insert(positions.players.end(), game.players.begin(), game.players.end());
      positions.movers.insert(positions.movers.end(), game.movers.begin(), game.movers.end());
      positions.search_values.insert(positions.search_values.end(), game.values.begin(),
                                     game.values.end());
      const auto offset = static_cast<std::int32_t>(positions.players.size() - game.players.size());
      for (const std::int32_t row : game.policy_rows) positions.policy_rows.push_back(offset + row);
      positions.policy_actions.insert(positions.policy_actions.end(), game.policy_actions.begin(),
                                      game.policy_actions.end());
      positions.policy_shares.insert(positions.policy_shares.end(), game.policy_shares.begin(),
                                     game.policy_shares.end());
      game = Recorded{};
    }
    return positions;
  }

 private:
  using State = typename G::State;

  void check_match(const std::vector<BotSpec>& specs, std::int64_t first_game) const {
    if (static_cast<int>(specs.size()) != num_players())
      throw InvalidArgument(name_ + ": a match needs one bot per seat (" +
                            std::to_string(num_players()) + "), got " +
                            std::to_string(specs.size()));
    if (first_game < 0 || first_game > kMaxFirstGame)
      throw InvalidArgument(name_ + " play_match: first_game must be 0.." +
                            std::to_string(kMaxFirstGame) + ", got " + std::to_string(first_game));
  }

  // Plays games first_game.. of a match into `results` (sized for them), each thread with bots
  // of its own made before any game (so a bad spec fails first, and bots that share work between
  // instances, the solver, share it throughout). `decide(i, state, bot, history)` gives the
  // decision of game i's player to move, whose bot is `bot`.
  template <class Decide>
  void play_games(const std::vector<BotSpec>& specs, std::uint64_t seed, std::int64_t first_game,
                  int num_games, int threads, int chance_group, MatchResults& results,
                  Decide&& decide) const {
    const int players = num_players();
    std::vector<std::vector<BotOf<G>>> bots_of_thread(
        static_cast<std::size_t>(std::max(1, std::min(threads, num_games))));
    for (auto& bots : bots_of_thread)
      for (const auto& spec : specs) bots.push_back(make_bot_of<G>(rules_, spec, 0));
    const bool keep_histories = !results.histories.empty();
    parallel_ranges(num_games, threads, [&](int thread, int begin, int end) {
      std::vector<BotOf<G>>& bots = bots_of_thread[static_cast<std::size_t>(thread)];
      std::vector<Action> history;  // bots that resample hidden information need it
      history.reserve(static_cast<std::size_t>(rules_.max_game_length()));
      const auto initial = rules_.initial_state();
      for (int i = begin; i < end; ++i) {
        interruption_point();
        const std::int64_t game_index = first_game + i;
        const auto row = static_cast<std::size_t>(i) * players;
        for (int b = 0; b < players; ++b) bot_reseed<G>(bots[b], bot_seed(seed, game_index, b));
        for (int s = 0; s < players; ++s)
          results.seating[row + s] = static_cast<std::int32_t>((s + game_index) % players);
        auto state = initial;
        Rng rng(chance_seed(seed, game_index / chance_group));
        history.clear();
        while (!state.is_terminal()) {
          const Action action =
              state.is_chance_node()
                  ? state.sample_chance(rng)
                  : decide(i, state, bots[results.seating[row + state.current_player()]], history);
          state.apply(action);
          history.push_back(action);
        }
        const auto length = static_cast<std::int32_t>(history.size());
        if (keep_histories) results.histories[static_cast<std::size_t>(i)] = history;
        results.lengths[static_cast<std::size_t>(i)] = length;
        state.returns(&results.returns[row]);
      }
    });
  }

  std::shared_ptr<const GameAdapter> self() const {
    return std::static_pointer_cast<const GameAdapter>(shared_from_this());
  }

  // The game's declared facts, and the rest read from its type and declarations.
  static GameInfo complete_info(const G& rules) {
    GameInfo info = G::info();
    info.name = G::kName;
    const auto specs = G::param_specs();
    const auto players = std::find_if(specs.begin(), specs.end(),
                                      [](const ParamSpec& spec) { return spec.name == "players"; });
    if (players == specs.end()) {
      info.player_counts = {rules.num_players()};
      info.default_players = rules.num_players();
    } else {
      for (const Json& choice : players->choices)
        info.player_counts.push_back(static_cast<int>(choice.as_int()));
      if (players->choices.empty())
        for (auto count = static_cast<int>(players->min); count <= players->max; ++count)
          info.player_counts.push_back(count);
      std::sort(info.player_counts.begin(), info.player_counts.end());
      info.default_players = static_cast<int>(players->default_value.as_int());
    }
    info.evaluation = EvaluatedGame<G>;
    if constexpr (EvaluatedGame<G>) info.evaluations = evaluation_names_of<G>();
    info.presets = presets_of<G>();
    // A game with nothing hidden may still spell out its (trivial) resampling; it draws nothing.
    info.resampling = HiddenInformationGame<G> && info.information == Information::kImperfect;
    // By State method; the compact encoding is observation_tensor(p, kind="compact") there and
    // VectorEnv(obs="compact").
    info.observations = {"information_state_string", "observation_string", "observation_tensor",
                         "compact_observation"};
    info.bots = bot_names_of<G>();
    info.solvers = bot_names_of<G>(BotSelection::kSolvers);
    // Where nothing is hidden, reading the whole state sees nothing a seat may not.
    info.fair_bots = info.information == Information::kPerfect
                         ? info.bots
                         : bot_names_of<G>(BotSelection::kSeatInformationOnly);
    return info;
  }

  MatchResults empty_results(int num_games) const {
    if (num_games < 0 || num_games > kMaxBatchGames)
      throw InvalidArgument(name_ + ": num_games must be 0.." + std::to_string(kMaxBatchGames) +
                            " (play more in several calls), got " + std::to_string(num_games));
    MatchResults results;
    results.num_games = num_games;
    results.num_players = num_players();
    const auto cells = static_cast<std::size_t>(num_games) * num_players();
    results.returns.assign(cells, 0.0);
    results.seating.assign(cells, 0);
    results.lengths.assign(static_cast<std::size_t>(num_games), 0);
    return results;
  }

  G rules_;
  typename G::State initial_;
  std::string name_;
  Json params_;
  std::vector<int> observation_shape_;
  GameInfo info_;
  std::vector<int> compact_board_shape_;
  std::string identity_;
};

// A game as messages name it: its name and parameters (data parameters as given), cut short when
// an inline document makes them long.
inline std::string described(const AnyGame& game) {
  constexpr std::size_t kLongest = 300;
  std::string text = game.name() + " " + game.params().dump();
  if (text.size() > kLongest) text = text.substr(0, kLongest) + "...";
  return text;
}

template <Game G>
class BotAdapter final : public AnyBot {
 public:
  BotAdapter(std::shared_ptr<const GameAdapter<G>> game, BotOf<G> bot, std::string name,
             Json params, std::string preset)
      : game_(std::move(game)),
        bot_(std::move(bot)),
        name_(std::move(name)),
        params_(std::move(params)),
        preset_(std::move(preset)) {}

  const std::string& name() const override { return name_; }
  const std::string& preset() const override { return preset_; }
  const Json& params() const override { return params_; }
  Json stats() const override { return bot_stats<G>(bot_); }

  Action step(const AnyState& state) override {
    const StateAdapter<G>& concrete = checked(state);
    if (state.is_terminal() || state.is_chance_node())
      throw InvalidArgument("bot '" + name_ + "': no player is to move in this state");
    return bot_step<G>(bot_, concrete.state(), concrete.history());
  }

  Json analyse(const AnyState& state) override {
    const StateAdapter<G>& concrete = checked(state);
    std::optional<Json> analysis = bot_analyse<G>(bot_, concrete.state());
    if (!analysis) {
      std::string solvers;
      for (const auto& name : game_->info().solvers)
        solvers += (solvers.empty() ? "" : ", ") + name;
      throw InvalidArgument("bot '" + name_ + "' is not an exact solver and analyses no state; " +
                            G::kName + "'s solvers: " + (solvers.empty() ? "none" : solvers));
    }
    return std::move(*analysis);
  }

 private:
  const StateAdapter<G>& checked(const AnyState& state) const {
    const auto* concrete = dynamic_cast<const StateAdapter<G>*>(&state);
    if (concrete == nullptr)
      throw InvalidArgument("bot '" + name_ + "' plays " + G::kName + ", not " +
                            state.game().name());
    // The bot's search runs on its own game's rules: on a state of other rules (more seats, other
    // cards) it would read past what that state holds.
    if (!game_->same_rules(state.game()))
      throw InvalidArgument("bot '" + name_ + "' was made for " + described(*game_) +
                            ", not for a state of " + described(state.game()) +
                            ", a game with other parameters or data");
    return *concrete;
  }

  std::shared_ptr<const GameAdapter<G>> game_;
  BotOf<G> bot_;
  std::string name_;
  Json params_;
  std::string preset_;
};

// The bots of one environment's seats, each on its own stream.
template <Game G>
class BotSeats final : public SeatBots<G> {
 public:
  // A bad name or parameter is refused naming its seat (the first environment's seats are made
  // before any other's).
  BotSeats(const G& rules, const std::vector<BotSpec>& specs) {
    for (std::size_t seat = 0; seat < specs.size(); ++seat) {
      if (specs[seat].name.empty()) {
        bots_.emplace_back();
        continue;
      }
      try {
        bots_.emplace_back(make_bot_of<G>(rules, specs[seat], 0));
      } catch (const std::invalid_argument& error) {
        throw InvalidArgument("opponents: seat " + std::to_string(seat) + ": " +
                              std::string(message_of(error)));
      }
    }
  }
  bool plays(Player seat) const override { return bots_[seat].has_value(); }
  Action act(const typename G::State& state, const std::vector<Action>& history) override {
    return bot_step<G>(*bots_[state.current_player()], state, history);
  }
  void reseed(std::uint64_t seed) override {
    for (std::size_t seat = 0; seat < bots_.size(); ++seat)
      if (bots_[seat]) bot_reseed<G>(*bots_[seat], derive_seed(seed, seat));
  }
  std::unique_ptr<SeatBots<G>> clone() const override { return std::make_unique<BotSeats>(*this); }

 private:
  std::vector<std::optional<BotOf<G>>> bots_;
};

template <Game G>
std::unique_ptr<AnyVectorEnv> GameAdapter<G>::make_vector_env(
    int num_envs, std::uint64_t seed, int threads, const VectorEnvOptions& options) const {
  std::vector<std::unique_ptr<SeatBots<G>>> bots;
  if (!options.opponents.empty()) {
    const auto& specs = options.opponents;
    if (static_cast<int>(specs.size()) != num_players())
      throw InvalidArgument(name_ + " VectorEnv: opponents needs one entry per seat (" +
                            std::to_string(num_players()) + "), got " +
                            std::to_string(specs.size()));
    if (std::all_of(specs.begin(), specs.end(), [](const BotSpec& s) { return !s.name.empty(); }))
      throw InvalidArgument(name_ + " VectorEnv: opponents leave no seat to the learner");
    if (num_envs < 1 || num_envs > kMaxEnvs)
      throw InvalidArgument("num_envs must be 1.." + std::to_string(kMaxEnvs) + ", got " +
                            std::to_string(num_envs));
    const std::vector<std::string>& fair = info_.fair_bots;
    const std::vector<std::string>& known = info_.bots;  // make_bot_of words unknown names
    for (std::size_t seat = 0; seat < specs.size(); ++seat) {
      // A preset is as fair as the bot it plays.
      const std::string bot = without_preset<G>(specs[seat]).name;
      if (std::find(known.begin(), known.end(), bot) == known.end() ||
          std::find(fair.begin(), fair.end(), bot) != fair.end())
        continue;
      std::string names;
      for (const auto& name : fair) names += (names.empty() ? "" : ", ") + name;
      throw InvalidArgument("opponents: seat " + std::to_string(seat) + ": " + bot +
                            " searches the true state and would see the learner's hidden cards "
                            "in " +
                            name_ + "; use one of " + names);
    }
    bots.reserve(static_cast<std::size_t>(num_envs));
    for (int e = 0; e < num_envs; ++e) bots.push_back(std::make_unique<BotSeats<G>>(rules_, specs));
  }
  return std::make_unique<VectorEnv<G>>(shared_from_this(), rules_, num_envs, seed, threads,
                                        options, std::move(bots));
}

template <Game G>
std::unique_ptr<AnyBot> GameAdapter<G>::make_bot(const BotSpec& spec, std::uint64_t seed) const {
  Json params;
  std::string name;
  BotOf<G> bot = make_bot_of<G>(rules_, spec, seed, &params, &name);
  std::string preset = name == spec.name ? std::string() : spec.name;
  return std::make_unique<BotAdapter<G>>(self(), std::move(bot), std::move(name), std::move(params),
                                         std::move(preset));
}

}  // namespace rivals
