"""Terminal pictures of game states, built with rich.

``render(state)`` gives a rich renderable for any game. A game gets a picture of its own by adding
a module ``rivals.render.<game name>`` that defines any of ``render(state, names)``,
``seat_label(num_players, seat)`` and ``result_text(state)``; whatever a module leaves out, or a
game without a module, falls back to the plain versions here (``str(state)`` for the picture).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.text import Text

from rivals._core import CHANCE, State

__all__ = ["params_text", "player_label", "render", "result_text", "seat_label"]

_modules: dict[str, ModuleType | None] = {}


def _module(game_name: str) -> ModuleType | None:
    if game_name not in _modules:
        qualified = f"{__name__}.{game_name}"
        try:
            _modules[game_name] = importlib.import_module(qualified)
        except ModuleNotFoundError as error:
            # Only a missing renderer means "use the fallback"; a renderer that itself fails to
            # import something is a bug that should surface.
            if error.name != qualified:
                raise
            _modules[game_name] = None
    return _modules[game_name]


def _hook(game_name: str, hook: str) -> Callable[..., Any] | None:
    module = _module(game_name)
    found = getattr(module, hook, None) if module is not None else None
    return cast("Callable[..., Any] | None", found)


def render(state: State, names: Sequence[str] | None = None) -> RenderableType:
    """A rich renderable of ``state``; ``names`` optionally labels the seats (``"you"``)."""
    hook = _hook(state.game.name, "render")
    if hook is not None:
        return cast(RenderableType, hook(state, names))
    parts: list[RenderableType] = [Text(str(state).rstrip("\n"))]
    if names:
        labels = ", ".join(f"seat {seat}: {name}" for seat, name in enumerate(names))
        parts.append(Text(labels, style="dim"))
    return Group(*parts)


def params_text(params: dict[str, Any]) -> str:
    """``players=4 cards=null``: as typed on the command line (strings bare, the rest as JSON, a
    data document by its format and name rather than in full)."""

    def shown(value: Any) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and "format" in value:
            name = value.get("name")
            return f"<{value['format']}{f' {name!r}' if isinstance(name, str) else ''}>"
        if isinstance(value, list) and any(isinstance(item, dict) for item in value):
            return "[" + ", ".join(shown(item) for item in value) + "]"
        return json.dumps(value)

    return " ".join(f"{key}={shown(value)}" for key, value in params.items())


def seat_label(game_name: str, num_players: int, seat: int) -> str:
    """A short name for ``seat``: ``"Red"`` in Rosenkönig, ``"seat 1"`` by default."""
    hook = _hook(game_name, "seat_label")
    if hook is not None:
        return str(hook(num_players, seat))
    return f"seat {seat}"


def player_label(state: State, player: int) -> str:
    """Who ``player`` (a seat or CHANCE) is, for move lists: ``"Red (0)"``, ``"chance"``."""
    if player == CHANCE:
        return "chance"
    if player < 0:
        return "-"
    game = state.game
    label = seat_label(game.name, game.num_players, player)
    return label if label == f"seat {player}" else f"{label} ({player})"


def result_text(state: State) -> str:
    """One line on how the game stands or ended: ``"Red wins 156 to 148"``."""
    hook = _hook(state.game.name, "result_text")
    if hook is not None:
        return str(hook(state))
    returns = ", ".join(f"{value:g}" for value in state.returns())
    scores = ", ".join(f"{value:g}" for value in state.scores())
    status = "game over" if state.is_terminal() else "in progress"
    return f"{status}: returns [{returns}], scores [{scores}]"
