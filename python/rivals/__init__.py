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

import importlib
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


# The rest of the package loads when first named (``rivals.arena.Lineup``), so that ``import
# rivals`` stays quick and needs none of their dependencies (rich, for the pictures). The
# framework adapters, which need packages of their own, are imported by name.
_SUBMODULES = frozenset(
    {"arena", "reference", "render", "rulebook", "stats", "tournament", "viewer"}
)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"rivals.{name}")
    raise AttributeError(f"module 'rivals' has no attribute {name!r}")


def games() -> list[str]:
    """Sorted names of every game: ``battlecards``, ``rheinlaender``, ``rosenkoenig``, ..."""
    return list(game_names())


def make(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params``; every parameter left out takes its default.

    An unknown name or parameter, or a bad value, raises ``ValueError`` listing what is accepted.
    """
    return make_game(name, params)
