"""The compact observation of every game: its layout as the rules pages give it (the planes'
entries rearranged, docs/rules/<game>.md, "Compact observation"), on both implementations."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import rivals
from rivals import reference
from tests.games import config_id, configs

CASES = [(name, params) for name, params, _ in configs("invariants")]
IDS = [config_id(name, params) for name, params in CASES]
IMPLEMENTATIONS = {"engine": rivals.make, "reference": reference.make}

Planes = npt.NDArray[np.float32]


def rosenkoenig(planes: Planes, game: Any) -> tuple[Planes, Planes]:
    # Own stones, other stones, the crown; every plane from 4 on is constant.
    return planes[[0, 1, 3]], planes[4:, 0, 0]


def sekigahara(planes: Planes, game: Any) -> tuple[Planes, Planes]:
    return planes[:162].reshape(2, 9, 9), planes[162:]


def verraeter(planes: Planes, game: Any) -> tuple[Planes, Planes]:
    flags = 10 + game.num_players
    return planes[: 12 * flags].reshape(12, flags).T, planes[12 * flags :]


def rheinlaender(planes: Planes, game: Any) -> tuple[Planes, Planes]:
    rows, spaces = game.compact_observation_shape["board"]
    return planes[: rows * spaces].reshape(rows, spaces), planes[rows * spaces :]


def battlecards(planes: Planes, game: Any) -> tuple[Planes, Planes]:
    cards = game.compact_observation_shape["board"][1]
    return planes[: 9 * cards].reshape(cards, 9).T, planes[9 * cards :]


LAYOUTS: dict[str, Callable[[Planes, Any], tuple[Planes, Planes]]] = {
    "battlecards": battlecards,
    "rheinlaender": rheinlaender,
    "rosenkoenig": rosenkoenig,
    "sekigahara": sekigahara,
    "verraeter": verraeter,
}


def test_every_game_has_a_layout() -> None:
    assert sorted(LAYOUTS) == rivals.games()


def random_states(game: Any, seed: str, count: int) -> list[Any]:
    """States along random games, chance included, up to `count` of them."""
    rng = random.Random(seed)
    states = []
    state = game.new_initial_state()
    while len(states) < count:
        states.append(state.clone())
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_compact_is_the_planes_rearranged(name: str, params: dict[str, Any], impl: str) -> None:
    game = IMPLEMENTATIONS[impl](name, **params)
    shape = game.compact_observation_shape
    count = 60 if impl == "engine" else 12
    for state in random_states(game, config_id(name, params), count)[
        :: 1 if impl == "engine" else 5
    ]:
        for player in range(game.num_players):
            planes = state.observation_tensor(player)
            compact = state.observation_tensor(player, kind="compact")
            assert sorted(compact) == ["board", "features"]
            board, features = compact["board"], compact["features"]
            assert board.dtype == np.uint8 and board.shape == tuple(shape["board"])
            assert features.dtype == np.float32 and features.shape == tuple(shape["features"])
            assert set(np.unique(board)) <= {0, 1}
            expected_board, expected_features = LAYOUTS[name](planes, game)
            np.testing.assert_array_equal(board, expected_board)
            np.testing.assert_array_equal(features, expected_features)
            # Nothing is lost but the planes' broadcasts and Rosenkönig's empty-square plane.
            dropped = planes.size - board.size - features.size
            assert dropped == 0 or name == "rosenkoenig"


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
def test_rosenkoenig_compact_layout_from_the_snapshot(impl: str) -> None:
    for players in (2, 4):
        game = IMPLEMENTATIONS[impl]("rosenkoenig", players=players)
        n = players
        dealt = game.new_initial_state().to_dict()["heroes"][0]
        for state in random_states(game, f"compact-{players}", 80)[::4]:
            snapshot = state.to_dict()
            index = card_ids(game)
            for p in range(n):
                compact = state.observation_tensor(p, kind="compact")
                board, features = compact["board"], compact["features"]
                own, other = ("R", "W") if p % 2 == 0 else ("W", "R")
                for r, row in enumerate(snapshot["board"]):
                    for c, mark in enumerate(row):
                        assert board[0, r, c] == (mark == own)
                        assert board[1, r, c] == (mark == other)
                assert board[2].sum() == 1 and board[2][tuple(snapshot["crown"])] == 1
                for rel in range(n):
                    seat = (p + rel) % n
                    held = {index[card] for card in snapshot["hands"][seat]}
                    for card in range(24):
                        assert features[24 * rel + card] == (card in held)
                    assert features[24 + 24 * n + rel] == np.float32(
                        snapshot["heroes"][seat] / dealt
                    )
                    assert features[25 + 25 * n + rel] == (snapshot["current_player"] == seat)
                discarded = {index[card] for card in snapshot["discard"]}
                for card in range(24):
                    assert features[24 * n + card] == (card in discarded)
                assert features[24 + 25 * n] == np.float32(snapshot["stones_left"] / 52)


def card_ids(game: Any) -> dict[str, int]:
    """Card ids by name: the first deal's chance outcomes are the 24 cards."""
    state = game.new_initial_state()
    return {state.action_to_string(a): a for a, _ in state.chance_outcomes()}


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
def test_unknown_kind_is_a_value_error(impl: str) -> None:
    state = IMPLEMENTATIONS[impl]("sekigahara").new_initial_state()
    with pytest.raises(ValueError, match="'planes' or 'compact'"):
        state.observation_tensor(0, kind="bits")
    with pytest.raises(ValueError):
        state.observation_tensor(2, kind="compact")
