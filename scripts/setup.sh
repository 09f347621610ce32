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

# A build says on standard error what it is doing and how long it usually takes before pip,
# which is quiet, starts, then every minute that it is still at it, then how long it took; a run
# with nothing to build prints nothing.
ticker=""
stop_ticker() {
  if [ -n "$ticker" ]; then
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    ticker=""
  fi
}
trap stop_ticker EXIT
building() {
  echo "rivals: $1" >&2
  began=$SECONDS
  (
    # Stopped, it stops its sleep too: nothing of it outlives the build. The job table knows the
    # sleep from the moment it is forked (a variable set after the fork could still be unset when
    # the signal comes), and the sleep holds none of the caller's pipes open should it outlive us.
    trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
    minutes=0
    while :; do
      sleep 60 </dev/null >/dev/null 2>&1 &
      wait $!
      minutes=$((minutes + 1))
      echo "rivals: still building ($minutes min)" >&2
    done
  ) &
  ticker=$!
}
built_in() {
  stop_ticker
  echo "rivals: done in $((SECONDS - began)) s" >&2
}

# --no-build-isolation builds with the venv's own scikit-build-core and nanobind and keeps the
# CMake build directory under build/, so a rebuild after a small change takes seconds.
install=("$venv/bin/python" -m pip install --quiet --no-build-isolation)
if changed "$deps" "$root/pyproject.toml"; then
  building "setting up $venv: the dependencies, then the C++ engine compiled into build/
  (the first time usually 5 to 8 minutes on two cores; later only what changed is rebuilt)"
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
  built_in
elif changed "$built" "${inputs[@]}"; then
  building "rebuilding the C++ engine in build/: the files changed since the last build (usually
  seconds to a minute; a change to a header every game includes, several minutes)"
  started="$(mktemp "$venv/.rivals-started.XXXXXX")"
  "${install[@]}" --no-deps --editable "$root"
  touch -r "$started" "$built"
  rm -f "$started"
  built_in
fi
