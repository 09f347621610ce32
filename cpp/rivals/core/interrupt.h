// Stopping long calls on request. A search, a batch of games or a solve can run for minutes; the
// application embedding the engine installs a check (the Python module's runs Python's signal
// handlers, so Ctrl-C works), and every long loop reaches an interruption point at least every
// kInterruptPoll. When the check asks to stop, the loop throws Interrupted, which unwinds like any
// error: helper threads are stopped and joined (threads.h), and every object stays usable.
//
// Only a thread the application called from asks the check; helper threads started by the engine
// (ThreadGroup) instead see a stop flag of the group that started them, so the check needs no
// locking and runs on the thread the application expects it on.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>

namespace rivals {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

// Returns true when the call running on this thread should stop. Called at most every
// kInterruptPoll per thread; it must be cheap and must not throw.
using InterruptCheck = bool (*)() noexcept;

inline constexpr std::chrono::milliseconds kInterruptPoll{50};

namespace detail {

// The stop flag of a group of helper threads, linked to the group that started the thread which
// made it, so a stop anywhere up the chain reaches every thread below.
struct StopChain {
  std::atomic<bool> stop{false};
  const StopChain* parent = nullptr;

  bool requested() const noexcept {
    for (const StopChain* link = this; link != nullptr; link = link->parent)
      if (link->stop.load(std::memory_order_relaxed)) return true;
    return false;
  }
};

struct ThreadContext {
  const StopChain* chain = nullptr;  // set on the engine's helper threads
  std::chrono::steady_clock::time_point next_check{};
};

inline std::atomic<InterruptCheck> interrupt_check{nullptr};
inline thread_local ThreadContext thread_context;

}  // namespace detail

// Installs the application's check (nullptr removes it). Process-wide.
inline void set_interrupt_check(InterruptCheck check) noexcept { detail::interrupt_check = check; }

// For a thread the application starts itself to run an engine call in the background, which its
// check cannot reach (Python's runs on the main thread only): while that thread holds what
// listen() returns, stop() from any thread ends the call at its next interruption point (and so
// does a stop of a group the thread belongs to).
class StopFlag {
 public:
  class Listening {
   public:
    explicit Listening(StopFlag& flag) noexcept : previous_(detail::thread_context.chain) {
      flag.chain_.parent = previous_;
      detail::thread_context.chain = &flag.chain_;
    }
    ~Listening() { detail::thread_context.chain = previous_; }
    Listening(const Listening&) = delete;
    Listening& operator=(const Listening&) = delete;

   private:
    const detail::StopChain* previous_;
  };

  [[nodiscard]] Listening listen() noexcept { return Listening(*this); }
  void stop() noexcept { chain_.stop.store(true, std::memory_order_relaxed); }
  void clear() noexcept { chain_.stop.store(false, std::memory_order_relaxed); }

 private:
  detail::StopChain chain_;
};

// Throws Interrupted when this call should stop. Cheap enough for every few microseconds of work:
// a thread-local read, and on the application's threads a clock read.
inline void interruption_point() {
  auto& context = detail::thread_context;
  if (context.chain != nullptr) {
    if (context.chain->requested()) throw Interrupted();
    return;
  }
  const InterruptCheck check = detail::interrupt_check.load(std::memory_order_relaxed);
  if (check == nullptr) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < context.next_check) return;
  context.next_check = now + kInterruptPoll;
  if (check()) throw Interrupted();
}

}  // namespace rivals
