"""rivals.VectorEnv against single states, for every game."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import rivals
from tests.games import config_id, configs

CASES = [(name, params) for name, params, _ in configs("invariants")]
IDS = [config_id(name, params) for name, params in CASES]


def random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), dtype=np.int64)


def check_against_states(env: rivals.VectorEnv, out: dict[str, Any]) -> None:
    game = env.game
    for e in range(env.num_envs):
        state = env.state(e)
        player = int(out["player"][e])
        if out["terminated"][e]:
            assert state.is_terminal()
            assert player == rivals.TERMINAL
            np.testing.assert_array_equal(
                out["rewards"][e], np.asarray(state.returns(), np.float32)
            )
            assert not out["legal_mask"][e].any()
            continue
        assert not state.is_chance_node(), "chance is resolved inside the environment"
        assert player == state.current_player()
        expected = np.zeros(game.num_distinct_actions, dtype=bool)
        expected[state.legal_actions()] = True
        np.testing.assert_array_equal(out["legal_mask"][e], expected)
        np.testing.assert_array_equal(out["obs"][e], state.observation_tensor(player))
        assert not out["rewards"][e].any()


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_vector_env_agrees_with_single_states(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    env = rivals.VectorEnv(game, 6, seed=3, threads=2)
    out = env.reset()
    assert out["obs"].shape == (6, *game.observation_shape) and out["obs"].dtype == np.float32
    assert out["legal_mask"].shape == (6, game.num_distinct_actions)
    assert out["rewards"].shape == (6, game.num_players) and out["rewards"].dtype == np.float32
    assert out["player"].dtype == np.int32 and out["terminated"].dtype == np.bool_
    check_against_states(env, out)
    rng = np.random.default_rng(1)
    finished = 0
    for step in range(600):
        restarting = out["terminated"].copy()
        out = env.step(random_legal(out["legal_mask"], rng))
        assert not (restarting & out["terminated"]).any()
        finished += int(out["terminated"].sum())
        if step % 7 == 0 or out["terminated"].any():
            check_against_states(env, out)
        ended = out["rewards"][out["terminated"]]
        np.testing.assert_allclose(ended.sum(axis=1), 0.0, atol=1e-6)
    assert finished > 0


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_same_seed_same_games_whatever_the_threads(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    runs = []
    for threads in (1, 3):
        env = rivals.VectorEnv(game, 8, seed=42, threads=threads)
        rng = np.random.default_rng(0)
        out = env.reset()
        trace = []
        for _ in range(300):
            out = env.step(random_legal(out["legal_mask"], rng))
            trace.append({key: value.copy() for key, value in out.items()})
        runs.append(trace)
    for a, b in zip(*runs):
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
    other = rivals.VectorEnv(game, 8, seed=43).reset()
    first = rivals.VectorEnv(game, 8, seed=42).reset()
    assert not np.array_equal(other["obs"], first["obs"])


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = rivals.VectorEnv("rosenkoenig", 4, seed=1)
    out = env.reset()
    legal = random_legal(out["legal_mask"], np.random.default_rng(0))
    before = {key: value.copy() for key, value in out.items()}
    histories = [env.state(e).history() for e in range(4)]
    bad = legal.copy()
    bad[2] = 49  # pass is never legal with a fresh hand
    with pytest.raises(ValueError, match="environment 2: action 49 is not legal"):
        env.step(bad)
    with pytest.raises(ValueError, match="one action per environment"):
        env.step(legal[:3])
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.full(4, 2**40))
    for key, value in before.items():
        np.testing.assert_array_equal(out[key], value)
    assert [env.state(e).history() for e in range(4)] == histories
    env.step(legal)


def test_send_and_recv_match_step() -> None:
    sync = rivals.VectorEnv("rosenkoenig", 16, seed=9)
    background = rivals.VectorEnv("rosenkoenig", 16, seed=9, threads=2)
    a, b = sync.reset(), background.reset()
    rng = np.random.default_rng(2)
    for _ in range(50):
        actions = random_legal(a["legal_mask"], rng)
        a = sync.step(actions)
        background.send(actions)
        with pytest.raises(ValueError, match="still running"):
            background.step(actions)
        b = background.recv()
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
    with pytest.raises(ValueError, match="without a send"):
        background.recv()


def test_bad_construction_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"num_envs must be an int 1\.\.1048576, got 0"):
        rivals.VectorEnv("rosenkoenig", 0)
    with pytest.raises(ValueError, match="unknown game"):
        rivals.VectorEnv("go", 2)
    with pytest.raises(ValueError, match="threads"):
        rivals.VectorEnv("rosenkoenig", 2, threads=0)
