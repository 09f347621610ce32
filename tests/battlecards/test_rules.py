"""Rules tests for Battlecards, one or more per paragraph of docs/rules/battlecards.md. One module
on purpose, long as the rules are: it is read beside the rules page, rule by rule.

Every test takes the ``make`` fixture (tests/conftest.py) and so runs on the
pure-Python reference and on the engine. Positions are built by applying actions; every chance
outcome (arsenal draws, conflict draws, action-number flips) is chosen explicitly. Most tests use
the small card set of ``helpers.rules_set()``; its units are, per side (``G`` German, ``B``
British), ``1`` tank G7 d4 p3, ``2`` infantry G5/A1 d3 p4, ``3`` flak G5/A7 d3 p1, ``4`` fighter
G1/A7 d4 p1, ``5`` bomber G6/A1/S4 d3 p3, ``6`` radar (air, no attack, d3 p1, support air +1
defence), ``7`` battleship G5/A2/S8 d6 p2, ``8`` submarine S7 d2 p4, ``9`` staff (ground G1 d2
p4, support ground +1 attack), ``10`` bunker (ground, no attack, d9 p1).
"""

from __future__ import annotations

import copy
import json
from importlib import resources

import numpy as np
import pytest

import rivals

from .helpers import (
    DECLINE,
    DEPLOY,
    FIGHT,
    FIRE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    PASS,
    PLAY,
    WITHDRAW,
    act,
    face_up,
    flip_card,
    legal_strings,
    new_state,
    rules_set,
    setup,
    stack_ids,
    unit,
)

SNAPSHOT_KEYS = {
    "phase",
    "current_player",
    "turn",
    "drawing_player",
    "sides",
    "reserve",
    "stacks",
    "kept",
    "won",
    "arsenal_deck",
    "arsenal_discard",
    "conflict_deck",
    "conflict_discard",
    "cancelled",
    "card",
    "effect_index",
    "subject",
    "left",
    "battle",
    "vp",
    "end_reason",
    "winner",
    "scores",
}
BATTLE_KEYS = {
    "aggressor",
    "round",
    "firing_phase",
    "firing_side",
    "unit",
    "target",
    "window",
    "withdrawing",
    "taking_part",
    "withdrawn",
    "bonus",
}

# Germany: tank and infantry on the ground stack, fighter in the air; reserve flak, battleship,
# staff. Britain: tank, fighter, battleship deployed; reserve infantry, bomber, submarine.
G_DRAW = ["G1", "G2", "G3", "G4", "G7", "G9"]
B_DRAW = ["B1", "B2", "B4", "B5", "B7", "B8"]
G_DEPLOY = ["G1", "G2", "G4"]
B_DEPLOY = ["B1", "B4", "B7"]


def basic(make, **params):
    """After the standard setup: Germany's first turn, at its deployment step."""
    state = setup(new_state(make, **params), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    assert state.to_dict()["phase"] == "turn_deploy"
    return state


def custom(**changes):
    """The rules set with some top-level lists replaced."""
    cards = copy.deepcopy(rules_set())
    cards.update(changes)
    battles = [c["id"] for c in cards["conflict"] if c["kind"] == "battle"]
    cards["battle_list"] = {"id": "K0", "name": "Battle List", "battles": battles}
    return cards


def conflict_cards(*ids):
    by_id = {c["id"]: c for c in rules_set()["conflict"]}
    return [copy.deepcopy(by_id[i]) for i in ids]


def land_battle(make, german_deploy=("G1", "G2", "G4"), british_deploy=("B1", "B4", "B7")):
    """Germany draws K1 (ground battle, German aggressor) on turn 0 and fights."""
    state = setup(new_state(make), G_DRAW, B_DRAW, list(german_deploy), list(british_deploy))
    act(state, "pass", "K1")
    assert state.to_dict()["phase"] == "choice"
    act(state, "fight")
    return state


# --------------------------------------------------------------------------------------------
# Game object and parameters
# --------------------------------------------------------------------------------------------


def test_game_attributes_shipped_set(make):
    game = make("battlecards")
    assert game.name == "battlecards"
    assert game.params == {"cards": None, "expansions": [], "max_turns": 1000}
    assert json.loads(json.dumps(game.params)) == game.params
    assert game.num_players == 2
    assert game.num_distinct_actions == NUM_DISTINCT_ACTIONS
    assert game.max_chance_outcomes == MAX_CHANCE_OUTCOMES
    # 94 arsenal cards, 49 conflict cards: 9 * 94 + 6 * 49 + 66.
    assert tuple(game.observation_shape) == (1206,)
    # 18 + max_turns * (2 + max(E, 1)) + B * (W + 9 * N + 8) with E = 3 (a draw of 3), B = 16
    # battles, W = 2 + 6 bonuses + (1 + 2) + (1 + 1) = 13 and N = 94 units.
    assert game.max_game_length == 18 + 1000 * (2 + 3) + 16 * (13 + 9 * 94 + 8)


def test_max_game_length_formula_rules_set(make):
    game = make("battlecards", cards=rules_set(), max_turns=7)
    # N = 20, B = 5 (K1-K5), W = 2 + 1 + (1 + 2) = 6, E = 2 (K8, K9).
    assert game.max_game_length == 18 + 7 * (2 + 2) + 5 * (6 + 9 * 20 + 8)
    assert tuple(game.observation_shape) == (9 * 20 + 6 * 20 + 66,)


@pytest.mark.parametrize(
    "params",
    [
        {"max_turns": 0},
        {"max_turns": 100001},
        {"max_turns": True},
        {"max_turns": "5"},
        {"players": 2},
        {"expansions": "pack.json"},
        {"cards": 3},
    ],
)
def test_bad_parameters(make, params):
    with pytest.raises(ValueError) as info:
        make("battlecards", **params)
    assert next(iter(params)) in str(info.value)


# --------------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------------


def test_setup_deals_six_to_germany_then_britain(make):
    state = new_state(make)
    assert state.is_chance_node() and state.current_player() == -1
    snap = state.to_dict()
    assert snap["phase"] == "deal" and snap["subject"] == 0 and snap["left"] == 6
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(10))  # slots of Germany's arsenal
    assert all(p == pytest.approx(0.1) for _, p in outcomes)
    act(state, *G_DRAW)
    snap = state.to_dict()
    assert snap["subject"] == 1 and snap["left"] == 6
    assert snap["reserve"][0] == G_DRAW
    assert [a for a, _ in state.chance_outcomes()] == list(range(10))  # now Britain's slots
    assert [state.action_to_string(a) for a in range(3)] == ["B1", "B2", "B3"]
    act(state, *B_DRAW)
    snap = state.to_dict()
    assert snap["phase"] == "setup_deploy" and snap["subject"] == 0 and snap["left"] == 3
    assert state.current_player() == 0
    # Exactly three deployments, no pass.
    assert legal_strings(state) == {f"deploy {c}" for c in G_DRAW}


