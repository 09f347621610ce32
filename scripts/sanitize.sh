#!/usr/bin/env bash
# Builds the engine with AddressSanitizer and UndefinedBehaviorSanitizer (in .venv-sanitize and
# build/sanitize) and runs the random-simulation, differential and error tests under them.
# Any report makes the run fail. Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/.venv-sanitize"
RIVALS_VENV="$venv" bash scripts/setup.sh >/dev/null
"$venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps \
  -Ccmake.define.RIVALS_SANITIZE=ON -Ccmake.build-type=RelWithDebInfo \
  -Cbuild-dir=build/sanitize "$root"
# The interpreter itself is not instrumented, so the runtimes are preloaded; CPython's own
# allocations are not leaks of ours, so leak checking stays off.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  tests/test_invariants.py tests/test_differential.py tests/test_errors.py \
  tests/test_vector_env.py tests/test_threads.py "$@"
