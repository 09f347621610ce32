"""Reading Verräter's version-1 replays (``rivals.replay``)."""

from __future__ import annotations

from typing import Any


def v1_chance_offset(state: Any) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``:
    the landscapes, set-aside cards and draws started at 56, 68 and 74."""
    return {"ring": 56, "draft": 68}.get(state.to_dict()["phase"], 74)
