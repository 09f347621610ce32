"""What every test shares: the ``make`` fixture, once with the pure-Python reference and once with
the C++ engine, so each rule is checked on both implementations (both must provide every game;
tests/test_api.py fails when one of them lacks a game); and the smoke selection.

``pytest --smoke`` runs only the modules of ``SMOKE``: the public API, errors, replays, threads,
VectorEnv, the fuzz regressions, the ecosystem adapters and the rules of every game of the engine
(``tests/<game>/test_rules.py``; tests/test_api.py fails while a game has none). It needs
nothing but the installed package, pytest and hypothesis (an ecosystem module whose optional
package is missing skips itself, see tests/optional.py), so it is what a freshly built wheel is
tested with, and what CI runs on the oldest and newest supported Python.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any, Callable

import pytest

import rivals
from rivals import reference
from tests import optional
from tests.games import SMOKE

# A process started in the background of a script inherits SIGINT ignored, Python then sets no
# KeyboardInterrupt handler, and so do the programs it starts: Ctrl-C is meant to be ignored
# there. The Ctrl-C tests are about Ctrl-C reaching the engine, the arena and the play screen, so
# the suite asks for Python's usual handler wherever it was started; the processes the tests start
# then get the default too (a handled signal is reset when a program starts, an ignored one is
# not).
signal.signal(signal.SIGINT, signal.default_int_handler)

IMPLEMENTATIONS: dict[str, Callable[..., Any]] = {
    "reference": reference.make,
    "engine": rivals.make,
}

TESTS = Path(__file__).resolve().parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--smoke",
        action="store_true",
        help="run the smoke selection only (what a built wheel is tested with)",
    )


def pytest_configure(config: pytest.Config) -> None:
    optional.SMOKE = bool(config.getoption("--smoke"))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--smoke``, every test module outside ``SMOKE`` is left uncollected (not even
    imported: it may need packages the smoke selection does without)."""
    if not config.getoption("--smoke") or not collection_path.name.startswith("test_"):
        return None
    try:
        relative = collection_path.resolve().relative_to(TESTS).as_posix()
    except ValueError:
        return None
    return relative not in SMOKE


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make(impl: str) -> Callable[..., Any]:
    return IMPLEMENTATIONS[impl]
