"""Random play for the tests: decisions uniformly at random, chance outcomes by their weights.

Engine states, reference states and OpenSpiel states all answer the calls used here. Each step
draws from the caller's ``random.Random`` in the same order (one ``choices`` at a chance node,
one ``choice`` at a decision), so a seed names the same game in every test that plays it.
``random_arena`` has ``rivals arena`` play random games into a replay log.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rivals import cli


def random_action(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes())
        return int(rng.choices(actions, weights)[0])
    return int(rng.choice(state.legal_actions()))


def play_randomly(
    state: Any,
    rng: random.Random,
    stop: Callable[[Any], bool] | None = None,
    plies: int | None = None,
) -> Any:
    """Plays ``state`` on to its end, to the first position where ``stop`` holds, or for
    ``plies`` actions, whichever comes first; returns it."""
    played = 0
    while not state.is_terminal() and not (stop and stop(state)):
        if plies is not None and played >= plies:
            break
        state.apply_action(random_action(state, rng))
        played += 1
    return state


def random_arena(out: Path, game: str, games: int) -> Path:
    """``out``, where ``rivals arena`` has written ``games`` games of two random bots."""
    argv = ["arena", game, "--bots", "random,random", "--games", str(games), "--out", str(out)]
    assert cli.main(argv) == 0
    return out
