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

from . import battlecards, rheinlaender, rosenkoenig, sekigahara, verraeter

CHANCE = -1
TERMINAL = -4

# Game name -> module. Each module provides ``Game(**params)`` (ValueError for unknown
# parameters or bad values, naming what is accepted).
_GAMES: dict[str, ModuleType] = {
    "battlecards": battlecards,
    "rheinlaender": rheinlaender,
    "rosenkoenig": rosenkoenig,
    "sekigahara": sekigahara,
    "verraeter": verraeter,
}


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
    """Sorted names of the games that have a reference implementation."""
    return sorted(_GAMES)


def make(name: str, **params: Any) -> Game:
    """The reference ``Game`` called ``name``; ``ValueError`` for an unknown name or parameter."""
    module = _GAMES.get(name) if isinstance(name, str) else None
    if module is None:
        raise ValueError(f"unknown reference game {name!r}; accepted: {', '.join(games())}")
    factory: Callable[..., Game] = module.Game
    return factory(**params)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "State",
    "battlecards",
    "games",
    "make",
    "rheinlaender",
    "rosenkoenig",
    "sekigahara",
    "verraeter",
]
