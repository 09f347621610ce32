"""The exact solver's answers for tests: the ``solver`` bot's ``analyse`` on engine states and on
reference states (replayed into the engine)."""

from __future__ import annotations

from typing import Any

import rivals


def analyse(state: Any, max_contexts: int = 2_000_000, time_s: float = 0.0) -> dict[str, Any]:
    """The solver's analysis of ``state``: ``returns`` under optimal play, an optimal ``action``
    (-1 where nobody is to move), ``contexts``, ``nodes`` and ``seconds``."""
    if not isinstance(state, rivals.State):
        game = rivals.make(state.game.name, **state.game.params)
        state = game.state_from_history(state.history())
    # A bot of its own each time: its table of solved contexts goes with it, so no test sees
    # another's (the solver bots alive at once share one table).
    solver = rivals.bots.make("solver", state.game, max_contexts=max_contexts, time_s=time_s)
    return solver.analyse(state)


def value(state: Any) -> float:
    """The exact value of ``state`` for seat 0."""
    return float(analyse(state)["returns"][0])
