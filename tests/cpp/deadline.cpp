// Checks what each budget clock counts: sleeping spends wall-clock time and no CPU time, and a
// thread CPU deadline counts its own thread's work, not another thread's. Prints "ok".
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "expect.h"
#include "rivals/core/deadline.h"

namespace {

void spin_until(const rivals::Deadline& deadline) {
  volatile std::uint64_t sink = 0;
  while (!deadline.passed()) sink = sink + 1;
}

}  // namespace

int main() {
  using rivals::BudgetClock;
  using rivals::Deadline;
  constexpr double kBudget = 0.05;
  const auto sleep = std::chrono::milliseconds(150);

  const Deadline wall(kBudget, BudgetClock::kWall);
  const Deadline cpu(kBudget, BudgetClock::kThreadCpu);
  std::this_thread::sleep_for(sleep);
  expect(wall.passed(), "the wall deadline passes while the thread sleeps");
  expect(!cpu.passed(), "the CPU deadline does not pass while the thread sleeps");

  const auto before = rivals::thread_cpu_ns();
  spin_until(cpu);
  expect(rivals::thread_cpu_ns() - before >= 40'000'000,
         "spinning to the CPU deadline spends the budget");

  // Another thread burns CPU for longer than the budget; this thread's deadline stays ahead.
  const Deadline idle(kBudget, BudgetClock::kThreadCpu);
  std::thread burner([] { spin_until(Deadline(3 * kBudget, BudgetClock::kThreadCpu)); });
  burner.join();
  expect(!idle.passed(), "another thread's work does not count against this thread's deadline");
  spin_until(idle);

  const Deadline none(0, BudgetClock::kThreadCpu);
  expect(none.passed(), "a zero budget has passed at once");

  return finish();
}
