"""Property tests of the readers of what comes from elsewhere: replays, card sets and maps.

Hypothesis draws the games, positions and edits. A replay of any position reads back as that
position; an edited replay, card set or map either reads as a valid one or gives a ``ValueError``
that says where it is wrong (the entry, or for text that is not JSON the line and column), never
another exception and never a crash. The edits run in a fresh interpreter (``run_isolated``), so
that a crash fails its test instead of ending the test run.

The settings are fixed and derandomised: every run draws the same examples, in CI too, and the
whole module takes some tens of seconds.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import tempfile
from importlib import resources
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rivals
from rivals import reference, replay
from tests.games import CONFIGS, DATA_PARAMS
from tests.isolated import run_isolated
from tests.random_play import play_randomly

SETTINGS = settings(
    derandomize=True,
    max_examples=100,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Every parameter set the generic suites play, so that every game and data document is read.
GAMES = [(name, params) for name, rows in CONFIGS.items() for params, *_ in rows]

# Text as it comes from files and callers: lone surrogates and control characters included.
texts = st.text(st.characters(exclude_categories=()), max_size=6) | st.sampled_from(
    ["", "x", "\ud800", "a\udcff", "\x1b[2J", "\u202e", "rosenkoenig", "random"]
)
# Keys a path in a message can show unambiguously (no space, dot or bracket), odd ones included.
keys = st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True) | st.sampled_from(
    ["\ud800", "\x1b", "\u00e9"]
)


def json_values(key: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Any value JSON holds, and NaN and infinities, which it does not; objects have ``key``s."""
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.sampled_from([0, 1, -1, 2**31, 2**63, 2**64])
        | st.floats()
        | texts,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(key, inner, max_size=3),
        max_leaves=6,
    )


values = json_values(texts)
# What an edit of a text puts in: JSON's own punctuation, escapes, bytes that are not UTF-8 and
# lone surrogates as a str holds them.
pieces = st.sampled_from(
    [
        "",
        ",",
        "]",
        "}",
        "{",
        '"',
        "\\",
        "\\ud800",
        "\\udfff",
        "\ud800",
        "NaN",
        "-Infinity",
        "1e999",
        "\n",
        "0",
        '"k": 1',
        "\x01",
    ]
)


def played(config: tuple[str, dict[str, Any]], seed: int, plies: int) -> rivals.State:
    name, params = config
    state = rivals.make(name, **params).new_initial_state()
    return play_randomly(state, random.Random(seed), plies=plies)


positions = st.builds(
    played, st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.integers(0, 600)
)


@settings(SETTINGS, max_examples=60)
@given(positions, st.sampled_from([None, 1]), st.booleans())
def test_a_replay_reads_back_as_the_position_it_records(
    state: rivals.State, indent: int | None, ascii_only: bool
) -> None:
    data = replay.to_dict(state)
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    assert replay.decode(text) == data
    for again in (replay.loads(text), replay.loads(text.encode("utf-8"))):
        assert again.history() == state.history()
        assert again.to_json() == state.to_json()
        assert again.returns() == state.returns()
        assert replay.dumps(again) == replay.dumps(state)


# Where a replay's error says it is wrong: a key of the header, an entry of a section, the
# parameters as the engine names them, or the line and column of text that is not JSON.
PLACE = re.compile(
    r"bad replay: (?:"
    r"'(?:format|version|game|params|actions|result|bots|arena)'"
    r"|(?:params|result|arena|bots)\.|(?:actions|bots)\[\d+\]"
    r"|the replay (?:has|must)|unsupported version|unknown game|game name: "
    r"|\w+: (?:unknown )?parameter |\w+: (?:shipped )?[\w\[\]]+ (?:object|'[^']*'): "
    r"|\d+ actions, but a game of "
    r"|not JSON \(invalid JSON at line \d+, column \d+)"
)
NOT_JSON = re.compile(r"bad replay: not JSON \(invalid JSON at line \d+, column \d+(?:, in \S+)?: ")
ENTRY_KEYS = ("action", "player", "text")
HEADER_KEYS = ("format", "version", "game", "params", "actions", "result", "bots", "arena")


def recorded(state: rivals.State) -> dict[str, Any]:
    """The replay of ``state`` as an arena records it, bots and labels included."""
    data = replay.to_dict(state)
    players = state.game.num_players
    data["bots"] = [{"name": "random", "params": {}} for _ in range(players)]
    data["arena"] = {"index": 0, "seed": 0, "labels": [f"bot{seat}" for seat in range(players)]}
    return data


