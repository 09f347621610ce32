"""The exact solver's answers for tests: the ``solver`` bot's ``analyse`` on engine states and on
reference states (replayed into the engine)."""

from __future__ import annotations

from functools import cache
from typing import Any

import rivals


@cache
def _solver(game: rivals.Game, max_contexts: int, time_s: float) -> rivals.bots.Bot:
    # One bot per rules and budget keeps its table of solved contexts alive between calls.
    return rivals.bots.make("solver", game, max_contexts=max_contexts, time_s=time_s)


def analyse(state: Any, max_contexts: int = 2_000_000, time_s: float = 0.0) -> dict[str, Any]:
    """The solver's analysis of ``state``: ``returns`` under optimal play, an optimal ``action``
    (-1 where nobody is to move), ``contexts``, ``nodes`` and ``seconds``."""
    if not isinstance(state, rivals.State):
        game = rivals.make(state.game.name, **state.game.params)
        state = game.state_from_history(state.history())
    return _solver(state.game, max_contexts, time_s).analyse(state)


def value(state: Any) -> float:
    """The exact value of ``state`` for seat 0."""
    return float(analyse(state)["returns"][0])
