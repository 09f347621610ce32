"""The C++ engine against the pure-Python reference, move by move, on the same random games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import reference
from tests.games import config_id, configs

CASES = [case for case in configs("differential") if case[0] in reference.games()]


def compare(engine: Any, oracle: Any, where: str, with_tensors: bool) -> None:
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
    assert engine.to_dict() == oracle.to_dict(), where
    assert engine.scores() == oracle.scores(), where
    assert engine.returns() == oracle.returns(), where
    if with_tensors:
        for player in range(engine.game.num_players):
            np.testing.assert_array_equal(
                engine.observation_tensor(player), oracle.observation_tensor(player), err_msg=where
            )


@pytest.mark.parametrize(
    ("name", "params", "num_games"), CASES, ids=[config_id(n, p) for n, p, _ in CASES]
)
def test_engine_matches_reference(name: str, params: dict[str, Any], num_games: int) -> None:
    game = rivals.make(name, **params)
    oracle_game = reference.make(name, **params)
    assert game.params == oracle_game.params
    assert game.num_players == oracle_game.num_players
    assert game.num_distinct_actions == oracle_game.num_distinct_actions
    assert game.max_game_length == oracle_game.max_game_length
    assert game.observation_shape == tuple(oracle_game.observation_shape)
    rng = random.Random(config_id(name, params))
    for number in range(num_games):
        engine = game.new_initial_state()
        oracle = oracle_game.new_initial_state()
        # Observation tensors are the slowest part of the reference: check every step of a
        # quarter of the games.
        with_tensors = number % 4 == 0
        while True:
            where = f"{name} game {number} after {engine.history()}"
            compare(engine, oracle, where, with_tensors)
            if engine.is_terminal():
                break
            action = rng.choice(engine.legal_actions())
            engine.apply_action(action)
            oracle.apply_action(action)
        assert engine.history() == oracle.history()
