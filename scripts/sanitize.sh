#!/usr/bin/env bash
# Builds the engine with AddressSanitizer and UndefinedBehaviorSanitizer (in .venv-sanitize and
# build/sanitize) and runs the random-simulation, differential, error, thread, sharing, interrupt,
# vector-env and generated-data resampling tests under them (ismcts then checks every action of
# every deal: RIVALS_CHECK_DEALS). Any report makes the run fail. Extra arguments go to pytest.
#
# .venv-sanitize holds only the instrumented rivals; every other package (the build tools, numpy,
# pytest) comes from the project's venv (scripts/setup.sh), so nothing is installed twice.
# RIVALS_TEST_SCALE (default 0.25 here) scales the games each generic test plays, because the
# instrumented engine is several times slower: every game and parameter set is still covered.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup.sh >/dev/null
base="${RIVALS_VENV:-$root/.venv}"
venv="$root/.venv-sanitize"
if [ ! -x "$venv/bin/python" ]; then
  "$base/bin/python" -m venv "$venv"
fi
site() { "$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }
# The base venv may itself reach its packages through a .pth file (a worktree's does): take its
# whole search path, minus the standard library, which the new venv has of its own.
"$base/bin/python" - >"$(site "$venv")/zz_base_venv.pth" <<'PY'
import sys, sysconfig
stdlib = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
print("\n".join(p for p in sys.path if p and p.startswith("/") and p not in stdlib
                and "lib-dynload" not in p and not p.endswith(".zip")))
PY
"$venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps \
  -Ccmake.define.RIVALS_SANITIZE=ON -Ccmake.build-type=RelWithDebInfo \
  -Cbuild-dir=build/sanitize "$root"
# The interpreter itself is not instrumented, so the runtimes are preloaded; CPython's own
# allocations are not leaks of ours, so leak checking stays off.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export RIVALS_TEST_SCALE="${RIVALS_TEST_SCALE:-0.25}"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider -n "${RIVALS_SANITIZE_WORKERS:-auto}" \
  tests/test_invariants.py tests/test_differential.py tests/test_errors.py \
  tests/test_vector_env.py tests/test_threads.py tests/test_hardening.py tests/test_sharing.py \
  tests/test_interrupt.py tests/test_resampling_generated.py "$@"
