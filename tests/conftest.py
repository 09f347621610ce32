"""The fixture every rules test shares: ``make``, once with the pure-Python reference and once with
the C++ engine, so each rule is checked on both implementations. Both must provide every game;
tests/test_api.py fails when one of them lacks a game the other has."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import rivals
from rivals import reference

IMPLEMENTATIONS: dict[str, Callable[..., Any]] = {
    "reference": reference.make,
    "engine": rivals.make,
}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make(impl: str) -> Callable[..., Any]:
    return IMPLEMENTATIONS[impl]