def test_setup_deploys_face_down_onto_the_stack_of_the_type(make):
    state = new_state(make)
    act(state, *G_DRAW, *B_DRAW, "deploy G7", "deploy G4", "deploy G3")
    snap = state.to_dict()
    assert snap["stacks"][0] == {
        "ground": [{"id": "G3", "face_up": False}],
        "air": [{"id": "G4", "face_up": False}],
        "sea": [{"id": "G7", "face_up": False}],
    }
    assert snap["reserve"][0] == ["G1", "G2", "G9"]
    assert snap["subject"] == 1 and state.current_player() == 1
    # Two units of one type are fine.
    act(state, "deploy B1", "deploy B2", "deploy B4")
    assert stack_ids(state, 1, "ground") == ["B1", "B2"]
    snap = state.to_dict()
    assert snap["phase"] == "turn_deploy" and snap["drawing_player"] == 0 and snap["turn"] == 0
    assert state.current_player() == 0


# --------------------------------------------------------------------------------------------
# A turn: deployment and draw
# --------------------------------------------------------------------------------------------


def test_turn_deployment_is_optional_and_single(make):
    state = basic(make)
    assert legal_strings(state) == {"pass", "deploy G3", "deploy G7", "deploy G9"}
    act(state, "deploy G7")
    snap = state.to_dict()
    assert snap["phase"] == "conflict_draw" and state.is_chance_node()
    assert {"id": "G7", "face_up": False} in snap["stacks"][0]["sea"]
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(20))  # conflict indices
    assert all(p == pytest.approx(1 / 20) for _, p in outcomes)


def test_no_deployment_step_with_an_empty_reserve(make):
    state = basic(make)
    # Germany deploys, draws General Mobilisation (K9: deploy 2) and empties its reserve.
    act(state, "deploy G3", "K9", "deploy G7", "deploy G9")
    assert state.to_dict()["reserve"][0] == []
    act(state, "pass", "K16")  # Britain's turn: +1 VP
    assert state.to_dict()["phase"] == "conflict_draw"
    assert state.to_dict()["drawing_player"] == 0


def test_kept_card_goes_behind_the_stacks_and_ends_the_turn(make):
    state = basic(make)
    act(state, "pass", "K6")
    snap = state.to_dict()
    assert snap["kept"] == [["K6"], []]
    assert "K6" not in snap["conflict_deck"] and "K6" not in snap["conflict_discard"]
    assert snap["drawing_player"] == 1 and snap["turn"] == 1 and snap["phase"] == "turn_deploy"
    # Britain sees that a kept card was drawn, not which one.
    assert state.information_state_string(1).endswith("germany pass\nchance ?")
    assert state.information_state_string(0).endswith("germany pass\nchance K6")


def test_build_up_draws_for_the_drawer(make):
    state = basic(make)
    act(state, "pass", "K8")
    snap = state.to_dict()
    assert snap["phase"] == "effect_draw" and snap["subject"] == 0 and snap["left"] == 2
    assert snap["card"] == "K8" and snap["effect_index"] == 0
    assert [a for a, _ in state.chance_outcomes()] == [4, 5, 7, 9]
    act(state, "G5")
    assert state.to_dict()["left"] == 1
    act(state, "G10")
    snap = state.to_dict()
    assert snap["reserve"][0] == ["G3", "G5", "G7", "G9", "G10"]
    assert snap["conflict_discard"] == ["K8"] and snap["card"] is None
    assert snap["drawing_player"] == 1 and snap["effect_index"] is None and snap["subject"] is None


def test_effects_name_their_side_whoever_draws(make):
    state = basic(make)
    act(state, "pass", "K14")  # British draw 1, then German draw 1
    assert state.to_dict()["subject"] == 1
    act(state, "B3")
    snap = state.to_dict()
    assert snap["subject"] == 0 and snap["effect_index"] == 1
    act(state, "G5")
    snap = state.to_dict()
    assert "B3" in snap["reserve"][1] and "G5" in snap["reserve"][0]
    # "opponent" and "drawer" are relative to the drawing player (Britain now).
    act(state, "pass", "K15")
    assert state.scores() == [1.0, 0.0]
    act(state, "pass", "K13")
    assert state.scores() == [3.0, 0.0]


def test_deploy_effect_up_to_count_and_pass_stops(make):
    state = basic(make)
    act(state, "pass", "K9")
    snap = state.to_dict()
    assert snap["phase"] == "effect_deploy" and state.current_player() == 0 and snap["left"] == 2
    assert legal_strings(state) == {"pass", "deploy G3", "deploy G7", "deploy G9"}
    act(state, "deploy G3")
    assert state.to_dict()["left"] == 1
    act(state, "pass")
    snap = state.to_dict()
    assert snap["reserve"][0] == ["G7", "G9"]
    assert snap["drawing_player"] == 1 and "K9" in snap["conflict_discard"]


def test_discard_reserve_is_a_random_reserve_card(make):
    state = basic(make)
    act(state, "pass", "K10")
    snap = state.to_dict()
    assert snap["phase"] == "effect_discard" and snap["subject"] == 1
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == ["B2", "B5", "B8"]
    assert all(p == pytest.approx(1 / 3) for _, p in outcomes)
    act(state, "B5")
    snap = state.to_dict()
    assert snap["reserve"][1] == ["B2", "B8"] and snap["arsenal_discard"][1] == ["B5"]


def test_reveal_turns_the_named_stacks_face_up(make):
    state = basic(make)
    act(state, "pass", "K11")
    assert face_up(state, 1) == {"B1", "B4"}
    assert face_up(state, 0) == set()
    # Britain's ground tank is now visible to Germany.
    obs = state.observation_tensor(0)
    b1 = 9 * 10 + 0  # Britain's block starts after Germany's 10 cards; B1 is its first card
    assert obs[b1 + 3] == 1.0


def test_destroy_stack_picks_a_random_card_of_the_stack(make):
    state = setup(new_state(make), G_DRAW, B_DRAW, G_DEPLOY, ["B1", "B2", "B4"])
    act(state, "pass", "K12")
    assert state.to_dict()["phase"] == "effect_destroy"
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["B1", "B2"]
    act(state, "B2")
    snap = state.to_dict()
    assert stack_ids(state, 1, "ground") == ["B1"] and snap["arsenal_discard"][1] == ["B2"]


def test_destroy_stack_on_an_empty_stack_is_skipped(make):
    state = setup(new_state(make), G_DRAW, B_DRAW, G_DEPLOY, ["B4", "B5", "B7"])
    act(state, "pass", "K12")
    snap = state.to_dict()
    assert snap["drawing_player"] == 1 and "K12" in snap["conflict_discard"]


# --------------------------------------------------------------------------------------------
# Battles: prerequisites, choice, absent units, flip
# --------------------------------------------------------------------------------------------


def test_unmet_prerequisite_discards_the_battle(make):
    state = basic(make)
    act(state, "pass", "K4")  # needs K1 won by Germany
    snap = state.to_dict()
    assert "K4" in snap["conflict_discard"] and snap["battle"] is None
    assert snap["drawing_player"] == 1 and snap["phase"] == "turn_deploy"


