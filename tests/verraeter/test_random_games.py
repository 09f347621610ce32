"""Random games on both implementations: every step keeps the invariants of the rules page."""

from __future__ import annotations

import random

import pytest

from tests.random_play import random_action

from .helpers import DECK

PHASES = {"ring", "estates", "conflict", "draft", "supply", "builder", "draw", "discard", "end"}


def check_step(state, previous_vp):
    snap = state.to_dict()
    assert snap["phase"] in PHASES
    cards = [v for hand in snap["hands"] for v in hand]
    cards += [v for played in snap["played"] for v in played]
    assert sorted(cards + snap["draw_pile"] + snap["discard"]) == DECK
    if snap["phase"] not in ("draw", "discard"):
        assert all(len(hand) <= 5 for hand in snap["hands"])
    if len(snap["ring"]) == 12:
        for seat in range(len(snap["houses"])):
            owned = [land for land in snap["ring"] if (land["estate"] or {}).get("owner") == seat]
            assert len(owned) <= 3
    assert all(now >= before for now, before in zip(snap["vp"], previous_vp))
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts)
    assert [state.string_to_action(t) for t in texts] == legal
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        if snap["phase"] == "draw":
            pile = snap["draw_pile"]
            for action, p in outcomes:
                value = int(state.action_to_string(action).split()[1])
                assert p == pytest.approx(pile.count(value) / len(pile))
    elif not state.is_terminal():
        assert legal, "a decision node always has an action"
    return snap["vp"]


@pytest.mark.parametrize("players", [3, 4])
def test_random_games(make, players):
    game = make("verraeter", players=players)
    rng = random.Random(players)
    for _ in range(25):
        state = game.new_initial_state()
        vp = [0] * players
        while not state.is_terminal():
            vp = check_step(state, vp)
            state.apply_action(random_action(state, rng))
        check_step(state, vp)
        snap = state.to_dict()
        assert len(state.history()) <= game.max_game_length
        one_house = len({land["house"] for land in snap["ring"]}) == 1
        assert snap["round"] == game.params["rounds"] or (one_house and snap["round"] < 2 * players)
        assert state.scores() == [float(v) for v in snap["vp"]]
        best = max(snap["vp"])
        leaders = [s for s in range(players) if snap["vp"][s] == best]
        k = len(leaders)
        if k == players:
            assert state.returns() == [0.0] * players
        else:
            expected = [1.0 / k if s in leaders else -1.0 / (players - k) for s in range(players)]
            assert state.returns() == expected
        assert sum(state.returns()) == pytest.approx(0.0)
