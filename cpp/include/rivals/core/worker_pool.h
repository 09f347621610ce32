// A fixed set of worker threads that run one job over index blocks and wait for each other.
//
// A vectorised environment steps every few microseconds; starting threads per step would cost more
// than the step itself, so the workers live as long as the environment and sleep between jobs.
// A job that fails or is interrupted on one thread stops the others at their next interruption
// point (interrupt.h), so the bots a job runs never think on after Ctrl-C.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "rivals/core/interrupt.h"

namespace rivals {

class WorkerPool {
 public:
  // `threads` counts the calling thread, which takes the first block itself. Throws
  // std::runtime_error, with every worker already started stopped and joined, when the system
  // refuses a thread.
  explicit WorkerPool(int threads) {
    workers_.reserve(static_cast<std::size_t>(threads > 1 ? threads - 1 : 0));
    for (int t = 1; t < threads; ++t) {
      try {
        workers_.emplace_back([this, t] { work(t); });
      } catch (const std::system_error& error) {
        shut_down();
        throw std::runtime_error("could not start worker thread " + std::to_string(t) + " (" +
                                 error.what() + "); ask for fewer threads");
      }
    }
  }

  ~WorkerPool() { shut_down(); }

  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls body(begin, end) on disjoint blocks covering [0, count); returns when all are done and
  // rethrows the first exception any block raised.
  void run(int count, const std::function<void(int, int)>& body) {
    const int n = threads();
    if (n == 1 || count < 2) {
      body(0, count);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      count_ = count;
      pending_ = n - 1;
      error_ = nullptr;
      stop_.stop = false;
      stop_.parent = detail::thread_context.chain;  // a stop of the caller's own group reaches
      ++generation_;
    }
    wake_.notify_all();
    std::exception_ptr own_error;
    try {
      body(0, block_end(0, count));
    } catch (...) {
      own_error = std::current_exception();
      stop_.stop = true;
    }
    // The caller's block may end first: it still answers Ctrl-C while the workers run.
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_.wait_for(lock, kInterruptPoll, [this] { return pending_ == 0; })) {
      if (own_error) continue;
      lock.unlock();
      try {
        interruption_point();
      } catch (...) {
        own_error = std::current_exception();
        stop_.stop = true;
      }
      lock.lock();
    }
    body_ = nullptr;
    if (own_error) std::rethrow_exception(own_error);
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void shut_down() noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& worker : workers_)
      if (worker.joinable()) worker.join();
  }

  int block_end(int t, int count) const {
    return static_cast<int>(static_cast<long long>(count) * (t + 1) / threads());
  }

  void work(int t) {
    detail::thread_context.chain = &stop_;
    unsigned long long seen = 0;
    while (true) {
      const std::function<void(int, int)>* body;
      int count;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        body = body_;
        count = count_;
      }
      std::exception_ptr error;
      try {
        (*body)(block_end(t - 1, count), block_end(t, count));
      } catch (...) {
        error = std::current_exception();
        stop_.stop = true;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error && !error_) error_ = error;
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int, int)>* body_ = nullptr;
  int count_ = 0;
  int pending_ = 0;
  unsigned long long generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  detail::StopChain stop_;  // the workers' interruption points read it
};

}  // namespace rivals
