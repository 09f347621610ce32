// A vectorised environment over one concrete game: the states live in one array, chance is
// resolved in C++, and results are written straight into caller-owned buffers (numpy arrays).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rivals/core/any_game.h"
#include "rivals/core/error.h"
#include "rivals/core/game_concept.h"
#include "rivals/core/rng.h"
#include "rivals/core/threads.h"
#include "rivals/core/worker_pool.h"

namespace rivals {

// IEEE binary16 bits of `value`, rounded to nearest even as numpy's astype(float16) does.
inline std::uint16_t half_bits(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((f & 0x80000000u) >> 16);
  std::uint32_t exponent = f & 0x7f800000u;
  if (exponent >= 0x47800000u) {  // too large, infinite or NaN
    const std::uint32_t significand = f & 0x007fffffu;
    if (exponent == 0x7f800000u && significand != 0)
      return static_cast<std::uint16_t>(sign | 0x7c00u | std::max(1u, significand >> 13));
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  }
  if (exponent <= 0x38000000u) {  // a subnormal half, or zero
    if (exponent < 0x33000000u) return sign;
    exponent >>= 23;
    std::uint32_t significand = (0x00800000u + (f & 0x007fffffu)) >> (113 - exponent);
    if ((significand & 0x00003fffu) != 0x00001000u || (f & 0x000007ffu) != 0)
      significand += 0x00001000u;
    return static_cast<std::uint16_t>(sign + (significand >> 13));
  }
  std::uint32_t significand = f & 0x007fffffu;
  if ((significand & 0x00003fffu) != 0x00001000u) significand += 0x00001000u;
  // A carry out of the significand rightly moves into the exponent.
  return static_cast<std::uint16_t>(sign +
                                    (((exponent - 0x38000000u) >> 13) + (significand >> 13)));
}

// The bots that play the seats a learner leaves to others, in one environment (made where the
// bots are known: adapter.h).
template <Game G>
class SeatBots {
 public:
  virtual ~SeatBots() = default;
  virtual bool plays(Player seat) const = 0;
  // The bot's choice for the player to move, a seat it plays.
  virtual Action act(const typename G::State& state, const std::vector<Action>& history) = 0;
  // Seat s's bot draws from the stream derived from (seed, s).
  virtual void reseed(std::uint64_t seed) = 0;
  // The bots as they are now, their streams included, to go back to.
  virtual std::unique_ptr<SeatBots> clone() const = 0;
};

template <Game G>
class VectorEnv final : public AnyVectorEnv {
  using State = typename G::State;

 public:
  VectorEnv(std::shared_ptr<const AnyGame> owner, const G& rules, int num_envs, std::uint64_t seed,
            int threads, const VectorEnvOptions& options,
            std::vector<std::unique_ptr<SeatBots<G>>> bots = {})
      : owner_(std::move(owner)),
        rules_(rules),
        options_(options),
        initial_(rules.initial_state()),
        states_(checked_count(num_envs, *owner_), initial_),
        histories_(static_cast<std::size_t>(num_envs)),
        viewers_(static_cast<std::size_t>(num_envs), 0),
        restart_(static_cast<std::size_t>(num_envs), 1),
        pool_(std::min(checked_threads(threads, owner_->name() + " VectorEnv"), num_envs)),
        obs_size_(options.observation == ObservationKind::kCompact ? owner_->compact_features_size()
                                                                   : owner_->observation_size()),
        board_size_(owner_->compact_board_size()),
        max_legal_(owner_->max_legal_actions()),
        num_actions_(rules.num_distinct_actions()),
        players_(rules.num_players()),
        bots_(std::move(bots)),
        legal_(static_cast<std::size_t>(num_envs) * State::kMaxLegalActions),
        legal_count_(static_cast<std::size_t>(num_envs), 0),
        saved_(static_cast<std::size_t>(num_envs), Saved{initial_}),
        saved_bots_(bots_.empty() ? 0 : static_cast<std::size_t>(num_envs)),
        spare_histories_(static_cast<std::size_t>(num_envs)) {
    rngs_.resize(static_cast<std::size_t>(num_envs));
    samplers_.resize(static_cast<std::size_t>(num_envs));
    for (int e = 0; e < num_envs; ++e) reseed(e, seed);
    for (Player seat = 0; seat < players_; ++seat)
      if (bots_.empty() || !bots_[0]->plays(seat)) learner_seats_.push_back(seat);
  }

