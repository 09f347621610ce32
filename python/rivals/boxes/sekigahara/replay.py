"""Reading Sekigahara's version-1 replays (``rivals.replay``)."""

from __future__ import annotations

from typing import Any


def v1_chance_offset(state: Any) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``:
    the reveal of card c was 108 + c."""
    return 109
