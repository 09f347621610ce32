from __future__ import annotations

import pytest

IMPLS = ["reference", "engine"]


@pytest.fixture(params=IMPLS)
def make(request):
    if request.param == "reference":
        from rivals import reference

        return reference.make
    import rivals

    if "battlecards" not in rivals.games():
        pytest.skip("the battlecards engine is not registered yet")
    return rivals.make