def test_the_aggressor_decides_even_when_the_opponent_draws(make):
    state = basic(make)
    act(state, "pass", "K16", "pass", "K1")  # Britain draws a German-aggressor battle
    snap = state.to_dict()
    assert snap["phase"] == "choice" and snap["drawing_player"] == 1
    assert state.current_player() == 0
    assert state.legal_actions() == [FIGHT, DECLINE]
    assert snap["battle"]["aggressor"] == 0 and snap["battle"]["round"] == 0
    act(state, "decline")
    snap = state.to_dict()
    assert "K1" in snap["conflict_discard"] and snap["battle"] is None
    assert snap["drawing_player"] == 0 and snap["turn"] == 2


def test_battle_shelved_when_neither_side_has_the_units(make):
    state = setup(new_state(make), G_DRAW, B_DRAW, ["G1", "G2", "G7"], ["B1", "B2", "B7"])
    act(state, "pass", "K16", "pass", "K2", "fight")  # air battle, nobody has air
    snap = state.to_dict()
    assert "K2" in snap["conflict_discard"] and snap["won"] == [[], []]
    assert snap["drawing_player"] == 0


def test_battle_won_by_absent_enemy_units(make):
    state = setup(new_state(make), G_DRAW, B_DRAW, ["G1", "G2", "G7"], ["B1", "B4", "B7"])
    act(state, "pass", "K16", "pass", "K2", "fight")
    snap = state.to_dict()
    assert snap["won"] == [[], ["K2"]] and state.scores() == [1.0, 3.0]
    # No combat: Britain's fighter was never turned face up.
    assert face_up(state, 1) == set()


def test_flip_turns_the_fighting_stacks_face_up(make):
    state = land_battle(make)
    snap = state.to_dict()
    assert snap["battle"]["taking_part"] == [["G1", "G2"], ["B1"]]
    assert face_up(state, 0) == {"G1", "G2"} and face_up(state, 1) == {"B1"}
    assert set(snap["battle"]) == BATTLE_KEYS


# --------------------------------------------------------------------------------------------
# Firing
# --------------------------------------------------------------------------------------------


def test_firing_order_phases_aggressor_first(make):
    state = land_battle(make)
    snap = state.to_dict()
    # No unit fires in phases 1-2; G1 (phase 3) fires first.
    assert snap["phase"] == "fire" and state.current_player() == 0
    assert snap["battle"]["round"] == 1 and snap["battle"]["firing_phase"] == 3
    assert snap["battle"]["unit"] == "G1" and snap["battle"]["firing_side"] == 0
    assert legal_strings(state) == {"fire B1"}
    act(state, "fire B1")
    assert state.to_dict()["battle"]["target"] == "B1" and state.is_chance_node()
    act(state, flip_card(2, state))
    snap = state.to_dict()
    # Then Britain's phase-3 tank, then Germany's phase-4 infantry.
    assert snap["battle"]["unit"] == "B1" and state.current_player() == 1
    assert legal_strings(state) == {"fire G1", "fire G2"}
    act(state, "fire G2", flip_card(2, state))
    snap = state.to_dict()
    assert snap["battle"]["unit"] == "G2" and snap["battle"]["firing_phase"] == 4


@pytest.mark.parametrize(("number", "hit"), [(4, False), (5, True), (7, True), (8, False)])
def test_hit_needs_defence_below_action_number_up_to_attack(make, number, hit):
    state = land_battle(make)
    act(state, "fire B1")  # tank G7 at tank d4
    flipped = flip_card(number, state)
    act(state, flipped)
    snap = state.to_dict()
    assert flipped in snap["conflict_discard"]
    if hit:
        # Britain has no ground unit left: Germany wins K1.
        assert snap["won"] == [["K1"], []] and state.scores() == [2.0, 0.0]
        assert snap["arsenal_discard"][1] == ["B1"] and stack_ids(state, 1, "ground") == []
    else:
        assert snap["won"] == [[], []] and snap["battle"]["unit"] == "B1"


def test_a_destroyed_unit_does_not_fire_later_in_the_phase(make):
    # Germany's infantry (phase 4) and Britain's infantry (phase 4); Germany fires first.
    state = setup(new_state(make), G_DRAW, B_DRAW, ["G2", "G4", "G7"], ["B1", "B4", "B7"])
    act(state, "pass", "K1", "fight")
    # B1 (phase 3) fires at G2 (d3) and misses; G2 (phase 4) fires at B1 (d4) and hits with 5.
    assert state.to_dict()["battle"]["unit"] == "B1"
    act(state, "fire G2", flip_card(3, state), "fire B1", flip_card(5, state))
    assert state.to_dict()["won"] == [["K1"], []]


def test_eligible_targets_need_attack_above_defence(make):
    # Britain's bunker (d9) cannot be targeted by a tank (G7); its infantry (d3) can.
    state = setup(
        new_state(make),
        G_DRAW,
        ["B2", "B10", "B4", "B5", "B7", "B8"],
        G_DEPLOY,
        ["B2", "B10", "B4"],
    )
    act(state, "pass", "K1", "fight")
    assert state.to_dict()["battle"]["unit"] == "G1"
    assert legal_strings(state) == {"fire B2"}


def test_a_unit_without_eligible_target_is_skipped(make):
    # Germany: tank vs Britain's bunker only. The tank cannot hurt it, the bunker cannot shoot:
    # stalemate before any shot, the defender wins.
    state = setup(
        new_state(make),
        G_DRAW,
        ["B10", "B2", "B4", "B5", "B7", "B8"],
        ["G1", "G4", "G7"],
        ["B10", "B4", "B7"],
    )
    act(state, "pass", "K1", "fight")
    snap = state.to_dict()
    assert snap["won"] == [[], ["K1"]] and state.scores() == [0.0, 2.0]
    assert snap["drawing_player"] == 1
    # Both units survive and stay face up in their stacks.
    assert face_up(state, 0) == {"G1"} and face_up(state, 1) == {"B10"}


def test_support_adds_to_other_units_only(make):
    # Germany's staff (ground +1 attack) makes the tank G8: an 8 now hits the British tank.
    state = setup(new_state(make), G_DRAW, B_DRAW, ["G1", "G9", "G4"], B_DEPLOY)
    act(state, "pass", "K1", "fight")
    assert state.to_dict()["battle"]["unit"] == "G1"
    act(state, "fire B1", flip_card(8, state))
    assert state.to_dict()["won"] == [["K1"], []]


def test_support_does_not_apply_to_itself(make):
    # The staff (G1, support +1 ground attack) against a militia of defence 1: with its own
    # support it would have a target (2 > 1); without it neither side can hit: stalemate.
    british = rules_set()["british"]
    british[1] = unit("B2", "ground", 1, 0, 0, 1, 4)
    cards = custom(british=british)
    state = setup(
        new_state(make, cards=cards), G_DRAW, B_DRAW, ["G9", "G4", "G7"], ["B2", "B4", "B7"]
    )
    act(state, "pass", "K1", "fight")
    assert state.to_dict()["won"] == [[], ["K1"]]


