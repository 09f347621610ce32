"""The rows every game's table has: the engine against the pure-Python reference on random
playouts, state copies against the reference's ``clone()``, undo against the replay from the
start it replaced, and the engine's arena against its own playouts. A game's module adds its own
rows around them and numbers them in its table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rivals
from rivals import reference

from ._common import Row, Sizes, alternate, games_for, playout_rate, positive, timed, verdict
from ._loops import cxx_copy_ns, decisions_per_game, python_clone_ns, replay_like_playouts

Log = Callable[[str], None]


def players_prefix(players: int | None) -> str:
    """How a row names the configuration it measures: ``"4p "``, or nothing for the defaults."""
    return "" if players is None else f"{players}p "


def vs_reference(
    name: str,
    players: int | None,
    seed: int,
    sizes: Sizes,
    log: Log,
    number: str = "1",
    min_games_per_s: float | None = None,
) -> tuple[list[Row], int, list[list[int]]]:
    """Random playouts, C++ against the reference, in games and plies a second, and the length
    of those games; also the size of the C++ batch and the recorded games the reference replays.
    ``min_games_per_s`` adds a target for the engine's own rate."""
    params = {} if players is None else {"players": players}
    game = rivals.make(name, **params)
    ref_game = reference.make(name, **params)
    who = players_prefix(players)
    rate, _ = playout_rate(game, sizes.calibration_games, seed + 1)
    games = games_for(rate, sizes.work_s)
    match = game.play_match(
        ["random"] * game.num_players, sizes.reference_games, seed=seed, keep_histories=True
    )
    histories: list[list[int]] = [list(h) for h in match["histories"]]
    ref_plies = sum(len(h) for h in histories) / len(histories)
    cxx_plies = 0.0

    def cxx() -> float:
        nonlocal cxx_plies
        rate, results = playout_rate(game, games, seed)
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
        log,
        f"{who}random playouts, C++ vs reference",
    )
    ratio = pair.ratio()
    target = f"≥ 1000x {verdict(ratio >= 1000)}"
    if min_games_per_s is not None:
        target += f"; C++ ≥ {min_games_per_s:,.0f} {verdict(pair.a_median >= min_games_per_s)}"
    rows = [
        Row.of_pair(
            number,
            f"{who}random playouts: games/s, C++ / reference",
            pair,
            "cpu",
            target,
            ratio >= 1000,
        ),
        Row(
            number,
            f"{who}random playouts: plies/s, C++ / reference",
            pair.a_median * cxx_plies,
            pair.b_median * ref_plies,
            ratio * cxx_plies / ref_plies,
            "cpu",
        ),
        Row(number, f"{who}plies per game (chance included)", cxx_plies, ref_plies),
        Row(number, f"{who}decisions per game (no chance)", decisions_per_game(game, histories)),
    ]
    return rows, games, histories


def state_rows(
    game: rivals.Game, history: list[int], sizes: Sizes, log: Log, number: str
) -> list[Row]:
    """The C++ state's size, and copying it against the reference's ``clone()`` at the middle of
    ``history`` (like the position ``game.copy_ns()`` copies), both by the thread's CPU clock."""
    state: Any = game.state_from_history(history[: len(history) // 2])
    pair = alternate(
        lambda: cxx_copy_ns(game, sizes.copies),
        lambda: python_clone_ns(state, sizes.clones),
        sizes.rounds,
        log,
        "state copies, C++ vs Python clone()",
    )
    return [
        Row(number, "state size: bytes (C++ state)", float(game.state_size)),
        Row.of_pair(
            number,
            "state copy: ns, C++ copy / Python state.clone()",
            pair,
            "cpu",
            higher_is_better=False,
        ),
    ]


# The game lengths the undo rows are measured at, as far as the recorded game reaches.
UNDO_LENGTHS = (10, 100, 1000)
# Undos per state: one of every action of a stretch at least as long as the snapshots' spacing,
# so that each row averages over every distance to the snapshot undo restarts from.
UNDOS = 16


def undo_rows(
    game: rivals.Game, history: list[int], sizes: Sizes, log: Log, number: str
) -> list[Row]:
    """``state.undo()`` inside C++ after several lengths of ``history``, against the replay of
    the whole shorter history (what undo did before it kept snapshots), by the thread's CPU
    clock."""
    return [
        _undo_row(game, history[:length], sizes, log, number)
        for length in UNDO_LENGTHS
        if length <= len(history)
    ]


def _undo_row(game: rivals.Game, history: list[int], sizes: Sizes, log: Log, number: str) -> Row:
    undos = min(UNDOS, len(history))
    pair = alternate(
        lambda: game.undo_ns(history, undos, sizes.undo_copies),
        lambda: game.undo_ns(history, undos, max(1, sizes.undo_copies // 10), from_start=True),
        sizes.rounds,
        log,
        f"undo after {len(history)} actions, snapshots vs replay from the start",
    )
    return Row(
        number,
        f"undo after {len(history)} actions: ns, undo / replay from start",
        pair.a_median,
        pair.b_median,
        pair.ratio(higher_is_better=False),
        "cpu",
    )


def arena_row(game: rivals.Game, games: int, seed: int, sizes: Sizes, log: Log, number: str) -> Row:
    """The arena (play_match with random bots) against random_playouts over as many games: what
    the arena's bookkeeping costs."""
    seats = game.num_players

    def arena() -> float:
        seconds = timed(lambda: game.play_match(["random"] * seats, games, seed=seed)).cpu_s
        return games / positive(seconds)

    def playouts() -> float:
        return playout_rate(game, games, seed)[0]

    pair = alternate(
        arena,
        playouts,
        sizes.rounds,
        log,
        "arena vs random_playouts",
    )
    ratio = pair.ratio()
    match = "random vs random" if seats == 2 else f"random x{seats}"
    return Row.of_pair(
        number,
        f"arena {match}: games/s, play_match / playouts",
        pair,
        "cpu",
        f"≈ 1x: ≥ 0.8x {verdict(ratio >= 0.8)}",
        ratio >= 0.8,
    )
