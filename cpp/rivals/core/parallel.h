// Spreads independent work items over threads in contiguous blocks. Items must not depend on
// which thread runs them (each carries its own seed), so any thread count gives the same results.
#pragma once

#include <algorithm>

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

}  // namespace rivals