def test_withdrawn_units_give_no_support(make):
    state = setup(new_state(make), G_DRAW, B_DRAW, ["G1", "G9", "G4"], B_DEPLOY)
    act(state, "pass", "K1", "fight", "fire B1", flip_card(3, state))  # tank G8 misses
    act(state, "fire G1", flip_card(3, state))  # Britain's tank misses
    assert state.to_dict()["phase"] == "withdraw"
    act(state, "withdraw G9", "pass", "pass")
    # Round 2: without the staff the tank is G7 again, and an 8 misses.
    assert state.to_dict()["battle"]["unit"] == "G1"
    act(state, "fire B1", flip_card(8, state))
    assert state.to_dict()["won"] == [[], []]


def test_radar_support_raises_air_defence(make):
    # Air battle K2 (British aggressor): Britain's fighter (A7) against Germany's fighter (d4)
    # with radar support (+1 defence, d5): a 5 misses, a 6 hits.
    for number, hit in ((5, False), (6, True)):
        state = setup(
            new_state(make),
            ["G4", "G6", "G1", "G2", "G3", "G7"],
            B_DRAW,
            ["G4", "G6", "G1"],
            ["B4", "B1", "B7"],
        )
        act(state, "pass", "K18", "pass", "K2", "fight")
        snap = state.to_dict()
        # Phase 1: Britain's fighter fires first (aggressor); German radar has no attack.
        assert snap["battle"]["unit"] == "B4" and legal_strings(state) == {"fire G4", "fire G6"}
        act(state, "fire G4", flip_card(number, state))
        assert ("G4" in state.to_dict()["arsenal_discard"][0]) == hit


# --------------------------------------------------------------------------------------------
# Withdrawal, stalemate, round limit, deciding a battle
# --------------------------------------------------------------------------------------------


# Action numbers that miss every shot of these tests: no defence is below 3 and no attack score
# is above 7 (without bonuses).
MISSES = (1, 2, 3, 8, 9, 10)


def miss(state):
    """A conflict card in the deck whose action number misses."""
    for number in MISSES:
        try:
            return flip_card(number, state)
        except AssertionError:
            continue
    raise AssertionError("no missing card left in the conflict deck")


def to_withdrawal(state):
    """Every unit of the current round fires at its first target and misses."""
    while state.to_dict()["phase"] in ("fire", "flip"):
        if state.is_chance_node():
            act(state, miss(state))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_withdrawal_phase_aggressor_then_defender(make):
    state = to_withdrawal(land_battle(make))
    snap = state.to_dict()
    assert snap["phase"] == "withdraw" and snap["battle"]["withdrawing"] == 0
    assert legal_strings(state) == {"pass", "withdraw G1", "withdraw G2"}
    act(state, "withdraw G2")
    snap = state.to_dict()
    assert snap["battle"]["taking_part"][0] == ["G1"] and snap["battle"]["withdrawn"][0] == ["G2"]
    assert legal_strings(state) == {"pass", "withdraw G1"}
    act(state, "pass")
    assert state.to_dict()["battle"]["withdrawing"] == 1 and state.current_player() == 1
    act(state, "pass")
    snap = state.to_dict()
    assert snap["battle"]["round"] == 2 and snap["battle"]["unit"] == "G1"
    # The withdrawn infantry stays face up in its stack.
    assert "G2" in stack_ids(state, 0, "ground") and "G2" in face_up(state, 0)


def test_aggressor_withdrawing_everything_loses_at_once(make):
    state = to_withdrawal(land_battle(make))
    act(state, "withdraw G1", "withdraw G2")
    snap = state.to_dict()
    assert snap["won"] == [[], ["K1"]] and snap["battle"] is None
    assert stack_ids(state, 0, "ground") == ["G1", "G2"]


def test_defender_withdrawing_everything_loses(make):
    state = to_withdrawal(land_battle(make))
    act(state, "pass", "withdraw B1")
    assert state.to_dict()["won"] == [["K1"], []]


def test_offensive_stalls_after_four_rounds(make):
    state = land_battle(make)
    for expected_round in (1, 2, 3, 4):
        assert state.to_dict()["battle"]["round"] == expected_round
        to_withdrawal(state)
        act(state, "pass", "pass")
    snap = state.to_dict()
    assert snap["won"] == [[], ["K1"]] and state.scores() == [0.0, 2.0]


def test_decisive_types_and_aftermath(make):
    # K3: German aggressor, air and sea fight, only sea is decisive, the loser's air is lost.
    state = setup(
        new_state(make),
        ["G4", "G8", "G1", "G2", "G3", "G7"],
        B_DRAW,
        ["G4", "G8", "G1"],
        ["B5", "B7", "B1"],
    )
    act(state, "pass", "K3", "fight")
    snap = state.to_dict()
    assert snap["battle"]["taking_part"] == [["G4", "G8"], ["B5", "B7"]]
    # Phase 1: Germany's fighter shoots at the bomber (d3) and misses.
    assert snap["battle"]["unit"] == "G4" and legal_strings(state) == {"fire B5"}
    act(state, "fire B5", flip_card(2, state))
    # Phase 2: Britain's battleship sinks the submarine (d2) with a 3.
    assert state.to_dict()["battle"]["unit"] == "B7"
    act(state, "fire G8", flip_card(3, state))
    snap = state.to_dict()
    assert snap["won"] == [[], ["K3"]] and snap["battle"] is None
    # Germany still had its fighter, but lost the decisive sea units; the fighter is destroyed
    # in the aftermath.
    assert snap["arsenal_discard"][0] == ["G4", "G8"]
    assert stack_ids(state, 0, "air") == []


# --------------------------------------------------------------------------------------------
# Kept cards in the battle window
# --------------------------------------------------------------------------------------------


def test_combat_bonus_played_in_the_window(make):
    state = basic(make)
    act(state, "pass", "K6", "pass", "K16", "pass", "K1", "fight")
    snap = state.to_dict()
    assert snap["phase"] == "window" and snap["battle"]["window"] == 0
    assert state.legal_actions() == [PASS, PLAY + 5]
    act(state, "play K6")
    snap = state.to_dict()
    assert snap["battle"]["bonus"][0]["attack"]["ground"] == 2 and snap["kept"][0] == []
    assert "K6" in snap["conflict_discard"] and snap["battle"]["window"] is None
    # With the bonus the tank hits on a 9.
    act(state, "fire B1", flip_card(9, state))
    assert state.to_dict()["won"] == [["K1"], []]