  void reset(const VectorBuffers& out, std::optional<std::uint64_t> seed) override {
    check_buffers(out);
    all_or_nothing(
        out, [] {},
        [&](int begin, int end) {
          for (int e = begin; e < end; ++e) {
            save(e);
            if (seed) {
              keep_bots(e);  // before they are reseeded: a roll back puts back the old streams
              reseed(e, *seed);
            }
            restart(e);
            write(e, out, false);
          }
        });
  }

  int num_envs() const override { return static_cast<int>(states_.size()); }

  // On the threads that wrote each block's legal actions, which still hold them in their caches:
  // read from one thread, they would cost more than the draws.
  void sample_legal(std::int32_t* out) override {
    spare_samplers_ = samplers_;  // an interrupted call draws nothing
    try {
      pool_.run(num_envs(), [&](int begin, int end) {
        for (int e = begin; e < end; ++e) {
          const int count = legal_count_[e];
          out[e] = count == 0 ? -1
                              : legal_[static_cast<std::size_t>(e) * State::kMaxLegalActions +
                                       samplers_[e].below(static_cast<std::uint32_t>(count))];
        }
      });
    } catch (...) {
      samplers_.swap(spare_samplers_);
      throw;
    }
  }

  const std::vector<Action>& history(int env) const override {
    if (env < 0 || env >= num_envs())
      throw std::out_of_range("no environment " + std::to_string(env));
    return histories_[static_cast<std::size_t>(env)];
  }

  void step(const std::int32_t* actions, const VectorBuffers& out) override {
    if (actions == nullptr) throw InvalidArgument("VectorEnv step: no actions (a null pointer)");
    check_buffers(out);
    // Each block checks its actions before it changes any of its environments, on the threads
    // (serial work would cap what a second thread gains); the legal actions written with the last
    // results make that a binary search each, not a move generation. An illegal action anywhere
    // puts back what the other blocks did meanwhile, and the error names the first one.
    std::atomic<int> first_illegal{num_envs()};
    const auto illegal = [&] {
      const int e = first_illegal.load(std::memory_order_relaxed);
      if (e == num_envs()) return;
      throw InvalidArgument("environment " + std::to_string(e) + ": action " +
                            std::to_string(actions[e]) + " is not legal for player " +
                            std::to_string(states_[e].current_player()));
    };
    all_or_nothing(out, illegal, [&](int begin, int end) {
      for (int e = begin; e < end; ++e) {
        if (restart_[e]) continue;
        const Action* legal = legal_.data() + static_cast<std::size_t>(e) * State::kMaxLegalActions;
        if (!std::binary_search(legal, legal + legal_count_[e], actions[e])) {
          int first = first_illegal.load(std::memory_order_relaxed);
          while (e < first && !first_illegal.compare_exchange_weak(first, e)) {
          }
          return;
        }
      }
      for (int e = begin; e < end; ++e) {
        save(e);
        if (restart_[e]) {
          restart(e);
          write(e, out, false);
          continue;
        }
        State& state = states_[e];
        viewers_[e] = state.current_player();
        state.apply(actions[e]);
        histories_[e].push_back(actions[e]);
        settle(e);
        restart_[e] = state.is_terminal();
        write(e, out, state.is_terminal());
      }
    });
  }

 private:
  // Chance draws from derive_seed(seed, e) and the bots from streams derived from
  // derive_seed(seed, e) itself, so neither depends on how the environments are split between
  // threads.
  void reseed(int e, std::uint64_t seed) {
    const std::uint64_t stream = derive_seed(seed, static_cast<std::uint64_t>(e));
    rngs_[e] = Rng(stream);
    samplers_[e] = Rng(derive_seed(stream, 2));
    if (!bots_.empty()) bots_[e]->reseed(derive_seed(stream, 1));
  }

