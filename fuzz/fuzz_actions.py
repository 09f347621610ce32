"""Action application: a byte stream picks a game (every game, each player count) and a sequence
of values that go to ``apply_action``: mostly a legal action (to get deep into games), else any
int (edges of 32 and 64 bits included), an id near the action range, or not an int at all.

Every call either succeeds, exactly when the value is one of ``legal_actions()``, or raises
``ValueError`` and leaves ``to_json``, ``hash`` and ``history`` as they were. After each legal
action the cheap invariants of ``check_state`` hold; at the end the history rebuilds the state.

    python fuzz/fuzz_actions.py -runs=10000 corpus/actions
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rivals
from fuzz._common import (
    Bytes,
    check,
    check_replayable,
    check_state,
    configs,
    main,
    pick_game,
    snapshot,
)

NOT_INTS: tuple[Any, ...] = (None, True, False, 0.0, 1.5, "0", b"\x00", [0], float("nan"))


def next_value(data: Bytes, state: rivals.State, legal: list[int]) -> Any:
    kind = data.byte()
    if kind < 160 and legal:
        return legal[data.below(len(legal))]
    if kind < 200:
        game = state.game
        ids = game.max_chance_outcomes if state.is_chance_node() else game.num_distinct_actions
        return data.below(ids + 8) - 4
    if kind < 250:
        return data.int_any()
    return data.pick(NOT_INTS)


def one_input(raw: bytes) -> None:
    data = Bytes(raw)
    game = pick_game(data)
    state = game.new_initial_state()
    name = game.name
    ended = False
    while not data.exhausted and not ended:
        ended = state.is_terminal()  # one value after the end, which must raise, then stop
        legal = state.legal_actions()
        value = next_value(data, state, legal)
        is_legal = type(value) is int and value in legal
        before = state.history()
        if is_legal:
            state.apply_action(value)
            check(state.history() == [*before, value], f"{name}: history after {value} is wrong")
            check_state(state)
            continue
        seen = snapshot(state)
        try:
            state.apply_action(value)
        except ValueError:
            check(snapshot(state) == seen, f"{name}: illegal action {value!r} changed the state")
            continue
        check(False, f"{name}: {value!r} was applied though it is not in {legal}")
    check_replayable(state)


def seeds() -> list[bytes]:
    """Per game, long streams of legal choices (deep positions), and mixed streams."""
    out = []
    rng = random.Random(0)
    for index in range(len(configs())):
        out.append(bytes([index]) + bytes(rng.randrange(160) for _ in range(600)))
        out.append(bytes([index]) + rng.randbytes(200))
    return out


if __name__ == "__main__":
    main(one_input, seeds)
