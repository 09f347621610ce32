"""Reading Rheinländer's version-1 replays (``rivals.replay``)."""

from __future__ import annotations

from typing import Any


def v1_chance_offset(state: Any) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``:
    card c was N*S + S + N + c and chip kind k N*S + S + 2N + 1 + k (N*S + S + N is today's
    decision count, N + 1 the card count)."""
    game = state.game
    chips = game.max_chance_outcomes if state.to_dict()["phase"] == "landmarks" else 0
    return int(game.num_distinct_actions + chips)
