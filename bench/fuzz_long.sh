#!/usr/bin/env bash
# The long fuzzing run: every harness of scripts/fuzz.sh (the libFuzzer ones and the atheris ones)
# for SECONDS each, default 75, so about 11 minutes for the nine of them. Corpora persist in
# build/fuzz/corpus, so each run starts where the last one stopped. Prints per harness the
# executions, libFuzzer's coverage counts (cov: edges reached, or Python branches for the atheris
# harnesses; ft: features) and the result; a crash stops that harness and fails the run, with the
# input in build/fuzz/artifacts. Extra arguments go to scripts/fuzz.sh (harness names, options).
#
#   bench/fuzz_long.sh            # 75 s per harness
#   bench/fuzz_long.sh 600 cpp_actions
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=75
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds="$1"
  shift
fi
exec bash "$root/scripts/fuzz.sh" --seconds "$seconds" "$@"
