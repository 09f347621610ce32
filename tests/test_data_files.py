"""Data parameters (card sets, maps): shipped names, paths and inline documents; what a file must
be to be read (regular, at most 4 MiB, strict UTF-8 JSON); one message style naming the file and
the JSON path; and a game identity that includes the data. Engine and reference alike where both
read data."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import reference
from tests.games import DATA_PARAMS, PARAM_IDS

MAX_BYTES = 4 * 1024 * 1024

IMPLS: dict[str, Callable[..., Any]] = {"engine": rivals.make, "reference": reference.make}


def shipped_path(name: str) -> Path:
    return Path(str(resources.files("rivals.data").joinpath(f"{name}.json")))


def shipped(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(shipped_path(name).read_text(encoding="utf-8"))
    return document


def given(param: str, value: Any) -> dict[str, Any]:
    """The keyword arguments that pass ``value`` as the data of ``param``."""
    return {param: [value]} if param == "expansions" else {param: value}


def data_of(game: Any, param: str) -> Any:
    documents = game.data[param]
    return documents[0] if param == "expansions" else documents


@pytest.fixture(params=list(IMPLS), ids=list(IMPLS))
def make(request: pytest.FixtureRequest) -> Callable[..., Any]:
    return IMPLS[request.param]


# --------------------------------------------------------------------------------------------
# The forms of a data parameter


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_shipped_name_a_path_and_the_document_are_one_game(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    copy_path = tmp_path / "copy.json"
    copy_path.write_bytes(shipped_path(document).read_bytes())
    forms = [document, str(shipped_path(document)), str(copy_path), shipped(document)]
    games = [make(name, **given(param, form)) for form in forms]
    for form, game in zip(forms, games):
        assert data_of(game, param) == shipped(document)
        assert game.params[param] == given(param, form)[param]  # kept as given
    if make is rivals.make:
        assert all(game == games[0] for game in games)
        assert len({hash(game) for game in games}) == 1
        if param != "expansions":
            assert rivals.make(name) == games[0]  # null is the shipped default


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_portable_params_carry_the_document_of_a_path(
    name: str, param: str, document: str, tmp_path: Path
) -> None:
    path = tmp_path / "data.json"
    path.write_bytes(shipped_path(document).read_bytes())
    game = rivals.make(name, **given(param, str(path)))
    portable = rivals.replay.portable_params(game)
    assert portable[param] == given(param, shipped(document))[param]
    assert {k: v for k, v in portable.items() if k != param} == {
        k: v for k, v in game.params.items() if k != param
    }
    by_name = rivals.make(name, **given(param, document))
    assert rivals.replay.portable_params(by_name) == by_name.params  # shipped names stay
    assert rivals.make(name, **portable) == game


def test_game_data_for_every_game() -> None:
    for name in rivals.games():
        game = rivals.make(name)
        expected = {param for game_name, param, _ in DATA_PARAMS if game_name == name}
        assert set(game.data) == expected, name
        oracle = reference.make(name)
        assert getattr(oracle, "data", {}) == game.data, name
    assert rivals.make("rheinlaender").map == rivals.make("rheinlaender").data["map"]
    for name in ("battlecards", "rosenkoenig", "sekigahara", "verraeter"):
        with pytest.raises(AttributeError, match=f"a {name} game has no attribute 'map'"):
            _ = rivals.make(name).map


def test_an_unknown_kind_of_value_lists_the_forms(make: Callable[..., Any]) -> None:
    with pytest.raises(ValueError, match=r"parameter cards must be null .*shipped name"):
        make("sekigahara", cards=7)
    with pytest.raises(ValueError, match="expansions"):
        make("battlecards", expansions=[None])
    with pytest.raises(ValueError, match="at most 64"):
        make("battlecards", expansions=["battlecards_commanders"] * 65)


# --------------------------------------------------------------------------------------------
# What a file must be to be read


def run_isolated(code: str) -> str:
    """Runs ``code`` in a fresh interpreter with a time limit, so that a hang or a crash fails
    the test instead of stopping the test run; returns what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
