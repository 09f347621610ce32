"""The C++ engine against the pure-Python reference, move by move, on the same random games."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import reference
from tests.games import config_id, configs

# Games are checked in chunks, so that a parallel test run spreads a slow game over workers.
CHUNK = 20
INFORMATION_STATE_STEP = 16
CASES = [
    (name, params, first, min(CHUNK, total - first))
    for name, params, total in configs("differential")
    for first in range(0, total, CHUNK)
]
IDS = [f"{config_id(name, params)}-from{first}" for name, params, first, _ in CASES]


class Place:
    """Where a comparison stands; turned into text only when an assertion fails."""

    def __init__(self, name: str, number: int, engine: Any) -> None:
        self.name, self.number, self.engine = name, number, engine

    def __str__(self) -> str:
        return f"{self.name} game {self.number} after {self.engine.history()}"


class Hashes:
    """The engine's 64-bit Zobrist hash against the reference's snapshot. The reference does not
    copy the engine's random keys, so the values cannot be compared; what must agree is which
    states they tell apart: equal snapshots, reached by any histories, have equal hashes, and a
    different snapshot has a different hash (a 64-bit collision among the few thousand states of
    a test is a 1e-12 chance)."""

    def __init__(self) -> None:
        self.hash_of: dict[str, int] = {}
        self.snapshot_of: dict[int, str] = {}

    def check(self, engine: Any, snapshot: dict[str, Any], where: Place) -> None:
        text = json.dumps(snapshot, sort_keys=True)
        value = engine.hash()
        assert self.hash_of.setdefault(text, value) == value, f"one snapshot, two hashes: {where}"
        assert self.snapshot_of.setdefault(value, text) == text, f"one hash, two states: {where}"


def compare_views(engine: Any, oracle: Any, where: Place) -> None:
    """What each seat sees now, and the picture of the table."""
    assert str(engine) == str(oracle), where
    for player in range(engine.game.num_players):
        np.testing.assert_array_equal(
            engine.observation_tensor(player), oracle.observation_tensor(player), str(where)
        )
        compact = engine.observation_tensor(player, kind="compact")
        expected = oracle.observation_tensor(player, kind="compact")
        for part in ("board", "features"):
            assert compact[part].dtype == expected[part].dtype, where
            np.testing.assert_array_equal(compact[part], expected[part], str(where))
        assert engine.observation_string(player) == oracle.observation_string(player), where


def compare_information_states(engine: Any, oracle: Any, where: Place) -> None:
    for player in range(engine.game.num_players):
        assert engine.information_state_string(player) == oracle.information_state_string(player), (
            where
        )


def compare(engine: Any, oracle: Any, where: Place) -> dict[str, Any]:
    """Everything but the views; returns the snapshot."""
    assert engine.current_player() == oracle.current_player(), where
    assert engine.is_terminal() == oracle.is_terminal(), where
    assert engine.is_chance_node() == oracle.is_chance_node(), where
    legal = engine.legal_actions()
    assert legal == oracle.legal_actions(), where
    assert [engine.action_to_string(a) for a in legal] == [
        oracle.action_to_string(a) for a in legal
    ], where
    if engine.is_chance_node():
        expected = oracle.chance_outcomes()
        outcomes = engine.chance_outcomes()
        assert [a for a, _ in outcomes] == [a for a, _ in expected], where
        assert [p for _, p in outcomes] == pytest.approx([p for _, p in expected]), where
    snapshot = oracle.to_dict()
    assert engine.to_dict() == snapshot, where
    assert engine.scores() == oracle.scores(), where
    assert engine.returns() == oracle.returns(), where
    if not engine.is_terminal():
        seats = range(engine.game.num_players)
        for evaluation in engine.game.info.evaluations:
            if evaluation == "net":
                continue  # compare_networks, on fewer steps
            assert [engine.evaluate(p, evaluation) for p in seats] == pytest.approx(
                [oracle.evaluate(p, evaluation) for p in seats], rel=1e-12, abs=1e-12
            ), (where, evaluation)
    assert len(engine.history()) <= engine.game.max_game_length, where
    return snapshot


def compare_networks(engine: Any, oracle: Any, where: Place) -> None:
    """The shipped network's value of every seat. It fits the default settings only; elsewhere
    both refuse it. Its sums are float32, added in another order by numpy. The reference's
    forward pass is its slowest evaluation, so this runs on the information states' steps."""
    seats = range(engine.game.num_players)
    try:
        by_engine = [engine.evaluate(p, "net") for p in seats]
    except ValueError:
        with pytest.raises(ValueError):
            oracle.evaluate(0, "net")
    else:
        assert by_engine == pytest.approx([oracle.evaluate(p, "net") for p in seats], abs=1e-5), (
            where
        )


@pytest.mark.parametrize(("name", "params", "first", "count"), CASES, ids=IDS)
def test_engine_matches_reference(
    name: str, params: dict[str, Any], first: int, count: int
) -> None:
    game = rivals.make(name, **params)
    oracle_game = reference.make(name, **params)
    assert game.params == oracle_game.params
    assert game.num_players == oracle_game.num_players
    assert game.num_distinct_actions == oracle_game.num_distinct_actions
    assert game.max_chance_outcomes == oracle_game.max_chance_outcomes
    assert game.max_game_length == oracle_game.max_game_length
    assert game.observation_shape == tuple(oracle_game.observation_shape)
    assert game.compact_observation_shape == oracle_game.compact_observation_shape
    rng = random.Random(f"{config_id(name, params)}-{first}")
    hashes = Hashes()
    for number in range(first, first + count):
        engine = game.new_initial_state()
        oracle = oracle_game.new_initial_state()
        where = Place(name, number, engine)
        # The views are the slowest part of the reference: observations and pictures on every
        # step of a quarter of the games; information states, which spell out the whole history
        # (so comparing them is quadratic in its length), on every 16th step from a random one.
        # Both at every game's end.
        views = number % 4 == 0
        offset = rng.randrange(INFORMATION_STATE_STEP)
        while True:
            hashes.check(engine, compare(engine, oracle, where), where)
            step = len(engine.history())
            if views or engine.is_terminal():
                compare_views(engine, oracle, where)
            if step % INFORMATION_STATE_STEP == offset or engine.is_terminal():
                compare_information_states(engine, oracle, where)
                if not engine.is_terminal():
                    compare_networks(engine, oracle, where)
            if engine.is_terminal():
                break
            action = rng.choice(engine.legal_actions())
            engine.apply_action(action)
            oracle.apply_action(action)
        assert engine.history() == oracle.history()


