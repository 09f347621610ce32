#!/usr/bin/env bash
# Builds a wheel with each given Python, installs it into a fresh venv with nothing but pytest and
# hypothesis (what cibuildwheel's test step installs), and runs the smoke selection there
# (`pytest tests --smoke`, see tests/conftest.py) from outside the source tree, as cibuildwheel does.
#
#   scripts/smoke.sh 3.9 3.13                 the oldest and newest supported Python (CI): found
#                                             as python3.9 on PATH or in pyenv's versions
#   scripts/smoke.sh /path/to/python ...      any interpreters
#
# Everything goes to build/smoke/<version>/: the wheel and the venv, made anew each time, and the
# CMake build tree, kept, so a second run rebuilds incrementally.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -eq 0 ]; then
  sed -n '2,10p' "$0" >&2
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
for wanted in "$@"; do
  python="$(interpreter "$wanted")"
  version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  out="$root/build/smoke/$version"
  echo "== Python $version: wheel"
  rm -rf "$out/wheel" "$out/venv"
  mkdir -p "$out"
  # A build directory per Python keeps the CMake cache of the other builds intact.
  "$python" -m pip wheel --quiet --no-deps --wheel-dir "$out/wheel" \
    --config-settings=build-dir="$out/cmake" "$root"
  echo "== Python $version: the wheel alone, with pytest and hypothesis"
  "$python" -m venv "$out/venv"
  "$out/venv/bin/python" -m pip install --quiet "$out"/wheel/rivals-*.whl pytest hypothesis
  (cd "$out" && "$out/venv/bin/python" -m pytest "$root/tests" --smoke -q -p no:cacheprovider)
done
