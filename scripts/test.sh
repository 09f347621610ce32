#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs every check: lint, format, types and the test suite.
# Extra arguments go to pytest (for example -k rosenkoenig).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
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
echo "== pytest"
# One worker per core: the suite is dominated by the pure-Python reference games.
"$bin/python" -m pytest -q -n auto "$@"
