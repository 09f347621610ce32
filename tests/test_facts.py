"""The facts each game declares about itself (``game.info``: player counts, information,
utility, observation bounds, teams, bots) and what OpenSpiel and PettingZoo are told from them,
checked against how the game behaves, in random games of every game with every player count it
accepts and every parameter set of tests/games.py.

Algorithms trust these facts without checking: a game declared perfect-information is searched
as if nothing were hidden, a zero-sum one is solved with one value per state, an observation
space bounds the inputs of a network. The facts are read where users get them (``game.info``,
the OpenSpiel game type, the PettingZoo observation space).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest

import rivals
import rivals.openspiel
from rivals.pettingzoo import raw_env
from tests.games import config_id, configs
from tests.random_play import random_action

rivals.openspiel.register()
GAME_TYPE = {name: pyspiel.load_game(f"rivals_{name}").get_type() for name in rivals.games()}


def accepted_player_counts(name: str) -> list[int]:
    """The player counts the engine accepts, found by trying (the check of what is declared)."""
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


def info_fields(info: rivals.GameInfo) -> dict[str, Any]:
    return {name: getattr(info, name) for name in dir(info) if not name.startswith("_")}


@pytest.mark.parametrize("name", rivals.games())
def test_the_declared_player_counts_are_the_accepted_ones(name: str) -> None:
    accepted = accepted_player_counts(name)
    info = rivals.make(name).info
    assert list(info.player_counts) == accepted
    assert (info.min_players, info.max_players) == (min(accepted), max(accepted))
    assert info.default_players == rivals.make(name).num_players
    game_type = GAME_TYPE[name]
    assert (game_type.min_num_players, game_type.max_num_players) == (min(accepted), max(accepted))


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_the_info_is_the_same_under_every_parameter_set(name: str, params: dict[str, Any]) -> None:
    info = rivals.make(name, **params).info
    assert info_fields(info) == info_fields(rivals.make(name).info)
    # A value: equal to any other game's of the name, so sets and dict keys see one info.
    assert info == rivals.make(name).info and hash(info) == hash(rivals.make(name).info)
    assert len({info, rivals.make(name).info, info}) == 1
    assert all(info != rivals.make(other).info for other in rivals.games() if other != name)
    assert info != name and info != info_fields(info) and info != None  # noqa: E711
    assert info.name == name and info.long_name and info.description
    assert "\n" not in info.description
    assert game_players(name, params) in info.player_counts


def game_players(name: str, params: dict[str, Any]) -> int:
    return rivals.make(name, **params).num_players


@pytest.mark.parametrize("name", rivals.games())
def test_the_info_lists_exactly_the_bots_that_play(name: str) -> None:
    game = rivals.make(name)
    info = game.info
    assert list(info.bots) == sorted(info.bots) and {"random", "mcts"} <= set(info.bots)
    for bot in rivals.bots.names():
        if bot in info.bots:
            assert rivals.bots.make(bot, game).name == bot
        else:
            with pytest.raises(ValueError, match=f"unknown bot '{bot}' for {name}"):
                rivals.bots.make(bot, game)
    assert ("alphabeta" in info.bots) == info.evaluation
    assert set(info.solvers) <= set(info.bots)


def test_the_bot_names_are_the_union_of_every_games_bots() -> None:
    every = {bot for name in rivals.games() for bot in rivals.make(name).info.bots}
    assert rivals.bots.names() == sorted(every)


def test_the_games_page_describes_every_field_of_the_info() -> None:
    """docs/games.md: the table of `game.info`'s fields names each field once, and nothing else."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "games.md").read_text(encoding="utf-8")
    table = page.split("| field | type | meaning | from |\n", 1)[1].split("\n\n", 1)[0]
    described = [
        field
        for line in table.splitlines()[1:]
        for field in re.findall(r"`(\w+)`", line.split(" | ", 1)[0])
    ]
    info = rivals.make("rosenkoenig").info
    fields = [name for name in dir(info) if not name.startswith("_")]
    assert sorted(described) == sorted(fields)


@pytest.mark.parametrize("name", rivals.games())
def test_the_ecosystems_are_told_the_info(name: str) -> None:
    info = rivals.make(name).info
    game_type = GAME_TYPE[name]
    assert game_type.long_name == f"rivals {info.long_name}"
    perfect = game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert perfect == (info.information == "perfect")
    zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero_sum == (info.utility == "zero_sum")
    assert game_type.provides_observation_tensor == ("observation_tensor" in info.observations)
    space = raw_env(rivals.make(name)).observation_space("player_0")["observation"]
    low, high = info.observation_bounds
    assert (space.low == low).all() and (space.high == high).all()
    # Only a game that hides something draws resamples.
    assert info.resampling == (info.information == "imperfect")


def test_the_info_is_read_only() -> None:
    info = rivals.make("rosenkoenig").info
    with pytest.raises(AttributeError):
        info.long_name = "something else"  # type: ignore[misc]
    info.teams[4] = ((0, 1, 2, 3),)
    assert rivals.make("rosenkoenig").info.teams == {4: ((0, 2), (1, 3))}


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_teams_share_their_results(name: str, params: dict[str, Any]) -> None:
    """Seats of one team always get one result, and the teams do not (a win is somebody's)."""
    game = rivals.make(name, **params)
    teams = game.info.teams.get(game.num_players)
    if teams is None:
        assert game.num_players not in game.info.teams
        return
    assert sorted(seat for team in teams for seat in team) == list(range(game.num_players))
    returns = game.random_playouts(300, seed=3)["returns"]
    for team in teams:
        assert (returns[:, list(team)] == returns[:, [team[0]]]).all()
    assert (returns[:, teams[0][0]] != returns[:, teams[1][0]]).any()


def test_a_data_parameter_is_an_attribute_of_its_name() -> None:
    rheinlaender = rivals.make("rheinlaender")
    assert rheinlaender.map == rheinlaender.data["map"]
    assert rheinlaender.map["format"] == "rivals-rheinlaender-map"
    assert rivals.make("sekigahara").cards == rivals.make("sekigahara").data["cards"]
    with pytest.raises(AttributeError, match="rosenkoenig game has no attribute 'map'"):
        rivals.make("rosenkoenig").map  # noqa: B018
    assert not hasattr(rivals.make("verraeter"), "map")


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


@pytest.mark.parametrize("name", rivals.games())
def test_every_listed_observation_encoding_is_there(name: str) -> None:
    """Each name in ``info.observations`` is an encoding the state gives, the compact one as
    ``observation_tensor(p, kind="compact")`` in the shapes the game announces."""
    game = rivals.make(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    info = game.info
    assert info.observations == (
        "information_state_string",
        "observation_string",
        "observation_tensor",
        "compact_observation",
    )
    assert isinstance(state.information_state_string(player), str)
    assert isinstance(state.observation_string(player), str)
    assert np.asarray(state.observation_tensor(player)).shape == tuple(game.observation_shape)
    compact = state.observation_tensor(player, kind="compact")
    shape = game.compact_observation_shape
    assert compact["board"].shape == shape["board"]
    assert compact["features"].shape == shape["features"]
