"""Rosenkönig benchmarks: the engine against the pure-Python reference, OpenSpiel's Python loop,
itself on two threads, and its own arena. Every compared pair is measured in the same run,
alternating, and reported as a median ratio (see bench/README.md for what each row means)."""

from __future__ import annotations

import os
import statistics
import subprocess
from collections.abc import Callable

import rivals
from rivals import reference

from . import _pyspiel
from ._common import Row, Sizes, alternate, games_for, playout_rate, positive, timed, verdict
from ._loops import decisions_per_game, python_clone_ns, python_loop, replay_like_playouts

NAME = "rosenkoenig"
TITLE = "Rosenkönig"
SEED = 20240601
PYSPIEL_GAME = "connect_four"

Log = Callable[[str], None]


def _calibrated_games(game: rivals.Game, sizes: Sizes) -> int:
    rate, _ = playout_rate(game, sizes.calibration_games, SEED + 1)
    return games_for(rate, sizes.work_s)


def _vs_reference(players: int, sizes: Sizes, log: Log) -> tuple[list[Row], int, list[list[int]]]:
    game = rivals.make(NAME, players=players)
    ref_game = reference.make(NAME, players=players)
    games = _calibrated_games(game, sizes)
    match = game.play_match(
        ["random"] * players, sizes.reference_games, seed=SEED, keep_histories=True
    )
    histories: list[list[int]] = [list(h) for h in match["histories"]]
    ref_plies = sum(len(h) for h in histories) / len(histories)
    cxx_plies = 0.0

    def cxx() -> float:
        nonlocal cxx_plies
        rate, results = playout_rate(game, games, SEED)
        cxx_plies = float(results["lengths"].mean())
        return rate

    def ref() -> float:
        return len(histories) / positive(
            timed(lambda: replay_like_playouts(ref_game, histories)).cpu_s
        )

    pair = alternate(
        cxx,
        ref,
        sizes.rounds,
        lambda r: log(
            f"{players}p random playouts, C++ vs reference (round {r + 1}/{sizes.rounds})"
        ),
    )
    ratio = pair.ratio()
    cxx_rate = pair.a_median
    target = f"≥ 1000x {verdict(ratio >= 1000)}"
    if players == 2:
        target += f"; C++ ≥ 200,000 {verdict(cxx_rate >= 200_000)}"
    rows = [
        Row(
            "1",
            f"{players}p random playouts: games/s, C++ / reference",
            cxx_rate,
            pair.b_median,
            ratio,
            "cpu",
            target,
            ratio >= 1000,
        ),
        Row(
            "1",
            f"{players}p random playouts: plies/s, C++ / reference",
            cxx_rate * cxx_plies,
            pair.b_median * ref_plies,
            ratio * cxx_plies / ref_plies,
            "cpu",
        ),
        Row("1", f"{players}p plies per game (chance included)", cxx_plies, ref_plies),
        Row(
            "1",
            f"{players}p decisions per game (no chance)",
            decisions_per_game(game, histories),
        ),
    ]
    return rows, games, histories


def _python_loop_row(sizes: Sizes, log: Log) -> tuple[Row, str]:
    game = rivals.make(NAME)
    label = f"Python loop via bindings: plies/s, rivals / pyspiel {PYSPIEL_GAME}"

    def ours() -> float:
        return python_loop(game, sizes.loop_s, SEED)

    def progress(r: int) -> None:
        log(f"Python loop, rivals vs pyspiel (round {r + 1}/{sizes.rounds})")

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
                    progress,
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
                    Row(
                        "2",
                        label,
                        pair.a_median,
                        pair.b_median,
                        ratio,
                        "cpu",
                        f"≥ 1.5x {verdict(ratio >= 1.5)}",
                        ratio >= 1.5,
                    ),
                    note,
                )
    alone = []
    for r in range(sizes.rounds):
        log(f"Python loop (round {r + 1}/{sizes.rounds})")
        alone.append(ours())
    median = statistics.median(alone)
    return Row("2", label, median, clock="cpu", target="≥ 1.5x", note="skipped"), skipped


def _threads_row(games: int, sizes: Sizes, log: Log) -> Row:
    game = rivals.make(NAME)

    def wall_rate(threads: int) -> float:
        seconds = timed(lambda: game.random_playouts(games, seed=SEED, threads=threads)).wall_s
        return games / positive(seconds)

    pair = alternate(
        lambda: wall_rate(2),
        lambda: wall_rate(1),
        sizes.rounds,
        lambda r: log(f"random playouts, 2 threads vs 1 (round {r + 1}/{sizes.rounds})"),
    )
    cores = os.cpu_count() or 1
    return Row(
        "3",
        "2p random playouts: games/s, 2 threads / 1 thread",
        pair.a_median,
        pair.b_median,
        pair.ratio(),
        "wall",
        f"≈ {min(2, cores)}x on idle cores",
    )


def _state_rows(history: list[int], sizes: Sizes, log: Log) -> list[Row]:
    game = rivals.make(NAME)
    # A mid-game position, like the one game.copy_ns() copies.
    state = game.state_from_history(history[: len(history) // 2])
    pair = alternate(
        lambda: game.copy_ns(sizes.copies),
        lambda: python_clone_ns(state, sizes.clones),
        sizes.rounds,
        lambda r: log(f"state copies, C++ vs Python clone() (round {r + 1}/{sizes.rounds})"),
    )
    return [
        Row("4", "state size: bytes (C++ state)", float(game.state_size)),
        Row(
            "4",
            "state copy: ns, C++ copy / Python state.clone()",
            pair.a_median,
            pair.b_median,
            pair.ratio(higher_is_better=False),
            "cpu",
        ),
    ]


def _arena_row(games: int, sizes: Sizes, log: Log) -> Row:
    game = rivals.make(NAME)

    def arena() -> float:
        seconds = timed(lambda: game.play_match(["random", "random"], games, seed=SEED)).cpu_s
        return games / positive(seconds)

    def playouts() -> float:
        return playout_rate(game, games, SEED)[0]

    pair = alternate(
        arena,
        playouts,
        sizes.rounds,
        lambda r: log(f"arena vs random_playouts (round {r + 1}/{sizes.rounds})"),
    )
    ratio = pair.ratio()
    return Row(
        "5",
        "arena random vs random: games/s, play_match / playouts",
        pair.a_median,
        pair.b_median,
        ratio,
        "cpu",
        f"≈ 1x: ≥ 0.8x {verdict(ratio >= 0.8)}",
        ratio >= 0.8,
    )


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    """The rows of the Rosenkönig table and the notes printed under it."""
    rows2, games2, histories2 = _vs_reference(2, sizes, log)
    rows4, games4, _ = _vs_reference(4, sizes, log)
    loop_row, pyspiel_note = _python_loop_row(sizes, log)
    rows = [
        *rows2,
        *rows4,
        loop_row,
        _threads_row(games2, sizes, log),
        *_state_rows(histories2[0], sizes, log),
        _arena_row(games2, sizes, log),
    ]
    notes = [
        f"C++ batches: {games2:,} two-player and {games4:,} four-player games (about "
        f"{sizes.work_s:g} s each); the reference replays {sizes.reference_games} games that "
        "play_match(random bots) recorded in the engine.",
        "rivals and baseline: medians over the rounds; ratio: median of the per-round ratios, "
        "above 1 favours rivals (row 5: play_match over random_playouts).",
        pyspiel_note,
    ]
    return rows, notes
