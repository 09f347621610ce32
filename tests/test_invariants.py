"""Random simulation of the invariants every game promises, on the C++ engine."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

import rivals
from tests.games import config_id, configs
from tests.random_play import random_action

CASES = configs("invariants")
COPY_STEP = 10


def case_ids() -> list[str]:
    return [config_id(name, params) for name, params, _ in CASES]


def snapshot(state: rivals.State) -> tuple[Any, ...]:
    return (state.to_json(), state.hash(), state.history(), state.current_player())


def check_state(game: rivals.Game, state: rivals.State, rng: random.Random) -> None:
    legal = state.legal_actions()
    assert legal == sorted(legal)
    assert len(set(legal)) == len(legal)
    if state.is_terminal():
        assert legal == []
        assert state.current_player() == rivals.TERMINAL
        return
    assert legal, "a non-terminal state always has an action (pass when nothing else)"
    if state.is_chance_node():
        assert state.current_player() == rivals.CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outcomes)
        assert all(0 <= a < game.max_chance_outcomes for a in legal)
    else:
        assert 0 <= state.current_player() < game.num_players
        assert all(0 <= a < game.num_distinct_actions for a in legal)
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts), f"action strings collide: {texts}"
    for action, text in zip(legal, texts):
        assert state.string_to_action(text) == action
    for player in range(game.num_players):
        tensor = state.observation_tensor(player)
        assert tensor.dtype == np.float32
        assert tensor.shape == game.observation_shape
        assert np.isfinite(tensor).all()
        assert isinstance(state.observation_string(player), str)
        assert isinstance(state.information_state_string(player), str)
    check_illegal_actions_change_nothing(game, state, legal, rng)


def check_illegal_actions_change_nothing(
    game: rivals.Game, state: rivals.State, legal: list[int], rng: random.Random
) -> None:
    before = snapshot(state)
    legal_set = set(legal)
    # Chance outcomes and decisions are numbered apart, each from 0.
    ids = game.max_chance_outcomes if state.is_chance_node() else game.num_distinct_actions
    illegal = [a for a in range(ids) if a not in legal_set]
    candidates = [
        -1,
        ids,
        game.num_distinct_actions,
        2**31 - 1,
        *rng.sample(illegal, min(3, len(illegal))),
    ]
    for action in candidates:
        with pytest.raises(ValueError, match=str(action)):
            state.apply_action(action)
        assert snapshot(state) == before
    for bad in ["1", 1.5, None, 2**70]:
        with pytest.raises(ValueError):
            state.apply_action(bad)  # type: ignore[arg-type]
        assert snapshot(state) == before


def check_copies(state: rivals.State, rng: random.Random) -> None:
    before = snapshot(state)
    for twin in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        assert snapshot(twin) == before
        if not twin.is_terminal():
            twin.apply_action(random_action(twin, rng))
            assert snapshot(state) == before, "a copy shares data with its original"
    replayed = rivals.replay.loads(rivals.replay.dumps(state))
    assert snapshot(replayed) == before
    rebuilt = state.game.state_from_history(state.history())
    assert snapshot(rebuilt) == before


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_random_games_keep_every_invariant(
    name: str, params: dict[str, Any], num_games: int
) -> None:
    game = rivals.make(name, **params)
    assert game.name == name
    assert all(game.params[key] == value for key, value in params.items())
    rng = random.Random(config_id(name, params))
    for _ in range(num_games):
        state = game.new_initial_state()
        # Copies, pickles and replays cost O(history) each, a few times what check_state costs at
        # a thousand actions: every COPY_STEP-th ply from a random one, so over the whole game.
        offset = rng.randrange(COPY_STEP)
        ply = 0
        while True:
            check_state(game, state, rng)
            assert len(state.history()) <= game.max_game_length
            if ply % COPY_STEP == offset:
                check_copies(state, rng)
            if state.is_terminal():
                break
            before = snapshot(state)
            state.apply_action(random_action(state, rng))
            if rng.random() < 0.1:
                after = snapshot(state)
                state.undo()
                assert snapshot(state) == before, "undo must restore the state exactly"
                state.apply_action(after[2][-1])
                assert snapshot(state) == after
            ply += 1
        returns = state.returns()
        assert len(returns) == game.num_players
        assert sum(returns) == pytest.approx(0.0)
        assert all(-1.0 <= r <= 1.0 for r in returns)
        assert len(state.scores()) == game.num_players
        check_copies(state, rng)


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_undo_walks_back_to_the_start(name: str, params: dict[str, Any], num_games: int) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(7)
    state = game.new_initial_state()
    trail = [snapshot(state)]
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
        trail.append(snapshot(state))
    for expected in reversed(trail[:-1]):
        state.undo()
        assert snapshot(state) == expected
    with pytest.raises(IndexError):
        state.undo()


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_batches_are_reproducible_whatever_the_thread_count(
    name: str, params: dict[str, Any], num_games: int
) -> None:
    game = rivals.make(name, **params)
    one = game.random_playouts(400, seed=11, threads=1)
    two = game.random_playouts(400, seed=11, threads=2)
    # Three threads take the games in ranges by turns, each as it gets free.
    three = game.random_playouts(400, seed=11, threads=3)
    other = game.random_playouts(400, seed=12, threads=1)
    for key in ("returns", "lengths"):
        np.testing.assert_array_equal(one[key], two[key])
        np.testing.assert_array_equal(one[key], three[key])
    assert not np.array_equal(one["lengths"], other["lengths"])
    assert one["returns"].shape == (400, game.num_players)
    np.testing.assert_allclose(one["returns"].sum(axis=1), 0.0, atol=1e-9)
    assert (one["lengths"] > 0).all() and (one["lengths"] <= game.max_game_length).all()

    bots = ["random"] * game.num_players
    whole = game.play_match(bots, 40, seed=5, threads=3, keep_histories=True)
    parts = [
        game.play_match(bots, 20, seed=5, first_game=k, threads=1, keep_histories=True)
        for k in (0, 20)
    ]
    for key in ("returns", "lengths", "seating"):
        np.testing.assert_array_equal(whole[key], np.concatenate([p[key] for p in parts]))
    assert whole["histories"] == parts[0]["histories"] + parts[1]["histories"]
    for history, returns in zip(whole["histories"], whole["returns"]):
        assert game.state_from_history(history).returns() == list(returns)


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_bots_play_legal_moves(name: str, params: dict[str, Any], num_games: int) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(3)
    bots = [
        rivals.bots.make("mcts", game, seed=1, iterations=30),
        rivals.bots.make("random", game, seed=2),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        action = bots[state.current_player() % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_hash_depends_on_the_state_not_on_the_history(
    name: str, params: dict[str, Any], num_games: int
) -> None:
    """Two actions of one mover taken in either order (two cards dealt to one seat, two tokens
    placed): where both orders reach the same snapshot the hashes are equal, and where they reach
    different snapshots the hashes differ."""
    game = rivals.make(name, **params)
    rng = random.Random(config_id(name, params))
    same = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            for first in rng.sample(legal, min(3, len(legal))):
                after = state.clone()
                after.apply_action(first)
                if after.is_terminal() or after.current_player() != state.current_player():
                    continue
                second = rng.choice(after.legal_actions())
                if second == first or second not in legal:
                    continue
                swapped = state.clone()
                swapped.apply_action(second)
                if first not in swapped.legal_actions():
                    continue
                after.apply_action(second)
                swapped.apply_action(first)
                if after.to_dict() == swapped.to_dict():
                    assert after.hash() == swapped.hash(), (state.history(), first, second)
                    same += 1
                else:
                    assert after.hash() != swapped.hash(), (state.history(), first, second)
            state.apply_action(random_action(state, rng))
    assert same > 0, "no two orders reached the same state: the test checked nothing"
