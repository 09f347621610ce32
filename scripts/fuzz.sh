#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/cpp, clang, engine instrumented, ASan + UBSan) in build/fuzz
# and runs each of them and each atheris harness (fuzz/fuzz_*.py, in the project's venv) for a
# while, then prints executions, coverage and crashes per harness. Any crash fails the run.
#
#   scripts/fuzz.sh                      30 s per harness
#   scripts/fuzz.sh --ci                 the CI budget: about a minute in all after the build
#   scripts/fuzz.sh --seconds 120        per C++ harness (--python-seconds for the atheris ones)
#   scripts/fuzz.sh cpp_json replay      only these harnesses
#   RIVALS_VENV=/path RIVALS_SETUP=0     atheris harnesses in that venv, taken as it is
#
# Needs clang and its fuzzer runtime (Debian: apt-get install -y clang libclang-rt-14-dev).
# Corpora grow in build/fuzz/corpus/<harness> (with --ci: a fresh build/fuzz/ci-corpus each time,
# so a grown corpus cannot stretch the budget); fuzz/regressions/<harness> is replayed first.
# Crashing inputs land in build/fuzz/artifacts; keep each one in fuzz/regressions (docs/fuzzing.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cpp_seconds=30
py_seconds=30
only=()
corpus_root="build/fuzz/corpus"
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) cpp_seconds=7; py_seconds=5; corpus_root="build/fuzz/ci-corpus" ;;
    --seconds) cpp_seconds="$2"; py_seconds="$2"; shift ;;
    --python-seconds) py_seconds="$2"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) only+=("$1") ;;
  esac
  shift
done

cpp_targets=(cpp_json cpp_actions cpp_data cpp_network)
py_targets=()
for harness in fuzz/fuzz_*.py; do
  name="$(basename "$harness" .py)"
  py_targets+=("${name#fuzz_}")
done
wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local t
  for t in "${only[@]}"; do [ "$t" = "$1" ] && return 0; done
  return 1
}
for t in "${only[@]}"; do
  case " ${cpp_targets[*]} ${py_targets[*]} " in
    *" $t "*) ;;
    *) echo "fuzz.sh: no harness '$t'; harnesses: ${cpp_targets[*]} ${py_targets[*]}" >&2; exit 2 ;;
  esac
done

out="$root/build/fuzz"
corpus_root="$root/$corpus_root"
[ "$corpus_root" = "$out/ci-corpus" ] && rm -rf "$corpus_root"
mkdir -p "$out/logs" "$out/artifacts" "$corpus_root"
py=python3

# --- Venv and build ----------------------------------------------------------------------------
need_cpp=0
for t in "${cpp_targets[@]}"; do wanted "$t" && need_cpp=1; done
need_py=0
for t in "${py_targets[@]}"; do wanted "$t" && need_py=1; done
cmake=cmake
if [ "$need_py" = 1 ] || { [ "$need_cpp" = 1 ] && ! command -v cmake >/dev/null; }; then
  venv="${RIVALS_VENV:-$root/.venv}"
  # RIVALS_SETUP=0 takes the venv as it is (already built by the caller).
  [ "${RIVALS_SETUP:-1}" = 0 ] || bash scripts/setup.sh >&2
  py="$venv/bin/python"
  if [ "$need_py" = 1 ]; then
    "$py" -c "import atheris" 2>/dev/null || "$py" -m pip install --quiet atheris
  fi
  if ! command -v cmake >/dev/null; then
    [ -x "$venv/bin/cmake" ] || "$py" -m pip install --quiet cmake ninja
    cmake="$venv/bin/cmake"
    PATH="$venv/bin:$PATH"
  fi
