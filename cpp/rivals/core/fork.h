// Forks. fork() copies a process with one thread, the one that called it (what `multiprocessing`
// does by default on Linux): the engine's helper threads are not in the child, nor is any thread
// that held one of its locks or waited on one of its condition variables. Waiting for such a
// thread, joining it, locking its mutex, or even signalling or destroying a condition variable
// it waited on (glibc waits for the waiters to leave) blocks the child for ever.
//
// So an object that owns threads or locks records the process that made them, and in another
// process it leaves them untouched: it starts threads of its own, or refuses with a clear error,
// and forgets the parent's without joining or destroying them (a few bytes kept; the rest of the
// parent's memory is shared copy-on-write anyway).
#pragma once

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace rivals {

namespace detail {

// getpid() is a system call; the id is cached here and renewed in every child. 0 until the fork
// handler is in place.
inline std::atomic<pid_t> process_id_now{0};

inline void renew_process_id() noexcept {
  process_id_now.store(getpid(), std::memory_order_relaxed);
}

// Puts the fork handler in place once; without it (no memory for it) every call asks the system.
inline pid_t tracked_process_id() noexcept {
  static const bool tracking = [] {
    const bool registered = pthread_atfork(nullptr, nullptr, &renew_process_id) == 0;
    if (registered) renew_process_id();
    return registered;
  }();
  return tracking ? process_id_now.load(std::memory_order_relaxed) : getpid();
}

// Done as the library loads, so that process_id() takes its fast path from then on.
inline const pid_t process_id_at_load = tracked_process_id();

}  // namespace detail

// The id of the process running now: cheap enough for every call (an atomic load), and right in
// a forked child from its first instruction on.
inline pid_t process_id() noexcept {
  const pid_t id = detail::process_id_now.load(std::memory_order_relaxed);
  return id != 0 ? id : detail::tracked_process_id();
}

}  // namespace rivals
