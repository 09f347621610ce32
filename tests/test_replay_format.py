"""The replay format (docs/formats.md): self-contained data, strict keys at every level, the
optional bots and arena records, and the bounds on what is read."""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import cli, replay
from tests.games import DATA_PARAMS, PARAM_IDS


def shipped_path(name: str) -> Path:
    return Path(str(resources.files("rivals.data").joinpath(f"{name}.json")))


def given(param: str, value: Any) -> dict[str, Any]:
    return {param: [value]} if param == "expansions" else {param: value}


def played(game: rivals.Game, actions: int, seed: int = 0) -> rivals.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def rosenkoenig_replay() -> dict[str, Any]:
    return replay.to_dict(played(rivals.make("rosenkoenig"), 30, seed=3))


# --------------------------------------------------------------------------------------------
# Self-contained


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_replay_loads_elsewhere_after_its_data_file_is_gone(
    name: str,
    param: str,
    document: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(here)
    Path("data.json").write_bytes(shipped_path(document).read_bytes())
    game = rivals.make(name, **given(param, "data.json"))  # a relative path, as typed
    state = played(game, 80)
    text = replay.dumps(state)
    Path("game.json").write_text(text, encoding="utf-8")
    assert "data.json" not in text
    Path("data.json").unlink()
    os.replace("game.json", elsewhere / "game.json")
    monkeypatch.chdir(elsewhere)
    loaded = replay.loads(Path("game.json").read_text(encoding="utf-8"))
    assert loaded.history() == state.history()
    assert loaded.game == game
    assert loaded.game.data == game.data
    assert replay.dumps(loaded) == text


def test_the_command_line_replays_an_arena_record_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(here)
    Path("cards_ok.json").write_bytes(shipped_path("sekigahara").read_bytes())
    argv = ["arena", "sekigahara", "--bots", "random", "--games", "2", "--out", "games.jsonl"]
    status = cli.main([*argv, "--game-param", "cards=cards_ok.json"])
    assert status == 0
    Path("cards_ok.json").unlink()
    os.replace("games.jsonl", elsewhere / "games.jsonl")
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert cli.main(["replay", "games.jsonl", "--index", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "rivals-sekigahara-cards" in out


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_replay_never_opens_a_path_it_names(
    name: str, param: str, document: str, tmp_path: Path
) -> None:
    data = replay.to_dict(played(rivals.make(name), 5))
    # A real, valid data file: if the path were opened, the replay would load.
    valid = tmp_path / "valid.json"
    valid.write_bytes(shipped_path(document).read_bytes())
    where = f"params.{param}[0]" if param == "expansions" else f"params.{param}"
    for path in (str(valid), "/etc/passwd", "/dev/zero", "valid.json"):
        data["params"].update(given(param, path))
        with pytest.raises(ValueError) as raised:
            replay.from_dict(data)
        assert str(raised.value) == (
            f"bad replay: {where} is {path!r}, not a shipped data name: a replay carries its "
            "data; it names no files"
        )
    data["params"].update(given(param, document))  # a shipped name is data, not a file
    assert replay.from_dict(data).history() == data_history(data)


def data_history(data: dict[str, Any]) -> list[int]:
    return [entry["action"] for entry in data["actions"]]


def test_portable_params_of_games_with_shipped_data_are_their_params() -> None:
    for name in rivals.games():
        game = rivals.make(name)
        assert replay.portable_params(game) == game.params
        assert replay.to_dict(game.new_initial_state())["params"] == game.params


# --------------------------------------------------------------------------------------------
# Strict keys


def _bots(players: int) -> list[Any]:
    return [{"name": "mcts", "params": {"iterations": 50}}] + [None] * (players - 1)


UNKNOWN_KEYS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("top", lambda d: d.update(paramz={}), "the replay has an unknown key 'paramz'"),
    (
        "misspelled params",
        lambda d: d.update(parmas=d.pop("params")),
        "the replay has an unknown key 'parmas'",
    ),
    ("entry", lambda d: d["actions"][4].update(plaeyr=0), "actions[4] has an unknown key 'plaeyr'"),
    (
        "entry text",
        lambda d: d["actions"][4].update(txt="x"),
        "actions[4] has an unknown key 'txt'",
    ),
    (
        "result",
        lambda d: d["result"].update(retruns=[9, 9]),
        "'result' has an unknown key 'retruns'",
    ),
    (
        "bots",
        lambda d: d.update(bots=[{"name": "mcts", "params": {}, "seed": 1}, None]),
        "bots[0] has an unknown key 'seed'",
    ),
    (
        "arena",
        lambda d: d.update(arena={"index": 0, "seed": 1, "labels": ["a", "b"], "bots": []}),
        "'arena' has an unknown key 'bots'",
    ),
]


BAD_ENTRIES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("no params", lambda d: d.pop("params"), "the replay has no 'params'"),
    ("no actions", lambda d: d.pop("actions"), "the replay has no 'actions'"),
    ("null player", lambda d: d["actions"][12].update(player=None), "actions[12]: recorded player"),
    ("float player", lambda d: d["actions"][12].update(player=0.0), "actions[12]: recorded player"),
    ("text type", lambda d: d["actions"][12].update(text=7), "actions[12].text must be a string"),
    ("no action", lambda d: d["actions"][12].pop("action"), "actions[12] has no 'action'"),
    ("null result", lambda d: d.update(result=None), "'result' must be an object"),
    (
        "returns length",
        lambda d: d["result"].update(returns=[0.0]),
        "result.returns must be a list of 2 numbers",
    ),
    (
        "returns bools",
        lambda d: d["result"].update(returns=[False, False]),
        "result.returns must be a list of 2 numbers",
    ),
    ("terminal type", lambda d: d["result"].update(terminal=0), "result.terminal must be true"),
    ("bots length", lambda d: d.update(bots=[None]), "'bots' must be a list of 2 entries"),
    ("bots type", lambda d: d.update(bots={"0": None}), "'bots' must be a list of 2 entries"),
    (
        "bot name",
        lambda d: d.update(bots=[{"name": 3, "params": {}}, None]),
        "bots[0].name must be a string",
    ),
    (
        "bot params",
        lambda d: d.update(bots=[None, {"name": "mcts", "params": []}]),
        "bots[1].params must be an object",
    ),
    ("bot entry", lambda d: d.update(bots=["mcts", None]), "bots[0] must be an object"),
    (
        "arena index",
        lambda d: d.update(arena={"index": -1, "seed": 0, "labels": ["a", "b"]}),
        "arena.index must be an int >= 0",
    ),
    (
        "arena bool index",
        lambda d: d.update(arena={"index": True, "seed": 0, "labels": ["a", "b"]}),
        "arena.index must be an int >= 0",
    ),
    (
        "arena seed",
        lambda d: d.update(arena={"index": 0, "seed": "7", "labels": ["a", "b"]}),
        "arena.seed must be an int",
    ),
    (
        "arena labels",
        lambda d: d.update(arena={"index": 0, "seed": 0, "labels": ["a"]}),
        "arena.labels must be a list of 2 strings",
    ),
    (
        "arena missing",
        lambda d: d.update(arena={"index": 0, "labels": ["a", "b"]}),
        "'arena' has no 'seed'",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [c[1:] for c in UNKNOWN_KEYS + BAD_ENTRIES],
    ids=[c[0] for c in UNKNOWN_KEYS + BAD_ENTRIES],
)
def test_unknown_keys_at_every_level_and_malformed_entries_are_refused(
    mutate: Callable[[dict[str, Any]], None], expected: str
) -> None:
    data = rosenkoenig_replay()
    replay.from_dict(copy.deepcopy(data))  # what the mutation breaks loaded before it
    mutate(data)
    with pytest.raises(ValueError) as raised:
        replay.from_dict(data)
    assert str(raised.value).startswith(f"bad replay: {expected}"), str(raised.value)


def test_bots_and_arena_records_load() -> None:
    for name in rivals.games():
        state = played(rivals.make(name), 20)
        data = replay.to_dict(state)
        players = state.game.num_players
        data["bots"] = [{"name": "random", "params": {}}] + [None] * (players - 1)
        data["arena"] = {"index": 3, "seed": 2**64 - 1, "labels": [f"b{k}" for k in range(players)]}
        loaded = replay.loads(json.dumps(data))
        assert loaded.history() == state.history()


# --------------------------------------------------------------------------------------------
# Bounds


def test_more_actions_than_the_game_allows_are_refused_before_replaying() -> None:
    game = rivals.make("rosenkoenig")
    data = rosenkoenig_replay()
    # Entries that would fail at once if replayed: the length check must come first.
    data["actions"] = [{"action": -5}] * (game.max_game_length + 1)
    with pytest.raises(ValueError) as raised:
        replay.from_dict(data)
    assert str(raised.value) == (
        f"bad replay: {game.max_game_length + 1} actions, but a game of rosenkoenig with these "
        f"parameters ends within {game.max_game_length}"
    )
    data["actions"] = data["actions"][:-1]
    with pytest.raises(ValueError, match=r"actions\[0\]"):
        replay.from_dict(data)


def test_text_larger_than_the_limit_is_refused_unread() -> None:
    text = " " * (replay.MAX_BYTES - 2) + "{}"
    with pytest.raises(ValueError, match="'format' must be"):
        replay.loads(text)  # at the limit: read, then refused as no replay
    with pytest.raises(ValueError, match="bad replay: larger than 64 MiB"):
        replay.loads(text + " ")
    with pytest.raises(ValueError, match="bad replay: larger than 64 MiB"):
        replay.loads((text + " ").encode("utf-8"))


# What is not strict JSON is told by line, column and entry, in the engine's reader's words.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{"game": "rosenkoenig", "game": "sekigahara"}',
            'line 1, column 25: the key "game" appears twice in one object',
        ),
        (
            '{"params": {"players": 2, "players": 4}}',
            'line 1, column 27, in params: the key "players" appears twice',
        ),
        (
            '{"result": {"returns": [NaN, NaN]}}',
            "line 1, column 25, in result.returns[0]: NaN is not a JSON number",
        ),
        ('{"result": {"returns": [1, Infinity]}}', "in result.returns[1]: Infinity is not a JSON"),
        ('{"result": {"returns": [1e999, 1]}}', "in result.returns[0]: a number out of range"),
        ('{"result": {"returns": [-1E+400, 1]}}', "in result.returns[0]: a number out of range"),
        ('{"game": "\\ud800"}', "line 1, column 11, in game: a lone surrogate: text must"),
        ('{"game": "a\ud800"}', "line 1, column 12, in game: a lone surrogate: text must"),
        ('{"game":\n "\\udfff"}', "line 2, column 3, in game: a lone surrogate: text must"),
        ("[" * 41 + "]" * 41, "line 1, column 41, in [0][0]"),
        ("[" * 100_000, "nested deeper than 40"),
        (b'{"game": "caf\xe9"}', "line 1, column 14, in game: a string that is not UTF-8"),
        ('{"action": ' + "9" * 5000 + "}", "line 1, column 12, in action: a number out of range"),
        (
            '{"actions": [{"action": 1,}]}',
            "line 1, column 27, in actions[0]: expected a string key",
        ),
    ],
)
def test_only_strict_json_is_read(text: str | bytes, expected: str) -> None:
    with pytest.raises(ValueError) as raised:
        replay.loads(text)
    assert str(raised.value).startswith("bad replay: not JSON (invalid JSON at ")
    assert expected in str(raised.value)


