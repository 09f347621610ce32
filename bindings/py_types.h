// The Python-visible holders of engine objects, shared by the binding files.
//
// Engine objects are not thread-safe, and Python threads reach them at once whenever a call
// releases the GIL (bot.step, VectorEnv.step). Each holder carries a UseGuard, so a second
// concurrent user gets a RuntimeError naming the call in progress instead of corrupting memory.
#pragma once

#include <nanobind/nanobind.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "rivals/core/any_game.h"
#include "rivals/core/fork.h"

namespace rivals::bindings {

// Raised (as RuntimeError) when an object is used by two threads at once in a way that is unsafe.
class InUseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An in-use guard with one atomic operation per call: any number of readers at once, or one
// writer. It never blocks: a conflicting use throws InUseError at once, which also rules out
// deadlocks with the GIL. A guard that a thread held when the process forked stays held in the
// child, where that thread does not exist: it notes the process of the call that took it, so
// that the error can say so.
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
      if (seen == 0) guard_.note(call);
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
      guard_.note(call);
    }
    ~Writing() { guard_.users_.store(0, std::memory_order_release); }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

   private:
    const UseGuard& guard_;
  };

  // Whether a call of the process this one was forked from holds it: then it is held for good.
  bool held_before_fork() const noexcept {
    return users_.load(std::memory_order_relaxed) != 0 &&
           process_.load(std::memory_order_relaxed) != process_id();
  }

 private:
  // Noted just after the guard is taken: the process starts as the one that made the guard, so
  // a call that meets another one in between never takes it for the parent's; only in a forked
  // child's first use can it see the parent's process a moment longer (and word its error so).
  void note(const char* call) const noexcept {
    call_.store(call, std::memory_order_relaxed);
    process_.store(process_id(), std::memory_order_relaxed);
  }

  // Out of line: the calls that pass stay a compare-and-swap.
  [[noreturn, gnu::cold, gnu::noinline]] static void conflict(const UseGuard& guard,
                                                              const char* kind, const char* call,
                                                              const char* advice) {
    const char* held = guard.call_.load(std::memory_order_relaxed);
    const std::string other = held != nullptr ? held : "a call";
    if (guard.held_before_fork())
      throw InUseError(std::string("this ") + kind + " was in use by " + other +
                       " on another thread when this process was forked; that call does not go "
                       "on here, so this process cannot use it for " +
                       call + ": make a new " + kind + " in this process");
    // The other call is another thread's, or the same thread's when Python code it runs (an
    // argument's __index__, a signal handler) calls back in.
    throw InUseError(std::string("this ") + kind + " is in use by another call (" + other +
                     ", on another thread or in Python code it ran) and cannot be used for " +
                     call + " meanwhile; " + advice);
  }

  mutable std::atomic<int> users_{0};                 // readers, or -1 for a writer
  mutable std::atomic<const char*> call_{nullptr};    // the call holding it, for the message
  mutable std::atomic<pid_t> process_{process_id()};  // the process of that call
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

// Each bound class, from a file of its own (the module, module.cpp, calls them in this order).
void bind_game(nanobind::module_& m);
void bind_state(nanobind::module_& m);
void bind_bot(nanobind::module_& m);
void bind_game_info(nanobind::module_& m);
void bind_vector_env(nanobind::module_& m);

}  // namespace rivals::bindings
