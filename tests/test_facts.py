"""The facts OpenSpiel and PettingZoo are told about each game (perfect information, zero-sum,
player counts, observation bounds), checked against how the game behaves, in random games of every
game with every player count it accepts and every parameter set of tests/games.py.

Algorithms trust these facts without checking: a game declared perfect-information is searched
as if nothing were hidden, a zero-sum one is solved with one value per state, an observation
space bounds the inputs of a network. The facts are read where users get them (the OpenSpiel game
type, the PettingZoo observation space), so these tests hold wherever the facts come to live.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import rivals
import rivals.openspiel
from rivals.pettingzoo import raw_env
from tests.games import config_id, configs

rivals.openspiel.register()
GAME_TYPE = {name: pyspiel.load_game(f"rivals_{name}").get_type() for name in rivals.games()}


def accepted_player_counts(name: str) -> list[int]:
    if "players" not in rivals.make(name).params:
        return [rivals.make(name).num_players]
    accepted = []
    for players in range(1, 9):
        try:
            accepted.append(rivals.make(name, players=players).num_players)
        except ValueError:
            continue
    return accepted


def cases() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for name in rivals.games():
        if "players" in rivals.make(name).params:
            out += [(name, {"players": n}) for n in accepted_player_counts(name)]
        else:
            out.append((name, {}))
    suites = [(name, params) for name, params, _ in configs("invariants")]
    return out + [case for case in suites if case not in out]


CASES = cases()
IDS = [config_id(name, params) for name, params in CASES]


def random_action(state: rivals.State, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes())
        return int(rng.choices(actions, weights)[0])
    return int(rng.choice(state.legal_actions()))


def random_positions(game: rivals.Game, seed: str, games: int, every: int) -> list[rivals.State]:
    """Every ``every``-th state of ``games`` random games, their ends included."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if len(state.history()) % every == 0:
                out.append(state.clone())
            state.apply_action(random_action(state, rng))
        out.append(state)
    assert len(out) > games
    return out


@pytest.mark.parametrize("name", rivals.games())
def test_the_declared_player_counts_span_the_accepted_ones(name: str) -> None:
    accepted = accepted_player_counts(name)
    game_type = GAME_TYPE[name]
    assert (game_type.min_num_players, game_type.max_num_players) == (min(accepted), max(accepted))


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_perfect_information_iff_resampling_never_changes_anything(
    name: str, params: dict[str, Any]
) -> None:
    """A seat of a perfect-information game can always tell the true state: every resample is
    the state itself. With hidden information some resample somewhere is another state."""
    game = rivals.make(name, **params)
    perfect = GAME_TYPE[name].information == pyspiel.GameType.Information.PERFECT_INFORMATION
    changed = 0
    for state in random_positions(game, config_id(name, params), games=3, every=7):
        for player in range(game.num_players):
            for seed in (0, 1):
                other = state.resample_from_infostate(player, seed)
                if perfect:
                    # The history is the information state there: it must not change either.
                    assert other.history() == state.history(), (player, seed)
                changed += other.to_dict() != state.to_dict()
    if perfect:
        assert changed == 0, f"{name} is declared perfect-information but resamples differ"
    else:
        assert changed > 0, f"{name} is declared imperfect-information but nothing is hidden"


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_zero_sum_iff_the_returns_always_sum_to_zero(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    game_type = GAME_TYPE[name]
    openspiel = pyspiel.load_game(f"rivals_{name}", params) if "players" in params else None
    returns = game.random_playouts(3000, seed=7)["returns"]
    sums = returns.sum(axis=1)
    if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM:
        np.testing.assert_allclose(sums, 0.0, atol=1e-9)
    else:
        assert np.abs(sums).max() > 1e-9, f"{name} is declared general-sum but sums to zero"
    if openspiel is not None:
        assert openspiel.min_utility() <= returns.min() <= returns.max() <= openspiel.max_utility()


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_observations_stay_within_the_declared_bounds(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    space = raw_env(game).observation_space("player_0")["observation"]
    low, high = space.low, space.high
    assert space.shape == game.observation_shape
    for state in random_positions(game, config_id(name, params), games=2, every=3):
        for player in range(game.num_players):
            tensor = state.observation_tensor(player)
            assert np.isfinite(tensor).all()
            outside = (tensor < low) | (tensor > high)
            assert not outside.any(), (
                f"player {player} after {state.history()}: entries {np.flatnonzero(outside)} "
                f"= {tensor[outside]} outside [{low.min()}, {high.max()}]"
            )
