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
// deadlocks with the GIL. The same word holds the process of the call that took it: a guard
// that a thread held when the process forked stays held in the child, where that thread does not
// exist, and the error then says so.
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
      std::uint64_t seen = guard_.state_.load(std::memory_order_relaxed);
      std::uint64_t next;
      do {
        const std::int32_t users = users_of(seen);
        if (users < 0) conflict(guard_, kind, call, advice);
        // The first reader marks it as this process's; later ones keep whose it is.
        next = users == 0 ? word(process_id(), 1) : seen + 1;
      } while (!guard_.state_.compare_exchange_weak(seen, next, std::memory_order_acquire,
                                                    std::memory_order_relaxed));
      if (users_of(seen) == 0) guard_.call_.store(call, std::memory_order_relaxed);
    }
    ~Reading() { guard_.state_.fetch_sub(1, std::memory_order_release); }
    Reading(const Reading&) = delete;
    Reading& operator=(const Reading&) = delete;

   private:
    const UseGuard& guard_;
  };

  class Writing {
   public:
    Writing(const UseGuard& guard, const char* kind, const char* call, const char* advice)
        : guard_(guard) {
      std::uint64_t seen = guard_.state_.load(std::memory_order_relaxed);
      do {
        if (users_of(seen) != 0) conflict(guard_, kind, call, advice);
      } while (!guard_.state_.compare_exchange_weak(
          seen, word(process_id(), -1), std::memory_order_acquire, std::memory_order_relaxed));
      guard_.call_.store(call, std::memory_order_relaxed);
    }
    ~Writing() { guard_.state_.store(word(process_id(), 0), std::memory_order_release); }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

   private:
    const UseGuard& guard_;
  };

  // Whether a call of the process this one was forked from holds it: then it is held for good.
  bool held_before_fork() const noexcept {
    const std::uint64_t now = state_.load(std::memory_order_relaxed);
    return users_of(now) != 0 && process_of(now) != process_id();
  }

 private:
  // The process in the high half, the users in the low half (readers, or -1 for a writer).
  static std::uint64_t word(pid_t process, std::int32_t users) noexcept {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(process)) << 32 |
           static_cast<std::uint32_t>(users);
  }
  static std::int32_t users_of(std::uint64_t state) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(state));
  }
  static pid_t process_of(std::uint64_t state) noexcept {
    return static_cast<pid_t>(static_cast<std::uint32_t>(state >> 32));
  }

  [[noreturn]] static void conflict(const UseGuard& guard, const char* kind, const char* call,
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

  mutable std::atomic<std::uint64_t> state_{0};
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
