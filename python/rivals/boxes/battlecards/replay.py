"""Reading Battlecards' version-1 replays (``rivals.replay``)."""

from __future__ import annotations

from typing import Any


def v1_chance_offset(state: Any) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``:
    the arsenal card of global index a was 899 + a, conflict card k 1155 + k."""
    snapshot = state.to_dict()
    if snapshot["phase"] in ("conflict_draw", "flip"):
        return 1155
    return 899 + 128 * int(snapshot["subject"])
