"""Python threads running the engine at once give the same results as one thread."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import rivals
from tests.games import CONFIGS

GAMES = sorted(CONFIGS)


# A game between seeded bots, cut after this many actions: enough for every phase of the shorter
# games, while a whole Battlecards game of mcts moves would cost a minute.
ACTIONS = 200


def bot_game(name: str, seed: int) -> list[int]:
    """A game between seeded mcts bots (to its end or ACTIONS actions), chance from a seeded
    Python RNG."""
    game = rivals.make(name)
    bots = [
        rivals.bots.make("mcts", game, seed=seed * 10 + seat, iterations=40)
        for seat in range(game.num_players)
    ]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < ACTIONS:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.history()


@pytest.mark.parametrize("name", GAMES)
def test_bots_in_parallel_threads_play_as_they_do_alone(name: str) -> None:
    seeds = list(range(6))
    alone = [bot_game(name, seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda seed: bot_game(name, seed), seeds))
    assert together == alone


@pytest.mark.parametrize("name", GAMES)
def test_batches_from_parallel_threads_match_one_thread(name: str) -> None:
    game = rivals.make(name)
    alone = [game.random_playouts(300, seed=seed)["returns"] for seed in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(
            pool.map(lambda seed: game.random_playouts(300, seed=seed)["returns"], range(4))
        )
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)


def test_vector_envs_in_parallel_threads() -> None:
    def run(seed: int) -> np.ndarray:
        env = rivals.VectorEnv("rosenkoenig", 16, seed=seed, threads=2)
        out = env.reset()
        rng = np.random.default_rng(seed)
        total = np.zeros(2, dtype=np.float32)
        for _ in range(200):
            actions = (rng.random(out["legal_mask"].shape) * out["legal_mask"]).argmax(axis=1)
            out = env.step(actions)
            total += out["rewards"].sum(axis=0)
        return np.concatenate([total, out["obs"].ravel()[:1000]])

    alone = [run(seed) for seed in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(run, range(3)))
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)
