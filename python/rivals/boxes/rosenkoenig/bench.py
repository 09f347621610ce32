"""Rosenkönig benchmarks: the engine against the pure-Python reference, OpenSpiel's Python loop,
itself on two threads, its own arena and a hand-tuned single-file playout. Every compared pair
is measured in the same run, alternating, and reported as a median ratio (see bench/README.md
for what each row means)."""

from __future__ import annotations

import os
import statistics
import subprocess
from collections.abc import Callable

import rivals
from rivals.bench import _pyspiel
from rivals.bench._common import Row, Sizes, alternate, positive, timed, verdict
from rivals.bench._loops import python_loop
from rivals.bench._rows import arena_row, state_rows, undo_rows, vs_reference
from rivals.bench._tuned import tuned_row

NAME = "rosenkoenig"
TITLE = "Rosenkönig"
SEED = 20240601
PYSPIEL_GAME = "connect_four"
# The single-state Python loop through the bindings against the same loop over pyspiel.
PYSPIEL_GOAL = 2.0

Log = Callable[[str], None]


def _python_loop_row(sizes: Sizes, log: Log) -> tuple[Row, str]:
    game = rivals.make(NAME)
    label = f"Python loop via bindings: plies/s, rivals / pyspiel {PYSPIEL_GAME}"

    def ours() -> float:
        return python_loop(game, sizes.loop_s, SEED)

    skipped = "pyspiel row skipped: turned off (tiny mode or RIVALS_BENCH_PYSPIEL=0)"
    if sizes.pyspiel:
        env = _pyspiel.find_pyspiel()
        if isinstance(env, str):
            skipped = f"pyspiel row skipped: {env}"
        else:
            try:
                pair = alternate(
                    ours,
                    lambda: _pyspiel.loop_plies_per_s(env, PYSPIEL_GAME, sizes.loop_s, SEED),
                    sizes.rounds,
                    log,
                    "Python loop, rivals vs pyspiel",
                )
            except (
                OSError,
                subprocess.SubprocessError,
                RuntimeError,
                ValueError,
                KeyError,
            ) as error:
                skipped = f"pyspiel row skipped: {error}"
            else:
                ratio = pair.ratio()
                note = f"pyspiel: OpenSpiel imported by {env.python}"
                return (
                    Row.of_pair(
                        "2",
                        label,
                        pair,
                        "cpu",
                        f"≥ {PYSPIEL_GOAL:g}x {verdict(ratio >= PYSPIEL_GOAL)}",
                        ratio >= PYSPIEL_GOAL,
                    ),
                    note,
                )
    alone = []
    for r in range(sizes.rounds):
        log(f"Python loop (round {r + 1}/{sizes.rounds})")
        alone.append(ours())
    median = statistics.median(alone)
    return Row(
        "2", label, median, clock="cpu", target=f"≥ {PYSPIEL_GOAL:g}x: not measured", note="skipped"
    ), skipped


def _threads_row(games: int, sizes: Sizes, log: Log) -> Row:
    game = rivals.make(NAME)

    def wall_rate(threads: int) -> float:
        seconds = timed(lambda: game.random_playouts(games, seed=SEED, threads=threads)).wall_s
        return games / positive(seconds)

    pair = alternate(
        lambda: wall_rate(2),
        lambda: wall_rate(1),
        sizes.rounds,
        log,
        "random playouts, 2 threads vs 1",
    )
    # Two threads can do at most twice the work of one, and only on cores nobody else is using:
    # the table's notes give the machine's load.
    goal = 0.8 * min(2, os.cpu_count() or 1)
    ratio = pair.ratio()
    return Row.of_pair(
        "3",
        "2p random playouts: games/s, 2 threads / 1 thread",
        pair,
        "wall",
        f"≥ {goal:g}x on idle cores {verdict(ratio >= goal)}",
        ratio >= goal,
    )


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    """The rows of the Rosenkönig table and the notes printed under it."""
    rows2, games2, histories2 = vs_reference(NAME, 2, SEED, sizes, log, min_games_per_s=200_000)
    rows4, games4, _ = vs_reference(NAME, 4, SEED, sizes, log)
    loop_row, pyspiel_note = _python_loop_row(sizes, log)
    game = rivals.make(NAME)
    tuned, tuned_note = tuned_row(sizes, SEED, log)
    rows = [
        *rows2,
        *rows4,
        loop_row,
        _threads_row(games2, sizes, log),
        *state_rows(game, histories2[0], sizes, log, "4"),
        *undo_rows(game, max(histories2, key=len), sizes, log, "4"),
        arena_row(game, games2, SEED, sizes, log, "5"),
        tuned,
    ]
    notes = [
        f"C++ batches: {games2:,} two-player and {games4:,} four-player games (about "
        f"{sizes.work_s:g} s each); the reference replays {sizes.reference_games} games that "
        "play_match(random bots) recorded in the engine.",
        "rivals and baseline: medians over the rounds; ratio: median of the per-round ratios, "
        "above 1 favours rivals (row 5: play_match over random_playouts).",
        pyspiel_note,
        tuned_note,
    ]
    return rows, notes
