from __future__ import annotations

from typing import Any, Callable

import pytest

IMPLS = ["reference", "engine"]


@pytest.fixture(params=IMPLS)
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make(impl: str) -> Callable[..., Any]:
    if impl == "reference":
        from rivals import reference

        return reference.make
    import rivals

    if "sekigahara" not in rivals.games():
        pytest.skip("the sekigahara engine is not built into rivals yet")
    return rivals.make
