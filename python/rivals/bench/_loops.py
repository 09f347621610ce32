"""Game-agnostic timed loops shared by the per-game benchmarks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from rivals._core import Game, State

from ._common import positive


def random_games(new_state: Callable[[], Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """Random games from ``new_state()`` until ``seconds`` of CPU time have passed: (plies, games,
    CPU seconds). Chance nodes go through legal_actions() like decisions, and the clock is read
    once per game, so it costs nothing per ply. OpenSpiel's side of the comparison
    (_pyspiel_loop.py) runs this loop too, so the two compare the Python-facing layers alone."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = games = 0
    start = time.process_time()
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plies += 1
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return plies, games, elapsed


def python_loop(game: Game, seconds: float, seed: int) -> float:
    """Plies/s of random games driven from Python through the bindings (CPU time)."""
    plies, _, elapsed = random_games(game.new_initial_state, seconds, seed)
    return plies / positive(elapsed)


def replay_like_playouts(reference_game: Any, histories: Sequence[Sequence[int]]) -> int:
    """Replays ``histories`` in a reference implementation, doing what a random playout does
    (per ply: legal actions, the chance outcomes at chance nodes, apply; at the end: the
    returns, since the engine's playouts score every game); returns the plies played.

    The recorded action stands in for the random choice, so the reference plays exactly the
    engine's games. A disagreement between the two raises, naming the game and ply.
    """
    plies = 0
    for number, history in enumerate(histories):
        state = reference_game.new_initial_state()
        actions = iter(history)
        ply = 0
        while not state.is_terminal():
            state.legal_actions()
            if state.is_chance_node():
                state.chance_outcomes()
            action = next(actions, None)
            if action is None:
                raise RuntimeError(f"reference game {number} goes on after the engine's ended")
            try:
                state.apply_action(action)
            except ValueError as error:
                raise RuntimeError(
                    f"reference rejects the engine's action {action} in game {number}, "
                    f"ply {ply}: {error}"
                ) from error
            ply += 1
        state.returns()
        if ply != len(history):
            raise RuntimeError(f"reference game {number} ended at ply {ply} of {len(history)}")
        plies += ply
    return plies


def decisions_per_game(game: Game, histories: Sequence[Sequence[int]]) -> float:
    """Mean number of non-chance actions per game (untimed; walks the histories in the engine)."""
    decisions = 0
    for history in histories:
        state = game.new_initial_state()
        for action in history:
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(action)
    return decisions / max(1, len(histories))


def thread_ns_per_call(run: Callable[[], object], calls: int) -> float:
    """Mean ns per call of ``run()``, which makes ``calls`` calls on this thread, by the
    thread's CPU clock: what both sides of a ratio of such figures are timed with, so that a
    busy neighbour on the machine slows neither."""
    start = time.thread_time()
    run()
    return positive(time.thread_time() - start) * 1e9 / calls


def python_clone_ns(state: State, clones: int) -> float:
    """Mean ns of ``state.clone()`` called from Python (the call overhead included: that is what
    a Python user pays), by the thread's CPU clock."""
    clone = state.clone
    loop = range(clones)

    def clone_all() -> None:
        for _ in loop:
            clone()

    return thread_ns_per_call(clone_all, clones)


def cxx_copy_ns(game: Game, copies: int) -> float:
    """Mean ns of a copy of a mid-game state inside C++ (``game.copy_ns``, which runs on the
    calling thread), by the thread's CPU clock: ``copy_ns`` itself reads the wall clock."""
    return thread_ns_per_call(lambda: game.copy_ns(copies), copies)
