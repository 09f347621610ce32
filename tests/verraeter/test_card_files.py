"""The engine against the reference on a card file with other numbers than the shipped one."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import reference
from tests.random_play import random_action
from tests.test_differential import compare, compare_views

from .test_hidden import views

TYPES = ["Ödnis", "Weide", "Fluss", "Wald", "Dorf", "Stadt"]
CARDS = ["Verraeter", "Diplomat2", "Diplomat5", "Baumeister", "Stratege", "Bauer"]
CONFLICT = [1, 2, 4, 6, 9, 12]
VP = [[2, 1, 1, 0], [3, 2, 1, 1], [4, 2, 2, 1], [5, 3, 2, 1], [6, 4, 2, 2], [9, 5, 3, 2]]


def other_cards() -> dict[str, Any]:
    """Four supply values in an unusual order, other tables, two estates, other draws."""
    return {
        "format": "rivals-verraeter-cards",
        "version": 1,
        "landscapes": [
            {
                "type": t,
                "name_en": t,
                "side": side,
                "conflict": CONFLICT[k],
                "vp": VP[k],
                "provisional": False,
            }
            for side in ("rose", "eagle")
            for k, t in enumerate(TYPES)
        ],
        "supply": [
            {"value": 10, "count": 3},
            {"value": 1, "count": 7},
            {"value": 7, "count": 5},
            {"value": 4, "count": 6},
        ],
        "start_hand": [7, 1],
        "action_cards": [
            {
                "name": name,
                "name_en": name,
                "conflict": {"Diplomat2": 3, "Diplomat5": 6}.get(name, 0),
                "vp": {"Verraeter": 2, "Stratege": 1}.get(name, 0),
                "draws": {"Bauer": 2, "Diplomat2": 2, "Baumeister": 1}.get(name, 0),
                "text": "",
            }
            for name in reversed(CARDS)
        ],
        "estates": {"per_player": 2, "bonus_kontore_max": 1, "bonus_cards_max": 4},
    }


@pytest.fixture(scope="module")
def card_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("cards") / "other.json"
    path.write_text(json.dumps(other_cards(), ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("players", [3, 4])
def test_engine_matches_reference_on_other_cards(card_path: str, players: int) -> None:
    game = rivals.make("verraeter", players=players, cards=card_path)
    oracle_game = reference.make("verraeter", players=players, cards=card_path)
    assert game.params == oracle_game.params
    assert game.params == {"players": players, "rounds": 2 * players, "cards": card_path}
    assert game.max_game_length == oracle_game.max_game_length
    rng = random.Random(players)
    for number in range(6):
        engine = game.new_initial_state()
        oracle = oracle_game.new_initial_state()
        while True:
            where = f"game {number} after {engine.history()}"
            compare(engine, oracle, where)
            compare_views(engine, oracle, where)
            if engine.is_terminal():
                break
            action = rng.choice(engine.legal_actions())
            assert engine.action_to_string(action) == oracle.action_to_string(action)
            engine.apply_action(action)
            oracle.apply_action(action)
        for player in range(players):
            assert engine.information_state_string(player) == oracle.information_state_string(
                player
            )


def first_state(game: rivals.Game, wanted: Any) -> rivals.State:
    """The first state of a random game that ``wanted`` accepts."""
    rng = random.Random(5)
    state = game.new_initial_state()
    while not wanted(state):
        assert not state.is_terminal(), "the game ended before the state wanted"
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_values_outside_the_card_file_are_rejected(card_path: str) -> None:
    game = rivals.make("verraeter", cards=card_path)
    decision = first_state(game, lambda s: not s.is_chance_node())
    draw = first_state(game, lambda s: s.is_chance_node() and s.to_dict()["phase"] == "draw")
    assert decision.action_to_string(42) == "play 1"
    assert draw.string_to_action("draw 10") == 3
    assert draw.action_to_string(3) == "draw 10"
    with pytest.raises(ValueError, match="value id 4"):
        decision.action_to_string(46)
    with pytest.raises(ValueError, match="value id 4"):
        draw.action_to_string(4)
    for state, text in ((decision, "play 2"), (decision, "discard 8"), (draw, "draw 5")):
        with pytest.raises(ValueError, match="unknown"):
            state.string_to_action(text)


def test_resample_on_other_cards(card_path: str) -> None:
    rng = random.Random(9)
    game = rivals.make("verraeter", players=4, cards=card_path)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
            if rng.random() < 0.05:
                for player in range(4):
                    other = state.resample_from_infostate(player, rng.randrange(1000))
                    assert views(other, player) == views(state, player)
