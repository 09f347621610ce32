"""Data files: each game's shipped data file (maps, card sets, expansions), for every parameter of
``game.params`` that takes one, mutated in its structure (values replaced, keys and elements
dropped or duplicated, ids swapped, numbers pushed to their edges) or byte by byte, written to a
file and passed as ``rivals.make(name, param=path)``, or passed as the document itself.

Each gives ``ValueError`` naming the parameter, or a game that plays a random
game to the end within ``max_game_length`` with the state invariants holding at every step, whose
history rebuilds it, and whose C++ playouts run.

    python fuzz/fuzz_data.py -runs=2000 corpus/data
"""

from __future__ import annotations

import atexit
import copy
import json
import random
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, Union

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rivals
from fuzz._common import (
    Bytes,
    DataParam,
    check,
    check_replayable,
    check_state,
    data_params,
    main,
)

Container = Union[dict[str, Any], list[Any]]


@cache
def shipped(param: DataParam) -> Any:
    return json.loads(param.shipped.read_text(encoding="utf-8"))


@cache
def scratch_file() -> Path:
    folder = tempfile.mkdtemp(prefix="rivals-fuzz-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder) / "data.json"


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [s for item in items for s in strings_in(item)]


def walk(doc: Container, data: Bytes) -> tuple[Container, Any]:
    """A (container, key or index) somewhere in the document, deeper with each byte that says so."""
    parent: Container = doc
    while True:
        keys: list[Any] = sorted(parent) if isinstance(parent, dict) else list(range(len(parent)))
        if not keys:
            return parent, None
        key = data.pick(keys)
        child = parent[key]
        if not isinstance(child, (dict, list)) or not child or data.chance(25):
            return parent, key
        parent = child


def new_value(data: Bytes, old: Any, doc: Any) -> Any:
    op = data.byte() % 9
    if op == 0 and isinstance(old, int) and not isinstance(old, bool):
        return old + data.byte() - 128
    if op == 1:
        return data.int_any()
    if op == 2:
        return data.pick((None, True, False, 0.5, -0.0, 1e300, [], {}))
    if op == 3:
        found = strings_in(doc)
        return data.pick(found) if found else data.text(12)
    if op == 4:
        return data.text(12)
    if op == 5 and isinstance(old, list):
        return old * (2 + data.byte() % 3)
    if op == 6:
        return [copy.deepcopy(old)]
    if op == 7:
        parent, key = walk(doc, data)
        return copy.deepcopy(parent[key]) if key is not None else None
    return data.byte() % 16


def mutate(doc: Container, data: Bytes) -> None:
    parent, key = walk(doc, data)
    op = data.byte() % 6
    if key is None:
        if isinstance(parent, dict):
            parent[data.text(10)] = new_value(data, None, doc)
        else:
            parent.append(new_value(data, None, doc))
    elif op <= 2:
        parent[key] = new_value(data, parent[key], doc)
    elif op == 3:
        del parent[key]
    elif op == 4 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[data.below(len(parent))]))
    elif op == 4 and isinstance(parent, dict):
        parent[data.text(10)] = copy.deepcopy(parent[key])
    elif isinstance(parent, list):
        other = data.below(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    else:
        other_key = data.pick(sorted(parent))
        parent[key], parent[other_key] = parent[other_key], parent[key]


def file_text(param: DataParam, data: Bytes) -> bytes:
    mode = data.byte() % 4
    if mode == 0:
        return data.rest()
    doc = copy.deepcopy(shipped(param))
    for _ in range(1 + data.byte() % 6):
        mutate(doc, data)
    text = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if mode == 1 and text:
        edited = bytearray(text)
        for _ in range(1 + data.byte() % 3):
            edited[data.below(len(edited))] = data.byte()
        text = bytes(edited)
    return text


def play(game: rivals.Game, seed: int) -> None:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        check_state(state)
        state.apply_action(rng.choice(state.legal_actions()))
    check_state(state)
    check_replayable(state)
    check(bool(str(state)) and bool(state.to_json()), f"{game.name}: an empty picture")
    game.random_playouts(2, seed=seed)


def one_input(raw: bytes) -> None:
    params = data_params()
    if not params:
        return
    data = Bytes(raw)
    param = data.pick(params)
    seed = data.byte()
    inline = data.chance(25)
    text = file_text(param, data)
    value: Any
    if inline:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return  # not JSON: only a file can carry it
        if not isinstance(value, dict):
            return
    else:
        path = scratch_file()
        path.write_bytes(text)
        value = str(path)
    try:
        game = rivals.make(param.game, **{param.param: param.value(value)})
    except ValueError as error:
        message = str(error)
        # From the engine "<game>: <parameter> ..."; from the conversion of a Python value,
        # "params.<parameter>...".
        check(
            message.startswith((f"{param.game}: ", f"params.{param.param}"))
            and param.param in message,
            f"{param}: the error names not the game and the parameter: {message!r}",
        )
        return
    play(game, seed)


def seeds() -> list[bytes]:
    """Each shipped file as it is (mode 0) and a few structural mutations of it."""
    out = []
    rng = random.Random(0)
    for index, param in enumerate(data_params()):
        out.append(bytes([index, 0, 0]) + param.shipped.read_bytes())
        out += [bytes([index, k, 2]) + rng.randbytes(20) for k in range(6)]
    return out


if __name__ == "__main__":
    main(one_input, seeds)
