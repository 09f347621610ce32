// The end of a bot's time budget (`time_s`), on one of two clocks. The wall clock is what a person
// waiting for a move sees. The searching thread's CPU time makes the search itself independent of
// the machine's load: on a shared machine a loaded core stretches the wait for a move, not the
// work done in it, so strength measured there matches an idle machine's.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "rivals/core/json.h"
#include "rivals/core/params.h"

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <time.h>
#endif

namespace rivals {

enum class BudgetClock : std::uint8_t { kWall, kThreadCpu };

// The `clock` parameter of every bot with `time_s`.
inline ParamSpec budget_clock_spec() {
  return ParamSpec::choice(
      "clock", Json("wall"), {Json("wall"), Json("cpu")},
      "what time_s counts: 'wall' seconds, or 'cpu' seconds of the searching thread (the same "
      "search on a loaded machine as on an idle one, and a longer wait)");
}

inline BudgetClock parse_budget_clock(const Json& params) {
  return params.find("clock")->as_string() == "cpu" ? BudgetClock::kThreadCpu : BudgetClock::kWall;
}

// Nanoseconds of CPU time the calling thread has used.
inline std::int64_t thread_cpu_ns() {
#ifdef _WIN32
  FILETIME created, exited, kernel, user;
  GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user);
  const auto ticks = [](const FILETIME& t) {
    return (static_cast<std::int64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime;
  };
  return (ticks(kernel) + ticks(user)) * 100;  // FILETIME counts 100 ns ticks
#else
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
#endif
}

// Seconds on `clock` since some fixed point: differences measure a span on that clock.
inline double clock_seconds(BudgetClock clock) {
  if (clock == BudgetClock::kThreadCpu) return static_cast<double>(thread_cpu_ns()) * 1e-9;
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Starts on construction; `passed()` reads the chosen clock. A thread CPU deadline belongs to
// the thread that made it: each tree of a root-parallel search makes its own.
class Deadline {
 public:
  Deadline(double seconds, BudgetClock clock) : clock_(clock) {
    const auto span = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(seconds));
    if (clock_ == BudgetClock::kWall) {
      wall_end_ = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(span);
    } else {
      cpu_end_ns_ = thread_cpu_ns() + span.count();
    }
  }

  bool passed() const {
    return clock_ == BudgetClock::kWall ? std::chrono::steady_clock::now() >= wall_end_
                                        : thread_cpu_ns() >= cpu_end_ns_;
  }

 private:
  BudgetClock clock_;
  std::chrono::steady_clock::time_point wall_end_{};
  std::int64_t cpu_end_ns_ = 0;
};

}  // namespace rivals