def test_a_lone_surrogate_is_refused_where_it_is_raw_or_escaped() -> None:
    """The same replay with a lone surrogate in a bot's name, as a str holding it raw and as text
    escaping it, is refused alike, naming the entry; the str was read before."""
    data = replay.to_dict(rivals.make("rosenkoenig").new_initial_state())
    data["bots"] = [{"name": "a\ud800", "params": {}}, {"name": "b", "params": {}}]
    raw, escaped = json.dumps(data, ensure_ascii=False), json.dumps(data)
    assert "\ud800" in raw and "\\ud800" in escaped
    messages = []
    for text in (raw, escaped, escaped.encode("ascii")):
        with pytest.raises(ValueError) as raised:
            replay.loads(text)
        messages.append(str(raised.value))
    assert len(set(messages)) == 1
    assert re.fullmatch(
        r"bad replay: not JSON \(invalid JSON at line 1, column \d+, in bots\[0\]\.name: a lone "
        r"surrogate: text must be valid Unicode\)",
        messages[0],
    )


def test_a_broken_entry_is_told_by_line_column_and_entry() -> None:
    """A replay written with one entry per line: the error's line is the entry's."""
    state = rivals.make("rosenkoenig").new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    text = replay.dumps(state, indent=1)
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"text"' in line)  # actions[0].text
    column = lines[at].index('"text"') + len('"text": "') + 1
    lines[at] = lines[at].replace('"text": "', '"text": "\\ud800', 1)
    with pytest.raises(ValueError) as raised:
        replay.loads("".join(lines))
    assert f"at line {at + 1}, column {column}, in actions[0].text: a lone surrogate" in str(
        raised.value
    )


