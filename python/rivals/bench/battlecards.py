"""Battlecards benchmarks: the engine against the pure-Python reference (random playouts and the
hidden-information resampling that ISMCTS runs once per iteration), state copies, the ISMCTS
search rate and the engine's own arena. Every compared pair is measured in the same run,
alternating, and reported as a median ratio (see bench/README.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import rivals
from rivals import reference

from ._common import Row, Sizes, alternate, games_for, positive, timed, verdict
from ._loops import decisions_per_game, python_clone_ns, replay_like_playouts

NAME = "battlecards"
TITLE = "Battlecards"
SEED = 20240605
# Iterations of the ISMCTS search timed in row 4, per mode size (tiny runs stay short). A
# Battlecards playout is about a thousand plies, so the counts are lower than for short games.
ISMCTS_ITERATIONS = {"full": 500, "quick": 100, "tiny": 10}
# Mid-game positions searched in row 4 (the first ones of the recorded games).
ISMCTS_POSITIONS = {"full": 60, "quick": 20, "tiny": 3}

Log = Callable[[str], None]


def _playout_rate(game: rivals.Game, games: int, seed: int) -> tuple[float, Any]:
    """CPU-time games/s of one single-threaded random_playouts batch, and its results."""
    results: dict[str, Any] = {}

    def batch() -> None:
        results.update(game.random_playouts(games, seed=seed, threads=1))

    return games / positive(timed(batch).cpu_s), results


def _vs_reference(sizes: Sizes, log: Log) -> tuple[list[Row], int, list[list[int]]]:
    game = rivals.make(NAME)
    ref_game = reference.make(NAME)
    rate, _ = _playout_rate(game, sizes.calibration_games, SEED + 1)
    games = games_for(rate, sizes.work_s)
    match = game.play_match(["random"] * 2, sizes.reference_games, seed=SEED, keep_histories=True)
    histories: list[list[int]] = [list(h) for h in match["histories"]]
    ref_plies = sum(len(h) for h in histories) / len(histories)
    cxx_plies = 0.0

    def cxx() -> float:
        nonlocal cxx_plies
        rate, results = _playout_rate(game, games, SEED)
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
        lambda r: log(f"random playouts, C++ vs reference (round {r + 1}/{sizes.rounds})"),
    )
    ratio = pair.ratio()
    rows = [
        Row(
            "1",
            "random playouts: games/s, C++ / reference",
            pair.a_median,
            pair.b_median,
            ratio,
            "cpu",
            f"≥ 1000x {verdict(ratio >= 1000)}",
            ratio >= 1000,
        ),
        Row(
            "1",
            "random playouts: plies/s, C++ / reference",
            pair.a_median * cxx_plies,
            pair.b_median * ref_plies,
            ratio * cxx_plies / ref_plies,
            "cpu",
        ),
        Row("1", "plies per game (chance included)", cxx_plies, ref_plies),
        Row("1", "decisions per game (no chance)", decisions_per_game(game, histories)),
    ]
    return rows, games, histories


def _positions(histories: Sequence[Sequence[int]]) -> list[list[int]]:
    """Prefixes of the recorded games at a quarter, a half and three quarters of their length:
    the positions a search meets, with the draws and deployments so far to resample."""
    return [list(h[: len(h) * k // 4]) for h in histories for k in (1, 2, 3)]


def _reference_state(ref_game: Any, history: Sequence[int]) -> Any:
    state = ref_game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _resample_row(histories: Sequence[Sequence[int]], sizes: Sizes, log: Log) -> Row:
    game = rivals.make(NAME)
    ref_game = reference.make(NAME)
    prefixes = _positions(histories)
    cxx_states = [game.state_from_history(p) for p in prefixes]
    ref_states = [_reference_state(ref_game, p) for p in prefixes]
    rng = random.Random(SEED)
    calls = [(k, rng.randrange(2), rng.randrange(2**32)) for k in range(len(prefixes))]

    def rate(states: Sequence[Any]) -> Callable[[], float]:
        def run() -> float:
            seconds = timed(
                lambda: [states[k].resample_from_infostate(p, seed) for k, p, seed in calls]
            ).cpu_s
            return len(calls) / positive(seconds)

        return run

    pair = alternate(
        rate(cxx_states),
        rate(ref_states),
        sizes.rounds,
        lambda r: log(f"resample_from_infostate, C++ vs reference (round {r + 1}/{sizes.rounds})"),
    )
    return Row(
        "2",
        "resample_from_infostate: calls/s, C++ / reference",
        pair.a_median,
        pair.b_median,
        pair.ratio(),
        "cpu",
    )


def _state_rows(history: list[int], sizes: Sizes, log: Log) -> list[Row]:
    game = rivals.make(NAME)
    state = game.state_from_history(history[: len(history) // 2])
    pair = alternate(
        lambda: game.copy_ns(sizes.copies),
        lambda: python_clone_ns(state, sizes.clones),
        sizes.rounds,
        lambda r: log(f"state copies, C++ vs Python clone() (round {r + 1}/{sizes.rounds})"),
    )
    return [
        Row("3", "state size: bytes (C++ state)", float(game.state_size)),
        Row(
            "3",
            "state copy: ns, C++ copy / Python state.clone()",
            pair.a_median,
            pair.b_median,
            pair.ratio(higher_is_better=False),
            "cpu",
        ),
    ]


def _ismcts_row(histories: Sequence[Sequence[int]], sizes: Sizes, log: Log) -> Row:
    """Iterations/s of one ISMCTS search per decision at recorded mid-game positions."""
    game = rivals.make(NAME)
    iterations = ISMCTS_ITERATIONS[sizes.mode]
    states = [
        state
        for state in (game.state_from_history(p) for p in _positions(histories))
        if not state.is_terminal() and not state.is_chance_node() and len(state.legal_actions()) > 1
    ][: ISMCTS_POSITIONS[sizes.mode]]
    bot = rivals.bots.make("ismcts", game, seed=SEED, iterations=iterations)
    log(f"ismcts, {iterations} iterations at {len(states)} positions")
    seconds = timed(lambda: [bot.step(state) for state in states]).cpu_s
    return Row(
        "4",
        f"ismcts: iterations/s ({iterations} per move)",
        iterations * len(states) / positive(seconds),
        clock="cpu",
    )


def _arena_row(games: int, sizes: Sizes, log: Log) -> Row:
    game = rivals.make(NAME)

    def arena() -> float:
        seconds = timed(lambda: game.play_match(["random"] * 2, games, seed=SEED)).cpu_s
        return games / positive(seconds)

    def playouts() -> float:
        return _playout_rate(game, games, SEED)[0]

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
    """The rows of the Battlecards table and the notes printed under it."""
    rows, games, histories = _vs_reference(sizes, log)
    rows = [
        *rows,
        _resample_row(histories, sizes, log),
        *_state_rows(histories[0], sizes, log),
        _ismcts_row(histories, sizes, log),
        _arena_row(games, sizes, log),
    ]
    notes = [
        f"C++ batches: {games:,} games (about {sizes.work_s:g} s each, one thread); the "
        f"reference replays {sizes.reference_games} games that play_match(random bots) "
        "recorded in the engine.",
        "Row 2 resamples the hidden cards at a quarter, a half and three quarters of those games "
        "for a random seat, through the Python API in both (a resampled state is rebuilt from "
        "its history); row 4 times one search per decision at some of the same positions.",
        "rivals and baseline: medians over the rounds; ratio: median of the per-round ratios, "
        "above 1 favours rivals (row 5: play_match over random_playouts).",
    ]
    return rows, notes
