"""The parameter sets every generic suite runs each game under, and how hard to push each one.

Every game of the engine must have a row here (tests/test_api.py checks it), so a new game gets
the differential, invariant, VectorEnv, thread and error suites from the start.

Test ids and random seeds come from :func:`config_id`. Data parameters are given by their shipped
names, never by a path, so the ids and seeds (and a failure they reproduce) do not depend on where
the repository is checked out.
"""

from __future__ import annotations

import os
from typing import Any

# name -> list of (params, differential games in CI, invariant games in CI)
CONFIGS: dict[str, list[tuple[dict[str, Any], int, int]]] = {
    # Full Battlecards games run about a thousand actions, so most differential games stop at the
    # 60-turn limit (a draw): the early and middle game in bulk, whole games in fewer numbers.
    "battlecards": [
        ({}, 40, 1),
        ({"max_turns": 60}, 250, 3),
        ({"expansions": ["battlecards_commanders"]}, 12, 1),
    ],
    "rheinlaender": [
        ({"players": 3}, 120, 1),
        ({"players": 4}, 80, 1),
        ({"players": 5}, 60, 1),
        ({"players": 3, "max_turns": 40}, 60, 1),
    ],
    "rosenkoenig": [({"players": 2}, 300, 20), ({"players": 4}, 200, 10)],
    "sekigahara": [
        ({"repetition_rule": "turn_start"}, 200, 20),
        ({"repetition_rule": "symmetric"}, 150, 10),
        ({"repetition_rule": "off"}, 150, 10),
    ],
    "verraeter": [({"players": 4}, 160, 5), ({"players": 3}, 160, 6)],
}


def configs(kind: str) -> list[tuple[str, dict[str, Any], int]]:
    """(game, params, games) for each configured game; kind is 'differential' or 'invariants'.

    RIVALS_TEST_SCALE (default 1) scales the games, at least one per parameter set:
    scripts/test.sh plays a fifth of them unless given --full (CI's depth), and the sanitizer
    build (scripts/sanitize.sh), several times slower, a quarter."""
    column = {"differential": 1, "invariants": 2}[kind]
    scale = float(os.environ.get("RIVALS_TEST_SCALE", "1"))
    out = []
    for name, rows in CONFIGS.items():
        for row in rows:
            out.append((name, row[0], max(1, round(int(row[column]) * scale))))
    return out


def config_id(name: str, params: dict[str, Any]) -> str:
    """The test id of a game and its parameters, also the text its random seeds derive from."""
    assert "/" not in repr(params), f"{name}: name data by its shipped name, not a path: {params}"
    return name + "".join(f"-{key}={value}" for key, value in sorted(params.items()))
