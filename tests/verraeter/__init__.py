"""Verräter's tests. ``CONFIGS``: the parameter sets every generic suite runs the game
under, each with its differential and invariant games in CI (tests/games.py)."""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[dict[str, Any], int, int]] = [
    ({"players": 4}, 160, 5),
    ({"players": 3}, 160, 6),
]
