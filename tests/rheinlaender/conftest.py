from __future__ import annotations

import pytest

import rivals

IMPLS = ["reference", "engine"]


@pytest.fixture(params=IMPLS)
def make(request):
    if request.param == "reference":
        from rivals import reference

        return reference.make
    if "rheinlaender" not in rivals.games():
        pytest.skip("the engine does not provide rheinlaender yet")
    return rivals.make
