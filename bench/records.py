"""What keeping every replay costs an arena, in each form of its log.

    python bench/records.py                    # 20,000 random Rosenkönig games per form
    python bench/records.py --games 100000     # more games (replay lines get a tenth as many)
    python bench/records.py --game sekigahara --rounds 5

One process, one thread count. In each round, each form of log (replay lines or a compact
record; plain, gzip or zstd) is written by an arena to a fresh file in a temporary folder right
after an arena of as many games writes nothing, so that the two meet the same load on a shared
machine. Each row gives the median over the rounds of the arena's games/s and of its ratio to the
arena writing nothing, the bytes per game on disk, and the median games/s of reading the log back
with ``rivals.arena.tally``: every game parsed, replayed by the engine with every action checked
against the rules, found finished, and counted into the standings (what ``--resume`` does to
each stored game). Replay lines, built in Python from each game's history, are measured on a
tenth of the games: they run about a hundred times slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
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
    parser.add_argument("--rounds", type=integer(1), default=3)
    args = parser.parse_args()
    lineup = arena.Lineup.of(rivals.make(args.game), ["random", "random"])
    forms = [f for f in FORMS if not f.endswith(".zst") or importlib.util.find_spec("zstandard")]
    print(f"rivals arena {args.game} --bots random,random, {args.threads} threads")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}; medians of {args.rounds} rounds")
    columns = (
        ("games", 8),
        ("games/s", 10),
        ("no file", 10),
        ("ratio", 7),
        ("bytes/game", 12),
        ("read games/s", 14),
    )
    print("form".ljust(12) + "".join(name.rjust(width) for name, width in columns))
    runs: dict[str, list[tuple[float, float, float, float]]] = {form: [] for form in forms}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for form in forms:
                games = args.games if form.startswith("rec") else max(100, args.games // 10)
                baseline = games / timed_arena(lineup, games, args.threads, None)
                path = Path(folder) / f"games{round_}.{form}"
                speed = games / timed_arena(lineup, games, args.threads, path)
                started = time.perf_counter()
                assert arena.tally(path).games == games
                read = games / (time.perf_counter() - started)
                runs[form].append((speed, baseline, path.stat().st_size / games, read))
                path.unlink()
    for form, rows in runs.items():
        games = args.games if form.startswith("rec") else max(100, args.games // 10)
        speed, baseline, size, read = (statistics.median(column) for column in zip(*rows))
        ratio = statistics.median(row[0] / row[1] for row in rows)
        print(
            f"{form:<12}{games:>8}{speed:>10.0f}{baseline:>10.0f}{ratio:>7.2f}{size:>12.0f}"
            f"{read:>14.0f}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run_script(main)
