// The exact Sekigahara solver as a bot (sekigahara/solver.h). It is a bot template like the
// others so that it sits in every game's bot variant, but only Sekigahara can construct it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "rivals/core/game_concept.h"
#include "rivals/sekigahara/game.h"
#include "rivals/sekigahara/solver.h"

namespace rivals {

template <Game G>
class SolverBot {
 public:
  static constexpr const char* kName = "solver";
  static std::vector<ParamSpec> param_specs() { return sekigahara::solver_param_specs(); }

  SolverBot(const G& /*game*/, const Json& /*params*/, std::uint64_t /*seed*/) {
    throw InvalidArgument("solver plays only sekigahara");
  }
  void reseed(std::uint64_t /*seed*/) {}
  Action step(const typename G::State& /*state*/) {
    throw std::logic_error("solver plays only sekigahara");
  }
};

// One table of solved contexts for every solver bot of the same cards and repetition rule, for
// as long as any of them lives. Solving from the opening takes minutes and about a gigabyte, and
// every game of a match starts there, so the bots of a match (one per seat and thread) and the
// matches of an arena (which keeps a bot alive between them) solve it once. The solver is exact:
// which bot solved a context first changes no move. Moves are chosen under a lock, one at a time.
class SharedSolver {
 public:
  static std::shared_ptr<SharedSolver> of(const sekigahara::Setup& setup) {
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

  explicit SharedSolver(const sekigahara::Setup& setup) : solver_(setup, {}) {}

  Action best_action(const sekigahara::State& state, const sekigahara::SolverLimits& limits) {
    std::lock_guard lock(mutex_);
    solver_.set_limits(limits);
    return solver_.best_action(state);
  }

  std::int64_t contexts_solved() const noexcept { return solver_.contexts_solved(); }

 private:
  // The solver ignores max_turns; the card numbers and the repetition rule are all it reads.
  static std::string key_of(const sekigahara::Setup& setup) {
    std::string key(1, static_cast<char>(setup.rule));
    for (int card = 1; card <= sekigahara::kNumCards; ++card) {
      key += static_cast<char>(setup.numbers.strength[card]);
      key += static_cast<char>(setup.numbers.requirement[card]);
    }
    return key;
  }

  std::mutex mutex_;
  sekigahara::Solver solver_;
};

// Plays an optimal action, and when it can force a win it also makes progress towards it. The
// solver is exact, so the seed is unused.
template <>
class SolverBot<sekigahara::Sekigahara> {
 public:
  static constexpr const char* kName = "solver";
  static std::vector<ParamSpec> param_specs() { return sekigahara::solver_param_specs(); }

  SolverBot(const sekigahara::Sekigahara& game, const Json& params, std::uint64_t /*seed*/)
      : limits_(limits(params)), solver_(SharedSolver::of(game.setup())) {}
  void reseed(std::uint64_t /*seed*/) {}
  Action step(const sekigahara::State& state) { return solver_->best_action(state, limits_); }
  // For progress displays: the contexts in the shared table so far.
  Json stats() const { return Json::object({{"contexts", Json(solver_->contexts_solved())}}); }

 private:
  static sekigahara::SolverLimits limits(const Json& params) {
    return {params.find("max_contexts")->as_int(), params.find("time_s")->as_number()};
  }

  sekigahara::SolverLimits limits_;
  std::shared_ptr<SharedSolver> solver_;
};

}  // namespace rivals