# The games whose reference implements resample_from_infostate: with the engine's random number
# generator, the two follow one procedure (docs/rules/<game>.md, "Resampling") seed for seed.
RESAMPLED = [
    (name, params)
    for name, params, _ in configs("differential")
    if hasattr(reference.make(name, **params).new_initial_state(), "resample_from_infostate")
]
RESAMPLE_POSITIONS = 3


@pytest.mark.parametrize(
    ("name", "params"), RESAMPLED, ids=[config_id(name, params) for name, params in RESAMPLED]
)
def test_resamples_match_the_reference(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    oracle_game = reference.make(name, **params)
    rng = random.Random(f"resample {config_id(name, params)}")
    compared = 0
    while compared < RESAMPLE_POSITIONS * game.num_players:
        # A random depth of a random game: every seat at it, one seed each.
        whole = game.new_initial_state()
        while not whole.is_terminal():
            whole.apply_action(rng.choice(whole.legal_actions()))
        history = whole.history()[: rng.randrange(len(whole.history()) + 1)]
        engine = game.state_from_history(history)
        oracle = oracle_game.new_initial_state()
        for action in history:
            oracle.apply_action(action)
        for player in range(game.num_players):
            seed = rng.randrange(2**64)
            assert (
                engine.resample_from_infostate(player, seed).history()
                == oracle.resample_from_infostate(player, seed).history()
            ), Place(name, compared, engine)
            compared += 1
    assert compared == RESAMPLE_POSITIONS * game.num_players


MISUSES = {
    "an unknown action id": lambda state: state.apply_action(99999),
    "a string as an action": lambda state: state.apply_action("draw"),
    "a bool as an action": lambda state: state.apply_action(True),
    "a string to name": lambda state: state.action_to_string("x"),
    "a seat past the last": lambda state: state.observation_tensor(state.game.num_players),
    "a negative seat": lambda state: state.observation_string(-1),
    "a bool as a seat": lambda state: state.information_state_string(True),
    "a seat past the last to evaluate": lambda state: state.evaluate(state.game.num_players),
    "an evaluation the game does not offer": lambda state: state.evaluate(0, "nonesuch"),
}


def misuse_errors(state: Any) -> dict[str, str]:
    """What each misuse raises; a misuse changes nothing, so all run on one state."""
    history = state.history()
    errors = {}
    for what, misuse in MISUSES.items():
        with pytest.raises(ValueError) as error:
            misuse(state)
        errors[what] = str(error.value)
    assert state.history() == history
    return errors


@pytest.mark.parametrize("name", rivals.games())
def test_errors_match_the_engine(name: str) -> None:
    """The reference words every error as the engine does: at a chance node, at a decision (an
    action legal elsewhere but not here) and after the end."""
    rng = random.Random(f"errors {name}")
    engine = rivals.make(name).new_initial_state()
    oracle = reference.make(name).new_initial_state()
    compared = {"chance": 0, "decision": 0, "terminal": 0}
    while True:
        if engine.is_terminal():
            node = "terminal"
            illegal = 0
        else:
            node = "chance" if engine.is_chance_node() else "decision"
            ids = range(engine.game.num_distinct_actions)
            illegal = next(a for a in ids if a not in engine.legal_actions())
        if compared[node] < 2:
            compared[node] += 1
            assert misuse_errors(engine) == misuse_errors(oracle)
            with pytest.raises(ValueError) as expected:
                engine.apply_action(illegal)
            with pytest.raises(ValueError) as got:
                oracle.apply_action(illegal)
            assert str(got.value) == str(expected.value)
        if node == "terminal":
            with pytest.raises(ValueError, match="the game is over") as expected:
                engine.evaluate(0)
            with pytest.raises(ValueError) as got:
                oracle.evaluate(0)
            assert str(got.value) == str(expected.value)
        if engine.is_terminal():
            break
        action = rng.choice(engine.legal_actions())
        engine.apply_action(action)
        oracle.apply_action(action)
    assert compared == {"chance": 2, "decision": 2, "terminal": 1}


BAD_PARAMS = [
    ("rheinlaender", {"players": 7}),
    ("rheinlaender", {"max_turns": 0}),
    ("sekigahara", {"repetition_rule": "x"}),
    ("sekigahara", {"max_turns": True}),
    ("verraeter", {"players": "3"}),
    ("verraeter", {"rounds": 0}),
    ("battlecards", {"max_turns": 10**6}),
]


@pytest.mark.parametrize(("name", "params"), BAD_PARAMS, ids=[str(case) for case in BAD_PARAMS])
def test_parameter_errors_match_the_engine(name: str, params: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as expected:
        rivals.make(name, **params)
    with pytest.raises(ValueError) as got:
        reference.make(name, **params)
    assert str(got.value) == str(expected.value)