@pytest.mark.parametrize("impl", list(IMPLS))
@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_fifo_and_a_device_are_refused_without_reading(
    impl: str, name: str, param: str, document: str, tmp_path: Path
) -> None:
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    paths = [str(fifo)] + ["/dev/zero"] * os.path.exists("/dev/zero")
    module = "rivals" if impl == "engine" else "rivals.reference as rivals"
    code = f"""
import {module}
for path in {paths!r}:
    value = [path] if {param!r} == "expansions" else path
    try:
        rivals.make({name!r}, **{{{param!r}: value}})
    except ValueError as error:
        print(error)
    else:
        print("accepted", path)
"""
    lines = run_isolated(code).splitlines()
    assert len(lines) == len(paths)
    for line, path in zip(lines, paths):
        assert line.endswith(f"file '{path}': is not a regular file"), line


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_directory_a_missing_file_and_a_nul_in_the_path(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match=r"file '.*': is a directory$"):
        make(name, **given(param, str(tmp_path)))
    with pytest.raises(ValueError, match=r"file '.*nope\.json': no such file$"):
        make(name, **given(param, str(tmp_path / "nope.json")))
    # A valid file at the part before the NUL: the operating system would open it.
    good = tmp_path / "good.json"
    good.write_bytes(shipped_path(document).read_bytes())
    with pytest.raises(ValueError, match=r"good\.json\\x00\.bak': a path must not contain a NUL"):
        make(name, **given(param, str(good) + "\0.bak"))


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_files_larger_than_the_limit_are_refused(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    text = shipped_path(document).read_bytes()
    at_limit = tmp_path / "at_limit.json"
    at_limit.write_bytes(text + b" " * (MAX_BYTES - len(text)))
    assert data_of(make(name, **given(param, str(at_limit))), param) == shipped(document)
    over = tmp_path / "over.json"
    over.write_bytes(text + b" " * (MAX_BYTES + 1 - len(text)))
    with pytest.raises(ValueError, match="is larger than the 4 MiB a data file may have"):
        make(name, **given(param, str(over)))


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_file_that_is_not_a_data_file_is_not_quoted(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    secret = "SECRET-7f3a"
    messages = []
    for content in (
        f"root:x:0:0:{secret}:/root:/bin/bash\n",
        f"{secret} is not JSON\n",
        "\x00\x01binary" + secret,
        "",
    ):
        path = tmp_path / "not_data.txt"
        path.write_text(content, encoding="latin-1")
        with pytest.raises(ValueError) as raised:
            make(name, **given(param, str(path)))
        message = str(raised.value)
        assert secret not in message
        messages.append(message)
    assert len(set(messages)) == 1
    assert messages[0].endswith(
        "is not a readable data file (a data file is one JSON object in UTF-8, at most 4 MiB)"
    )
    if os.path.isfile("/etc/passwd"):
        with pytest.raises(ValueError, match="is not a readable data file") as raised:
            make(name, **given(param, "/etc/passwd"))
        first_line = Path("/etc/passwd").read_text(errors="replace").split(":")[0]
        assert f"{first_line}:" not in str(raised.value)
    # A broken JSON document is told by place, never by the text at that place.
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ' + secret, encoding="utf-8")
    with pytest.raises(ValueError, match=r"is not valid JSON \(.*line 1,? column 12") as raised:
        make(name, **given(param, str(broken)))
    assert secret not in str(raised.value)


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_bytes_that_are_not_utf8_are_refused_at_load(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    text = shipped_path(document).read_bytes()
    index = text.index(b'"version"')  # a key every document has; the bytes go into a string
    path = tmp_path / "latin1.json"
    path.write_bytes(text[:index] + b'"caf\xe9": 1, ' + text[index:])
    with pytest.raises(ValueError, match="not UTF-8"):
        make(name, **given(param, str(path)))


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_key_twice_in_one_object_is_refused(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    text = shipped_path(document).read_text(encoding="utf-8").lstrip()
    path = tmp_path / "twice.json"
    path.write_text('{"version": 1, ' + text[1:], encoding="utf-8")
    with pytest.raises(ValueError, match='the key "version" appears twice in one object'):
        make(name, **given(param, str(path)))


def test_a_key_twice_in_a_large_object_is_refused(make: Callable[..., Any], tmp_path: Path) -> None:
    # Past a few keys the engine indexes an object's keys instead of scanning them.
    members = [f'"k{index}": {index}' for index in range(500)] + ['"k321": 0']
    path = tmp_path / "large.json"
    path.write_text("{" + ", ".join(members) + "}", encoding="utf-8")
    with pytest.raises(ValueError, match='the key "k321" appears twice in one object'):
        make("sekigahara", cards=str(path))
    path.write_text("{" + ", ".join(members[:-1]) + "}", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown key 'k0'"):
        rivals.make("sekigahara", cards=str(path))


def test_a_card_strength_given_twice_is_refused_not_read_two_ways(
    make: Callable[..., Any], tmp_path: Path
) -> None:
    # The engine used to keep the first value and Python's json the last: 1 and 99.
    text = shipped_path("sekigahara").read_text(encoding="utf-8")
    twice = text.replace('"strength": 1,', '"strength": 1, "strength": 99,', 1)
    assert twice != text
    path = tmp_path / "cards.json"
    path.write_text(twice, encoding="utf-8")
    with pytest.raises(ValueError, match='"strength" appears twice'):
        make("sekigahara", cards=str(path))


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 01}',
        '{"version": NaN}',
        '{"version": Infinity}',
        '{"name": "\\ud800"}',
        '{"version": 1} {"version": 1}',
        '{"version": 1',
    ],
)
def test_only_strict_json_is_read(make: Callable[..., Any], text: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="is not valid JSON"):
        make("sekigahara", cards=str(path))


@pytest.mark.parametrize(
    ("edit", "place"),
    [
        # (what the third card's strength becomes, where the engine says the error is)
        ('"strength": 3, "strength": 4', r'line 25, column 19, in cards\[2\]: the key "strength"'),
        ('"strength": NaN', r"line 25, column 16, in cards\[2\]\.strength: NaN is not a JSON"),
        ('"strength": 1e999', r"line 25, column 16, in cards\[2\]\.strength: a number out of"),
        ('"strength": [3,,]', r"line 25, column 19, in cards\[2\]\.strength\[1\]: unexpected"),
        ('"strength": "\\udc00"', r"in cards\[2\]\.strength: a lone surrogate: text must be"),
    ],
)
def test_the_engine_tells_a_broken_document_by_line_column_and_entry(
    edit: str, place: str, tmp_path: Path
) -> None:
    text = json.dumps(shipped("sekigahara"), indent=1)
    assert text.count('"strength": 3') == 1 and text.splitlines()[24].endswith('"strength": 3,')
    path = tmp_path / "cards.json"
    path.write_text(text.replace('"strength": 3', edit), encoding="utf-8")
    with pytest.raises(ValueError, match=r"cards file '.*': is not valid JSON \(invalid JSON at "):
        rivals.make("sekigahara", cards=str(path))
    with pytest.raises(ValueError, match=place):
        rivals.make("sekigahara", cards=str(path))


def test_a_long_key_named_twice_is_cut_between_characters(tmp_path: Path) -> None:
    """A repeated key is shown cut after 40 bytes: never inside a character, which would make
    the message text that is not UTF-8."""
    key = "k" * 39 + "\u00e9" * 3
    path = tmp_path / "cards.json"
    path.write_text(f'{{"{key}": 1, "{key}": 2}}', encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        rivals.make("sekigahara", cards=str(path))
    assert f'the key "{"k" * 39}\u00e9..." appears twice' in str(raised.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("\x1b]0;title\x07", "has a control character (U+001B)"),
        ("a\nb", "has a control character (U+000A)"),
        ("a\u009bb", "has a control character (U+009B)"),
        ("x" * 1001, "has more than 1000 bytes"),
        ("Otani \u202eYoshitsugu", "has a direction control character (U+202E)"),
        ("Otani \u2066Yoshitsugu", "has a direction control character (U+2066)"),
        ("Ishida\uffffMitsunari", "has a noncharacter (U+FFFF)"),
        ("Ishida\ufffeMitsunari", "has a noncharacter (U+FFFE)"),
        ("é" * 501, "has more than 1000 bytes"),
    ],
)
def test_names_and_texts_are_text_a_terminal_and_svg_can_show(
    make: Callable[..., Any], text: str, problem: str, tmp_path: Path
) -> None:
    document = shipped("sekigahara")
    document["cards"][2]["name"] = text
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        make("sekigahara", cards=document)
    assert str(refused.value) == f"sekigahara: cards object: cards[2].name {problem}"
    with pytest.raises(ValueError) as refused:
        make("sekigahara", cards=str(path))
    assert str(refused.value).endswith(f": cards[2].name {problem}")
    document["cards"][2]["name"] = "Ōtani Yoshitsugu"  # letters beyond ASCII are text
    document["cards"][2]["\x07"] = 1
    with pytest.raises(ValueError, match=r"cards\[2\] has a key that has a control character"):
        make("sekigahara", cards=document)


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_nesting_is_bounded(
    make: Callable[..., Any], name: str, param: str, document: str, tmp_path: Path
) -> None:
    def nested(levels: int) -> dict[str, Any]:
        doc = shipped(document)
        value: Any = 1
        for _ in range(levels - 1):
            value = [value]
        doc["version"] = value
        return doc

    path = tmp_path / "deep.json"
    path.write_text(json.dumps(nested(33)), encoding="utf-8")
    with pytest.raises(ValueError, match="nested deeper than 32 arrays and objects"):
        make(name, **given(param, str(path)))
    with pytest.raises(ValueError, match="nested deeper than 32 arrays and objects"):
        make(name, **given(param, nested(33)))
    path.write_text(json.dumps(nested(32)), encoding="utf-8")
    with pytest.raises(ValueError, match="version") as raised:
        make(name, **given(param, str(path)))  # deep enough to read, then a bad version
    assert "nested" not in str(raised.value)


# --------------------------------------------------------------------------------------------
# One message style: the game, the document, the JSON path, the problem


def _edit(document: str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc = shipped(document)
    change(doc)
    return doc


MESSAGES = [
    (
        "sekigahara",
        "cards",
        "sekigahara",
        lambda d: d["cards"][3].update(strength=100),
        "cards[3].strength must be an int 0-99, got 100",
    ),
    (
        "sekigahara",
        "cards",
        "sekigahara",
        lambda d: d["cards"][1].update(strenght=1),
        "cards[1] has an unknown key 'strenght' (accepted: ability, id, name, name_zh, "
        "requirement, strength)",
    ),
    (
        "verraeter",
        "cards",
        "verraeter",
        lambda d: d["landscapes"][2]["vp"].__setitem__(1, 100),
        "landscapes[2].vp[1] must be an int 0-99, got 100",
    ),
    (
        "verraeter",
        "cards",
        "verraeter",
        lambda d: d["estates"].pop("per_player"),
        "estates.per_player is missing",
    ),
    (
        "rheinlaender",
        "map",
        "rheinlaender",
        lambda d: d["spaces"][0]["neighbours"].__setitem__(0, "nowhere"),
        'spaces[0].neighbours[0] must be a space id, got "nowhere"',
    ),
    (
        "rheinlaender",
        "map",
        "rheinlaender",
        lambda d: d.update(version=2),
        "version must be 1, got 2",
    ),
    (
        "battlecards",
        "cards",
        "battlecards",
        lambda d: d["conflict"][0].update(action=25),
        "conflict[0].action must be an int 1-20, got 25",
    ),
    (
        "battlecards",
        "cards",
        "battlecards",
        # The state counts through a card's effects in 16 bits: 32,768 of them read past the list.
        lambda d: d["conflict"][24].update(effects=d["conflict"][24]["effects"] * 17),
        "conflict[24].effects must be a list of 1-16 entries, got 17",
    ),
    (
        "battlecards",
        "expansions",
        "battlecards_commanders",
        lambda d: d["german"][0].update(phase=9),
        "german[0].phase must be an int 1-4, got 9",
    ),
]


@pytest.mark.parametrize(
    ("name", "param", "document", "change", "problem"),
    MESSAGES,
    ids=[f"{m[0]}-{m[1]}-{k}" for k, m in enumerate(MESSAGES)],
)
def test_errors_name_the_document_and_the_json_path(
    name: str,
    param: str,
    document: str,
    change: Callable[[dict[str, Any]], None],
    problem: str,
    tmp_path: Path,
) -> None:
    doc = _edit(document, change)
    label = "expansions[0]" if param == "expansions" else param
    with pytest.raises(ValueError) as raised:
        rivals.make(name, **given(param, doc))
    assert str(raised.value) == f"{name}: {label} object: {problem}"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        rivals.make(name, **given(param, str(path)))
    assert str(raised.value) == f"{name}: {label} file '{path}': {problem}"
    with pytest.raises(ValueError, match=name):
        reference.make(name, **given(param, str(path)))


# --------------------------------------------------------------------------------------------
# The game identity includes the data


# A change per document that keeps it valid but makes another game.
VALID_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "sekigahara": lambda d: d["cards"][0].update(strength=d["cards"][0]["strength"] + 1),
    "verraeter": lambda d: d["action_cards"][0].update(vp=5),
    "rheinlaender": lambda d: d["landmarks"]["city"].__setitem__(0, 9),
    "battlecards": lambda d: d["conflict"][0].update(name="Another battle"),
    "battlecards_commanders": lambda d: d["german"][0].update(name="Another general"),
}


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_same_params_with_other_data_are_another_game(
    name: str, param: str, document: str, tmp_path: Path
) -> None:
    first = tmp_path / "first.json"
    second = tmp_path / "second.json"
    first.write_bytes(shipped_path(document).read_bytes())
    second.write_text(json.dumps(_edit(document, VALID_CHANGES[document])), encoding="utf-8")
    game = rivals.make(name, **given(param, str(first)))
    other = rivals.make(name, **given(param, str(second)))
    assert game != other
    assert game == rivals.make(name, **given(param, shipped(document)))
    # The same path, its content changed between two games: another game.
    first.write_bytes(second.read_bytes())
    assert rivals.make(name, **given(param, str(first))) == other != game
    # A bot stepped on a state of a game with other data refuses it.
    bot = rivals.bots.make("random", game, seed=1)
    state = other.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="other parameters or data"):
        bot.step(state)
    same = rivals.make(name, **given(param, shipped(document))).new_initial_state()
    while same.is_chance_node():
        same.apply_action(same.legal_actions()[0])
    assert bot.step(same) in same.legal_actions()


@pytest.mark.parametrize(("name", "param", "document"), DATA_PARAMS, ids=PARAM_IDS)
def test_a_pickle_carries_its_data_after_the_file_is_gone(
    name: str, param: str, document: str, tmp_path: Path
) -> None:
    path = tmp_path / "data.json"
    path.write_text(json.dumps(_edit(document, VALID_CHANGES[document])), encoding="utf-8")
    game = rivals.make(name, **given(param, str(path)))
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    game_bytes, state_bytes = pickle.dumps(game), pickle.dumps(state)
    path.unlink()
    again = pickle.loads(game_bytes)
    assert again == game and again.data == game.data
    restored = pickle.loads(state_bytes)
    assert restored.game == game and restored.history() == state.history()
    assert copy.deepcopy(state).to_dict() == state.to_dict()


def test_a_nan_or_an_infinity_in_a_document_is_named_where_it_sits() -> None:
    # A document given as an object may hold what JSON cannot; the message still says where.
    for value, text in ((float("nan"), "nan"), (float("-inf"), "-inf")):
        document = {**shipped("sekigahara"), "version": value}
        with pytest.raises(ValueError) as refused:
            rivals.make("sekigahara", cards=document)
        assert str(refused.value) == f"sekigahara: cards object: version must be 1, got {text}"
        with pytest.raises(ValueError, match="version"):
            reference.make("sekigahara", cards=document)


def test_a_document_given_as_python_values_is_read_alike(make: Callable[..., Any]) -> None:
    # As the engine's conversion of Python values reads them: tuples as lists, numpy's integers
    # as ints; keys must be strings and nesting is bounded.
    document = shipped("sekigahara")
    as_tuples = {**document, "cards": tuple(document["cards"]), "version": np.int64(1)}
    assert data_of(make("sekigahara", cards=as_tuples), "cards") == document
    with pytest.raises(ValueError, match=r"params\.cards: keys must be strings"):
        make("sekigahara", cards={**document, 1: 2})
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        make("sekigahara", cards=deep)
