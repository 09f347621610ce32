"""The parameter sets every generic suite runs each game under, and how hard to push each one.

Each game's own test folder says them (``CONFIGS`` in ``tests/<game>/__init__.py``), and this
collects them for every game of the engine; tests/test_api.py fails while a game has none, so a
new game gets the differential, invariant, VectorEnv, thread and error suites from the start.

Test ids and random seeds come from :func:`config_id`. Data parameters are given by their shipped
names, never by a path, so the ids and seeds (and a failure they reproduce) do not depend on where
the repository is checked out.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import rivals


def _tests_of(name: str) -> ModuleType | None:
    """The test package of game ``name`` (``tests/<name>/``), or None while it has none."""
    try:
        return importlib.import_module(f"tests.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"tests.{name}":
            raise
        return None


# name -> list of (params, differential games in CI, invariant games in CI)
CONFIGS: dict[str, list[tuple[dict[str, Any], int, int]]] = {
    name: getattr(_tests_of(name), "CONFIGS", []) for name in rivals.games()
}


# What a built wheel is tested with (``pytest --smoke``, tests/conftest.py): the public API,
# errors, replays, threads, VectorEnv, the fuzz regressions, the ecosystem adapters and the rules
# of every game of the engine.
SMOKE = {
    "test_api.py",
    "test_errors.py",
    "test_fuzz_regressions.py",
    "test_openspiel.py",
    "test_pettingzoo.py",
    "test_replay.py",
    "test_threads.py",
    "test_vector_env.py",
    *(f"{name}/test_rules.py" for name in CONFIGS),
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


# (game, parameter, shipped document it defaults to or, for a list parameter, an example of) for
# every data parameter, and their test ids.
DATA_PARAMS = [
    ("sekigahara", "cards", "sekigahara"),
    ("verraeter", "cards", "verraeter"),
    ("rheinlaender", "map", "rheinlaender"),
    ("battlecards", "cards", "battlecards"),
    ("battlecards", "expansions", "battlecards_commanders"),
]
PARAM_IDS = [f"{game}-{param}" for game, param, _ in DATA_PARAMS]
