#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs every check: lint, format, types and the test suite.
# Extra arguments go to pytest (for example -k rosenkoenig).
#
# Every kind of check runs either way; what --full changes is how many random games the
# generic suites play (the differential test against the reference, the random-simulation
# invariants): by default a fifth of them (RIVALS_TEST_SCALE=0.2, a set value of which wins),
# with --full (the first argument) all of them, as CI runs it. README.md says how long each takes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ "${1:-}" = "--full" ]; then
  shift
  export RIVALS_TEST_SCALE=1
  depth="full depth"
else
  export RIVALS_TEST_SCALE="${RIVALS_TEST_SCALE:-0.2}"
  depth="quick depth, scripts/test.sh --full for all of them"
fi
bash scripts/setup.sh
bin="${RIVALS_VENV:-$root/.venv}/bin"
# The replay viewer is tested in a real headless browser, which no Python package provides: on a
# fresh Debian machine this installs it, elsewhere it says what is missing before any test runs.
# The tests' own search for it (tests/test_viewer.py) says whether one is there.
if ! "$bin/python" -c 'import sys; from tests.test_viewer import chromium; sys.exit(chromium() is None)'; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing chromium (apt-get), for the replay viewer's tests"
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "scripts/test.sh: the replay viewer's tests need Chromium; install it (Debian:" \
      "apt-get install chromium) or put chromium on PATH" >&2
    exit 1
  fi
fi

echo "== ruff"
"$bin/ruff" check python tests bench fuzz
"$bin/ruff" format --check python tests bench fuzz
echo "== mypy"
# The stub of the compiled module is generated at build time and installed beside it; mypy reads
# the source tree, so it gets a copy there (ignored by git).
"$bin/python" - <<'PY'
import pathlib, shutil, importlib.util
stub = pathlib.Path(importlib.util.find_spec("rivals._core").origin).with_name("_core.pyi")
shutil.copy(stub, "python/rivals/_core.pyi")
PY
"$bin/mypy"
echo "== docs"
# The site with every warning an error (a broken link, a name the API reference cannot find);
# the API reference of the compiled module reads the stub copied above.
"$bin/mkdocs" build --strict --quiet
echo "== clang-format"
git ls-files 'cpp/*.h' 'cpp/*.cpp' 'bindings/*.h' 'bindings/*.cpp' 'fuzz/*.h' 'fuzz/*.cpp' 'examples/*.cpp' | xargs "$bin/clang-format" --dry-run -Werror
echo "== pytest (random games of the generic suites x$RIVALS_TEST_SCALE: $depth)"
# One worker per core: the suite is dominated by the pure-Python reference games.
"$bin/python" -m pytest -q -n auto "$@"
