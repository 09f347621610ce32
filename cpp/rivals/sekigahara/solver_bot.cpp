#include "rivals/sekigahara/solver_bot.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "rivals/core/interrupt.h"
#include "rivals/sekigahara/game.h"

namespace rivals::sekigahara {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

// One table of solved contexts for every solver bot of the same cards and repetition rule, for
// as long as any of them lives. Solving from the opening takes minutes and about a gigabyte, and
// every game of a match starts there, so the bots of a match (one per seat and thread) and the
// matches of an arena (which keeps a bot alive between them) solve it once. The solver is exact:
// which bot solved a context first changes no move. Moves are chosen under a lock, one at a time;
// waiting for it answers interrupts and counts against the waiting bot's time_s.
//
// Forks: a child process has only the thread that forked. A table that another thread was
// solving in then is locked for ever in the child and may be half written: the child leaves it
// alone (it stays allocated, copy-on-write, never touched) and solves in a table of its own. A
// table that nobody was using is the child's to use, with everything the parent solved.
class SharedSolver {
 public:
  static std::shared_ptr<SharedSolver> of(const Setup& setup) {
    Registry& shared = registry();
    const std::string key = key_of(setup);
    std::lock_guard lock(shared.mutex);
    std::weak_ptr<SharedSolver>& slot = shared.tables[key];
    std::shared_ptr<SharedSolver> table = slot.lock();
    if (!table) {
      table = std::make_shared<SharedSolver>(setup);
      slot = table;
    }
    // Entries whose solvers are gone would otherwise pile up over many card sets.
    std::erase_if(shared.tables, [](const auto& entry) { return entry.second.expired(); });
    return table;
  }

  explicit SharedSolver(const Setup& setup) : setup_(setup), solver_(setup, {}) {}

  const Setup& setup() const { return setup_; }

  // Whether another thread was using this table when this process was forked from its parent.
  bool abandoned() const noexcept { return abandoned_.load(std::memory_order_relaxed); }

  Action best_action(const State& state, const SolverLimits& limits) {
    const Turn turn = take_turn(limits);
    solver_.set_limits(turn.limits);
    return solver_.best_action(state);
  }

  Json analyse(const State& state, const SolverLimits& limits) {
    const Turn turn = take_turn(limits);
    const auto start = Clock::now();
    solver_.set_limits(turn.limits);
    const double value = solver_.value(state);
    const Action best = solver_.best_action(state);
    return Json::object({{"returns", Json(Json::Array{Json(value), Json(-value)})},
                         {"action", Json(best)},
                         {"contexts", Json(solver_.stats().contexts)},
                         {"nodes", Json(solver_.stats().nodes)},
                         {"seconds", Json(seconds_since(start))}});
  }

  std::int64_t contexts_solved() const noexcept { return solver_.contexts_solved(); }

 private:
  struct Registry {
    std::mutex mutex;
    std::map<std::string, std::weak_ptr<SharedSolver>> tables;
    // Between the fork handlers: the tables nobody was using, locked by the forking thread.
    std::vector<std::shared_ptr<SharedSolver>> idle_at_fork;
    // In a child: the tables abandoned at a fork, kept so that nothing ever frees them.
    std::vector<std::shared_ptr<SharedSolver>> abandoned;
  };

  // Never destroyed: a fork handler may run while the program exits.
  static Registry& registry() {
    static Registry* const shared = [] {
      if (pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child) != 0)
        throw std::runtime_error("sekigahara solver: no room for its fork handlers");
      return new Registry;
    }();
    return *shared;
  }

  // Every table that is idle now is locked until the fork is done, so that it stays idle; one
  // that is in use cannot be waited for (a solve takes minutes).
  static void before_fork() noexcept {
    Registry& shared = registry();
    shared.mutex.lock();
    for (const auto& [key, slot] : shared.tables) {
      std::shared_ptr<SharedSolver> table = slot.lock();
      if (!table || !table->mutex_.try_lock()) continue;
      try {
        shared.idle_at_fork.push_back(std::move(table));
      } catch (const std::bad_alloc&) {
        table->mutex_.unlock();  // treated as in use: a child solves afresh
      }
    }
  }

  static void after_fork_in_parent() noexcept {
    Registry& shared = registry();
    std::vector<std::shared_ptr<SharedSolver>> held;
    held.swap(shared.idle_at_fork);
    for (const auto& table : held) table->mutex_.unlock();
    shared.mutex.unlock();
  }  // a table whose last bot went meanwhile is freed here, outside the lock

  static void after_fork_in_child() noexcept {
    Registry& shared = registry();
    for (auto entry = shared.tables.begin(); entry != shared.tables.end();) {
      std::shared_ptr<SharedSolver> table = entry->second.lock();
      if (table && std::ranges::find(shared.idle_at_fork, table) != shared.idle_at_fork.end()) {
        ++entry;
        continue;
      }
      if (table) {
        table->abandoned_.store(true, std::memory_order_relaxed);
        try {
          shared.abandoned.push_back(std::move(table));
        } catch (const std::bad_alloc&) {
          new std::shared_ptr<SharedSolver>(std::move(table));  // kept all the same
        }
      }
      entry = shared.tables.erase(entry);
    }
    for (const auto& table : shared.idle_at_fork) table->mutex_.unlock();
    shared.idle_at_fork.clear();
    shared.mutex.unlock();
  }

  // The table to this thread alone, its limits less the time spent waiting.
  struct Turn {
    std::unique_lock<std::timed_mutex> lock;
    SolverLimits limits;
  };

  // Another solver of these cards may hold the table for minutes (solving the opening): the wait
  // reaches an interruption point every kInterruptPoll and ends with the budget's time_s.
  Turn take_turn(const SolverLimits& limits) {
    const auto start = Clock::now();
    std::unique_lock lock(mutex_, std::defer_lock);
    while (!lock.try_lock_for(kInterruptPoll)) {
      interruption_point();
      if (limits.time_s > 0 && seconds_since(start) >= limits.time_s) break;
    }
    SolverLimits left = limits;
    if (limits.time_s > 0) {
      left.time_s -= seconds_since(start);
      if (!lock.owns_lock() || left.time_s <= 0)
        throw SolverBudgetExceeded(
            "sekigahara solver: out of time (" + std::to_string(limits.time_s) +
            " s) waiting for another solver of the same cards, which shares their table");
    }
    return {std::move(lock), left};
  }

  // The solver ignores max_turns; the card numbers and the repetition rule are all it reads.
  static std::string key_of(const Setup& setup) {
    std::string key(1, static_cast<char>(setup.rule));
    for (int card = 1; card <= kNumCards; ++card) {
      key += static_cast<char>(setup.numbers.strength[card]);
      key += static_cast<char>(setup.numbers.requirement[card]);
    }
    return key;
  }

  const Setup setup_;
  std::timed_mutex mutex_;
  std::atomic<bool> abandoned_{false};
  Solver solver_;
};

SolverBot::SolverBot(const Sekigahara& game, const Json& params, std::uint64_t /*seed*/)
    : limits_{params.find("max_contexts")->as_int(), params.find("time_s")->as_number()},
      solver_(SharedSolver::of(game.setup())) {}

SharedSolver& SolverBot::table() {
  if (solver_->abandoned()) solver_ = SharedSolver::of(solver_->setup());
  return *solver_;
}

Action SolverBot::step(const State& state) { return table().best_action(state, limits_); }

Json SolverBot::stats() const {
  return Json::object({{"contexts", Json(solver_->contexts_solved())}});
}

Json SolverBot::analyse(const State& state) { return table().analyse(state, limits_); }

}  // namespace rivals::sekigahara
