#include "rivals/sekigahara/solver_bot.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "rivals/sekigahara/game.h"

namespace rivals::sekigahara {

// One table of solved contexts for every solver bot of the same cards and repetition rule, for
// as long as any of them lives. Solving from the opening takes minutes and about a gigabyte, and
// every game of a match starts there, so the bots of a match (one per seat and thread) and the
// matches of an arena (which keeps a bot alive between them) solve it once. The solver is exact:
// which bot solved a context first changes no move. Moves are chosen under a lock, one at a time.
class SharedSolver {
 public:
  static std::shared_ptr<SharedSolver> of(const Setup& setup) {
    static std::mutex registry_mutex;
    static std::map<std::string, std::weak_ptr<SharedSolver>> registry;
    const std::string key = key_of(setup);
    std::lock_guard lock(registry_mutex);
    std::weak_ptr<SharedSolver>& slot = registry[key];
    std::shared_ptr<SharedSolver> shared = slot.lock();
    if (!shared) {
      shared = std::make_shared<SharedSolver>(setup);
      slot = shared;
    }
    // Entries whose solvers are gone would otherwise pile up over many card sets.
    std::erase_if(registry, [](const auto& entry) { return entry.second.expired(); });
    return shared;
  }

  explicit SharedSolver(const Setup& setup) : solver_(setup, {}) {}

  Action best_action(const State& state, const SolverLimits& limits) {
    std::lock_guard lock(mutex_);
    solver_.set_limits(limits);
    return solver_.best_action(state);
  }

  Json analyse(const State& state, const SolverLimits& limits) {
    std::lock_guard lock(mutex_);
    const auto start = std::chrono::steady_clock::now();
    solver_.set_limits(limits);
    const double value = solver_.value(state);
    const Action best = solver_.best_action(state);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return Json::object({{"returns", Json(Json::Array{Json(value), Json(-value)})},
                         {"action", Json(best)},
                         {"contexts", Json(solver_.stats().contexts)},
                         {"nodes", Json(solver_.stats().nodes)},
                         {"seconds", Json(took.count())}});
  }

  std::int64_t contexts_solved() const noexcept { return solver_.contexts_solved(); }

 private:
  // The solver ignores max_turns; the card numbers and the repetition rule are all it reads.
  static std::string key_of(const Setup& setup) {
    std::string key(1, static_cast<char>(setup.rule));
    for (int card = 1; card <= kNumCards; ++card) {
      key += static_cast<char>(setup.numbers.strength[card]);
      key += static_cast<char>(setup.numbers.requirement[card]);
    }
    return key;
  }

  std::mutex mutex_;
  Solver solver_;
};

SolverBot::SolverBot(const Sekigahara& game, const Json& params, std::uint64_t /*seed*/)
    : limits_{params.find("max_contexts")->as_int(), params.find("time_s")->as_number()},
      solver_(SharedSolver::of(game.setup())) {}

Action SolverBot::step(const State& state) { return solver_->best_action(state, limits_); }

Json SolverBot::stats() const {
  return Json::object({{"contexts", Json(solver_->contexts_solved())}});
}

Json SolverBot::analyse(const State& state) { return solver_->analyse(state, limits_); }

}  // namespace rivals::sekigahara