fi
if [ "$need_cpp" = 1 ]; then
  if ! command -v clang++ >/dev/null; then
    echo "fuzz.sh: clang++ not found (Debian: apt-get install -y clang libclang-rt-14-dev)" >&2
    exit 2
  fi
  generator=()
  if [ ! -f "$out/cpp/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    generator=(-G Ninja)
  fi
  echo "== building the libFuzzer harnesses in build/fuzz/cpp" >&2
  # Line tables (with the inlined frames) are all a crash report's stack needs; full debug info
  # would only make the build and link slower.
  "$cmake" -S "$root" -B "$out/cpp" "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DRIVALS_PYTHON=OFF -DRIVALS_FUZZ=ON >"$out/logs/cmake.log" 2>&1 ||
    { tail -30 "$out/logs/cmake.log" >&2; exit 1; }
  "$cmake" --build "$out/cpp" -j "$(nproc)" >"$out/logs/build.log" 2>&1 ||
    { tail -30 "$out/logs/build.log" >&2; exit 1; }
fi

# --- Seeds and dictionary ----------------------------------------------------------------------
# The shipped data files seed the JSON and data harnesses; their keys and short strings, with
# JSON's own tokens, make the dictionary. Both follow python/rivals/data, so new games count.
"$py" - "$out" "$corpus_root" <<'PY'
import json, random, shutil, sys
from pathlib import Path

out, corpora = Path(sys.argv[1]), Path(sys.argv[2])
data = sorted(Path("python/rivals/data").glob("*.json"))
for target in ("cpp_json", "cpp_data"):
    corpus = corpora / target
    corpus.mkdir(parents=True, exist_ok=True)
    for path in data:
        shutil.copyfile(path, corpus / path.name)
corpus = corpora / "cpp_actions"
corpus.mkdir(parents=True, exist_ok=True)
rng = random.Random(0)
for game in range(16):
    # Bytes below 192 keep every default parameter and pick legal actions: deep games.
    body = bytes(rng.randrange(192) for _ in range(3000))
    (corpus / f"seed-{game:02d}").write_bytes(bytes([game]) + body)

tokens = {"{", "}", "[", "]", ",", ":", "true", "false", "null", "-0", "1e308", "\\u0000", '"'}
def walk(value):
    if isinstance(value, dict):
        for key, item in value.items():
            tokens.add(json.dumps(key))
            walk(item)
    elif isinstance(value, list):
        for item in value:
            walk(item)
    elif isinstance(value, str) and len(value) <= 24:
        tokens.add(json.dumps(value, ensure_ascii=False))
for path in data:
    walk(json.loads(path.read_text(encoding="utf-8")))
def entry(token):
    raw = token.encode("utf-8")
    return '"' + "".join(
        chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\x{b:02x}" for b in raw
    ) + '"'
(out / "json.dict").write_text("".join(entry(t) + "\n" for t in sorted(tokens)))
PY

# --- Runs --------------------------------------------------------------------------------------
failed=()
summary=()
run() {
  local name="$1" seconds="$2"
  shift 2
  local log="$out/logs/$name.log"
  local regressions="$root/fuzz/regressions/$name"
  local corpora=("$corpus_root/$name")
  mkdir -p "${corpora[0]}"
  [ -d "$regressions" ] && corpora+=("$regressions")
  echo "== $name: ${seconds}s" >&2
  local status=0
  "$@" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
    "${corpora[@]}" >"$log" 2>&1 || status=$?
  local execs cov ft
  execs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  ft="$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  local result=ok
  if [ "$status" != 0 ]; then
    result="FAILED (exit $status; see build/fuzz/logs/$name.log)"
    local artifact
    artifact="$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //' || true)"
    [ -n "$artifact" ] && result="CRASH ${artifact#"$root"/}"
    failed+=("$name")
  fi
  summary+=("$(printf '%-12s %6ss %10s %7s %7s  %s' "$name" "$seconds" "${execs:--}" "${cov:--}" "${ft:--}" "$result")")
}

for t in "${cpp_targets[@]}"; do
  wanted "$t" || continue
  extra=(-timeout=10)
  case "$t" in cpp_json|cpp_data|cpp_network) extra+=(-dict="$out/json.dict") ;; esac
  run "$t" "$cpp_seconds" "$out/cpp/fuzz_${t#cpp_}" "${extra[@]}"
done
for t in "${py_targets[@]}"; do
  wanted "$t" || continue
  extra=(-timeout=30)
  [ "$t" = replay ] && extra+=(-dict="$out/json.dict")
  run "$t" "$py_seconds" "$py" "fuzz/fuzz_$t.py" "${extra[@]}"
done

printf '%-12s %7s %10s %7s %7s  %s\n' harness time execs cov ft result
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: failures in ${failed[*]}; reproduce with the harness and the input, e.g." >&2
  echo "  build/fuzz/cpp/fuzz_json INPUT   or   python fuzz/fuzz_replay.py INPUT" >&2
  exit 1
fi
