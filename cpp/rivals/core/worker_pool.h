// A fixed set of worker threads that run one job over index blocks and wait for each other.
//
// A vectorised environment steps every few microseconds; starting threads per step would cost more
// than the step itself, so the workers live as long as the environment and sleep between jobs.
// A job that fails or is interrupted on one thread stops the others at their next interruption
// point (interrupt.h), so the bots a job runs never think on after Ctrl-C.
//
// A forked child (fork.h) has none of the workers: its first job starts a crew of its own, and the
// parent's crew, whose lock and condition variables only the parent's threads could release, is
// left untouched.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "rivals/core/fork.h"
#include "rivals/core/interrupt.h"

namespace rivals {

class WorkerPool {
 public:
  // `threads` counts the calling thread, which takes the first block itself. Throws
  // std::runtime_error, with every worker already started stopped and joined, when the system
  // refuses a thread.
  explicit WorkerPool(int threads) : threads_(threads) {
    if (threads_ > 1) crew_ = Crew::start(threads_);
  }

  ~WorkerPool() {
    if (crew_ && crew_->process != process_id()) (void)crew_.release();  // the parent's: see top
  }

  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return threads_; }

  // Calls body(begin, end) on disjoint blocks covering [0, count); returns when all are done and
  // rethrows the first exception any block raised.
  void run(int count, const std::function<void(int, int)>& body) {
    if (threads_ == 1 || count < 2) {
      body(0, count);
      return;
    }
    if (crew_->process != process_id()) {
      std::unique_ptr<Crew> own = Crew::start(threads_);  // throws with the parent's crew kept
      (void)crew_.release();
      crew_ = std::move(own);
    }
    crew_->run(count, body);
  }

 private:
  // The workers and what they share, on the heap so that a child can drop it without a word.
  struct Crew {
    explicit Crew(int threads) : threads(threads) {}

    static std::unique_ptr<Crew> start(int threads) {
      auto crew = std::make_unique<Crew>(threads);
      crew->workers.reserve(static_cast<std::size_t>(threads - 1));
      for (int t = 1; t < threads; ++t) {
        try {
          crew->workers.emplace_back([raw = crew.get(), t] { raw->work(t); });
        } catch (const std::system_error& error) {
          throw std::runtime_error("could not start worker thread " + std::to_string(t) + " (" +
                                   error.what() + "); ask for fewer threads");
        }
      }
      return crew;
    }

    ~Crew() {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stopping.store(true, std::memory_order_release);
      }
      wake.notify_all();
      for (auto& worker : workers)
        if (worker.joinable()) worker.join();
    }

    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;

