// Helper threads that always end joined. Every thread the engine starts goes through ThreadGroup:
// when the system refuses a thread (std::system_error: out of memory or of processes), when a
// helper throws, or when the call is interrupted (interrupt.h), the threads already running are
// told to stop, joined, and the error reaches the caller as an exception, never as
// std::terminate.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "rivals/core/error.h"
#include "rivals/core/interrupt.h"

namespace rivals {

// An atomic that copies by value: a bot's progress (bot.stats()), which another thread may read
// while the bot searches. A bot is copied or moved into place once, never while it searches, so
// the copy needs no more than the loads.
template <class T>
class CopyableAtomic {
 public:
  // Implicit, so that a member reads `CopyableAtomic<int> depth_ = 0;`.
  CopyableAtomic(T value = T{}) : value_(value) {}
  CopyableAtomic(const CopyableAtomic& other) : value_(other.load()) {}
  CopyableAtomic& operator=(const CopyableAtomic& other) {
    value_.store(other.load());
    return *this;
  }
  CopyableAtomic& operator=(T value) {
    value_.store(value);
    return *this;
  }
  T load() const { return value_.load(); }

 private:
  std::atomic<T> value_;
};

// A value that copies by value under a lock: what a bot found in its last search (bot.stats()'s
// root moves), written when the search ends and readable from another thread meanwhile.
template <class T>
class Guarded {
 public:
  Guarded() = default;
  Guarded(const Guarded& other) : value_(other.get()) {}
  Guarded& operator=(const Guarded& other) {
    if (this != &other) set(other.get());
    return *this;
  }
  T get() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return value_;
  }
  void set(T value) {
    const std::lock_guard<std::mutex> lock(mutex_);
    value_ = std::move(value);
  }

 private:
  mutable std::mutex mutex_;
  T value_{};
};

// Data that different threads write often starts a cache line apart: two threads writing into
// one line take turns owning it and run at a fraction of their speed (false sharing), as two
// search trees did whose random generators sat beside each other in one vector.
// (std::hardware_destructive_interference_size would do, but GCC warns that it may differ
// between the compilations that share a type.)
inline constexpr std::size_t kCacheLine = 64;

// The most threads one call may ask for (`threads=` of batches, vectorised environments and
// searches). Far above any core count the engine is tuned for, low enough that a typo cannot ask
// the system for thousands of stacks.
inline constexpr int kMaxThreads = 256;

// `threads` if it is in 1..kMaxThreads, else std::invalid_argument naming `what`.
inline int checked_threads(std::int64_t threads, std::string_view what) {
  if (threads < 1 || threads > kMaxThreads)
    throw InvalidArgument(std::string(what) + ": threads must be 1.." +
                          std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
  return static_cast<int>(threads);
}

class ThreadGroup {
 public:
  // `expected` is how many threads start() will be asked for, so starting them cannot fail on
  // memory for the list itself half way through.
  explicit ThreadGroup(std::size_t expected) {
    chain_.parent = detail::thread_context.chain;
    threads_.reserve(expected);
  }

  // Unwinding past a group that was not waited for (the caller's own share of the work threw):
  // the helpers are stopped and joined, and their errors dropped for the one already in flight.
  ~ThreadGroup() {
    stop();
    join_all();
  }

  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;

  // Runs fn() on a new thread whose interruption points see this group's stop flag. Throws
  // std::runtime_error when the system refuses the thread, after stopping and joining the others.
  template <class Fn>
  void start(Fn&& fn) {
    const std::size_t index = threads_.size();
    try {
      threads_.emplace_back([this, work = std::forward<Fn>(fn)]() mutable { run(work); });
    } catch (const std::system_error& error) {
      stop();
      join_all();
      throw std::runtime_error("could not start helper thread " + std::to_string(index + 1) + " (" +
                               error.what() + "); ask for fewer threads");
    }
  }

  // Asks every helper to stop at its next interruption point.
  void stop() noexcept { chain_.stop.store(true, std::memory_order_relaxed); }

  // Waits for every helper, meanwhile reaching an interruption point every kInterruptPoll (so a
  // caller that finished its own share still answers Ctrl-C). Then rethrows the first error a
  // helper raised, an interrupt only when nothing else went wrong.
  void wait() {
    bool interrupted_here = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      while (finished_ < threads_.size()) {
        done_.wait_for(lock, kInterruptPoll);
        if (interrupted_here || finished_ == threads_.size()) continue;
        lock.unlock();
        try {
          interruption_point();
        } catch (const Interrupted&) {
          interrupted_here = true;
          stop();
        }
        lock.lock();
      }
    }
    join_all();
    if (error_) std::rethrow_exception(error_);
    if (interrupted_here) throw Interrupted();
  }

 private:
  template <class Fn>
  void run(Fn& work) noexcept {
    detail::thread_context.chain = &chain_;
    std::exception_ptr error;
    bool interrupted = false;
    try {
      work();
    } catch (const Interrupted&) {
      error = std::current_exception();
      interrupted = true;
    } catch (...) {
      error = std::current_exception();
    }
    if (error) stop();
    std::lock_guard<std::mutex> lock(mutex_);
    if (error && (!error_ || (error_is_interrupt_ && !interrupted))) {
      error_ = error;
      error_is_interrupt_ = interrupted;
    }
    ++finished_;
    done_.notify_one();
  }

  void join_all() noexcept {
    for (auto& thread : threads_)
      if (thread.joinable()) thread.join();
  }

  detail::StopChain chain_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable done_;
  std::size_t finished_ = 0;
  std::exception_ptr error_;
  bool error_is_interrupt_ = false;
};

}  // namespace rivals
