"""Rules tests for Verräter, from docs/rules/verraeter.md and the rulebook. One module on purpose,
long as the rules are: it is read beside the rules page, rule by rule.

Every test takes the ``make`` fixture (tests/conftest.py) and so runs on the pure-Python
reference and on the engine. Positions are built by applying actions; the ring, the set-aside
card and every draw are chance outcomes chosen explicitly.

Unless a test says otherwise: four players, the alternating ring ``ALT_RING`` (even positions
eagle, odd rose) and seat ``s``'s estate below ring position ``s``. Seats 0 and 2 are eagle,
1 and 3 rose; seat 0 starts, seat 1 holds the strategist card.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from .helpers import (
    ALT_RING,
    BLOCK_RING,
    CARDS,
    CONFLICT_VALUE,
    DECK,
    VP_TABLE,
    act,
    draft,
    finish,
    legal_strings,
    new_game,
    play_round,
    resampled_alike,
    seat_one_to_draw,
    supply,
    views,
)

SNAPSHOT_KEYS = {
    "houses",
    "ring",
    "conflict",
    "vp",
    "round",
    "start_player",
    "strategist",
    "hands",
    "played",
    "actions",
    "phase",
    "current_player",
    "aside",
    "pool",
    "draw_queue",
    "draw_pile",
    "discard",
}


def houses(state):
    return state.to_dict()["houses"]


def ring_houses(state):
    return [land["house"] for land in state.to_dict()["ring"]]


def shipped_cards():
    return json.loads(resources.files("rivals.data").joinpath("verraeter.json").read_text("utf-8"))


# --------------------------------------------------------------------------------------------
# Game object and parameters
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "length", "shape"), [(4, 8, 520, (277,)), (3, 6, 315, (245,))]
)
def test_game_attributes(make, players, rounds, length, shape):
    game = make("verraeter", players=players)
    assert game.name == "verraeter"
    assert game.params == {"players": players, "rounds": rounds, "cards": None}
    assert game.num_players == players
    assert game.num_distinct_actions == 56
    assert game.max_chance_outcomes == 12
    assert game.max_game_length == length
    assert tuple(game.observation_shape) == shape


def test_defaults_and_rounds(make):
    assert make("verraeter").params == {"players": 4, "rounds": 8, "cards": None}
    game = make("verraeter", players=3, rounds=2)
    assert game.params["rounds"] == 2
    # 12 ring outcomes, 3 estates, per round 3 + 7n + 2 * (3n + 4 draws).
    assert game.max_game_length == 12 + 3 + 2 * (3 + 21 + 26)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"players": 2}, "players"),
        ({"players": 5}, "players"),
        ({"players": "4"}, "players"),
        ({"players": True}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 51}, "rounds"),
        ({"rounds": "8"}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"cards": 5}, "cards"),
        ({"seed": 1}, "seed"),
    ],
)
def test_bad_parameters(make, params, name):
    with pytest.raises(ValueError, match=name):
        make("verraeter", **params)


def test_bad_card_files(make, tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(ValueError):
        make("verraeter", cards=str(missing))
    data = shipped_cards()
    data["format"] = "something-else"
    path = tmp_path / "format.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError):
        make("verraeter", cards=str(path))
    data = shipped_cards()
    data["landscapes"][0]["conflict"] = 1  # the two Ödnis copies disagree
    path = tmp_path / "copies.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError):
        make("verraeter", cards=str(path))


def test_card_file_numbers_are_used(make, tmp_path):
    data = shipped_cards()
    for land in data["landscapes"]:
        if land["type"] == "Stadt":
            land["vp"] = [20, 10, 7, 5]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    state = new_game(make, cards=str(path))
    picks = {0: "Baumeister", 1: "Stratege", 2: "Bauer", 3: "Diplomat2"}
    draft(state, 0, "Verraeter", picks)
    supply(state, {0: [4]})
    # Eagle 15 + 4 = 19 beats rose 15 + 2 (Diplomat 2): the file's 2-winner Stadt entry, 10.
    assert state.to_dict()["vp"] == [10, 2, 10, 0]


# --------------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------------


def test_ring_is_laid_by_chance_nodes(make):
    state = make("verraeter").new_initial_state()
    assert state.is_chance_node()
    assert state.to_dict()["phase"] == "ring"
    assert state.to_dict()["ring"] == []
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 12
    assert all(p == pytest.approx(1 / 12) for _, p in outcomes)
    texts = sorted(state.action_to_string(a) for a, _ in outcomes)
    assert texts == sorted(f"{t} {h}" for t in CONFLICT_VALUE for h in ("eagle", "rose"))
    act(state, "Stadt rose")
    assert state.to_dict()["ring"] == [{"type": "Stadt", "house": "rose", "estate": None}]
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 11
    assert all(p == pytest.approx(1 / 11) for _, p in outcomes)
    assert "Stadt rose" not in legal_strings(state)
    assert "Stadt eagle" in legal_strings(state)
    assert state.string_to_action("Oednis eagle") == state.string_to_action("Ödnis eagle")
    with pytest.raises(ValueError):
        act(state, "Stadt rose")  # each landscape card is laid once


def test_estates_are_placed_in_seat_order_one_per_landscape(make):
    state = make("verraeter").new_initial_state()
    act(state, *ALT_RING)
    snap = state.to_dict()
    assert snap["phase"] == "estates"
    assert state.current_player() == 0
    assert legal_strings(state) == [f"build {i}" for i in range(12)]
    act(state, "build 5")
    assert state.current_player() == 1
    assert "build 5" not in legal_strings(state)
    assert len(state.legal_actions()) == 11
    before = state.to_dict()
    with pytest.raises(ValueError):
        act(state, "build 5")
    assert state.to_dict() == before
    act(state, "build 6", "build 7", "build 8")
    snap = state.to_dict()
    assert snap["ring"][5]["estate"] == {"owner": 0, "kontor": False}
    assert snap["ring"][8]["estate"] == {"owner": 3, "kontor": False}
    assert snap["phase"] == "conflict"
    assert state.current_player() == 1  # the strategist: left of the start player


@pytest.mark.parametrize("players", [3, 4])
def test_initial_table(make, players):
    state = new_game(make, players=players)
    snap = state.to_dict()
    assert set(snap) >= SNAPSHOT_KEYS
    assert snap["houses"] == ["eagle", "rose", "eagle", "rose"][:players]
    assert snap["hands"] == [[3, 4, 5]] * players
    pile = list(DECK)
    for _ in range(players):
        for value in (3, 4, 5):
            pile.remove(value)
    assert snap["draw_pile"] == pile
    assert snap["discard"] == []
    assert snap["vp"] == [0] * players
    assert snap["round"] == 0
    assert snap["start_player"] == 0
    assert snap["strategist"] == 1
    assert snap["conflict"] is None
    assert snap["actions"] == [None] * players
    assert snap["played"] == [[]] * players
    assert snap["current_player"] == 1
    assert [land["type"] for land in snap["ring"]] == [t.split()[0] for t in ALT_RING]


# --------------------------------------------------------------------------------------------
# Phase 1: the conflict site
# --------------------------------------------------------------------------------------------


def test_conflict_site_only_between_different_houses(make):
    state = new_game(make, ring=BLOCK_RING)
    assert legal_strings(state) == ["conflict 5", "conflict 11"]
    before = state.to_dict()
    with pytest.raises(ValueError):
        act(state, "conflict 0")
    assert state.to_dict() == before
    act(state, "conflict 11")
    assert state.to_dict()["conflict"] == 11
    assert state.is_chance_node()
    assert state.to_dict()["phase"] == "draft"


def test_every_site_of_an_alternating_ring(make):
    state = new_game(make)
    assert legal_strings(state) == [f"conflict {i}" for i in range(12)]


# --------------------------------------------------------------------------------------------
# Phase 2: the draft
# --------------------------------------------------------------------------------------------


def test_draft_sets_one_card_aside_and_passes_to_the_left(make):
    state = new_game(make)
    act(state, "conflict 0")
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == [f"aside {c}" for c in CARDS]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    act(state, "aside Stratege")
    snap = state.to_dict()
    assert snap["aside"] == "Stratege"
    assert snap["pool"] == ["Verraeter", "Diplomat2", "Diplomat5", "Baumeister", "Bauer"]
    assert state.current_player() == 0
    assert legal_strings(state) == [f"pick {c}" for c in snap["pool"]]
    act(state, "pick Bauer")
    assert state.current_player() == 1
    assert legal_strings(state) == [
        "pick Verraeter",
        "pick Diplomat2",
        "pick Diplomat5",
        "pick Baumeister",
    ]
    # Seat 1 sees the four cards passed to it; seat 2 has received nothing yet.
    assert "pool: Verraeter Diplomat2 Diplomat5 Baumeister" in state.observation_string(1)
    assert "pool: -" in state.observation_string(2)
    assert "pool: Verraeter Diplomat2 Diplomat5 Baumeister Bauer" in state.observation_string(0)
    act(state, "pick Verraeter", "pick Diplomat2")
    assert legal_strings(state) == ["pick Diplomat5", "pick Baumeister"]
    act(state, "pick Baumeister")
    snap = state.to_dict()
    assert snap["actions"] == ["Bauer", "Verraeter", "Diplomat2", "Baumeister"]
    assert snap["pool"] == []  # the last card goes back face down
    assert snap["phase"] == "supply"
    assert state.current_player() == 0
    # Picks stay secret until the reveal.
    view = state.observation_string(0)
    assert "seat 0 eagle vp 0: hand 3 4 5; played -; action Bauer" in view
    assert "seat 1 rose vp 0: hand 3 cards; played -; action ?" in view


def test_draft_with_three_players_leaves_two_cards(make):
    state = new_game(make, players=3)
    draft(state, 0, "Bauer", {0: "Stratege", 1: "Diplomat5", 2: "Verraeter"})
    snap = state.to_dict()
    assert snap["phase"] == "supply"
    assert snap["pool"] == []
    assert snap["aside"] == "Bauer"
    unpicked = set(CARDS) - set(snap["actions"]) - {"Bauer"}
    assert unpicked == {"Diplomat2", "Baumeister"}


# --------------------------------------------------------------------------------------------
# Phase 3: supply cards
# --------------------------------------------------------------------------------------------


def test_supply_cards_are_played_one_by_one_from_the_start_player(make):
    state = new_game(make)
    draft(state, 0, "Stratege", {0: "Bauer", 1: "Verraeter", 2: "Diplomat2", 3: "Baumeister"})
    assert state.current_player() == 0
    assert legal_strings(state) == ["play 3", "play 4", "play 5", "done"]
    act(state, "play 5")
    assert state.current_player() == 0
    snap = state.to_dict()
    assert snap["hands"][0] == [3, 4]
    assert snap["played"][0] == [5]
    assert legal_strings(state) == ["play 3", "play 4", "done"]
    act(state, "play 3", "play 4")
    assert legal_strings(state) == ["done"]  # an empty hand can only be done
    act(state, "done")
    assert state.current_player() == 1
    before = state.to_dict()
    with pytest.raises(ValueError):
        act(state, "play 8")
    assert state.to_dict() == before
    # Played cards lie face up.
    assert "seat 0 eagle vp 0: hand 0 cards; played 3 4 5; action ?" in state.observation_string(1)


# --------------------------------------------------------------------------------------------
# Phases 4-6: reveal, conflict, victory points
# --------------------------------------------------------------------------------------------


def test_traitor_switches_house_and_his_cards_count_for_the_new_house(make):
    state = new_game(make)
    draft(state, 0, "Bauer", {0: "Baumeister", 1: "Verraeter", 2: "Stratege", 3: "Diplomat5"})
    act(state, "done", "play 4", "play 5", "done", "done")
    assert houses(state) == ["eagle", "rose", "eagle", "rose"]  # before the reveal
    act(state, "done")
    # Reveal: seat 1 turns eagle. Eagle 15 + 4 + 5 = 24 beats rose 15 + 5 (Diplomat 5): three
    # eagle winners score the Stadt table for 3 winners; traitor +1, strategist +2.
    snap = state.to_dict()
    assert snap["phase"] == "builder"
    assert snap["houses"] == ["eagle", "eagle", "eagle", "rose"]
    stadt = VP_TABLE["Stadt"][2]
    assert snap["vp"] == [stadt, stadt + 1, stadt + 2, 0]
    assert ring_houses(state)[:2] == ["eagle", "eagle"]  # the rose Stadt flipped
    assert snap["actions"] == ["Baumeister", "Verraeter", "Stratege", "Diplomat5"]
    act(state, "pass")
    # Seat 1 draws for its estate under the flipped Stadt: it now shows seat 1's house.
    assert state.to_dict()["draw_queue"] == [0, 1, 2, 3]
    finish(state)
    # Round 2: seat 1 stays eagle; sites 0 and 1 now lie between two eagle landscapes.
    assert houses(state) == ["eagle", "eagle", "eagle", "rose"]
    assert state.current_player() == 2
    legal = legal_strings(state)
    assert "conflict 0" not in legal and "conflict 1" not in legal and "conflict 2" in legal
    # Playing the traitor again turns seat 1 back to the rose.
    draft(state, 2, "Bauer", {1: "Verraeter", 2: "Baumeister", 3: "Stratege", 0: "Diplomat5"})
    supply(state)
    # Eagle (0, 2): Dorf 10 + 5 = 15 beats rose (1, 3): Dorf 10.
    snap = state.to_dict()
    assert snap["houses"] == ["eagle", "rose", "eagle", "rose"]
    dorf = VP_TABLE["Dorf"][1]
    assert snap["vp"] == [stadt + dorf, stadt + 2, stadt + 2 + dorf, 2]
    assert ring_houses(state)[3] == "eagle"


def test_a_single_winner_scores_the_first_column(make):
    state = new_game(make)
    draft(state, 0, "Bauer", {0: "Verraeter", 1: "Baumeister", 2: "Stratege", 3: "Diplomat2"})
    supply(state, {2: [5]})
    # Seat 0 turns rose; eagle is seat 2 alone: 15 + 5 = 20 beats rose 15 + 2.
    snap = state.to_dict()
    assert snap["houses"] == ["rose", "rose", "eagle", "rose"]
    assert snap["vp"] == [1, 0, VP_TABLE["Stadt"][0] + 2, 0]
    assert ring_houses(state)[1] == "eagle"


def test_diplomats_add_their_bonus_and_two_winners_share_the_table(make):
    state = new_game(make)
    draft(state, 0, "Verraeter", {0: "Bauer", 1: "Diplomat5", 2: "Diplomat2", 3: "Stratege"})
    supply(state, {0: [4]})
    # Eagle 15 + 4 + 2 = 21 beats rose 15 + 5 = 20 (without Diplomat 2 the rose would win).
    snap = state.to_dict()
    stadt = VP_TABLE["Stadt"][1]
    assert snap["vp"] == [stadt, 0, stadt, 2]
    assert ring_houses(state)[:2] == ["eagle", "eagle"]
    # No builder: straight to the draws. The farmer draws 3 first and nothing for estates; seat
    # 1's estate lies under a landscape that is no longer rose; Diplomat 2 draws last.
    assert snap["phase"] == "draw"
    assert snap["draw_queue"] == [0, 0, 0, 2, 3, 2]
    assert snap["discard"] == [4]  # played cards are discarded before the draws


def test_a_tie_changes_nothing_but_traitor_and_strategist_points(make):
    state = new_game(make)
    draft(state, 0, "Diplomat5", {0: "Baumeister", 1: "Stratege", 2: "Bauer", 3: "Verraeter"})
    supply(state, {0: [4], 1: [4]})
    # Seat 3 turns eagle. Eagle 15 + 4 = 19, rose 15 + 4 = 19.
    snap = state.to_dict()
    assert snap["houses"] == ["eagle", "rose", "eagle", "eagle"]
    assert snap["vp"] == [0, 2, 0, 1]
    assert ring_houses(state) == [t.split()[1] for t in ALT_RING]


def test_a_house_without_players_still_wins_the_landscape(make):
    state = new_game(make, players=3)
    # Site 9: Weide rose (3) | Ödnis eagle (0). Seat 1 turns eagle, so the rose has no player.
    draft(state, 9, "Diplomat5", {0: "Baumeister", 1: "Verraeter", 2: "Stratege"})
    supply(state)
    snap = state.to_dict()
    assert snap["houses"] == ["eagle", "eagle", "eagle"]
    assert snap["vp"] == [0, 1, 2]
    assert ring_houses(state)[10] == "rose"


# --------------------------------------------------------------------------------------------
# Phases 7-8: builder and strategist
# --------------------------------------------------------------------------------------------


def test_builder_builds_or_upgrades_or_passes(make):
    state = new_game(make)
    picks = {0: "Bauer", 1: "Baumeister", 2: "Stratege", 3: "Diplomat5"}
    draft(state, 0, "Verraeter", picks)
    supply(state)
    assert state.current_player() == 1
    assert legal_strings(state) == [f"build {i}" for i in range(4, 12)] + ["upgrade 1", "pass"]
    act(state, "build 6")
    assert state.to_dict()["ring"][6]["estate"] == {"owner": 1, "kontor": False}
    finish(state)
    picks = {1: "Baumeister", 2: "Bauer", 3: "Stratege", 0: "Diplomat5"}
    play_round(state, None, "Verraeter", picks, builder="build 9")
    # Round 3: seat 1 has three estates on the ring, the limit; it may only upgrade or pass.
    draft(state, None, "Verraeter", picks)
    supply(state)
    assert state.current_player() == 1
    assert legal_strings(state) == ["upgrade 1", "upgrade 6", "upgrade 9", "pass"]
    act(state, "upgrade 6")
    assert state.to_dict()["ring"][6]["estate"] == {"owner": 1, "kontor": True}


def test_first_round_builder_pass_changes_nothing(make):
    state = new_game(make)
    draft(state, 0, "Verraeter", {0: "Bauer", 1: "Baumeister", 2: "Stratege", 3: "Diplomat5"})
    supply(state)
    ring = state.to_dict()["ring"]
    act(state, "pass")
    assert state.to_dict()["ring"] == ring


def test_strategist_takes_the_card_and_picks_the_next_site(make):
    state = new_game(make)
    play_round(state, 0, "Verraeter", {0: "Bauer", 1: "Diplomat5", 2: "Baumeister", 3: "Stratege"})
    snap = state.to_dict()
    assert snap["strategist"] == 3
    assert snap["phase"] == "conflict"
    assert state.current_player() == 3
    assert snap["round"] == 1
    assert snap["start_player"] == 1  # phase 12: the start player moves left
    assert snap["actions"] == [None] * 4 and snap["aside"] is None and snap["conflict"] is None
    assert snap["vp"][3] >= 2
    # Nobody drafts the strategist in round 2: the card stays with seat 3.
    play_round(
        state, None, "Stratege", {1: "Bauer", 2: "Diplomat5", 3: "Baumeister", 0: "Diplomat2"}
    )
    assert state.to_dict()["strategist"] == 3
    assert state.current_player() == 3
    assert state.to_dict()["start_player"] == 2


# --------------------------------------------------------------------------------------------
# Phases 9-10: draws, reshuffle, hand limit
# --------------------------------------------------------------------------------------------


def test_draws_hand_limit_and_reshuffle(make):
    state = new_game(make)
    # Round 1: rose 15 + 5 beats eagle 15; the eagle Stadt at 0 flips to the rose.
    draft(state, 0, "Verraeter", {0: "Baumeister", 1: "Diplomat5", 2: "Stratege", 3: "Bauer"})
    supply(state)
    act(state, "pass")
    snap = state.to_dict()
    assert ring_houses(state)[0] == "rose"
    # Farmer seat 3 first; seat 0's estate is under a rose landscape now; seat 3 takes no
    # estate card.
    assert snap["draw_queue"] == [3, 3, 3, 1, 2]
    probabilities = dict(state.chance_outcomes())
    assert probabilities[state.string_to_action("draw 2")] == pytest.approx(5 / 11)
    assert probabilities[state.string_to_action("draw 8")] == pytest.approx(1 / 11)
    act(state, "draw 8", "draw 6", "draw 6", "draw 2", "draw 2")
    # Seat 3 holds six cards and chooses its discard.
    assert state.to_dict()["phase"] == "discard"
    assert state.current_player() == 3
    assert legal_strings(state) == ["discard 3", "discard 4", "discard 5", "discard 6", "discard 8"]
    act(state, "discard 8")
    snap = state.to_dict()
    assert snap["hands"][3] == [3, 4, 5, 6, 6]
    assert snap["discard"] == [8]
    assert snap["phase"] == "conflict" and snap["start_player"] == 1
    assert snap["draw_pile"] == [2, 2, 2, 3, 4, 5]
    # The discard is public.
    assert "discard: 8; draw pile 6 cards; draw queue -" in state.observation_string(0)
    # Round 2 (start player 1): the rose wins Fluss eagle at 6, where no estate lies.
    draft(state, 6, "Verraeter", {1: "Baumeister", 2: "Stratege", 3: "Diplomat2", 0: "Bauer"})
    supply(state)
    act(state, "pass")
    assert state.to_dict()["draw_queue"] == [0, 0, 0, 1, 2, 3, 3]
    act(state, "draw 2", "draw 2", "draw 2", "draw 3", "draw 4", "draw 5")
    # The draw pile is empty: the discard pile becomes the draw pile for the next draw.
    snap = state.to_dict()
    assert snap["draw_pile"] == [8] and snap["discard"] == []
    assert state.chance_outcomes() == [(state.string_to_action("draw 8"), 1.0)]
    act(state, "draw 8")
    # Hand limit from the start player (seat 1) clockwise: seat 3 (7 cards) before seat 0 (6).
    snap = state.to_dict()
    assert snap["hands"][3] == [3, 4, 5, 5, 6, 6, 8]
    assert snap["hands"][0] == [2, 2, 2, 3, 4, 5]
    assert [len(h) for h in snap["hands"][1:3]] == [5, 5]
    seen = []
    for value in (6, 8, 2):
        seen.append(state.current_player())
        act(state, f"discard {value}")
    assert seen == [3, 3, 0]
    snap = state.to_dict()
    assert snap["hands"][3] == [3, 4, 5, 5, 6]
    assert snap["hands"][0] == [2, 2, 3, 4, 5]
    assert snap["discard"] == [2, 6, 8]
    assert snap["phase"] == "conflict" and snap["start_player"] == 2


def test_kontor_and_other_house_estates_draw_nothing(make):
    state = new_game(make)
    draft(state, 6, "Verraeter", {0: "Baumeister", 1: "Stratege", 2: "Bauer", 3: "Diplomat5"})
    supply(state)
    act(state, "upgrade 0")
    # Seat 0's estate under the eagle Stadt is a Kontor now: no card for it. The rose won
    # Fluss eagle at 6.
    queue = state.to_dict()["draw_queue"]
    assert 0 not in queue
    assert queue == [2, 2, 2, 1, 3]


def test_draws_are_skipped_when_both_piles_are_empty(make, tmp_path):
    data = shipped_cards()
    data["supply"] = [{"value": 3, "count": 4}, {"value": 4, "count": 4}, {"value": 5, "count": 4}]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    state = new_game(make, cards=str(path))
    assert state.to_dict()["draw_pile"] == []
    draft(state, 0, "Verraeter", {0: "Bauer", 1: "Baumeister", 2: "Stratege", 3: "Diplomat5"})
    supply(state, {2: [5]})
    act(state, "pass")
    # The farmer's first draw takes the discarded 5; then nothing is left anywhere.
    assert state.to_dict()["draw_pile"] == [5]
    assert state.chance_outcomes() == [(state.string_to_action("draw 5"), 1.0)]
    act(state, "draw 5")
    snap = state.to_dict()
    assert snap["phase"] == "conflict"
    assert snap["draw_queue"] == []
    assert snap["hands"] == [[3, 4, 5, 5], [3, 4, 5], [3, 4], [3, 4, 5]]


# --------------------------------------------------------------------------------------------
# Phase 13 and the end
# --------------------------------------------------------------------------------------------


def test_the_game_ends_after_the_rounds(make):
    state = new_game(make, rounds=2)
    play_round(state, 0, "Verraeter", {0: "Bauer", 1: "Diplomat5", 2: "Baumeister", 3: "Stratege"})
    assert not state.is_terminal()
    play_round(
        state, None, "Verraeter", {1: "Bauer", 2: "Diplomat5", 3: "Baumeister", 0: "Stratege"}
    )
    assert state.is_terminal()
    snap = state.to_dict()
    assert snap["phase"] == "end"
    assert snap["round"] == 2
    assert snap["current_player"] == -4
    assert state.legal_actions() == []
    assert sum(state.returns()) == pytest.approx(0.0)
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_the_game_ends_when_one_house_holds_every_landscape(make):
    state = new_game(make, ring=BLOCK_RING)
    # Eagle (seats 0, 2) holds both diplomats every round (+7) and wins the site at the border
    # of its block each round, flipping rose positions 6..11 one by one.
    picks = {0: "Diplomat5", 1: "Baumeister", 2: "Diplomat2", 3: "Stratege"}
    for site in range(5, 11):
        assert not state.is_terminal()
        play_round(state, site, "Verraeter", picks)
    assert state.is_terminal()
    snap = state.to_dict()
    assert snap["round"] == 6
    assert set(ring_houses(state)) == {"eagle"}
    # Seats 0 and 2 scored the 2-winner column of Ödnis, Weide, Fluss, Wald, Dorf, Stadt.
    eagle = sum(VP_TABLE[t][1] for t in ("Ödnis", "Weide", "Fluss", "Wald", "Dorf", "Stadt"))
    assert snap["vp"] == [eagle, 0, eagle, 2 * 6]
    # Tied leaders share the win.
    assert state.returns() == [0.5, -0.5, 0.5, -0.5]
    assert state.scores() == [float(v) for v in snap["vp"]]


def test_final_kontor_bonus(make):
    state = new_game(make, rounds=5)
    builds = ["upgrade 0", "build 4", "upgrade 4", "build 6", "upgrade 6"]
    # Seat 0 builds every round.
    picks = {0: "Baumeister", 1: "Stratege", 2: "Bauer", 3: "Diplomat5"}
    for build in builds:
        draft(state, None, "Verraeter", picks)
        supply(state)
        assert state.current_player() == 0
        vp_before = state.to_dict()["vp"]
        finish(state, builder=build)
    assert state.is_terminal()
    snap = state.to_dict()
    kontore = sum(1 for land in snap["ring"] if land["estate"] == {"owner": 0, "kontor": True})
    assert kontore == 3
    bonus = [min(kontore, 2) * min(len(snap["hands"][0]), 3), 0, 0, 0]
    assert bonus[0] > 0
    assert snap["vp"] == [v + b for v, b in zip(vp_before, bonus)]
    best = max(snap["vp"])
    leaders = [s for s in range(4) if snap["vp"][s] == best]
    k = len(leaders)
    expected = [1.0 / k if s in leaders else -1.0 / (4 - k) for s in range(4)]
    assert state.returns() == pytest.approx(expected)


def test_everyone_tied_returns_zero(make):
    state = new_game(make, rounds=1)
    draft(state, 0, "Verraeter", {0: "Diplomat5", 1: "Diplomat2", 2: "Baumeister", 3: "Bauer"})
    supply(state, {1: [3]})
    # Eagle 15 + 5 = 20, rose 15 + 2 + 3 = 20: nobody scores, the strategist was left over.
    finish(state)
    assert state.is_terminal()
    assert state.to_dict()["vp"] == [0, 0, 0, 0]
    assert state.returns() == [0.0, 0.0, 0.0, 0.0]


# --------------------------------------------------------------------------------------------
# Actions and strings
# --------------------------------------------------------------------------------------------


def test_action_strings_round_trip(make):
    state = new_game(make)
    names = {
        0: "conflict 0",
        11: "conflict 11",
        12: "build 0",
        23: "build 11",
        24: "upgrade 0",
        36: "pick Verraeter",
        41: "pick Bauer",
        42: "play 2",
        47: "play 8",
        48: "done",
        49: "discard 2",
        54: "discard 8",
        55: "pass",
    }
    for action, text in names.items():
        assert state.action_to_string(action) == text
        assert state.string_to_action(text) == action
    for bad in ["play 7", "conflict 12", "pick Joker", "Stadt eagle", "aside Bauer", "draw 2"]:
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad_id in (-1, 56, 80):
        with pytest.raises(ValueError):
            state.action_to_string(bad_id)


def test_chance_outcome_strings_round_trip(make):
    # Chance outcomes are numbered from 0 at each chance node; the node says what they name.
    ring = make("verraeter").new_initial_state()
    aside = act(new_game(make), "conflict 0")
    draw = new_game(make)
    draft(draw, 0, "Verraeter", {0: "Baumeister", 1: "Bauer", 2: "Stratege", 3: "Diplomat5"})
    act(supply(draw), "pass")
    assert ring.is_chance_node() and aside.is_chance_node() and draw.is_chance_node()
    assert make("verraeter").max_chance_outcomes == 12
    names = {
        ring: {0: "Ödnis eagle", 1: "Ödnis rose", 11: "Stadt rose"},
        aside: {0: "aside Verraeter", 5: "aside Bauer"},
        draw: {0: "draw 2", 5: "draw 8"},
    }
    for state, known in names.items():
        for action, text in known.items():
            assert state.action_to_string(action) == text
            assert state.string_to_action(text) == action
    assert ring.string_to_action("Oednis rose") == 1
    for state, bad_ids in ((ring, (-1, 12)), (aside, (-1, 6)), (draw, (-1, 6))):
        for bad_id in bad_ids:
            with pytest.raises(ValueError):
                state.action_to_string(bad_id)
    for state, bad in ((ring, "aside Bauer"), (aside, "Stadt eagle"), (draw, "done")):
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad in ["Stadt green", "draw 7", "", "done "]:
        for state in (ring, aside, draw):
            with pytest.raises(ValueError):
                state.string_to_action(bad)


def test_illegal_actions_leave_the_state_unchanged(make):
    state = new_game(make)
    before = state.to_dict()
    for action in [-1, 56, 80, 12, 36, 48, 2**31 - 1]:
        with pytest.raises(ValueError):
            state.apply_action(action)
        assert state.to_dict() == before


# --------------------------------------------------------------------------------------------
# Observation
# --------------------------------------------------------------------------------------------


def test_observation_tensor_layout(make):
    state = new_game(make)
    n = 4
    stride = 10 + n
    base_seat = 12 * stride
    own = base_seat + 20 * n
    obs = state.observation_tensor(1)
    assert obs.dtype == np.float32 and obs.shape == (277,)
    # Ring position 0: Stadt (type 5), eagle, estate of seat 0 = relative seat 3 for seat 1.
    assert obs[5] == 1.0 and obs[6] == 1.0 and obs[7] == 0.0 and obs[8 + 3] == 1.0
    assert obs[8 + n] == 0.0 and obs[9 + n] == 0.0
    # Position 1: Stadt rose, estate of seat 1 itself (relative 0).
    assert obs[stride + 5] == 1.0 and obs[stride + 7] == 1.0 and obs[stride + 8] == 1.0
    # Relative seat 0 (seat 1): rose, hand 3/5, strategist, to move.
    me = base_seat
    assert obs[me + 1] == 1.0 and obs[me + 3] == np.float32(3 / 5)
    assert obs[me + 11] == 1.0 and obs[me + 18] == 1.0 and obs[me + 10] == 0.0
    # Relative seat 3 (seat 0) is the start player.
    assert obs[base_seat + 20 * 3 + 10] == 1.0
    # Own hand 3, 4, 5 (value ids 1-3), draw pile 11 of 23, phase conflict.
    assert [obs[own + v] for v in range(6)] == [0.0, *[np.float32(1 / 5)] * 3, 0.0, 0.0]
    assert obs[own + 18] == np.float32(11 / 23)
    assert obs[own + 19] == 0.0
    assert obs[own + 20 + 2] == 1.0 and obs[own + 20 : own + 29].sum() == 1.0
    act(state, "conflict 4")
    obs = state.observation_tensor(1)
    assert obs[4 * stride + 9 + n] == 1.0


def test_information_state_string_format(make):
    state = new_game(make)
    act(state, "conflict 0", "aside Stratege", "pick Bauer")
    lines = state.information_state_string(1).split("\n")
    expected = (
        ["seat 1"]
        + [f"chance {text}" for text in ALT_RING]
        + [f"seat {s} build {s}" for s in range(4)]
        + [
            "seat 1 conflict 0",
            "chance aside ?",
            "seat 0 pick ?",
            "seat 1 receives Verraeter Diplomat2 Diplomat5 Baumeister",
        ]
    )
    assert lines == expected
    act(state, "pick Diplomat5", "pick Verraeter", "pick Baumeister")
    supply(state)
    lines = state.information_state_string(1).split("\n")
    assert lines[-7:] == [
        "seat 2 pick ?",
        "seat 3 pick ?",
        "seat 0 done",
        "seat 1 done",
        "seat 2 done",
        "seat 3 done",
        "reveal Bauer Diplomat5 Verraeter Baumeister",
    ]
    assert lines[-8] == "seat 1 pick Diplomat5"


# --------------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------------


def test_other_players_draws_are_hidden(make):
    states = []
    for draws in (["draw 2", "draw 2", "draw 2"], ["draw 6", "draw 6", "draw 8"]):
        state = seat_one_to_draw(make)
        assert state.to_dict()["draw_queue"][:3] == [1, 1, 1]
        act(state, *draws)
        states.append(state)
    a, b = states
    assert a.to_dict() != b.to_dict()
    for player in (0, 2, 3):
        assert views(a, player) == views(b, player)
    assert views(a, 1) != views(b, 1)


def test_picks_are_hidden_until_the_reveal(make):
    states = []
    for pick in ("pick Verraeter", "pick Diplomat2"):
        state = new_game(make)
        act(state, "conflict 0", "aside Stratege", "pick Bauer", pick)
        states.append(state)
    a, b = states
    assert a.to_dict() != b.to_dict()
    for player in (0, 3):
        assert views(a, player) == views(b, player)
    # Seat 2 receives different pools, seat 1 knows its own pick.
    for player in (1, 2):
        assert views(a, player) != views(b, player)


def test_the_set_aside_card_is_hidden(make):
    states = []
    for aside in ("aside Stratege", "aside Bauer"):
        state = new_game(make)
        act(state, "conflict 0", aside)
        states.append(state)
    a, b = states
    for player in (1, 2, 3):
        assert views(a, player) == views(b, player)
    assert views(a, 0) != views(b, 0)  # the start player sees the five cards


def test_actions_are_public_after_the_reveal(make):
    state = new_game(make)
    draft(state, 0, "Verraeter", {0: "Bauer", 1: "Baumeister", 2: "Stratege", 3: "Diplomat5"})
    supply(state)
    view = state.observation_string(0)
    assert "action Baumeister" in view and "action Stratege" in view
    assert "action Diplomat5" in view


def test_resample_keeps_everything_the_player_knows(make):
    import random

    from tests.random_play import play_randomly

    rng = random.Random(5)
    changed = 0
    for game_number in range(6):
        players = 3 + game_number % 2
        game = make("verraeter", players=players)
        history = play_randomly(game.new_initial_state(), rng).history()
        # A mid-game position: the game cut at a random action from the 60th on.
        state = game.new_initial_state()
        for action in history[: rng.randrange(60, len(history))]:
            state.apply_action(action)
        assert not state.is_terminal()
        for player in range(players):
            for seed in (1, 2):
                other = resampled_alike(state, player, seed)
                mine, theirs = state.to_dict(), other.to_dict()
                if mine["hands"] != theirs["hands"] or mine["actions"] != theirs["actions"]:
                    changed += 1
                play_randomly(other, rng)  # a genuine state: it plays on to the end
                assert other.is_terminal()
    assert changed > 0


def test_resample_varies_hidden_picks_before_the_reveal(make):
    state = new_game(make)
    draft(state, 0, "Verraeter", {0: "Bauer", 1: "Baumeister", 2: "Stratege", 3: "Diplomat5"})
    # Seat 2 received Baumeister ... minus the first two picks; seat 0's and 1's picks together
    # with the set-aside card are the three cards seat 2 never saw.
    seen = set()
    for seed in range(20):
        other = state.resample_from_infostate(2, seed)
        snap = other.to_dict()
        assert views(other, 2) == views(state, 2)
        assert {snap["actions"][0], snap["actions"][1], snap["aside"]} == {
            "Verraeter",
            "Bauer",
            "Baumeister",
        }
        assert snap["actions"][2] == "Stratege"
        seen.add((snap["actions"][0], snap["actions"][1]))
    assert len(seen) > 1