  static std::size_t checked_count(int num_envs, const AnyGame& game) {
    if (num_envs < 1 || num_envs > kMaxEnvs)
      throw InvalidArgument("num_envs must be 1.." + std::to_string(kMaxEnvs) + ", got " +
                            std::to_string(num_envs));
    // What one environment holds at most: its state, its legal actions, its game's history, and
    // the rows of the result arrays the caller keeps (observation, legal mask and indices,
    // rewards).
    // The state and the history are held twice: once more for rolling back a failed call (and
    // the random streams: chance's twice, sample_legal's three times).
    const std::size_t per_env =
        2 * sizeof(State) + 5 * sizeof(Rng) + sizeof(Action) * State::kMaxLegalActions +
        2 * sizeof(Action) * static_cast<std::size_t>(game.max_game_length()) +
        sizeof(float) * static_cast<std::size_t>(game.observation_size() + game.num_players()) +
        static_cast<std::size_t>(game.num_distinct_actions()) +
        sizeof(std::int32_t) * static_cast<std::size_t>(game.max_legal_actions() + 1);
    const std::size_t bytes = per_env * static_cast<std::size_t>(num_envs);
    if (bytes > kMaxEnvBytes)
      throw InvalidArgument(game.name() + ": " + std::to_string(num_envs) + " environments need " +
                            std::to_string(bytes >> 20) + " MiB, more than the " +
                            std::to_string(kMaxEnvBytes >> 20) + " MiB one VectorEnv may hold");
    return static_cast<std::size_t>(num_envs);
  }

  // What an environment was before the call that is changing it.
  struct Saved {
    State state;
    std::size_t history_length = 0;
    Rng rng{0};
    Rng sampler{0};
    Player viewer = 0;
    std::uint8_t restart = 0;
    std::uint64_t call = 0;           // the last call that began on the environment
    std::uint8_t history_spared = 0;  // whether restart moved the history to the spare
  };

  // A bot may throw in the middle of a call (Ctrl-C, out of memory) with some environments
  // stepped and one between the learner's move and the bots': every environment the call
  // changed goes back to what it was, its row of the results and its bots too, so that nothing
  // has changed and the next call checks its actions against the true positions. So does a
  // refusal that `verdict` throws once every block is done.
  template <class Verdict, class Body>
  void all_or_nothing(const VectorBuffers& out, const Verdict& verdict, const Body& body) {
    ++call_;
    try {
      pool_.run(num_envs(), body);
      verdict();
    } catch (...) {
      for (int e = 0; e < num_envs(); ++e)
        if (saved_[e].call == call_) roll_back(e, out);
      throw;
    }
    for (auto& bots : saved_bots_) bots.reset();  // not needed past the call
  }

  void save(int e) {
    Saved& saved = saved_[e];
    saved.state = states_[e];
    saved.history_length = histories_[e].size();
    saved.rng = rngs_[e];
    saved.sampler = samplers_[e];
    saved.viewer = viewers_[e];
    saved.restart = restart_[e];
    saved.history_spared = 0;
    saved.call = call_;
    if (!saved_bots_.empty()) saved_bots_[e].reset();
  }

  // The bots as they were before this call first changed them (a move, a reseed), streams and
  // all, for a roll back: the games after it are then an untouched environment's.
  void keep_bots(int e) {
    if (!saved_bots_.empty() && !saved_bots_[e]) saved_bots_[e] = bots_[e]->clone();
  }

  void roll_back(int e, const VectorBuffers& out) {
    const Saved& saved = saved_[e];
    states_[e] = saved.state;
    if (saved.history_spared) histories_[e].swap(spare_histories_[e]);
    histories_[e].resize(saved.history_length);
    rngs_[e] = saved.rng;
    samplers_[e] = saved.sampler;
    viewers_[e] = saved.viewer;
    restart_[e] = saved.restart;
    if (!saved_bots_.empty() && saved_bots_[e]) bots_[e] = std::move(saved_bots_[e]);
    // The row as the last call that succeeded wrote it: a game it ended stays ended until the
    // next call restarts it.
    write(e, out, saved.restart != 0);
  }

  // The finished game's history goes to the spare, which keeps it for a roll back and its
  // capacity for the game after next: recording a history allocates only in the first games.
  void restart(int e) {
    states_[e] = initial_;
    histories_[e].swap(spare_histories_[e]);
    saved_[e].history_spared = 1;
    histories_[e].clear();
    viewers_[e] = learner_seats_.front();
    settle(e);
    restart_[e] = states_[e].is_terminal();
  }

  // Chance, and the bots' seats, until a learner's seat is to decide or the game ends.
  void settle(int e) {
    State& state = states_[e];
    std::vector<Action>& history = histories_[e];
    for (;;) {
      while (state.is_chance_node()) {
        const Action outcome = state.sample_chance(rngs_[e]);
        state.apply(outcome);
        history.push_back(outcome);
      }
      if (state.is_terminal()) return;
      if (bots_.empty() || !bots_[e]->plays(state.current_player())) break;
      keep_bots(e);
      const Action action = bots_[e]->act(state, history);
      state.apply(action);
      history.push_back(action);
    }
    viewers_[e] = state.current_player();
  }

