"""Battlecards' tests. ``CONFIGS``: the parameter sets every generic suite runs the game
under, each with its differential and invariant games in CI (tests/games.py)."""

from __future__ import annotations

from typing import Any

# Full Battlecards games run about a thousand actions, so most differential games stop at the
# 60-turn limit (a draw): the early and middle game in bulk, whole games in fewer numbers.
CONFIGS: list[tuple[dict[str, Any], int, int]] = [
    ({}, 40, 1),
    ({"max_turns": 60}, 250, 3),
    ({"expansions": ["battlecards_commanders"]}, 12, 1),
]
