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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rivals import bots, replay
    from rivals._core import CHANCE, TERMINAL, BudgetExceeded, Game, GameInfo, State
    from rivals._core import game_names as game_names
    from rivals._core import make_game as make_game
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


# Everything loads when first named (``rivals.make``, ``rivals.arena.Lineup``), the compiled
# engine too: ``import rivals`` stays quick and needs none of the dependencies of the parts not
# used (rich, for the pictures), and the pure-Python reference (``rivals.reference``), which
# imports nothing of the engine, works where the engine does not load. The framework adapters,
# which need packages of their own, are imported by name.
_SUBMODULES = frozenset(
    {"arena", "bots", "reference", "render", "replay", "rulebook", "stats", "tournament", "viewer"}
)
# The engine's names that ``import rivals`` made attributes of the package before it loaded lazily.
_ENGINE_NAMES = frozenset(
    {"CHANCE", "TERMINAL", "BudgetExceeded", "Game", "GameInfo", "State", "game_names", "make_game"}
)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"rivals.{name}")
    if name in _ENGINE_NAMES:
        value = getattr(importlib.import_module("rivals._core"), name)
    elif name == "VectorEnv":
        value = importlib.import_module("rivals.vector_env").VectorEnv
    else:
        raise AttributeError(f"module 'rivals' has no attribute {name!r}")
    globals()[name] = value  # found once: the next use is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_SUBMODULES})


def games() -> list[str]:
    """Sorted names of every game: ``battlecards``, ``rheinlaender``, ``rosenkoenig``, ..."""
    from rivals._core import game_names

    return list(game_names())


def make(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params``; every parameter left out takes its default.

    An unknown name or parameter, or a bad value, raises ``ValueError`` listing what is accepted.
    """
    from rivals._core import make_game

    return make_game(name, params)