  // Every array the options ask for must be there: a null one is refused before anything changes.
  void check_buffers(const VectorBuffers& out) const {
    struct Needed {
      bool written;
      const void* buffer;
      const char* name;
    };
    const Needed arrays[] = {
        {options_.observation != ObservationKind::kNone, out.obs, "obs"},
        {options_.observation == ObservationKind::kCompact, out.board, "board"},
        {options_.legal_mask, out.legal_mask, "legal_mask"},
        {options_.legal_indices, out.legal_indices, "legal_indices"},
        {options_.legal_indices, out.num_legal, "num_legal"},
        {true, out.player, "player"},
        {true, out.rewards, "rewards"},
        {true, out.terminated, "terminated"},
    };
    for (const Needed& array : arrays)
      if (array.written && array.buffer == nullptr)
        throw InvalidArgument(std::string("VectorEnv: buffer ") + array.name +
                              " is null, and these options write it");
  }

  void write(int e, const VectorBuffers& out, bool ended) {
    const State& state = states_[e];
    const auto row = static_cast<std::size_t>(e);
    if (options_.observation != ObservationKind::kNone) write_observation(state, e, out);
    Action* buffer = legal_.data() + row * State::kMaxLegalActions;
    const int count = state.is_terminal() ? 0 : state.legal_actions(buffer);
    legal_count_[e] = count;
    if (options_.legal_mask) {
      bool* mask = out.legal_mask + row * num_actions_;
      std::fill(mask, mask + num_actions_, false);
      for (int k = 0; k < count; ++k) mask[buffer[k]] = true;
    }
    if (options_.legal_indices) {
      std::int32_t* indices = out.legal_indices + row * max_legal_;
      std::copy(buffer, buffer + count, indices);
      std::fill(indices + count, indices + max_legal_, -1);
      out.num_legal[row] = count;
    }
    out.player[row] = state.current_player();
    double returns[kMaxPlayers] = {};
    if (ended) state.returns(returns);
    for (int p = 0; p < players_; ++p)
      out.rewards[row * players_ + p] = static_cast<float>(returns[p]);
    out.terminated[row] = ended;
  }

  // Halves are written through a float row of the thread's own, then rounded.
  void write_observation(const State& state, int e, const VectorBuffers& out) {
    const auto row = static_cast<std::size_t>(e);
    thread_local std::vector<float> scratch;
    float* floats = static_cast<float*>(out.obs) + row * obs_size_;
    if (options_.half_floats) {
      scratch.resize(static_cast<std::size_t>(obs_size_));
      floats = scratch.data();
    }
    if (options_.observation == ObservationKind::kCompact)
      rules_.compact_observation(state, viewers_[e], out.board + row * board_size_, floats);
    else
      rules_.observation_tensor(state, viewers_[e], floats);
    if (options_.half_floats) {
      std::uint16_t* halves = static_cast<std::uint16_t*>(out.obs) + row * obs_size_;
      for (int i = 0; i < obs_size_; ++i) halves[i] = half_bits(floats[i]);
    }
  }

  std::shared_ptr<const AnyGame> owner_;
  const G& rules_;
  VectorEnvOptions options_;
  State initial_;
  std::vector<State> states_;
  std::vector<std::vector<Action>> histories_;
  std::vector<Rng> rngs_;
  std::vector<Rng> samplers_;        // sample_legal's
  std::vector<Rng> spare_samplers_;  // as they were before the sample_legal under way
  // The learner's seat to move, or at the end the learner's seat that moved last.
  std::vector<Player> viewers_;
  std::vector<std::uint8_t> restart_;
  WorkerPool pool_;
  int obs_size_;  // floats of one observation row: the planes or the compact features
  int board_size_;
  int max_legal_;
  int num_actions_;
  int players_;
  std::vector<std::unique_ptr<SeatBots<G>>> bots_;  // one per environment, or none
  std::vector<Player> learner_seats_;
  // Per environment, its legal actions as last written (ascending), and their count.
  std::vector<Action> legal_;
  std::vector<int> legal_count_;
  std::vector<Saved> saved_;
  std::uint64_t call_ = 0;  // counts the calls that change environments
  std::vector<std::unique_ptr<SeatBots<G>>> saved_bots_;  // per environment, when it has bots
  std::vector<std::vector<Action>> spare_histories_;
};

}  // namespace rivals