    void run(int items, const std::function<void(int, int)>& job) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        body = &job;
        count = items;
        pending.store(threads - 1, std::memory_order_relaxed);
        error = nullptr;
        stop.stop = false;
        stop.parent = detail::thread_context.chain;  // a stop of the caller's own group reaches
        generation.fetch_add(1, std::memory_order_release);
      }
      wake.notify_all();
      std::exception_ptr own_error;
      try {
        job(0, block_end(0, items));
      } catch (...) {
        own_error = std::current_exception();
        stop.stop = true;
      }
      // The blocks are of equal size, so the workers usually finish within microseconds of the
      // caller: it watches for that before it sleeps, which a wake-up through the kernel would
      // cost more than a small step.
      caller_watch.watch([this] { return pending.load(std::memory_order_acquire) == 0; });
      // The caller's block may end first: it still answers Ctrl-C while the workers run.
      std::unique_lock<std::mutex> lock(mutex);
      while (!done.wait_for(lock, kInterruptPoll,
                            [this] { return pending.load(std::memory_order_acquire) == 0; })) {
        if (own_error) continue;
        lock.unlock();
        try {
          interruption_point();
        } catch (...) {
          own_error = std::current_exception();
          stop.stop = true;
        }
        lock.lock();
      }
      body = nullptr;
      if (own_error) std::rethrow_exception(own_error);
      if (error) std::rethrow_exception(error);
    }

    int block_end(int t, int items) const {
      return static_cast<int>(static_cast<long long>(items) * (t + 1) / threads);
    }

    // Whether `ready` became true within `budget`, checked without sleeping. Past the first
    // microseconds (a system call costs about one) the core goes to any other thread waiting for
    // it between checks: on a busy machine, often the very thread being waited for.
    template <class Ready>
    static bool spin_until(std::chrono::microseconds budget, const Ready& ready) {
      const auto start = std::chrono::steady_clock::now();
      for (;;) {
        for (int k = 0; k < 64; ++k) {
          if (ready()) return true;
          cpu_relax();
        }
        const auto spent = std::chrono::steady_clock::now() - start;
        if (spent >= budget) return false;
        if (spent >= kPoliteAfter) std::this_thread::yield();
      }
    }

    static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    }

    void work(int t) {
      detail::thread_context.chain = &stop;
      unsigned long long seen = 0;
      Watch watch;
      while (true) {
        // The next step of a training loop follows within microseconds: a worker that watches
        // for it a little while answers at once, one that slept waits for the kernel to wake it.
        // The job and its size are written before the generation (release), so a worker that saw
        // the new generation reads them without the lock.
        const auto next = [&] {
          return generation.load(std::memory_order_acquire) != seen ||
                 stopping.load(std::memory_order_acquire);
        };
        if (!watch.watch(next)) {
          std::unique_lock<std::mutex> lock(mutex);
          wake.wait(lock, next);
        }
        if (stopping.load(std::memory_order_acquire)) return;
        seen = generation.load(std::memory_order_acquire);
        const std::function<void(int, int)>* job = body;
        const int size = count;
        std::exception_ptr failure;
        try {
          (*job)(block_end(t - 1, size), block_end(t, size));
        } catch (...) {
          failure = std::current_exception();
          stop.stop = true;
        }
        if (failure) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = failure;
        }
        // The last one tells a caller that gave up watching and sleeps; under the lock, so the
        // caller cannot be between its check and its wait.
        if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(mutex);
          done.notify_one();
        }
      }
    }

    // How long a thread watches for another before it sleeps, at most: a few steps' worth of a
    // small game, a fraction of a core between slow steps.
    static constexpr std::chrono::microseconds kLongestWatch{200};
    // Enough for the Python between two calls of a tight loop, so that such a loop is always
    // caught once it starts again.
    static constexpr std::chrono::microseconds kShortestWatch{20};

    // Watching that adapts: each wait that ends while watched doubles the next watch, each that
    // outlasts it halves it, down to kShortestWatch. On a busy machine the thread waited for is
    // often off its core for milliseconds, and watching would only take time from the process's
    // other threads (which share its part of the machine); nor does watching pay when the caller
    // spends long between steps (a network's forward pass).
    struct Watch {
      std::chrono::microseconds budget = kLongestWatch;

      template <class Ready>
      bool watch(const Ready& ready) {
        const bool seen = spin_until(budget, ready);
        budget = seen ? std::min(kLongestWatch, 2 * budget) : std::max(kShortestWatch, budget / 2);
        return seen;
      }
    };
    static constexpr std::chrono::microseconds kPoliteAfter{20};

    const int threads;
    const pid_t process = process_id();
    std::vector<std::thread> workers;
    std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable done;
    const std::function<void(int, int)>* body = nullptr;
    int count = 0;
    std::atomic<int> pending{0};
    std::atomic<unsigned long long> generation{0};
    std::atomic<bool> stopping{false};
    std::exception_ptr error;
    detail::StopChain stop;  // the workers' interruption points read it
    Watch caller_watch;      // the caller's, for the workers' end
  };

  int threads_;
  std::unique_ptr<Crew> crew_;  // none for one thread
};

}  // namespace rivals
