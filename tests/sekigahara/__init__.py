"""Sekigahara's tests. ``CONFIGS``: the parameter sets every generic suite runs the game
under, each with its differential and invariant games in CI (tests/games.py)."""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[dict[str, Any], int, int]] = [
    ({"repetition_rule": "turn_start"}, 200, 20),
    ({"repetition_rule": "symmetric"}, 150, 10),
    ({"repetition_rule": "off"}, 150, 10),
]