def test_window_order_and_reinforcement(make):
    state = basic(make)
    # Germany keeps K6; Britain keeps K7 (reinforce 2).
    act(state, "pass", "K6", "pass", "K7", "pass", "K1", "fight")
    assert state.to_dict()["battle"]["window"] == 0
    act(state, "pass")
    snap = state.to_dict()
    assert snap["battle"]["window"] == 1 and state.current_player() == 1
    assert legal_strings(state) == {"pass", "play K7"}
    act(state, "play K7")
    snap = state.to_dict()
    assert snap["phase"] == "reinforce" and snap["left"] == 2
    # Only reserve cards of a fighting type (ground): the infantry.
    assert legal_strings(state) == {"pass", "deploy B2"}
    act(state, "deploy B2")
    snap = state.to_dict()
    assert snap["battle"]["taking_part"][1] == ["B1", "B2"] and "B2" in face_up(state, 1)
    # One more reinforcement is allowed while the reserve is not empty, even if no card fits.
    assert snap["phase"] == "reinforce" and snap["left"] == 1
    assert legal_strings(state) == {"pass"}
    act(state, "pass")
    snap = state.to_dict()
    # Britain has no kept card left: the window closes and round 1 begins.
    assert snap["phase"] == "fire" and snap["battle"]["round"] == 1 and snap["left"] == 0


def test_reinforce_needs_a_reserve_card(make):
    state = basic(make)
    act(state, "pass", "K7", "pass", "K16", "deploy G3", "K9", "deploy G7", "deploy G9")
    assert state.to_dict()["reserve"][0] == []
    act(state, "pass", "K17", "K1", "fight")
    assert state.to_dict()["phase"] == "window"
    assert state.legal_actions() == [PASS]


# --------------------------------------------------------------------------------------------
# Homeland, cancelled battles, end of the game
# --------------------------------------------------------------------------------------------


def win_k1_for(state, winner):
    """From a German turn start with the standard setup: K1 is fought and won by ``winner``."""
    act(state, "pass", "K1", "fight", "fire B1")
    if winner == 0:
        act(state, flip_card(6, state))
    else:
        to_withdrawal(state)
        act(state, "withdraw G1", "withdraw G2")
    assert state.to_dict()["won"][winner] == ["K1"]
    return state


def test_homeland_battle_won_by_aggressor_ends_the_game(make):
    state = win_k1_for(basic(make), 0)
    # K4: ground and sea, German homeland invasion. Britain: battleship only on sea, tank gone.
    act(state, "pass", "K16", "deploy G7", "K4", "fight")
    snap = state.to_dict()
    # Britain's tank was destroyed in K1; its battleship defends alone. Germany's tank and
    # infantry cannot attack a ship, its battleship can (S8 against d6) and fires in phase 2.
    assert snap["battle"]["taking_part"] == [["G1", "G2", "G7"], ["B7"]]
    assert snap["battle"]["unit"] == "G7" and legal_strings(state) == {"fire B7"}
    act(state, "fire B7", flip_card(7, state))
    assert state.returns() == [1.0, -1.0]
    snap = state.to_dict()
    assert snap["end_reason"] == "homeland" and snap["winner"] == 0
    assert snap["phase"] == "terminal" and state.current_player() == -4
    assert state.scores() == [7.0, 1.0]


def test_homeland_battle_won_by_defender_continues(make):
    state = win_k1_for(basic(make), 0)
    act(state, "pass", "K4", "fight")
    to_withdrawal(state)
    act(state, "withdraw G1", "withdraw G2")
    snap = state.to_dict()
    assert not state.is_terminal() and snap["won"] == [["K1"], ["K4"]]
    assert state.scores() == [2.0, 5.0]


def test_dead_prerequisites_cancel_battles_in_a_chain(make):
    state = win_k1_for(basic(make), 1)
    snap = state.to_dict()
    # K4 needed K1 won by Germany; K5 needed K4 won by anybody.
    assert snap["cancelled"] == ["K4", "K5"]
    assert "K4" not in snap["conflict_deck"] and "K5" not in snap["conflict_deck"]
    assert not state.is_terminal()


