"""How much duplicate games narrow the Elo interval against unpaired games of the same count.

    nice python bench/duplicate_interval.py               # the figures in docs/bots-results.md
    nice python bench/duplicate_interval.py --games 100 --seeds 3 --pairing sekigahara/mcts

For each game, two bots play ``--games`` games per seed, once as duplicate pairs (the same deals,
seats swapped) and once unpaired, with the same bot settings. Per mode it prints the mean 95%
interval width of the Elo difference (pentanomial for pairs, trinomial for single games: what
``rivals arena`` prints), the spread (standard deviation) of the Elo estimate over the seeds, which
is what the interval tries to cover, and the ratio duplicate / unpaired of both, measured in the
same run. A ratio below 1 is the narrowing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import rivals
from rivals import arena
from rivals import stats as rstats
from rivals.bench._common import run_script
from rivals.cli import integer

# Two matchups per game: searches with random playouts (mcts: much of a game's outcome is the
# bots' own randomness, which pairing cannot cancel) and deterministic searches (alphabeta at two
# depths: a game's outcome is a function of its deal and seats alone).
MCTS = [("mcts", {"iterations": 200}), ("mcts", {"iterations": 50})]
PAIRINGS = {
    "sekigahara/mcts": ("sekigahara", MCTS),
    "sekigahara/alphabeta": (
        "sekigahara",
        [("alphabeta", {"depth": 3}), ("alphabeta", {"depth": 1})],
    ),
    "rosenkoenig/mcts": ("rosenkoenig", MCTS),
    "rosenkoenig/alphabeta": (
        "rosenkoenig",
        [("alphabeta", {"depth": 2}), ("alphabeta", {"depth": 1})],
    ),
    "battlecards/mcts": ("battlecards", MCTS),
}


def one(key: str, games: int, seed: int, duplicate: bool, threads: int) -> rstats.Estimate:
    name, bots = PAIRINGS[key]
    game = rivals.make(name)
    lineup = arena.Lineup.of(game, bots)
    with arena.Arena(
        lineup, games, seed=seed, backend=arena.LocalBackend(threads), duplicate=duplicate
    ) as match:
        standings = match.run()
    return rstats.elo_estimate(standings.counts())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairing", action="append", choices=sorted(PAIRINGS), default=None)
    parser.add_argument("--games", type=integer(2), default=200)
    parser.add_argument("--seeds", type=integer(1), default=5)
    parser.add_argument("--threads", type=integer(1, 256), default=1)
    args = parser.parse_args()
    print(f"{args.games} games per run, {args.seeds} seeds, bots: first vs second listed")
    print(f"{'pairing':22} {'mode':10} {'Elo':>7} {'CI width':>9} {'sd over seeds':>14} {'s':>6}")
    for name in args.pairing or list(PAIRINGS):
        rows = {}
        for duplicate in (True, False):
            began = time.perf_counter()
            estimates = [
                one(name, args.games, seed, duplicate, args.threads) for seed in range(args.seeds)
            ]
            width = statistics.mean(e.high - e.low for e in estimates)
            spread = statistics.stdev(e.elo for e in estimates) if args.seeds > 1 else 0.0
            mean = statistics.mean(e.elo for e in estimates)
            rows[duplicate] = (width, spread)
            mode = "duplicate" if duplicate else "unpaired"
            seconds = time.perf_counter() - began
            print(f"{name:22} {mode:10} {mean:+7.0f} {width:9.0f} {spread:14.0f} {seconds:6.0f}")
        (w1, s1), (w0, s0) = rows[True], rows[False]
        spread_ratio = f"{s1 / s0:.2f}" if s0 > 0 else "-"
        print(f"{name:22} {'ratio':10} {'':7} {w1 / w0:9.2f} {spread_ratio:>14}")


if __name__ == "__main__":
    run_script(main)
