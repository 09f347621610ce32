// Spreads independent work items over threads, in contiguous blocks or in small ranges taken in
// turn. Items must not depend on which thread runs them (each carries its own seed), so any
// thread count gives the same results.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "rivals/core/threads.h"

namespace rivals {

// Calls body(thread_index, begin, end) for disjoint ranges covering [0, count); the calling thread
// takes the first block. `threads` must already be checked (checked_threads). The first error of
// any block (Interrupted included) stops the others and is rethrown once all threads are joined.
template <class Body>
void parallel_blocks(int count, int threads, Body&& body) {
  threads = std::max(1, std::min(threads, count));
  const auto block = [&](int t) {
    const int begin = static_cast<int>(static_cast<long long>(count) * t / threads);
    const int end = static_cast<int>(static_cast<long long>(count) * (t + 1) / threads);
    body(t, begin, end);
  };
  if (threads == 1) {
    block(0);
    return;
  }
  ThreadGroup helpers(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) helpers.start([&block, t] { block(t); });
  block(0);
  helpers.wait();
}

// Calls body(thread_index, begin, end) for disjoint ranges covering [0, count), each thread taking
// the next range of about count / (threads * 32) items whenever it is free: items of uneven cost
// (games of different lengths) keep every thread busy to the end, where equal blocks leave one
// waiting for the other. `threads` must already be checked (checked_threads). The first error of
// any range (Interrupted included) stops the others and is rethrown once all threads are joined.
template <class Body>
void parallel_ranges(int count, int threads, Body&& body) {
  threads = std::max(1, std::min(threads, count));
  if (threads == 1) {
    body(0, 0, count);
    return;
  }
  const std::int64_t grain = std::max(1, count / (threads * 32));
  std::atomic<std::int64_t> next = 0;
  std::atomic<bool> failed = false;
  const auto work = [&](int t) {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const std::int64_t begin = next.fetch_add(grain, std::memory_order_relaxed);
        if (begin >= count) return;
        body(t, static_cast<int>(begin),
             static_cast<int>(std::min<std::int64_t>(count, begin + grain)));
      }
    } catch (...) {
      failed = true;
      throw;
    }
  };
  ThreadGroup helpers(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) helpers.start([&work, t] { work(t); });
  work(0);
  helpers.wait();
}

}  // namespace rivals
