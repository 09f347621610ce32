"""The games the ecosystem suites (OpenSpiel, PettingZoo, SVG, viewer) run on: every game in the
engine with its defaults, plus every other parameter set of tests/games.py (Rosenkönig with four
players, say), so a new game is covered the moment it is registered."""

from __future__ import annotations

import random
from typing import Any

import rivals
from tests.games import config_id, configs
from tests.random_play import play_randomly


def cases() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in rivals.games()]
    seen = {(name, repr(rivals.make(name).params)) for name in rivals.games()}
    for name, params, _ in configs("invariants"):
        if name not in rivals.games():
            continue
        key = (name, repr(rivals.make(name, **params).params))
        if key not in seen:
            seen.add(key)
            out.append((name, params))
    return out


CASES = cases()
CASE_IDS = [config_id(name, params) for name, params in CASES]


def random_game(
    name: str, params: dict[str, Any], seed: int, limit: int | None = None
) -> rivals.State:
    """A game of uniformly random moves (chance by its probabilities), to the end or, when
    ``limit`` is given, to exactly ``limit`` actions (the game must last that long)."""
    rng = random.Random(seed)
    state = rivals.make(name, **params).new_initial_state()
    play_randomly(state, rng, plies=limit)
    assert limit is None or len(state.history()) == limit, f"the game ended before {limit} actions"
    return state
