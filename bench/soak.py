"""Soak: many games of every game through the vectorised and the single-state API, checking
invariants all the way, with the process's memory measured at the start and the end.

    python bench/soak.py                     # a million games of each game, each API
    python bench/soak.py --count 20000 rosenkoenig

Single-state games are played from Python in batches through `random_playouts` (C++) plus a
slice played move by move through `apply_action`; the vectorised API steps `VectorEnv`. Exits
non-zero when an invariant fails or the resident memory grows by more than --max-growth-mb.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

import rivals
from rivals.bench._common import run_script
from rivals.cli import integer


def resident_mb() -> float:
    """The current resident set (not the peak), so that growth after warm-up shows."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


def soak_vector(name: str, games: int, seed: int) -> tuple[int, float]:
    game = rivals.make(name)
    env = rivals.VectorEnv(game, 256, seed=seed, threads=2)
    out = env.reset()
    rng = np.random.default_rng(seed)
    finished = 0
    steps = 0
    started = time.perf_counter()
    while finished < games:
        mask = out["legal_mask"]
        live = ~out["terminated"]
        if not mask[live].any(axis=1).all():
            raise AssertionError(f"{name}: a live environment without a legal action")
        out = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
        steps += 1
        ended = out["terminated"]
        if ended.any():
            sums = out["rewards"][ended].sum(axis=1)
            if not np.allclose(sums, 0.0, atol=1e-5):
                raise AssertionError(f"{name}: returns do not sum to zero: {sums}")
            finished += int(ended.sum())
        if steps > 10_000 * game.max_game_length:
            raise AssertionError(f"{name}: games do not end")
    return finished, time.perf_counter() - started


def soak_single(name: str, games: int, seed: int) -> tuple[int, float]:
    game = rivals.make(name)
    started = time.perf_counter()
    done = 0
    batch = 10_000
    while done < games:
        count = min(batch, games - done)
        result = game.random_playouts(count, seed=seed + done, threads=2)
        if not np.allclose(result["returns"].sum(axis=1), 0.0):
            raise AssertionError(f"{name}: returns do not sum to zero")
        if (result["lengths"] > game.max_game_length).any():
            raise AssertionError(f"{name}: a game longer than max_game_length")
        # One game in every batch move by move through the checked API, with a clone and undo.
        rng = random.Random(seed + done)
        state = game.new_initial_state()
        while not state.is_terminal():
            twin = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            state.undo()
            if state.to_json() != twin.to_json():
                raise AssertionError(f"{name}: undo did not restore the state")
            state.apply_action(rng.choice(state.legal_actions()))
        done += count
    return done, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="default: every game")
    parser.add_argument(
        "--count", type=integer(1), default=1_000_000, help="games per game and API"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-growth-mb", type=float, default=64.0)
    args = parser.parse_args(argv)
    names = args.games or rivals.games()
    unknown = [name for name in names if name not in rivals.games()]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r} (have: {', '.join(rivals.games())})")
    failed = False
    for name in names:
        for api, soak in (("vector", soak_vector), ("single", soak_single)):
            # A short warm-up first: allocator pools and caches settle before the baseline.
            soak(name, min(2_000, args.count), args.seed)
            before = resident_mb()
            played, seconds = soak(name, args.count, args.seed)
            after = resident_mb()
            growth = after - before
            verdict = "ok" if growth <= args.max_growth_mb else "MEMORY GROWTH"
            failed |= growth > args.max_growth_mb
            print(
                f"{name:13s} {api:6s} {played:>9,d} games in {seconds:7.1f} s "
                f"({played / seconds:10,.0f} games/s); resident {before:7.1f} -> {after:7.1f} MiB "
                f"{verdict}",
                flush=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    run_script(main)
