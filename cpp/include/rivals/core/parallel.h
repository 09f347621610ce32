// Spreads independent work items over threads in contiguous blocks. Items must not depend on
// which thread runs them (each carries its own seed), so any thread count gives the same results.
#pragma once

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace rivals {

// Calls body(thread_index, begin, end) for disjoint ranges covering [0, count).
template <class Body>
void parallel_blocks(int count, int threads, Body&& body) {
  threads = std::max(1, std::min(threads, count));
  if (threads == 1) {
    body(0, 0, count);
    return;
  }
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    const int begin = static_cast<int>(static_cast<long long>(count) * t / threads);
    const int end = static_cast<int>(static_cast<long long>(count) * (t + 1) / threads);
    workers.emplace_back([&, t, begin, end] {
      try {
        body(t, begin, end);
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  for (auto& worker : workers) worker.join();
  for (auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace rivals
