"""What keeping every replay costs an arena, in each form of its log.

    python bench/records.py                    # 20,000 random Rosenkönig games per form
    python bench/records.py --games 100000     # more games (replay lines get a tenth as many)
    python bench/records.py --game sekigahara

One process, one thread count, every row in turn: an arena writing nothing, then one writing
each form of log (replay lines or a compact record; plain, gzip or zstd) to a fresh file in a
temporary folder. Each row gives the arena's games/s and its ratio to the arena writing nothing
(measured in the same run), the bytes per game on disk, and the games/s of reading the log back
with ``rivals.arena.tally``: every game parsed, replayed by the engine with every action checked
against the rules, found finished, and counted into the standings (what ``--resume`` does to
each stored game). Replay lines, built in Python from each game's history, are measured on a
tenth of the games: they run about a hundred times slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from pathlib import Path

import rivals
from rivals import arena
from rivals.bench._common import run_script
from rivals.cli import integer

FORMS = ["rec", "rec.gz", "rec.zst", "jsonl", "jsonl.gz", "jsonl.zst"]


def timed_arena(lineup: arena.Lineup, games: int, threads: int, out: Path | None) -> float:
    started = time.perf_counter()
    with arena.Arena(lineup, games, seed=1, out=out, backend=arena.LocalBackend(threads)) as run:
        run.run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rosenkoenig", choices=rivals.games())
    parser.add_argument("--games", type=integer(100), default=20_000)
    parser.add_argument("--threads", type=integer(1), default=os.cpu_count() or 1)
    args = parser.parse_args()
    lineup = arena.Lineup.of(rivals.make(args.game), ["random", "random"])
    forms = [f for f in FORMS if not f.endswith(".zst") or importlib.util.find_spec("zstandard")]
    print(f"rivals arena {args.game} --bots random,random, {args.threads} threads")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    columns = ("games", 8), ("games/s", 10), ("ratio", 7), ("bytes/game", 12), ("read games/s", 14)
    print("form".ljust(12) + "".join(name.rjust(width) for name, width in columns))
    baseline = args.games / timed_arena(lineup, args.games, args.threads, None)
    print(f"{'(none)':<12}{args.games:>8}{baseline:>10.0f}{1.0:>7.2f}{'':>12}{'':>14}")
    with tempfile.TemporaryDirectory() as folder:
        for form in forms:
            games = args.games if form.startswith("rec") else max(100, args.games // 10)
            path = Path(folder) / f"games.{form}"
            speed = games / timed_arena(lineup, games, args.threads, path)
            size = path.stat().st_size / games
            started = time.perf_counter()
            assert arena.tally(path).games == games
            read = games / (time.perf_counter() - started)
            print(
                f"{form:<12}{games:>8}{speed:>10.0f}{speed / baseline:>7.2f}{size:>12.0f}"
                f"{read:>14.0f}"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run_script(main)