def test_game_ends_when_every_battle_is_resolved(make):
    cards = custom(conflict=conflict_cards("K1", "K16"))
    state = setup(new_state(make, cards=cards), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K1", "fight", "fire B1", "K16")
    # K16 has action number 6: 4 < 6 <= 7, a hit; K1 was the only battle.
    snap = state.to_dict()
    assert state.is_terminal() and snap["end_reason"] == "battles" and snap["winner"] == 0
    assert state.returns() == [1.0, -1.0]


def test_more_victory_points_win_at_the_end(make):
    cards = custom(conflict=conflict_cards("K1", "K13", "K16"))
    state = setup(new_state(make, cards=cards), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K16", "pass", "K13")  # Germany +1, Britain +2
    act(state, "pass", "K1", "decline")
    act(state, "pass")  # Britain: the deck is empty and is refilled from the discard pile
    assert sorted(state.to_dict()["conflict_deck"]) == ["K1", "K13", "K16"]
    act(state, "K16")  # Britain +1: 1 - 3
    act(state, "pass", "K1", "fight", "fire B1", "K13")  # 3 does not hit the tank (d4)
    act(state, "fire G2", "K16")  # Britain's tank (G7) hits the infantry (d3) with a 6
    assert state.to_dict()["phase"] == "withdraw"
    act(state, "withdraw G1")
    snap = state.to_dict()
    assert state.is_terminal() and snap["end_reason"] == "battles"
    assert state.scores() == [1.0, 5.0] and state.returns() == [-1.0, 1.0]


def test_draw_on_equal_points(make):
    cards = custom(conflict=conflict_cards("K1", "K13"))
    state = setup(new_state(make, cards=cards), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K13")  # Germany +2
    act(state, "pass", "K1", "fight", "fire B1")  # Britain draws K1; Germany fights
    act(state, "K13")  # the discard pile was refilled into the deck; 3 misses
    act(state, "fire G1", "K13")  # Britain's tank misses too
    act(state, "fire B1", "K13")  # and Germany's infantry
    act(state, "pass", "withdraw B1")  # Britain gives up: Germany +2, 4 - 0
    assert state.is_terminal() and state.scores() == [4.0, 0.0]
    cards = custom(conflict=conflict_cards("K1", "K13"))
    state = setup(new_state(make, cards=cards), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K1", "decline", "pass", "K13")  # Britain +2
    act(state, "pass", "K1", "fight", "fire B1", "K13", "fire G1", "K13", "fire B1", "K13")
    act(state, "pass", "withdraw B1")
    snap = state.to_dict()
    assert state.is_terminal() and state.scores() == [2.0, 2.0]
    assert snap["winner"] is None and state.returns() == [0.0, 0.0]


def test_max_turns_is_a_draw(make):
    state = setup(new_state(make, max_turns=2), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K16", "pass", "K13")
    snap = state.to_dict()
    assert state.is_terminal() and snap["end_reason"] == "max_turns" and snap["turn"] == 2
    assert state.returns() == [0.0, 0.0] and state.scores() == [1.0, 2.0]
    assert snap["drawing_player"] == 1 and state.legal_actions() == []


# --------------------------------------------------------------------------------------------
# Decks and reshuffles
# --------------------------------------------------------------------------------------------


def test_arsenal_draw_skipped_then_refilled_from_the_discard(make):
    six = lambda p: [c for c in rules_set()[p][:6]]  # noqa: E731
    cards = custom(
        conflict=conflict_cards("K1", "K8", "K10"), german=six("german"), british=six("british")
    )
    state = setup(
        new_state(make, cards=cards),
        ["G1", "G2", "G3", "G4", "G5", "G6"],
        ["B1", "B2", "B3", "B4", "B5", "B6"],
        ["G1", "G2", "G4"],
        ["B1", "B2", "B4"],
    )
    act(state, "pass", "K8")  # both Germany's deck and discard are empty: nothing drawn
    snap = state.to_dict()
    assert snap["drawing_player"] == 1 and snap["reserve"][0] == ["G3", "G5", "G6"]
    act(state, "pass", "K10", "G3")  # Britain's card: Germany discards the flak
    act(state, "pass", "K1", "decline")
    act(state, "pass")  # Britain: conflict deck refilled
    act(state, "K1", "decline")
    act(state, "pass", "K8")
    snap = state.to_dict()
    assert snap["phase"] == "effect_draw" and snap["arsenal_discard"][0] == []
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["G3"]
    act(state, "G3")
    snap = state.to_dict()
    assert snap["drawing_player"] == 1 and "G3" in snap["reserve"][0]


def test_flip_refills_an_empty_conflict_deck(make):
    cards = custom(conflict=conflict_cards("K1", "K16", "K17"))
    state = setup(new_state(make, cards=cards), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    act(state, "pass", "K16", "pass", "K17", "pass", "K1", "fight")
    assert state.to_dict()["conflict_deck"] == []
    act(state, "fire B1")
    snap = state.to_dict()
    assert snap["conflict_deck"] == ["K16", "K17"] and snap["conflict_discard"] == []


# --------------------------------------------------------------------------------------------
# Actions, strings, snapshot, errors
# --------------------------------------------------------------------------------------------


def test_action_strings_round_trip(make):
    state = basic(make)
    for action, text in [
        (PASS, "pass"),
        (FIGHT, "fight"),
        (DECLINE, "decline"),
        (DEPLOY + 6, "deploy G7"),
        (DEPLOY + 128 + 9, "deploy B10"),
        (FIRE + 128, "fire B1"),
        (WITHDRAW + 2, "withdraw G3"),
        (PLAY + 19, "play K20"),
    ]:
        assert state.action_to_string(action) == text
        assert state.string_to_action(text) == action


def test_chance_outcome_strings_round_trip(make):
    german_deal = new_state(make)
    british_deal = act(new_state(make), *G_DRAW)
    conflict_draw = act(basic(make), "pass")
    for state, outcome, text in [
        (german_deal, 3, "G4"),
        (british_deal, 3, "B4"),
        (british_deal, 9, "B10"),
        (conflict_draw, 0, "K1"),
        (conflict_draw, 19, "K20"),
    ]:
        assert state.is_chance_node()
        assert state.action_to_string(outcome) == text
        assert state.string_to_action(text) == outcome
    for state, text in [
        (german_deal, "B4"),
        (german_deal, "K1"),
        (british_deal, "G4"),
        (conflict_draw, "G4"),
        (conflict_draw, "pass"),
    ]:
        with pytest.raises(ValueError):
            state.string_to_action(text)
    for state, outcome in [(german_deal, 10), (german_deal, -1), (conflict_draw, 20)]:
        with pytest.raises(ValueError):
            state.action_to_string(outcome)


@pytest.mark.parametrize(
    "text", ["deploy", "deploy K1", "fire  B1", "play G1", "G99", "G4", "K1", "Pass", ""]
)
def test_bad_action_strings(make, text):
    state = basic(make)
    with pytest.raises(ValueError):
        state.string_to_action(text)


@pytest.mark.parametrize(
    "action", [-1, NUM_DISTINCT_ACTIONS, DEPLOY + 10, DEPLOY + 128 + 10, PLAY + 20]
)
def test_action_ids_outside_the_set(make, action):
    with pytest.raises(ValueError):
        basic(make).action_to_string(action)


def test_illegal_action_leaves_the_state_unchanged(make):
    state = basic(make)
    before = state.to_dict()
    for bad in (FIGHT, DEPLOY + 0, FIRE + 128, 5000):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert state.to_dict() == before


def test_snapshot_schema(make):
    state = land_battle(make)
    snap = state.to_dict()
    assert set(snap) == SNAPSHOT_KEYS
    assert snap["sides"] == ["germany", "britain"]
    assert json.loads(json.dumps(snap)) == snap
    assert snap["battle"]["bonus"][1] == {
        "attack": {"ground": 0, "air": 0, "sea": 0},
        "defence": {"ground": 0, "air": 0, "sea": 0},
    }
    assert snap["scores"] == snap["vp"]


def test_observation_tensor_layout(make):
    state = land_battle(make)
    game_obs = state.observation_tensor(0)
    assert game_obs.dtype == np.float32 and game_obs.shape == (366,)
    o = 9 * 20 + 6 * 20
    # Germany's G1: face up, taking part, the firing unit.
    assert list(game_obs[0:9]) == [0, 0, 0, 1, 1, 0, 0, 1, 0]
    # Germany's G3 is in its reserve (flag 1); Germany's G4 face down in the air stack.
    assert game_obs[9 * 2 + 1] == 1 and game_obs[9 * 3 + 2] == 1
    # Britain's B4 is face down: hidden from Germany, all zero.
    assert list(game_obs[9 * 10 + 9 * 3 : 9 * 10 + 9 * 4]) == [0] * 9
    # Conflict K1 is the current card.
    assert game_obs[9 * 20 + 5] == 1
    assert list(game_obs[o : o + 9]) == [4, 0, 3, 0, 1, 0, 0, 0, 0]
    assert list(game_obs[o + 9 : o + 18]) == [4, 0, 3, 0, 1, 1, 0, 0, 0]
    assert game_obs[o + 18] == 19 and game_obs[o + 19] == 1 and game_obs[o + 20] == 0
    assert game_obs[o + 21 + 11] == 1  # phase fire
    assert game_obs[o + 36] == 1 and game_obs[o + 37] == 0
    assert game_obs[o + 38] == 1 and game_obs[o + 39] == 1 and game_obs[o + 41] == 1
    assert game_obs[o + 42] == 3 and game_obs[o + 43] == 1 and game_obs[o + 65] == 1
    other = state.observation_tensor(1)
    assert other[o + 19] == 0 and other[o + 37] == 1 and other[o + 40] == 1
    # From Britain's view Germany's reserve and face-down cards are hidden.
    assert other[9 * 10 + 9 * 2 + 1] == 0 and other[9 * 10 + 9 * 3 + 2] == 0


# --------------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------------


def test_information_state_masks_hidden_actions(make):
    state = basic(make)
    lines = state.information_state_string(1).split("\n")
    assert lines[0] == "seat 1 britain"
    assert lines[1:7] == ["chance ?"] * 6
    assert lines[7:13] == [f"chance {c}" for c in B_DRAW]
    assert lines[13:16] == [
        "germany deploy ? (ground)",
        "germany deploy ? (ground)",
        "germany deploy ? (air)",
    ]
    assert lines[16:19] == [f"britain deploy {c}" for c in B_DEPLOY]
    own = state.information_state_string(0).split("\n")
    assert own[0] == "seat 0 germany" and own[1:7] == [f"chance {c}" for c in G_DRAW]
    assert own[16:19] == [
        "britain deploy ? (ground)",
        "britain deploy ? (air)",
        "britain deploy ? (sea)",
    ]


def test_hidden_cards_do_not_change_the_observation(make):
    one = setup(new_state(make), G_DRAW, B_DRAW, G_DEPLOY, B_DEPLOY)
    two = setup(
        new_state(make),
        ["G2", "G1", "G5", "G6", "G8", "G10"],
        B_DRAW,
        ["G2", "G10", "G6"],
        B_DEPLOY,
    )
    act(one, "deploy G7")
    act(two, "deploy G8")
    assert one.to_dict() != two.to_dict()
    assert np.array_equal(one.observation_tensor(1), two.observation_tensor(1))
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.observation_string(1) == two.observation_string(1)
    assert not np.array_equal(one.observation_tensor(0), two.observation_tensor(0))
    assert one.information_state_string(0) != two.information_state_string(0)


def test_kept_card_identity_is_hidden(make):
    one = basic(make)
    two = basic(make)
    act(one, "pass", "K6")
    act(two, "pass", "K7")
    assert np.array_equal(one.observation_tensor(1), two.observation_tensor(1))
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.information_state_string(0) != two.information_state_string(0)


def test_resample_keeps_the_information_state(make):
    state = basic(make)
    act(state, "deploy G3", "K8", "G5", "G10", "pass", "K6", "pass", "K9", "deploy G10", "pass")
    snapshots = set()
    for seed in range(12):
        for p in (0, 1):
            other = state.resample_from_infostate(p, seed)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
            assert other.current_player() == state.current_player()
            assert len(other.history()) == len(state.history())
            if p == 1:
                snapshots.add(json.dumps(other.to_dict(), sort_keys=True))
        # The same seed gives the same state.
        again = state.resample_from_infostate(1, seed)
        assert again.to_dict() == state.resample_from_infostate(1, seed).to_dict()
    # Germany's hidden cards (reserve, face-down stacks) really are resampled.
    assert len(snapshots) > 1
    # Britain's own cards never change.
    for text in snapshots:
        snap = json.loads(text)
        assert snap["reserve"][1] == state.to_dict()["reserve"][1]
        assert snap["stacks"][1] == state.to_dict()["stacks"][1]
        # Face-down cards keep their stack type.
        for kind in ("ground", "air", "sea"):
            assert len(snap["stacks"][0][kind]) == len(state.to_dict()["stacks"][0][kind])


def test_resample_keeps_seen_cards(make):
    # After the land battle flip, G1 and G2 have been seen by Britain: they stay put.
    state = land_battle(make)
    for seed in range(8):
        snap = state.resample_from_infostate(1, seed).to_dict()
        assert [c["id"] for c in snap["stacks"][0]["ground"]] == ["G1", "G2"]
        assert len(snap["stacks"][0]["air"]) == 1


def test_resample_is_the_same_in_engine_and_reference():
    import rivals
    from rivals import reference

    actions = []
    oracle = reference.make("battlecards").new_initial_state()
    import random

    rng = random.Random(7)
    while len(actions) < 150 and not oracle.is_terminal():
        action = rng.choice(oracle.legal_actions())
        oracle.apply_action(action)
        actions.append(action)
    assert len(actions) == 150, "the random game ended before the position to resample"
    engine = rivals.make("battlecards").new_initial_state()
    for action in actions:
        engine.apply_action(action)
    for p in (0, 1):
        for seed in (0, 1, 99):
            assert (
                engine.resample_from_infostate(p, seed).to_dict()
                == oracle.resample_from_infostate(p, seed).to_dict()
            )


# --------------------------------------------------------------------------------------------
# Card sets: validation errors and expansions
# --------------------------------------------------------------------------------------------


def broken(path, value):
    cards = rules_set()
    target = cards
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return cards


# (entry changed, its new value, where the engine's message points, words of the reference's)
CARD_SET_ERRORS = [
    (("german", 2, "phase"), 7, "german[2].phase must be an int 1-4, got 7", ["G3", "phase"]),
    (("german", 3, "type"), "space", "german[3].type must be one of", ["G4", "type"]),
    (
        ("british", 0, "attack"),
        {"ground": 1, "air": 2},
        "british[0].attack.sea is missing",
        ["B1", "attack"],
    ),
    (("british", 1, "defence"), -1, "british[1].defence must be an int 0-20", ["B2", "defence"]),
    (("british", 1, "colour"), "red", "british[1] has an unknown key 'colour'", ["B2", "colour"]),
    (("conflict", 0, "vp"), KeyError, "conflict[0].vp is missing", ["K1", "vp"]),
    (
        ("conflict", 0, "aggressor"),
        "french",
        "conflict[0].aggressor must be one of",
        ["K1", "aggressor"],
    ),
    (
        ("conflict", 2, "decisive"),
        ["ground"],
        "conflict[2].decisive must be a subset",
        ["K3", "decisive"],
    ),
    (
        ("conflict", 3, "prerequisites"),
        [{"battle": "K99", "won_by": "aggressor"}],
        'conflict[3].prerequisites[0].battle must be another battle of the set, got "K99"',
        ["K4", "prerequisites"],
    ),
    (
        ("conflict", 4, "action"),
        0,
        "conflict[4].action must be an int 1-20, got 0",
        ["K5", "action"],
    ),
    (
        ("conflict", 5, "effect"),
        {"type": "reinforce", "count": 0},
        "conflict[5].effect.count must be an int 1-10, got 0",
        ["K6", "count"],
    ),
    (
        ("conflict", 7, "effects"),
        [{"type": "deploy", "who": "drawer", "count": 1}],
        'conflict[7].effects[0].type must be "draw"',
        ["K8", "effects"],
    ),
    (
        ("conflict", 8, "effects"),
        [{"type": "deploy", "who": "nobody", "count": 1}],
        "conflict[8].effects[0].who must be one of",
        ["K9", "who"],
    ),
    (("conflict", 9, "kind"), "treaty", "conflict[9].kind must be one of", ["K10", "kind"]),
    (("german", 4, "id"), "G1", 'german[4].id "G1" is already the id of german[0]', ["G1", "id"]),
    (("german", 4, "id"), "Gx", "german[4].id must be 1-16 letters", ["Gx", "id"]),
    (
        ("battle_list", "battles"),
        ["K1", "K2"],
        "battle_list.battles must list every battle card of the set exactly once",
        ["K0", "battles"],
    ),
    (("format",), "rivals-sekigahara-cards", 'format must be "rivals-battlecards-set"', ["format"]),
    (("version",), 2, "version must be 1, got 2", ["version"]),
]


@pytest.mark.parametrize(("path", "value", "where", "words"), CARD_SET_ERRORS)
def test_card_set_validation_names_card_and_key(make, path, value, where, words):
    with pytest.raises(ValueError) as info:
        make("battlecards", cards=broken(path, value))
    message = str(info.value)
    if make is rivals.make:
        assert message.startswith(f"battlecards: cards object: {where}"), message
    else:
        for word in words:
            assert word in message, message


def test_prerequisite_cycle_is_rejected(make):
    cards = rules_set()
    cards["conflict"][0]["prerequisites"] = [{"battle": "K5", "won_by": "either"}]
    with pytest.raises(ValueError, match="cycle"):
        make("battlecards", cards=cards)


def test_set_needs_a_plain_conflict_card_and_enough_arsenal(make):
    with pytest.raises(ValueError, match="conflict"):
        make("battlecards", cards=custom(conflict=conflict_cards("K1", "K6")))
    with pytest.raises(ValueError, match="german"):
        make("battlecards", cards=custom(german=rules_set()["german"][:5]))


def test_unreadable_card_files(make, tmp_path):
    with pytest.raises(ValueError, match=r"nope\.json"):
        make("battlecards", cards=str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json"):
        make("battlecards", cards=str(bad))


def expansion(**lists):
    data = {"format": "rivals-battlecards-expansion", "version": 1, "name": "test pack"}
    data.update(lists)
    return data


def leader(cid, name):
    return unit(
        cid,
        "ground",
        2,
        0,
        0,
        4,
        3,
        leader=True,
        name=name,
        support={"types": ["ground"], "attack": 1, "defence": 0},
    )


def test_expansion_cards_are_appended(make):
    pack = expansion(
        german=[unit("GX1", "sea", 0, 0, 6, 3, 4)],
        british=[unit("BX1", "air", 1, 6, 0, 4, 1)],
        conflict=[battle_card("KX1")],
    )
    game = make("battlecards", cards=rules_set(), expansions=[pack])
    assert game.params["expansions"] == [pack]
    assert tuple(game.observation_shape) == (9 * 22 + 6 * 21 + 66,)
    state = game.new_initial_state()
    # The German pack card has index 10: its chance outcome follows G10.
    assert state.action_to_string(10) == "GX1"
    act(state, *G_DRAW)
    assert state.action_to_string(10) == "BX1"
    act(state, *B_DRAW, *(f"deploy {c}" for c in G_DEPLOY + B_DEPLOY), "pass")
    assert state.to_dict()["phase"] == "conflict_draw"
    assert state.action_to_string(20) == "KX1"


def battle_card(cid):
    return {
        "id": cid,
        "name": "Battle of the Bulge",
        "action": 6,
        "kind": "battle",
        "aggressor": "german",
        "types": ["ground", "air"],
        "vp": 2,
    }


def test_leaders_at_most_once_per_arsenal(make):
    first = expansion(
        german=[leader("GL1", "Erwin Rommel")], british=[leader("BL1", "Erwin Rommel")]
    )
    second = expansion(german=[leader("GL2", "Erwin Rommel"), unit("GX2", "ground", 6, 0, 0, 4, 3)])
    game = make("battlecards", cards=rules_set(), expansions=[first, second])
    # 10 + GL1 + GX2 German cards (GL2 skipped), 10 + BL1 British (another arsenal: allowed).
    assert tuple(game.observation_shape) == (9 * 23 + 6 * 20 + 66,)
    state = game.new_initial_state()
    assert state.action_to_string(10) == "GL1"
    assert state.action_to_string(11) == "GX2"
    with pytest.raises(ValueError):
        state.string_to_action("GL2")
    # The very same pack twice: its leader is skipped, no id clash for it.
    game = make("battlecards", cards=rules_set(), expansions=[first, first])
    assert tuple(game.observation_shape) == (9 * 22 + 6 * 20 + 66,)


def test_expansion_id_clash_and_duplicate_leader_in_one_file(make):
    with pytest.raises(ValueError) as info:
        make(
            "battlecards",
            cards=rules_set(),
            expansions=[expansion(german=[unit("B3", "sea", 0, 0, 6, 3, 4)])],
        )
    assert "B3" in str(info.value) and "id" in str(info.value)
    cards = rules_set()
    cards["german"] += [leader("GL1", "Erwin Rommel"), leader("GL2", "Erwin Rommel")]
    with pytest.raises(ValueError) as info:
        make("battlecards", cards=cards)
    assert "GL2" in str(info.value) and "leader" in str(info.value)
    with pytest.raises(ValueError, match="phase"):
        make(
            "battlecards",
            cards=rules_set(),
            expansions=[expansion(german=[unit("GX1", "sea", 0, 0, 6, 3, 9)])],
        )


def test_shipped_set_and_commanders_pack(make):
    path = str(resources.files("rivals.data").joinpath("battlecards_commanders.json"))
    game = make("battlecards", expansions=[path])
    # 47 + 8 per side, 49 + 4 conflict cards.
    assert tuple(game.observation_shape) == (9 * 110 + 6 * 53 + 66,)
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 55
    assert state.string_to_action("GX1") == 47


def test_shipped_set_contents():
    data = json.loads(
        resources.files("rivals.data").joinpath("battlecards.json").read_text("utf-8")
    )
    assert len(data["conflict"]) + 1 == 50
    assert len(data["german"]) == 47 and len(data["british"]) == 47
    kinds = [c["kind"] for c in data["conflict"]]
    assert kinds.count("battle") == len(data["battle_list"]["battles"]) == 16

    # The battle list mirrors itself: same types, decisive types, VP, prerequisites, aftermath.
    def shape(card):
        return (
            tuple(card["types"]),
            tuple(card.get("decisive", card["types"])),
            card["vp"],
            card.get("homeland", False),
            tuple(p["won_by"] for p in card.get("prerequisites", [])),
            tuple(card.get("loser_destroyed", [])),
        )

    shapes = {}
    for side in ("german", "british"):
        mine = [c for c in data["conflict"] if c["kind"] == "battle" and c["aggressor"] == side]
        assert len(mine) == 8 and sum(c["vp"] for c in mine) == 19
        shapes[side] = sorted(shape(c) for c in mine)
    assert shapes["german"] == shapes["british"]
    # Symmetric strength: the same unit types and phases and the same summed attack and defence.
    for key in ("type", "phase"):
        assert sorted(c[key] for c in data["german"]) == sorted(c[key] for c in data["british"])
    total = {
        side: sum(sum(c["attack"].values()) + c["defence"] for c in data[side])
        for side in ("german", "british")
    }
    assert total["german"] == total["british"]
