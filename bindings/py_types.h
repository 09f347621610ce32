// The Python-visible holders of engine objects, shared by the binding files.
//
// Engine objects are not thread-safe, and Python threads reach them at once whenever a call
// releases the GIL (bot.step, VectorEnv.step). Each holder carries a UseGuard, so a second
// concurrent user gets a RuntimeError naming the call in progress instead of corrupting memory.
#pragma once

#include <nanobind/nanobind.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

#include "rivals/core/any_game.h"

namespace rivals::bindings {

// Raised (as RuntimeError) when an object is used by two threads at once in a way that is unsafe.
class InUseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An in-use guard with one atomic operation per call: any number of readers at once, or one
// writer. It never blocks: a conflicting use throws InUseError at once, which also rules out
// deadlocks with the GIL.
class UseGuard {
 public:
  UseGuard() = default;
  // A copy or a moved-to holder is a fresh object, in use by nobody.
  UseGuard(const UseGuard&) noexcept {}
  UseGuard& operator=(const UseGuard&) = delete;

  class Reading {
   public:
    Reading(const UseGuard& guard, const char* kind, const char* call, const char* advice)
        : guard_(guard) {
      int seen = guard_.users_.load(std::memory_order_relaxed);
      do {
        if (seen < 0) conflict(guard_, kind, call, advice);
      } while (!guard_.users_.compare_exchange_weak(seen, seen + 1, std::memory_order_acquire,
                                                    std::memory_order_relaxed));
      if (seen == 0) guard_.call_.store(call, std::memory_order_relaxed);
    }
    ~Reading() { guard_.users_.fetch_sub(1, std::memory_order_release); }
    Reading(const Reading&) = delete;
    Reading& operator=(const Reading&) = delete;

   private:
    const UseGuard& guard_;
  };

  class Writing {
   public:
    Writing(const UseGuard& guard, const char* kind, const char* call, const char* advice)
        : guard_(guard) {
      int idle = 0;
      if (!guard_.users_.compare_exchange_strong(idle, -1, std::memory_order_acquire,
                                                 std::memory_order_relaxed))
        conflict(guard_, kind, call, advice);
      guard_.call_.store(call, std::memory_order_relaxed);
    }
    ~Writing() { guard_.users_.store(0, std::memory_order_release); }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

   private:
    const UseGuard& guard_;
  };

 private:
  [[noreturn]] static void conflict(const UseGuard& guard, const char* kind, const char* call,
                                    const char* advice) {
    const char* other = guard.call_.load(std::memory_order_relaxed);
    // The other call is another thread's, or the same thread's when Python code it runs (an
    // argument's __index__, a signal handler) calls back in.
    throw InUseError(std::string("this ") + kind + " is in use by another call (" +
                     (other != nullptr ? other : "a call") +
                     ", on another thread or in Python code it ran) and cannot be used for " +
                     call + " meanwhile; " + advice);
  }

  mutable std::atomic<int> users_{0};               // readers, or -1 for a writer
  mutable std::atomic<const char*> call_{nullptr};  // the call holding it, for the message
};

struct PyGame {
  std::shared_ptr<AnyGame> impl;
};

struct PyState {
  std::unique_ptr<AnyState> impl;
  UseGuard guard;

  // Several threads may read one state at once (bots, str()); a change needs it to itself.
  UseGuard::Reading reading(const char* call) const {
    return {guard, "State", call, "clone() it for each thread"};
  }
  UseGuard::Writing writing(const char* call) const {
    return {guard, "State", call, "clone() it for each thread"};
  }
};

struct PyBot {
  std::unique_ptr<AnyBot> impl;
  UseGuard guard;

  // A bot keeps its search tree between moves: one caller at a time.
  UseGuard::Writing using_it(const char* call) const {
    return {guard, "Bot", call, "make one bot per thread"};
  }
};

void bind_vector_env(nanobind::module_& m);
void bind_game_info(nanobind::module_& m);

}  // namespace rivals::bindings
