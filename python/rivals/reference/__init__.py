"""Pure-Python reference implementations (oracles) of the `rivals` games.

They implement the rules pages in ``docs/rules/`` as plainly as possible and are used to check
the fast engine; they are not meant for speed. Usage mirrors the engine::

    from rivals import reference
    game = reference.make("rosenkoenig", players=4)
    state = game.new_initial_state()
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

from rivals import boxes

CHANCE = -1
TERMINAL = -4


class State(Protocol):
    """The part of the public State API every reference state provides."""

    def current_player(self) -> int: ...
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: Any) -> None: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def returns(self) -> list[float]: ...
    def scores(self) -> list[float]: ...
    def clone(self) -> Any: ...
    def history(self) -> list[int]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def observation_tensor(self, player: int, kind: str = ...) -> Any: ...
    def observation_string(self, player: int) -> str: ...
    def information_state_string(self, player: int) -> str: ...


class Game(Protocol):
    """The part of the public Game API every reference game provides."""

    name: str
    params: dict[str, Any]
    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    observation_shape: tuple[int, ...]
    compact_observation_shape: dict[str, tuple[int, ...]]

    def new_initial_state(self) -> Any: ...


def games() -> list[str]:
    """Sorted names of the games that have a reference implementation: the games whose box
    (``rivals.boxes.<game>``) has a ``reference`` module."""
    return [name for name in boxes.names() if boxes.part(name, "reference") is not None]


def make(name: str, **params: Any) -> Game:
    """The reference ``Game`` called ``name``; ``ValueError`` for an unknown name or parameter.

    Each game's module provides ``Game(**params)`` (ValueError for unknown parameters or bad
    values, naming what is accepted)."""
    module = boxes.part(name, "reference") if isinstance(name, str) else None
    if module is None:
        raise ValueError(f"unknown reference game {name!r}; accepted: {', '.join(games())}")
    factory: Callable[..., Game] = module.Game
    return factory(**params)


def __getattr__(name: str) -> ModuleType:
    """``reference.<game>``: the reference module of every game, as ``reference.make`` finds it."""
    module = boxes.part(name, "reference") if not name.startswith("_") else None
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "State",
    "games",
    "make",
]
