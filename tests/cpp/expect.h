// Expectations a test program checks and goes on after: each one that does not hold prints
// "failed: <what>"; the program ends with `return finish();`, which prints "ok" when every one
// held (tests/isolated.py reads that last line) and gives the exit status.
#pragma once

#include <cstdio>

inline int failures = 0;

inline void expect(bool holds, const char* what) {
  if (!holds) {
    std::printf("failed: %s\n", what);
    ++failures;
  }
}

inline int finish() {
  if (failures == 0) std::printf("ok\n");
  return failures == 0 ? 0 : 1;
}
