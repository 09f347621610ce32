#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs every check: lint, format, types and the test suite.
# Extra arguments go to pytest (for example -k rosenkoenig).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
bin="${RIVALS_VENV:-$root/.venv}/bin"

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
echo "== clang-format"
git ls-files 'cpp/*.h' 'cpp/*.cpp' 'bindings/*.h' 'bindings/*.cpp' 'fuzz/*.h' 'fuzz/*.cpp' 'examples/*.cpp' | xargs "$bin/clang-format" --dry-run -Werror
echo "== pytest"
# One worker per core: the suite is dominated by the pure-Python reference games.
"$bin/python" -m pytest -q -n auto "$@"
