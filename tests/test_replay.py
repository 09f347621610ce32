"""Replays: dumps/loads round trips, and loads rejecting every kind of bad input with ValueError."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import replay


def random_state(players: int, seed: int, stop: float = 1.0) -> rivals.State:
    """A random game of Rosenkönig, cut off after about ``stop`` of its length."""
    rng = random.Random(seed)
    game = rivals.make("rosenkoenig", players=players)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    return game.state_from_history(history[: int(len(history) * stop)])


@pytest.mark.parametrize("players", [2, 4])
def test_round_trip_at_random_points(players: int) -> None:
    rng = random.Random(players)
    for seed in range(12):
        state = random_state(players, seed, stop=rng.random() if seed % 3 else 1.0)
        text = replay.dumps(state)
        loaded = replay.loads(text)
        assert loaded.history() == state.history()
        assert loaded.to_dict() == state.to_dict()
        assert loaded.returns() == state.returns()
        assert loaded.is_terminal() == state.is_terminal()
        assert replay.dumps(loaded) == text
        assert replay.loads(text.encode("utf-8")).history() == state.history()


def test_round_trip_of_a_fresh_game() -> None:
    state = rivals.make("rosenkoenig").new_initial_state()
    assert replay.loads(replay.dumps(state, indent=2)).history() == []


def test_entries_record_player_and_text() -> None:
    state = random_state(2, 1)
    data = replay.to_dict(state)
    assert data["format"] == "rivals-replay" and data["version"] == 2
    assert data["game"] == "rosenkoenig" and data["params"] == {"players": 2}
    walker = state.game.new_initial_state()
    for entry in data["actions"]:
        assert entry["player"] == walker.current_player()
        assert entry["text"] == walker.action_to_string(entry["action"])
        walker.apply_action(entry["action"])
    assert data["result"] == {
        "terminal": True,
        "returns": state.returns(),
        "scores": state.scores(),
    }


def _first_decision(data: dict[str, Any]) -> int:
    """Index of the first entry made by a player rather than by chance."""
    return next(k for k, entry in enumerate(data["actions"]) if entry["player"] >= 0)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return mutate


def _illegal_action(data: dict[str, Any]) -> None:
    k = _first_decision(data)
    data["actions"][k]["action"] = 49  # pass, never legal while a card can be played or drawn
    data["actions"][k]["text"] = "pass"


def _wrong_text(data: dict[str, Any]) -> None:
    data["actions"][_first_decision(data)]["text"] = "hero N1"


def _wrong_player(data: dict[str, Any]) -> None:
    entry = data["actions"][_first_decision(data)]
    entry["player"] = 1 - entry["player"]


def _wrong_chance_player(data: dict[str, Any]) -> None:
    data["actions"][0]["player"] = 0


def _bool_player(data: dict[str, Any]) -> None:
    data["actions"][_first_decision(data) + 1]["player"] = True


def _extra_action(data: dict[str, Any]) -> None:
    data["actions"].append(dict(data["actions"][-1]))


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", _set("format", "rivals-game"), "'format'"),
    ("version", _set("version", 3), "version 3"),
    ("version type", _set("version", "2"), "version '2'"),
    ("game", _set("game", "chess"), "chess"),
    ("game type", _set("game", 7), "'game'"),
    ("params value", _set("params.players", 3), "players"),
    ("params key", _set("params.colour", "red"), "colour"),
    ("params type", _set("params", [2]), "'params'"),
    ("actions type", _set("actions", {}), "'actions'"),
    ("entry type", _set("actions.3", 5), "actions[3]"),
    ("non-int action", _set("actions.2.action", "NE1"), "actions[2].action"),
    ("float action", _set("actions.2.action", 3.0), "actions[2].action"),
    ("bool action", _set("actions.2.action", True), "actions[2].action"),
    ("huge action", _set("actions.2.action", 10**30), "actions[2]"),
    ("negative action", _set("actions.2.action", -3), "actions[2]"),
    ("illegal action", _illegal_action, "actions[10]"),
    ("wrong text", _wrong_text, "actions[10]"),
    ("wrong player", _wrong_player, "actions[10]"),
    ("chance player", _wrong_chance_player, "actions[0]"),
    ("bool player", _bool_player, "actions[11]"),
    ("after the end", _extra_action, "already over"),
    ("result returns", _set("result.returns", [5.0, 5.0]), "result.returns"),
    ("result scores", _set("result.scores", [1.0, 2.0]), "result.scores"),
    ("result terminal", _set("result.terminal", False), "result.terminal"),
    ("result type", _set("result", "Red wins"), "'result'"),
]


@pytest.mark.parametrize(("mutate", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_loads_names_the_problem(mutate: Callable[[dict[str, Any]], None], expected: str) -> None:
    data = replay.to_dict(random_state(2, 3))
    assert _first_decision(data) == 10  # the deal: five cards to each of two seats
    mutate(data)
    with pytest.raises(ValueError, match="bad replay") as error:
        replay.loads(json.dumps(data))
    assert expected in str(error.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('"rivals-replay"', "JSON object"),
        ("null", "JSON object"),
        ("[" * 100_000, "not JSON"),
        (b"\xff\xfe\x00", "not JSON"),
    ],
)
def test_loads_rejects_what_is_not_a_replay(text: str | bytes, expected: str) -> None:
    with pytest.raises(ValueError, match=expected):
        replay.loads(text)


@pytest.mark.parametrize("value", [None, {"format": "rivals-replay"}, 7, bytearray(b"{}")])
def test_loads_takes_only_text_and_says_so(value: object) -> None:
    with pytest.raises(TypeError, match=f"str or bytes, got {type(value).__name__}"):
        replay.loads(value)  # type: ignore[arg-type]


def test_loads_accepts_a_replay_without_optional_fields() -> None:
    state = random_state(4, 5)
    data = replay.to_dict(state)
    minimal = {
        "format": data["format"],
        "version": data["version"],
        "game": data["game"],
        "params": data["params"],
        "actions": [{"action": entry["action"]} for entry in data["actions"]],
    }
    assert replay.loads(json.dumps(minimal)).to_dict() == state.to_dict()


def test_loads_names_the_length_of_a_bots_list_of_another_player_count() -> None:
    data = replay.to_dict(random_state(4, 5))
    data["bots"] = [{"name": "random", "params": {}}] * 4
    assert replay.loads(json.dumps(data)).game.num_players == 4
    data["params"]["players"] = 2
    with pytest.raises(
        ValueError, match=r"must be a list of 2 entries, one per seat, got a list of 4$"
    ):
        replay.loads(json.dumps(data))


JUNK: list[Any] = [
    None,
    True,
    -1,
    0,
    7,
    49,
    2**63,
    -(2**70),
    1.5,
    float("nan"),
    "",
    "NE2",
    "draw",
    [],
    [1],
    {},
    {"action": 1},
]


def _mutations(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        actions = data.get("actions")
        if kind == 0 and isinstance(actions, list) and actions:
            entry = rng.choice(actions)
            if isinstance(entry, dict):
                entry[rng.choice(["action", "player", "text", "extra"])] = rng.choice(JUNK)
        elif kind == 1 and isinstance(actions, list) and len(actions) > 1:
            i, j = rng.randrange(len(actions)), rng.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        elif kind == 2 and isinstance(actions, list) and actions:
            del actions[rng.randrange(len(actions)) :]
        elif kind == 3:
            data[rng.choice(["format", "version", "game", "params", "actions", "result"])] = (
                rng.choice(JUNK)
            )
        elif kind == 4:
            data.pop(rng.choice(list(data) or ["game"]), None)
        elif kind == 5 and isinstance(data.get("params"), dict):
            data["params"][rng.choice(["players", "seed", ""])] = rng.choice(JUNK)
    return data


def test_loads_never_crashes_on_mutated_replays() -> None:
    rng = random.Random(2024)
    sources = [
        replay.to_dict(random_state(players, seed, 0.5)) for players in (2, 4) for seed in (1, 2)
    ]
    outcomes = {"loaded": 0, "rejected": 0}
    for round_ in range(400):
        data = _mutations(rng, rng.choice(sources))
        text = json.dumps(data)
        if round_ % 4 == 0:
            # Text-level damage as well: cut, duplicate or drop characters.
            cut = rng.randrange(len(text) + 1)
            text = rng.choice([text[:cut], text[:cut] + text[cut:][1:], text[:cut] + text])
        try:
            state = replay.loads(text)
        except ValueError as error:
            assert str(error)
            outcomes["rejected"] += 1
        else:
            assert replay.loads(replay.dumps(state)).history() == state.history()
            outcomes["loaded"] += 1
    assert outcomes["rejected"] > 100


# Replays recorded in version 1, before chance outcomes were numbered from 0, one per game.
VERSION_1 = sorted((Path(__file__).parent / "replays_v1").glob("*.json"))


def test_version_1_replays_cover_every_game() -> None:
    games = {json.loads(path.read_text(encoding="utf-8"))["game"] for path in VERSION_1}
    assert games == set(rivals.games())


@pytest.mark.parametrize("path", VERSION_1, ids=[path.stem for path in VERSION_1])
def test_version_1_replays_load(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    old = json.loads(text)
    assert old["version"] == 1
    # loads checks each entry's text, so every renumbered chance outcome names the same card.
    state = replay.loads(text)
    assert len(state.history()) == len(old["actions"])
    new = replay.to_dict(state)
    assert new["version"] == 2
    assert [e["text"] for e in new["actions"]] == [e["text"] for e in old["actions"]]
    assert [e["player"] for e in new["actions"]] == [e["player"] for e in old["actions"]]
    assert new["result"] == old["result"]
    chance = [(o["action"], n["action"]) for o, n in zip(old["actions"], new["actions"])]
    renumbered = [pair for pair, e in zip(chance, old["actions"]) if e["player"] == rivals.CHANCE]
    assert renumbered and all(0 <= n < state.game.max_chance_outcomes for _, n in renumbered)
    assert replay.loads(replay.dumps(state)).to_dict() == state.to_dict()
    # Without the optional texts the ids alone are mapped the same way.
    bare = dict(old, actions=[{"action": e["action"]} for e in old["actions"]])
    assert replay.loads(json.dumps(bare)).history() == state.history()


def test_version_1_replay_errors_name_the_entry() -> None:
    path = next(p for p in VERSION_1 if p.stem == "sekigahara")
    data = json.loads(path.read_text(encoding="utf-8"))
    wrong = copy.deepcopy(data)
    wrong["actions"][1]["action"] = wrong["actions"][0]["action"]  # the same card twice
    with pytest.raises(ValueError, match=r"actions\[1\]"):
        replay.loads(json.dumps(wrong))
    today = copy.deepcopy(data)
    today["actions"][0]["action"] -= 109  # already today's id, under version 1
    with pytest.raises(ValueError, match=r"actions\[0\]"):
        replay.loads(json.dumps(today))
    text = copy.deepcopy(data)
    text["actions"][2]["text"] = (
        "reveal 1" if data["actions"][2]["text"] != "reveal 1" else "reveal 2"
    )
    with pytest.raises(ValueError, match=r"actions\[2\]"):
        replay.loads(json.dumps(text))
