"""Peak memory of `rivals arena` as the number of games grows: it should stay flat.

    python bench/arena_memory.py                       # 10k, 100k and 1M random games
    python bench/arena_memory.py --games 1000 10000    # other sizes
    python bench/arena_memory.py --python /other/venv/bin/python   # another installation

Each run is a fresh `python -m rivals.cli arena GAME --bots random --games N` process; its peak
resident set comes from the kernel (`wait4`'s `ru_maxrss`), so nothing is sampled and the run
itself is untouched. Runs with replays write them to /dev/null (`--out /dev/null`): the replay
stream is built and written in full, but a million games' replays (about 8 GB for Rosenkönig)
need no disk. Each row also shows the ratio to the smallest run of its kind, measured in the same
invocation; flat memory is a ratio near 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from rivals.bench._common import run_script
from rivals.cli import integer


def peak_rss_mb(argv: list[str]) -> tuple[float, float, int]:
    """Runs argv; returns (peak resident MB, wall seconds, exit status)."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, status, usage = os.wait4(child.pid, 0)
    except BaseException:  # Ctrl-C sent to this process alone: the arena must not run on
        child.kill()
        child.wait()
        raise
    seconds = time.perf_counter() - started
    if child.stderr is not None:
        errors = child.stderr.read().decode(errors="replace").strip()
        child.stderr.close()
        if errors:
            print(errors, file=sys.stderr)
    # ru_maxrss is in KiB on Linux.
    return usage.ru_maxrss / 1024, seconds, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rosenkoenig")
    parser.add_argument(
        "--games", type=integer(1), nargs="+", default=[10_000, 100_000, 1_000_000], metavar="N"
    )
    parser.add_argument(
        "--replay-games",
        type=int,
        nargs="*",
        default=[10_000, 100_000],
        metavar="N",
        help="sizes also run with replays written to /dev/null (slower: Python builds them)",
    )
    parser.add_argument("--threads", type=integer(1, 256), default=2)
    parser.add_argument("--python", default=sys.executable, help="the interpreter to measure")
    args = parser.parse_args()

    base = [args.python, "-m", "rivals.cli", "arena", args.game, "--bots", "random"]
    base += ["--threads", str(args.threads), "--seed", "1"]
    print(f"{args.game}, random vs random, {args.threads} threads, {args.python}")
    print(f"{'games':>10}  {'replays':>12}  {'peak MB':>8}  {'vs first':>8}  {'seconds':>8}")
    failed = False
    for replays, sizes in ((False, args.games), (True, args.replay_games)):
        first: float | None = None
        for games in sizes:
            extra = ["--out", "/dev/null"] if replays else []
            peak, seconds, status = peak_rss_mb([*base, "--games", str(games), *extra])
            first = first or peak
            where = "/dev/null" if replays else "none"
            note = "" if status == 0 else f"  exit status {status}"
            failed = failed or status != 0
            print(
                f"{games:>10,}  {where:>12}  {peak:>8.1f}  {peak / first:>8.2f}  "
                f"{seconds:>8.1f}{note}",
                flush=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    run_script(main)
