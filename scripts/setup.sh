#!/usr/bin/env bash
# Creates .venv (once) and installs rivals into it as an editable package with everything its
# checks need (pyproject.toml's "dev" extra). Every other script starts with this, so a fresh clone
# needs nothing else.
#
# The install is editable: the Python files are used where they are, so a change to them needs no
# step. Only when a compiled input (the C++, the bindings, the build files, the embedded data or the
# rules pages the package carries) has changed since the last build does this rebuild, and only when
# pyproject.toml has changed does it ask pip for the dependencies again; otherwise it returns at once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${RIVALS_VENV:-$root/.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
deps="$venv/.rivals-deps"
built="$venv/.rivals-built"
inputs=("$root/pyproject.toml" "$root/CMakeLists.txt" "$root/cmake" "$root/cpp" "$root/bindings"
  "$root/docs/rules" "$root/python/rivals/data")
changed() { [ ! -f "$1" ] || [ -n "$(find "${@:2}" -newer "$1" -print -quit)" ]; }
# shellcheck source=scripts/compiler_cache.sh
source "$root/scripts/compiler_cache.sh"

# --no-build-isolation builds with the venv's own scikit-build-core and nanobind and keeps the
# CMake build directory under build/, so a rebuild after a small change takes seconds.
install=("$venv/bin/python" -m pip install --quiet --no-build-isolation)
if changed "$deps" "$root/pyproject.toml"; then
  started="$(mktemp "$venv/.rivals-started.XXXXXX")"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  # The build requirements are those of pyproject.toml's [build-system] table: pip installs them
  # itself only into an isolated build, which would not keep the build directory.
  # shellcheck disable=SC2046
  "$venv/bin/python" -m pip install --quiet $("$venv/bin/python" - "$root/pyproject.toml" <<'PY'
import sys
try:
    import tomllib
except ModuleNotFoundError:  # Python before 3.11: the copy that pip carries
    from pip._vendor import tomli as tomllib
with open(sys.argv[1], "rb") as file:
    print(" ".join(tomllib.load(file)["build-system"]["requires"]))
PY
)
  "${install[@]}" --editable "$root[dev]"
  touch -r "$started" "$deps" "$built"
  rm -f "$started"
elif changed "$built" "${inputs[@]}"; then
  started="$(mktemp "$venv/.rivals-started.XXXXXX")"
  "${install[@]}" --no-deps --editable "$root"
  touch -r "$started" "$built"
  rm -f "$started"
fi
