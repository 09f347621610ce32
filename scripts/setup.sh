#!/usr/bin/env bash
# Creates .venv (once) and builds and installs rivals into it (incrementally after the first
# time). Every other script starts with this, so a fresh clone needs nothing else.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${RIVALS_VENV:-$root/.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
stamp="$venv/.rivals-deps"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet \
    "scikit-build-core>=0.10" "nanobind>=2.4" "numpy>=1.22" "rich>=12" \
    "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "pexpect>=4.8" "ruff>=0.5" "mypy>=1.8" "clang-format>=17" \
    "ray>=2.9" "open-spiel>=1.5" "pettingzoo>=1.24" "gymnasium>=0.29"
  touch "$stamp"
fi
# --no-build-isolation reuses the build tools above and the CMake build directory under build/,
# so a rebuild after a small change takes seconds.
"$venv/bin/python" -m pip install --quiet --no-build-isolation --no-deps "$root"
