"""Rheinländer's tests. ``CONFIGS``: the parameter sets every generic suite runs the game
under, each with its differential and invariant games in CI (tests/games.py)."""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[dict[str, Any], int, int]] = [
    ({"players": 3}, 120, 1),
    ({"players": 4}, 80, 1),
    ({"players": 5}, 60, 1),
    ({"players": 3, "max_turns": 40}, 60, 1),
]