def test_a_lone_surrogate_in_a_replay_dict_names_its_entry() -> None:
    """from_dict gets Python values, which json never read: a lone surrogate in a bot's name or
    parameters or in an action's text is refused naming the entry."""
    state = rivals.make("rosenkoenig").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    bots = [{"name": "random", "params": {}}, {"name": "mcts", "params": {}}]
    for path, value, message in (
        (("bots", 0, "name"), "r\udcff", r"bots\[0\]\.name must be 1 to 100 characters"),
        (("bots", 1, "params"), {"policy": "\ud800"}, r"bots\[1\]\.params holds a lone surr"),
        (("actions", 0, "text"), "N\ud800", r"actions\[0\]\.text holds a lone surrogate"),
    ):
        data = replay.to_dict(state)
        data["bots"] = copy.deepcopy(bots)
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(ValueError, match=message):
            replay.from_dict(data)


def test_nesting_at_the_limit_is_read() -> None:
    with pytest.raises(ValueError, match="the replay must be a JSON object"):
        replay.loads("[" * 40 + "]" * 40)


def test_a_deep_document_in_params_is_bounded_by_the_engine() -> None:
    data = replay.to_dict(rivals.make("sekigahara").new_initial_state())
    value: Any = 1
    for _ in range(35):
        value = [value]
    data["params"]["cards"] = {"format": value}
    with pytest.raises(ValueError, match="nested deeper than 32 arrays and objects"):
        replay.from_dict(data)
