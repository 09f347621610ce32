"""Everything of one game on the Python side, one package per game: ``rivals.boxes.<game>``.

A game's box holds its parts, each a module found by its name (``part(game, name)``):

- ``reference``: the pure-Python oracle of its rules (``rivals.reference.make`` finds it);
- ``terminal``: its terminal pictures and words (``rivals.render``'s hooks, see there);
- ``svg``: its SVG pictures (``rivals.render.svg``'s hooks);
- ``bench``: its table of ``rivals bench`` (``TITLE`` and ``run``);
- ``replay``: what reading its old replays needs (``v1_chance_offset``), for a game that had
  version-1 replays.

Nothing here imports the engine, so that the reference stands without it; the engine's games are
``rivals.games()``, and ``tests/test_api.py`` holds the two lists to each other and every box to
the parts every game has (``REQUIRED``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

__all__ = ["REQUIRED", "hook", "names", "part"]

# The parts every game has; ``replay`` only a game that had version-1 replays.
REQUIRED = ("reference", "terminal", "svg", "bench")

_found: dict[tuple[str, str], ModuleType | None] = {}


def names() -> list[str]:
    """Sorted names of the games that have a box."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def part(game: str, name: str) -> ModuleType | None:
    """The module ``name`` of ``game``'s box, or None when the game has no such part (or no box).

    Only the part itself missing means None: a part that fails to import something is a bug, and
    its error surfaces."""
    if not (game.isidentifier() and name.isidentifier()):
        return None
    key = (game, name)
    if key not in _found:
        qualified = f"{__name__}.{game}.{name}"
        try:
            _found[key] = importlib.import_module(qualified)
        except ModuleNotFoundError as error:
            if error.name not in (qualified, f"{__name__}.{game}"):
                raise
            _found[key] = None
    return _found[key]


def hook(game: str, name: str, attribute: str) -> Callable[..., Any] | None:
    """The function ``attribute`` of ``game``'s part ``name``, or None where there is none."""
    module = part(game, name)
    found = getattr(module, attribute, None) if module is not None else None
    return cast("Callable[..., Any] | None", found)
