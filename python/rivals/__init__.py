"""Fast, exact engines for five historical strategy games.

>>> import rivals
>>> game = rivals.make("rosenkoenig")
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()
[...]
"""

from __future__ import annotations

from typing import Any

from rivals import bots, replay
from rivals._core import (
    CHANCE,
    TERMINAL,
    BudgetExceeded,
    Game,
    GameInfo,
    State,
    game_names,
    make_game,
)
from rivals.vector_env import VectorEnv

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BudgetExceeded",
    "Game",
    "GameInfo",
    "State",
    "VectorEnv",
    "bots",
    "games",
    "make",
    "replay",
]
__version__ = "0.1.0"


def games() -> list[str]:
    """Sorted names of every game: ``battlecards``, ``rheinlaender``, ``rosenkoenig``, ..."""
    return list(game_names())


def make(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params``; every parameter left out takes its default.

    An unknown name or parameter, or a bad value, raises ``ValueError`` listing what is accepted.
    """
    return make_game(name, params)
