"""Action ids follow OpenSpiel's convention in every game: chance outcomes are ids in
``[0, max_chance_outcomes)``, decisions ids in ``[0, num_distinct_actions)``, and the legal
action mask OpenSpiel builds from them marks exactly the legal actions."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import rivals
import rivals.openspiel
from tests.games import CONFIGS, config_id

rivals.openspiel.register()

CASES = [(name, row[0]) for name, rows in CONFIGS.items() for row in rows]
IDS = [config_id(name, params) for name, params in CASES]
GAMES_PER_CASE = 3


def check_ids(game: rivals.Game, state: rivals.State) -> None:
    legal = state.legal_actions()
    if state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        assert outcomes == legal
        assert all(0 <= a < game.max_chance_outcomes for a in outcomes), (
            f"chance outcomes {outcomes} outside 0..{game.max_chance_outcomes - 1}"
        )
    else:
        assert all(0 <= a < game.num_distinct_actions for a in legal), (
            f"decisions {legal} outside 0..{game.num_distinct_actions - 1}"
        )


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_ids_are_within_their_ranges(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(config_id(name, params))
    chance_nodes = decisions = 0
    for _ in range(GAMES_PER_CASE):
        state = game.new_initial_state()
        while not state.is_terminal():
            check_ids(game, state)
            chance_nodes += state.is_chance_node()
            decisions += not state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes > 0 and decisions > 0


# OpenSpiel parameters are scalars: parameter sets with lists or objects stay engine-only.
OPENSPIEL = [
    (case, case_id)
    for case, case_id in zip(CASES, IDS)
    if all(isinstance(value, (bool, int, float, str)) for value in case[1].values())
]


@pytest.mark.parametrize(
    ("name", "params"), [case for case, _ in OPENSPIEL], ids=[case_id for _, case_id in OPENSPIEL]
)
def test_openspiel_legal_actions_mask(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(rivals.openspiel.pyspiel_name(name), params)
    engine = rivals.make(name, **params)
    assert game.max_chance_outcomes() == engine.max_chance_outcomes
    assert game.num_distinct_actions() == engine.num_distinct_actions
    rng = random.Random(config_id(name, params))
    state = game.new_initial_state()
    chance_nodes = 0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions(player)
        mask = np.array(state.legal_actions_mask(player))
        size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        assert mask.shape == (size,)
        assert np.flatnonzero(mask).tolist() == legal
        if state.is_chance_node():
            chance_nodes += 1
            assert [a for a, _ in state.chance_outcomes()] == legal
        state.apply_action(rng.choice(legal))
    assert chance_nodes > 0
