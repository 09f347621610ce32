"""Random games on the shipped card set: they end, stay below max_game_length and are zero-sum.

Random against random over the reference, 3500 games in two runs (seeds 1 and 2): Germany (seat
0, moves first) wins 46.0%, Britain 51.1%, 2.9% are draws; 1057 actions and 188 turns per game
on average. The test below plays fewer games and checks that neither side wins more than 60%.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

import rivals

from .helpers import random_game


@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_within_the_limits(make, seed):
    game = make("battlecards")
    rng = random.Random(seed)
    state = random_game(game.new_initial_state(), rng)
    assert state.is_terminal()
    assert len(state.history()) < game.max_game_length
    returns = state.returns()
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    snap = state.to_dict()
    assert snap["end_reason"] in ("homeland", "battles", "max_turns")
    assert snap["turn"] <= game.params["max_turns"]
    if snap["end_reason"] == "battles":
        # Every battle of the list is won or cancelled.
        resolved = snap["won"][0] + snap["won"][1] + snap["cancelled"]
        assert len(resolved) == 16
        assert (returns[0] > 0) == (snap["vp"][0] > snap["vp"][1])


def test_short_max_turns_ends_in_a_draw(make):
    game = make("battlecards", max_turns=5)
    state = random_game(game.new_initial_state(), random.Random(3))
    snap = state.to_dict()
    # Five turns cannot resolve 16 battles nor reach a homeland battle (it needs three wins).
    assert snap["end_reason"] == "max_turns" and snap["turn"] == 5
    assert state.returns() == [0.0, 0.0]


def test_random_versus_random_is_balanced():
    from rivals import reference

    game = reference.make("battlecards")
    rng = random.Random(11)
    wins = [0, 0]
    games = 120
    for _ in range(games):
        state = random_game(game.new_initial_state(), rng)
        for seat in (0, 1):
            wins[seat] += state.returns()[seat] > 0
    assert wins[0] + wins[1] <= games
    assert max(wins) <= 0.6 * games, wins


COMBAT = {"window", "reinforce", "fire", "flip", "withdraw"}
SETUP = {"deal", "setup_deploy"}


def length_terms(card_set: dict[str, Any]) -> dict[str, int]:
    """The terms of max_game_length (docs/rules/battlecards.md), read from a card-set file."""
    window, effects, battles = 2, 0, 0
    for card in card_set["conflict"]:
        if card["kind"] == "battle":
            battles += 1
        elif card["kind"] == "kept":
            effect = card["effect"]
            window += 1 + (effect["count"] if effect["type"] == "reinforce" else 0)
        else:
            cost = sum(
                e["count"] if e["type"] in ("draw", "deploy", "discard_reserve") else 0
                for e in card["effects"]
            ) + sum(e["type"] == "destroy_stack" for e in card["effects"])
            effects = max(effects, cost)
    units = len(card_set["german"]) + len(card_set["british"])
    return {"turn": 2 + max(effects, 1), "battles": battles, "combat": window + 9 * units + 8}


@pytest.mark.parametrize("max_turns", [1000, 60])
def test_games_stay_within_each_term_of_max_game_length(max_turns: int) -> None:
    """Each part of the derivation of max_game_length holds in random games: the setup, every
    turn outside combat, every combat (per unit: at most one shot a round, one withdrawal), the
    number of combats; and the formula is the one the engine reports."""
    text = resources.files("rivals.data").joinpath("battlecards.json").read_text("utf-8")
    terms = length_terms(json.loads(text))
    game = rivals.make("battlecards", max_turns=max_turns)
    bound = 18 + max_turns * terms["turn"] + terms["battles"] * terms["combat"]
    assert game.max_game_length == bound
    rng = random.Random(max_turns)
    combats = 0
    for _ in range(12):
        state = game.new_initial_state()
        setup = turn = combat = 0
        shots: dict[tuple[int, str], int] = {}
        withdrawals: dict[str, int] = {}
        while not state.is_terminal():
            snap = state.to_dict()
            phase = snap["phase"]
            action = rng.choice(state.legal_actions())
            if phase in SETUP:
                setup += 1
            elif phase in COMBAT:
                combat += 1
                battle = snap["battle"]
                if phase == "fire":
                    key = (battle["round"], battle["unit"])
                    shots[key] = shots.get(key, 0) + 1
                    assert shots[key] == 1, f"{battle['unit']} fired twice in a round"
                if phase == "withdraw" and action != 0:
                    unit = state.action_to_string(action).split()[1]
                    withdrawals[unit] = withdrawals.get(unit, 0) + 1
                    assert withdrawals[unit] == 1, f"{unit} withdrew twice"
            else:
                turn += 1
            state.apply_action(action)
            after = state.to_dict()
            if after["battle"] is None and combat:
                assert combat <= terms["combat"], f"a combat of {combat} actions"
                combats += 1
                combat = 0
                shots.clear()
                withdrawals.clear()
            if after["turn"] != snap["turn"] or state.is_terminal():
                assert turn <= terms["turn"], f"a turn of {turn} actions outside combat"
                turn = 0
        assert setup == 18
        assert len(state.history()) <= game.max_game_length
    assert combats > 12, "the games fought too few battles to check their length"
