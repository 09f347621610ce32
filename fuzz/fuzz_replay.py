"""Replay loading: ``rivals.replay.loads`` on arbitrary bytes and on valid replays of every game
with their entries mutated (actions, players, texts, params, results, the header, the bots and
arena records, a data parameter set to a real path, a shipped name or the document).

Each input must give a state or a ``ValueError`` whose message starts ``bad replay:``; a replay
that loads must name no file in its data parameters, dump and load again to the same state and
satisfy the state invariants.

    python fuzz/fuzz_replay.py -runs=10000 corpus/replay
"""

from __future__ import annotations

import copy
import json
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
    check_state,
    configs,
    data_params,
    main,
    make,
    play_randomly,
    position,
)

HEADER_KEYS = ("format", "version", "game", "params", "actions", "result", "bots", "arena")
ENTRY_KEYS = ("player", "action", "text")
SPECIAL_FLOATS = (float("nan"), float("inf"), -float("inf"), -0.0, 0.5, 1e308, 2.0, -1.0)


def fuzz_value(data: Bytes, record: dict[str, Any]) -> Any:
    """A JSON value of any kind, sometimes borrowed from elsewhere in the record."""
    kind = data.byte() % 11
    if kind == 0:
        return None
    if kind == 1:
        return data.chance(50)
    if kind in (2, 3):
        return data.int_any()
    if kind == 4:
        return data.pick(SPECIAL_FLOATS)
    if kind == 5:
        return data.text()
    if kind == 6:
        return []
    if kind == 7:
        return {data.text(8): data.int_any()}
    if kind == 8:
        return [data.int_any() for _ in range(data.byte() % 4)]
    if kind == 9:
        return data.pick(rivals.games())
    return copy.deepcopy(record.get(data.pick(HEADER_KEYS)))


def mutate_entries(entries: list[Any], data: Bytes, record: dict[str, Any]) -> None:
    k = data.below(len(entries))
    entry = entries[k]
    op = data.byte() % 9
    if op == 0 and isinstance(entry, dict):
        # Near the recorded action more often than not: neighbours are the likely mix-ups.
        entry["action"] = (
            entry.get("action", 0) + data.byte() - 128
            if data.chance(60) and isinstance(entry.get("action"), int)
            else data.int_any()
        )
    elif op == 1 and isinstance(entry, dict):
        entry["player"] = fuzz_value(data, record)
    elif op == 2 and isinstance(entry, dict):
        other = data.pick(entries)
        entry["text"] = (
            other.get("text") if isinstance(other, dict) and data.chance(50) else data.text()
        )
    elif op == 3:
        del entries[k]
    elif op == 4:
        entries.insert(k, copy.deepcopy(data.pick(entries)))
    elif op == 5:
        del entries[k:]
    elif op == 6:
        entries[k] = fuzz_value(data, record)
    elif op == 7 and isinstance(entry, dict):
        entry.pop(data.pick(ENTRY_KEYS), None)
    else:
        j = data.below(len(entries))
        entries[k], entries[j] = entries[j], entries[k]


def mutate_data_param(record: dict[str, Any], data: Bytes) -> None:
    """A data parameter of the replay's game set to a real path (which a replay must never make
    the loader open), a shipped name, the document itself or any text."""
    params = record.get("params")
    candidates = [p for p in data_params() if p.game == record.get("game")]
    if not isinstance(params, dict) or not candidates:
        return
    param = data.pick(candidates)
    kind = data.byte() % 4
    value: Any = (
        str(param.shipped)
        if kind == 0
        else param.shipped.stem
        if kind == 1
        else json.loads(param.shipped.read_text(encoding="utf-8"))
        if kind == 2
        else data.text(12)
    )
    params[param.param] = param.value(value)


def mutate(record: dict[str, Any], data: Bytes) -> None:
    entries = record.get("actions")
    op = data.byte() % 7
    if op == 6:
        mutate_data_param(record, data)
    elif op <= 2 and isinstance(entries, list) and entries:
        mutate_entries(entries, data, record)
    elif op == 3:
        record[data.pick(HEADER_KEYS)] = fuzz_value(data, record)
    elif op == 4:
        record.pop(data.pick(HEADER_KEYS), None)
    else:
        section = record.get(data.pick(("params", "result")))
        if isinstance(section, dict) and section:
            key = data.pick(sorted(section))
            value = section[key]
            section[key] = (
                [-v if isinstance(v, (int, float)) else v for v in value]
                if isinstance(value, list) and data.chance(50)
                else fuzz_value(data, record)
            )
        elif isinstance(section, dict):
            section[data.text(10)] = fuzz_value(data, record)


def mutated_replay(data: Bytes, flip_bytes: bool) -> bytes:
    record = rivals.replay.to_dict(position(data))
    for _ in range(1 + data.byte() % 4):
        mutate(record, data)
    text = json.dumps(record, ensure_ascii=data.chance(50)).encode("utf-8", "surrogatepass")
    if not flip_bytes or not text:
        return text
    edited = bytearray(text)
    for _ in range(1 + data.byte() % 4):
        edited[data.below(len(edited))] = data.byte()
    return bytes(edited)


def load(text: str | bytes) -> None:
    try:
        state = rivals.replay.loads(text)
    except ValueError as error:
        check(
            str(error).startswith("bad replay: "),
            f"loads raised a ValueError that does not say the replay is bad: {error!r}",
        )
        return
    check_state(state)
    game = state.game
    shipped = set(rivals._core.shipped_data_names())
    for param in data_params():
        if param.game != game.name:
            continue
        value = game.params[param.param]
        for item in value if isinstance(value, list) else [value]:
            check(
                item is None or isinstance(item, dict) or item in shipped,
                f"a replay loaded with {param.param}={item!r}, which names a file",
            )
    again = rivals.replay.loads(rivals.replay.dumps(state))
    check(again.history() == state.history(), "dumps/loads changes the history")
    check(again.to_json() == state.to_json(), "dumps/loads changes the state")


def one_input(raw: bytes) -> None:
    data = Bytes(raw)
    mode = data.byte() % 4
    if mode == 0:
        load(data.rest())
    elif mode == 1:
        load(data.rest().decode("utf-8", errors="surrogateescape"))
    else:
        load(mutated_replay(data, flip_bytes=mode == 3))


def seeds() -> list[bytes]:
    """Valid replays of every game (mode 0), and choices that mutate each game's replays."""
    out = []
    for index, (name, params) in enumerate(configs()):
        for plies in (0, 25, 90):
            state = make(name, params).new_initial_state()
            play_randomly(state, random.Random(index), plies)
            out.append(b"\x00" + rivals.replay.dumps(state).encode("utf-8"))
    rng = random.Random(0)
    out += [bytes([2 + k % 2]) + rng.randbytes(24) for k in range(24)]
    return out


if __name__ == "__main__":
    main(one_input, seeds)