def read(data: Any) -> str | None:
    """What ``from_dict`` says of ``data``: None when it reads, else its message. The text
    reader must say the same of the same replay written out, or say where the text is not
    JSON (a lone surrogate, NaN)."""
    outcomes = []
    for reader in (replay.from_dict, lambda d: replay.loads(json.dumps(d, ensure_ascii=False))):
        try:
            state = reader(data)
        except ValueError as error:
            outcomes.append(str(error))
            continue
        assert replay.loads(replay.dumps(state)).history() == state.history()
        outcomes.append(None)
    from_dict, loads = outcomes
    if loads is not None and NOT_JSON.match(loads):
        assert from_dict is not None, f"from_dict read what is no JSON: {loads}"
    else:
        assert loads == from_dict
    return from_dict


@settings(SETTINGS, max_examples=150)
@given(positions, st.data())
def check_an_edited_entry_is_named(state: rivals.State, data: st.DataObject) -> None:
    """An entry edited, dropped, doubled or replaced: an error names it or an entry after it
    (the game it leads to goes wrong later) or the result it changes."""
    record = recorded(state)
    entries = record["actions"]
    if not entries:
        return
    k = data.draw(st.integers(0, len(entries) - 1))
    operation = data.draw(st.sampled_from(["set", "drop key", "add key", "drop", "double", "put"]))
    entry = entries[k]
    if operation == "set":
        entry[data.draw(st.sampled_from(ENTRY_KEYS))] = data.draw(values)
    elif operation == "drop key":
        entry.pop(data.draw(st.sampled_from(ENTRY_KEYS)))
    elif operation == "add key":
        entry[data.draw(texts.filter(lambda key: key not in ENTRY_KEYS))] = 1
    elif operation == "drop":
        del entries[k]
    elif operation == "double":
        entries.insert(k, copy.deepcopy(entry))
    else:
        entries[k] = data.draw(values)
    message = read(record)
    if message is None:
        return
    named = re.match(r"bad replay: actions\[(\d+)\]", message)
    assert (
        (named and int(named.group(1)) >= k)
        or message.startswith(("bad replay: result.", "bad replay: not JSON"))
        or re.match(r"bad replay: \d+ actions, but a game of ", message)
    ), message


@settings(SETTINGS, max_examples=150)
@given(positions, st.data())
def check_an_edited_header_is_named(state: rivals.State, data: st.DataObject) -> None:
    """A key of the header set, dropped or added, or an entry of its sections set."""
    record = recorded(state)
    key = data.draw(st.sampled_from(HEADER_KEYS))
    operation = data.draw(st.sampled_from(["set", "drop", "add", "set inside"]))
    section = record[key]
    if operation == "set":
        record[key] = data.draw(values)
    elif operation == "drop":
        del record[key]
    elif operation == "add":
        record[data.draw(texts.filter(lambda name: name not in HEADER_KEYS))] = 1
    elif isinstance(section, dict) and section:
        section[data.draw(st.sampled_from(sorted(section)))] = data.draw(values)
    elif isinstance(section, list) and section:
        section[data.draw(st.integers(0, len(section) - 1))] = data.draw(values)
    else:
        return
    message = read(record)
    assert message is None or PLACE.match(message), message


@settings(SETTINGS, max_examples=150)
@given(positions, st.sampled_from([None, 1]), st.data())
def check_edited_text_is_told_by_line_and_column(
    state: rivals.State, indent: int | None, data: st.DataObject
) -> None:
    """The text of a replay with a slice replaced: a replay, or an error that says where; text
    that is not JSON is told by line and column, a lone surrogate included, raw or escaped."""
    text = json.dumps(recorded(state), indent=indent, ensure_ascii=data.draw(st.booleans()))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 4)))
    edited = text[:start] + data.draw(pieces) + text[end:]
    raw = edited.encode("utf-8", "surrogatepass")
    messages = []
    for given_text in (edited, raw):
        try:
            replay.loads(given_text)
        except ValueError as error:
            messages.append(str(error))
            continue
        messages.append(None)
    assert messages[0] == messages[1], messages
    message = messages[0]
    if re.search("[\ud800-\udfff]", edited):
        assert message is not None and NOT_JSON.match(message), message
    assert message is None or PLACE.match(message), message
    if message is not None and message.startswith("bad replay: not JSON"):
        assert NOT_JSON.match(message), message


