"""Threads, for every game: two threads against one by the wall clock, for the four places the
engine spreads work over threads (random playouts, an arena's games, VectorEnv's environments and
root-parallel tree search). ``rivals bench threads``.

Two threads can do at most twice the work of one, and only on cores nobody else is using: the
table's footer gives the load average before and after, and a figure from a loaded machine says
nothing about scaling.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial

import rivals
from rivals._core import Game, game_names

from ._common import Row, Sizes, alternate, games_for, positive, timed, verdict
from .scale import NUM_ENVS, midgame, search_bot, vector_rate

TITLE = "Threads"
SEED = 5

Log = Callable[[str], None]
Rate = Callable[[int], float]


def _playouts(game: Game, sizes: Sizes) -> Rate:
    games = games_for(_single_rate(lambda n: game.random_playouts(n, seed=SEED), 20), sizes.work_s)

    def rate(threads: int) -> float:
        wall = timed(lambda: game.random_playouts(games, seed=SEED, threads=threads)).wall_s
        return games / positive(wall)

    return rate


def _arena(game: Game, sizes: Sizes) -> Rate:
    """Games/s of an arena between small searches (no log): the C++ plays the games on the
    threads, Python keeps the standings between chunks."""
    # mcts in every game: an arena of bots may let them see everything, and ismcts's sampling of
    # hidden cards would make the row a measure of that instead.
    bot = ("mcts", {"iterations": 20, "rollout_depth": 4})
    lineup = rivals.arena.Lineup.of(game, [bot] * game.num_players)

    def play(threads: int, games: int) -> None:
        backend = rivals.arena.LocalBackend(threads)
        rivals.arena.Arena(lineup, games, seed=SEED, backend=backend).run()

    games = games_for(_single_rate(lambda n: play(1, n), 8), sizes.work_s, minimum=16)

    def rate(threads: int) -> float:
        return games / positive(timed(lambda: play(threads, games)).wall_s)

    return rate


def _vector_env(game: Game, sizes: Sizes) -> Rate:
    """Environment steps/s of VectorEnv with its default arguments, random legal actions from
    ``sample_legal()`` (bench scale's row 1)."""
    steps = max(3, round(vector_rate(game, 3, 1, "wall")() / NUM_ENVS * sizes.work_s))

    def rate(threads: int) -> float:
        return vector_rate(game, steps, threads, "wall")()

    return rate


def _search(game: Game, sizes: Sizes) -> Rate:
    """Iterations/s of root-parallel search (each thread grows its own tree of ``iterations``)."""
    state = midgame(game, SEED)
    name = search_bot(game)

    def think(threads: int, iterations: int) -> None:
        rivals.bots.make(name, game, seed=SEED, iterations=iterations, threads=threads).step(state)

    iterations = games_for(_single_rate(lambda n: think(1, n), 200), sizes.work_s, minimum=50)

    def rate(threads: int) -> float:
        wall = timed(lambda: think(threads, iterations)).wall_s
        return iterations * threads / positive(wall)

    return rate


def _single_rate(work: Callable[[int], object], count: int) -> float:
    """Units/s of one call of ``work(count)``, to size the measured batches."""
    return count / positive(timed(lambda: work(count)).wall_s)


PLACES: list[tuple[str, str, Callable[[Game, Sizes], Rate]]] = [
    ("random playouts", "games/s", _playouts),
    ("arena of small searches", "games/s", _arena),
    (f"VectorEnv({NUM_ENVS})", "env steps/s", _vector_env),
    ("root-parallel search", "iterations/s", _search),
]


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    goal = 0.9 * min(2, os.cpu_count() or 1)
    rows: list[Row] = []
    for section, (place, unit, measure) in enumerate(PLACES, start=1):
        for name in game_names():
            rate = measure(rivals.make(name), sizes)
            pair = alternate(
                partial(rate, 2), partial(rate, 1), sizes.rounds, log, f"{name}: {place}"
            )
            ratio = pair.ratio()
            rows.append(
                Row.of_pair(
                    str(section),
                    f"{name}: {place}, {unit}, 2 threads / 1",
                    pair,
                    "wall",
                    f"≥ {goal:g}x on idle cores {verdict(ratio >= goal)}",
                    ratio >= goal,
                )
            )
    notes = [
        "Every row: the same work with two threads and with one, by the wall clock, in "
        "alternating rounds; the work of a measurement is sized from a one-thread run.",
        "Row 2: an arena without a log between copies of mcts at 20 iterations a move, each "
        "valued by the game's evaluation after 4 random decisions.",
        f"Row 3: {NUM_ENVS} environments with the default arguments, random legal actions "
        "from sample_legal().",
        "Row 4: mcts or ismcts from a position 40 actions into a random game; with two threads "
        "each grows its own tree of the same size, so twice the iterations are done.",
    ]
    return rows, notes