def test_edited_replays_give_a_value_error_that_says_where() -> None:
    run_isolated(
        """
        from tests import test_readers_property as p
        p.check_an_edited_entry_is_named()
        p.check_an_edited_header_is_named()
        p.check_edited_text_is_told_by_line_and_column()
        """,
        timeout=600,
    )


def shipped(document: str) -> Any:
    text = resources.files("rivals.data").joinpath(f"{document}.json").read_text("utf-8")
    return json.loads(text)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a document, the document's own (``()``) first."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*path, index))
    return out


def exists(document: Any, path: str) -> bool:
    """Whether ``path`` as a message writes it (``cards[2].name``) is in ``document``."""
    node = document
    for index, key in re.findall(r"\[(\d+)\]|\.?([^.\[]+)", path):
        if key and isinstance(node, dict) and key in node:
            node = node[key]
        elif not key and isinstance(node, list) and int(index) < len(node):
            node = node[int(index)]
        else:
            return False
    return True


def make_with(game: str, param: str, value: Any) -> tuple[str | None, str | None]:
    """The engine's and the reference's error for ``value`` as ``param`` (None: it is read)."""
    outcomes: list[str | None] = []
    for make in (rivals.make, reference.make):
        try:
            make(game, **{param: [value] if param == "expansions" else value})
        except ValueError as error:
            outcomes.append(str(error))
            continue
        outcomes.append(None)
    return outcomes[0], outcomes[1]


@settings(SETTINGS, max_examples=250)
@given(st.sampled_from(DATA_PARAMS), st.data())
def check_an_edited_document_names_the_entry(
    case: tuple[str, str, str], data: st.DataObject
) -> None:
    """A card set or map with one value set, a key dropped or added, or an entry doubled:
    engine and reference read it alike, and the engine's error names an entry the document has
    (or the parent of one it lacks)."""
    game, param, name = case
    document = shipped(name)
    path = data.draw(st.sampled_from(paths(document)[1:]))
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    operation = data.draw(st.sampled_from(["set", "drop", "add"]))
    if operation == "set":
        parent[path[-1]] = data.draw(json_values(keys))
    elif operation == "drop":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(keys.filter(lambda key: key not in parent))] = data.draw(json_values(keys))
    else:
        parent.append(copy.deepcopy(parent[path[-1]]))
    engine, oracle = make_with(game, param, document)
    assert (engine is None) == (oracle is None), (engine, oracle)
    if engine is None:
        return
    label = "expansions[0]" if param == "expansions" else param
    match = re.match(
        rf"(?:{game}: {re.escape(label)} object: (the document|\S+) |params\.(\S+): )", engine
    )
    assert match, engine
    # The engine's reader names the path in the document; its conversion of a Python value (a
    # lone surrogate) the path from the parameter.
    where = match.group(1) or match.group(2)
    if match.group(2) is not None:
        where = "the document" if where == label else where.removeprefix(f"{label}.")
    if " is missing" in engine:
        where = re.sub(r"(?:\.?[^.\[]+|\[\d+\])$", "", where)
    assert where == "the document" or exists(document, where), engine


@settings(SETTINGS, max_examples=150)
@given(st.sampled_from(DATA_PARAMS), st.sampled_from([None, 1]), st.data())
def check_an_edited_file_is_told_by_line_and_column(
    case: tuple[str, str, str], indent: int | None, data: st.DataObject
) -> None:
    """The file of a card set or map with a slice replaced: engine and reference read it alike,
    and text that is not JSON is told by the engine's line and column."""
    game, param, name = case
    text = json.dumps(shipped(name), indent=indent, ensure_ascii=data.draw(st.booleans()))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 4)))
    edited = (text[:start] + data.draw(pieces) + text[end:]).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "data.json")
        with open(path, "wb") as file:
            file.write(edited)
        engine, oracle = make_with(game, param, path)
    assert (engine is None) == (oracle is None), (engine, oracle)
    if engine is not None and "is not valid JSON" in engine:
        assert re.search(r"is not valid JSON \(invalid JSON at line \d+, column \d+", engine), (
            engine
        )


def test_edited_card_sets_and_maps_give_a_value_error_that_says_where() -> None:
    run_isolated(
        """
        from tests import test_readers_property as p
        p.check_an_edited_document_names_the_entry()
        p.check_an_edited_file_is_told_by_line_and_column()
        """,
        timeout=600,
    )
