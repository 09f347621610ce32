"""Rules tests for Rheinländer, from docs/rules/rheinlaender.md and the rule text. One module on
purpose, long as the rules are: it is read beside the rules page, rule by rule.

Every test takes the ``make`` fixture (tests/conftest.py) and so runs on the
pure-Python reference and on the engine. Positions are built by applying actions; the landmark
chips, the deal and every draw are chance outcomes chosen explicitly (helpers.Script plans them).

Test chips (helpers.CHIPS): S1 city 4 (2L 3L), S2 church (4R 5R), S3 castle (6L 7L),
S4 city 2 (8R 9R), S5 castle (10L 11L), S6 church (12R 13R), S7 city 3 (14L 15L),
S9 church (18L 19L), S10 city 2 (20R 21R), S11 city 3 (22L 23L), S15 city 2 (30L 31L).
Left-bank spaces 4k and 4k+1 and right-bank spaces 4k+2 and 4k+3 touch no site.
"""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

from .helpers import (
    BASTION_BASE,
    CHIP_KINDS,
    DISCARD_BASE,
    KNIGHTS,
    MAX_CHANCE_OUTCOMES,
    NUM_ACTIONS,
    RESHUFFLE,
    Script,
    deal,
    domain_of,
    expected_domains,
    fill_chips,
    lay,
    legal_strings,
    shipped_map,
    step,
    tiny_map,
)

SNAPSHOT_KEYS = {
    "knights",
    "bastions",
    "landmarks",
    "castle_knights",
    "domains",
    "bishops",
    "archbishop",
    "points",
    "knights_left",
    "bastions_left",
    "hands",
    "discard",
    "deck_size",
    "current_player",
    "phase",
    "receiving",
    "bastion_placed",
    "turn",
    "end_reason",
    "scores",
}

# Far-away placements for seats whose turn does not matter to a test (no sites, no neighbours
# in use): each uses its own card.
FAR = ["48L", "50R", "52L", "44L", "46R", "40L", "42R", "36L", "38R", "32L", "34R", "28L"]


def far(i: int) -> str:
    return FAR[i]


# --------------------------------------------------------------------------------------------
# Game object and parameters
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "length", "size"), [(3, 4041, 1651), (4, 4046, 2017), (5, 4051, 2383)]
)
def test_game_attributes(make, players, length, size):
    game = make("rheinlaender", players=players)
    assert game.name == "rheinlaender"
    assert game.params == {"players": players, "map": None, "max_turns": 1000}
    assert game.num_players == players
    assert game.num_distinct_actions == NUM_ACTIONS == 9184
    assert game.max_chance_outcomes == MAX_CHANCE_OUTCOMES == 55
    assert game.max_game_length == length
    assert tuple(game.observation_shape) == (size,)


def test_default_params_and_map(make):
    game = make("rheinlaender")
    assert game.params == {"players": 3, "map": None, "max_turns": 1000}
    assert json.loads(json.dumps(game.params)) == game.params
    assert game.map == shipped_map()


def test_max_turns_changes_length(make):
    game = make("rheinlaender", max_turns=10)
    assert game.max_game_length == 26 + 15 + 40


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"players": 2}, "players"),
        ({"players": 6}, "players"),
        ({"players": "3"}, "players"),
        ({"players": True}, "players"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"max_turns": 100001}, "max_turns"),
        ({"map": 42}, "map"),
        ({"board": None}, "players"),
    ],
)
def test_bad_parameters(make, params, word):
    with pytest.raises(ValueError, match=word):
        make("rheinlaender", **params)


# --------------------------------------------------------------------------------------------
# Map files
# --------------------------------------------------------------------------------------------


def test_shipped_map_shape():
    board = shipped_map()
    spaces = board["spaces"]
    assert len(spaces) == 166 and len(board["sites"]) == 26
    assert [s["id"] for s in spaces[:6]] == ["1L", "1R", "1W", "2L", "2R", "2W"]
    assert [s["id"] for s in spaces[162:]] == ["10-11", "21-22", "33-34", "45-46"]
    islands = [s for s in spaces if len(s["numbers"]) == 2]
    assert all(s["kind"] == "land" for s in islands) and len(islands) == 4
    assert board["landmarks"] == {
        "city": [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4],
        "castle": 7,
        "church": 7,
    }
    by_id = {s["id"]: s for s in spaces}
    for site in board["sites"]:
        a, b = site["touches"]
        assert by_id[a]["kind"] == by_id[b]["kind"] == "land"
        assert a[-1] == b[-1] and int(b[:-1]) == int(a[:-1]) + 1  # n and n+1 of one bank


def _mutated(change):
    board = shipped_map()
    change(board)
    return board


def _rename(board, old, new):
    for space in board["spaces"]:
        if space["id"] == old:
            space["id"] = new
        space["neighbours"] = [new if x == old else x for x in space["neighbours"]]


def _space(board, sid):
    return next(s for s in board["spaces"] if s["id"] == sid)


MAP_ERRORS = [
    ("format", lambda b: b.update(format="rivals-map"), r"format"),
    ("version", lambda b: b.update(version=2), r"version"),
    ("extra key", lambda b: b.update(rivers=[]), r"map"),
    (
        "unknown neighbour",
        lambda b: _space(b, "1L")["neighbours"].append("99L"),
        r"spaces\[0\]\.neighbours",
    ),
    (
        "asymmetric",
        lambda b: _space(b, "1L")["neighbours"].remove("2L"),
        r"spaces\[\d+\]\.neighbours",
    ),
    (
        "lists itself",
        lambda b: _space(b, "1L")["neighbours"].append("1L"),
        r"spaces\[0\]\.neighbours",
    ),
    ("bad kind", lambda b: _space(b, "1L").update(kind="sea"), r"spaces\[0\]\.kind"),
    (
        "river with two numbers",
        lambda b: _space(b, "12W").update(numbers=[12, 13]),
        r"spaces\[35\]\.numbers",
    ),
    ("number zero", lambda b: _space(b, "1L").update(numbers=[0]), r"spaces\[0\]\.numbers"),
    (
        "number unreachable",
        lambda b: (_space(b, "30L").update(numbers=[29]), _space(b, "30R").update(numbers=[31])),
        r"30",
    ),
    (
        "two rivers for one number",
        lambda b: _space(b, "31W").update(numbers=[30]),
        r"spaces\[\d+\]\.numbers",
    ),
    ("keyword id", lambda b: _rename(b, "1L", "castle"), r"spaces\[0\]\.id"),
    ("duplicate id", lambda b: _rename(b, "1R", "1L"), r"spaces\[\d\]\.id"),
    (
        "site not neighbours",
        lambda b: b["sites"][0].update(touches=["2L", "4L"]),
        r"sites\[0\]\.touches",
    ),
    (
        "site on the river",
        lambda b: b["sites"][0].update(touches=["2L", "2W"]),
        r"sites\[0\]\.touches",
    ),
    (
        "site unknown space",
        lambda b: b["sites"][0].update(touches=["2L", "77L"]),
        r"sites\[0\]\.touches",
    ),
    ("chips and sites", lambda b: b["landmarks"].update(castle=8), r"landmarks"),
    ("city value", lambda b: b["landmarks"]["city"].__setitem__(0, 10), r"landmarks\.city"),
]


@pytest.mark.parametrize(
    ("change", "pattern"), [e[1:] for e in MAP_ERRORS], ids=[e[0] for e in MAP_ERRORS]
)
def test_map_validation_errors(make, change, pattern):
    with pytest.raises(ValueError, match=pattern):
        make("rheinlaender", map=_mutated(change))


def test_map_from_file_and_errors(make, tmp_path):
    good = tmp_path / "map.json"
    good.write_text(json.dumps(tiny_map()))
    game = make("rheinlaender", map=str(good))
    assert game.params["map"] == str(good)
    assert game.map == tiny_map()
    # 16 numbers and 13 spaces: 16 * 13 + 13 + 16 decision ids; cards 0-16 as chance outcomes.
    assert game.num_distinct_actions == 16 * 13 + 13 + 16
    assert game.max_chance_outcomes == 17
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match=r"broken\.json"):
        make("rheinlaender", map=str(broken))
    with pytest.raises(ValueError, match=r"missing\.json"):
        make("rheinlaender", map=str(tmp_path / "missing.json"))


def test_map_needs_five_numbers_per_player(make):
    make("rheinlaender", map=tiny_map())  # 16 numbers: enough for 3 players
    with pytest.raises(ValueError, match="20"):
        make("rheinlaender", map=tiny_map(), players=4)


# --------------------------------------------------------------------------------------------
# Action strings
# --------------------------------------------------------------------------------------------


def test_action_ids_and_strings(make):
    state = lay(make("rheinlaender").new_initial_state())
    deal(state, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]])  # seat 0 decides
    known = {
        "1L": 0,
        "1R": 1,
        "1W": 2,
        "2L": 169,
        "12L": 11 * 166 + 33,
        "reinforce 12L with 40": 39 * 166 + 33,
        "10-11 with 10": 9 * 166 + 162,
        "10-11 with 11": 10 * 166 + 162,
        "reinforce 10-11 with 12": 11 * 166 + 162,
        "bastion 1L": BASTION_BASE,
        "bastion 45-46": BASTION_BASE + 165,
        "discard 1": DISCARD_BASE,
        "discard 54": DISCARD_BASE + 53,
    }
    for text, action in known.items():
        assert state.string_to_action(text) == action
        assert state.action_to_string(action) == text
    texts = [state.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
    for chance_text in ("card 12", "reshuffle", "castle"):
        with pytest.raises(ValueError):
            state.string_to_action(chance_text)


def test_chance_outcome_ids_and_strings(make):
    # The chance outcomes are numbered from 0 at every chance node; the node says what they are.
    chips = make("rheinlaender").new_initial_state()
    assert chips.to_dict()["phase"] == "landmarks"
    names = {"castle": 0, "church": 1, "city 1": 2, "city 9": 10}
    for text, kind in names.items():
        assert chips.string_to_action(text) == kind
        assert chips.action_to_string(kind) == text
    assert [chips.string_to_action(chips.action_to_string(k)) for k in range(CHIP_KINDS)] == list(
        range(CHIP_KINDS)
    )
    cards = lay(make("rheinlaender").new_initial_state())
    assert cards.to_dict()["phase"] == "deal"
    assert cards.action_to_string(RESHUFFLE) == "reshuffle"
    for card in range(1, 55):
        assert cards.action_to_string(card) == f"card {card}"
        assert cards.string_to_action(f"card {card}") == card
    for node, bad in ((chips, "card 3"), (chips, "12L"), (cards, "castle"), (cards, "12L")):
        with pytest.raises(ValueError):
            node.string_to_action(bad)
    for node, bad_id in ((chips, CHIP_KINDS), (chips, -1), (cards, 55), (cards, -1)):
        with pytest.raises(ValueError):
            node.action_to_string(bad_id)


@pytest.mark.parametrize(
    "text",
    [
        "12X",
        "12L with 12",
        "reinforce 12L with 12",
        "10-11",
        "bastion",
        "city 10",
        "card 0",
        "card 55",
        "discard 0",
        "",
        "pass",
    ],
)
def test_bad_action_strings(make, text):
    for state in node_kinds(make):
        with pytest.raises(ValueError):
            state.string_to_action(text)


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS])
def test_action_out_of_range(make, action):
    for state in node_kinds(make):
        with pytest.raises(ValueError):
            state.action_to_string(action)
        with pytest.raises(ValueError):
            state.apply_action(action)


def node_kinds(make):
    """A landmark chip node, a deal node and a decision node."""
    chips = make("rheinlaender").new_initial_state()
    cards = lay(make("rheinlaender").new_initial_state())
    decision = deal(
        lay(make("rheinlaender").new_initial_state()),
        [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]],
    )
    return [chips, cards, decision]


# --------------------------------------------------------------------------------------------
# Setup: landmarks and the deal
# --------------------------------------------------------------------------------------------


def test_landmark_chips_are_chance_nodes(make):
    state = make("rheinlaender").new_initial_state()
    snap = state.to_dict()
    assert set(snap) >= SNAPSHOT_KEYS
    assert snap["phase"] == "landmarks" and snap["current_player"] == -1
    assert snap["landmarks"] == {} and snap["receiving"] is None
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 3, 4, 5]  # castle, church, city 2, 3, 4
    assert [p for _, p in outcomes] == pytest.approx([7 / 26, 7 / 26, 4 / 26, 4 / 26, 4 / 26])
    assert state.legal_actions() == [a for a, _ in outcomes]
    step(state, "castle", "city 3")
    snap = state.to_dict()
    assert snap["landmarks"] == {
        "S1": {"kind": "castle", "value": 1},
        "S2": {"kind": "city", "value": 3},
    }
    assert [p for _, p in state.chance_outcomes()] == pytest.approx(
        [6 / 24, 7 / 24, 4 / 24, 3 / 24, 4 / 24]
    )
    # All four cities of value 2 laid: that kind is no longer an outcome.
    step(state, "city 2", "city 2", "city 2", "city 2")
    assert 3 not in state.legal_actions()  # city 2
    with pytest.raises(ValueError):
        step(state, "city 2")


def test_deal_in_seat_order_without_reshuffle_card(make):
    state = lay(make("rheinlaender").new_initial_state())
    snap = state.to_dict()
    assert snap["phase"] == "deal" and snap["receiving"] == 0
    assert len(snap["landmarks"]) == 26
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(1, 55))
    assert all(p == pytest.approx(1 / 54) for _, p in outcomes)
    receivers = []
    for card in range(1, 16):
        receivers.append(state.to_dict()["receiving"])
        step(state, f"card {card}")
    assert receivers == [0] * 5 + [1] * 5 + [2] * 5
    snap = state.to_dict()
    assert snap["phase"] == "play" and state.current_player() == 0
    assert snap["hands"] == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    assert snap["deck_size"] == 55 - 15
    assert snap["knights_left"] == [25, 25, 25]
    assert snap["bastions_left"] == [3, 3, 3]
    assert snap["points"] == [0, 0, 0] and snap["scores"] == [0, 0, 0]
    assert snap["bishops"] == [0, 0, 0] and snap["archbishop"] is None
    assert snap["receiving"] is None and snap["turn"] == 0 and snap["end_reason"] is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_player_counts_knights_and_turn_order(make, players):
    turns = [far(i) for i in range(players + 1)]
    script = Script(make, turns, players=players)
    snap = script.state.to_dict()
    assert snap["knights_left"] == [KNIGHTS[players]] * players
    assert [len(h) for h in snap["hands"]] == [5] * players
    assert snap["deck_size"] == 55 - 5 * players
    order = []
    for i in range(players + 1):
        order.append(script.state.current_player())
        script.run(i + 1)
    assert order == [*range(players), 0]
    snap = script.state.to_dict()
    assert snap["turn"] == players + 1
    assert snap["knights_left"] == [KNIGHTS[players] - 2] + [KNIGHTS[players] - 1] * (players - 1)


# --------------------------------------------------------------------------------------------
# Placing a knight by number; the river; islands
# --------------------------------------------------------------------------------------------


def test_place_by_number_either_bank_then_draw(make):
    script = Script(make, ["12L"], keep={0: [20]})
    state = script.state
    legal = legal_strings(state)
    assert {"12L", "12R", "20L", "20R"} <= legal
    assert "12W" not in legal and "20W" not in legal
    assert not any(text.startswith("discard") for text in legal)  # placing is compulsory
    played = step(state.clone(), "12L")
    snap = played.to_dict()
    assert snap["knights"] == {"12L": 0}
    assert snap["knights_left"] == [24, 25, 25]
    assert 12 not in snap["hands"][0] and snap["discard"] == [12]
    assert snap["phase"] == "draw" and snap["receiving"] == 0 and played.is_chance_node()
    outcomes = played.chance_outcomes()
    assert len(outcomes) == snap["deck_size"] == 40
    assert outcomes[0][0] == RESHUFFLE  # the reshuffle card can be drawn
    assert all(p == pytest.approx(1 / 40) for _, p in outcomes)
    script.run()
    snap = state.to_dict()
    assert len(snap["hands"][0]) == 5 and state.current_player() == 1 and snap["turn"] == 1


def test_river_only_when_every_land_space_is_taken(make):
    # Seat 0 keeps card 12; land spaces of 12 get taken by a knight and a bastion.
    script = Script(make, ["12L", far(0), far(1), "30L"], keep={0: [13]})
    state = script.run(3)
    # Seat 0 holds 13: while a land space of 13 is free there is no river placement.
    legal = legal_strings(state)
    assert {"13L", "13R"} <= legal and "13W" not in legal
    step(state, "bastion 13R")
    legal = legal_strings(state)
    assert "13L" in legal and "13R" not in legal and "13W" not in legal
    assert not any(t.startswith("bastion") for t in legal)


def test_river_opens_with_knight_and_bastion(make):
    state = lay(make("rheinlaender").new_initial_state())
    deal(state, [[12, 1, 2, 3, 4], [5, 6, 7, 8, 9], [20, 21, 22, 23, 24]])
    step(state, "12L", "reshuffle")
    # The reshuffle card: the discard pile ([12]) goes back into the deck, then a redraw.
    snap = state.to_dict()
    assert snap["phase"] == "redraw" and snap["discard"] == [] and snap["deck_size"] == 41
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == sorted(
        c for c in range(1, 55) if c not in (1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 24)
    )
    assert all(p == pytest.approx(1 / 40) for _, p in outcomes)
    step(state, "card 12")
    assert 12 in state.to_dict()["hands"][0]
    step(state, "5R", "card 40", "20R", "card 41")
    legal = legal_strings(state)
    assert "12R" in legal and "12W" not in legal
    step(state, "bastion 12R")
    legal = legal_strings(state)
    assert "12W" in legal and "12R" not in legal and "12L" not in legal
    step(state, "12W", "reshuffle", "card 12")
    step(state, "6R", "card 42", "21R", "card 43")
    # All three spaces of 12 are taken: card 12 only reinforces.
    legal = legal_strings(state)
    assert not {"12L", "12R", "12W"} & legal
    assert {"reinforce 13L with 12", "reinforce 11L with 12"} <= legal
    assert "reinforce 13W with 12" not in legal and "reinforce 13R with 12" not in legal


def test_islands_reached_by_two_numbers(make):
    turns = ["10-11 with 10", "bastion 11L; " + far(0), "bastion 11R; " + far(1), "11W"]
    script = Script(make, turns)
    state = script.state
    legal = legal_strings(state)
    assert {"10L", "10R", "10-11 with 10", "11L", "11R", "10-11 with 11"} <= legal
    assert "10W" not in legal and "11W" not in legal
    script.run(3)
    # The island counts as a land space of both numbers: taken by a knight, 11W is open now.
    legal = legal_strings(state)
    assert "10-11 with 11" not in legal
    assert "11W" in legal and "11L" not in legal and "11R" not in legal
    script.run()
    snap = state.to_dict()
    assert snap["knights"]["10-11"] == 0 and snap["knights"]["11W"] == 0
    assert domain_of(snap, "11W")["spaces"] == ["11W", "10-11"]


# --------------------------------------------------------------------------------------------
# Reinforcement
# --------------------------------------------------------------------------------------------


def test_reinforcement_next_to_own_knights_not_to_others(make):
    script = Script(make, ["20L", "22L", far(0), "reinforce 19L with 41"], keep={0: [30]})
    state = script.run(3)
    legal = legal_strings(state)
    assert "reinforce 19L with 30" in legal and "reinforce 19L with 41" in legal
    # 21L touches seat 1's knight on 22L; river spaces never take reinforcements.
    assert "reinforce 21L with 30" not in legal
    assert "reinforce 20W with 30" not in legal
    assert "reinforce 20L with 30" not in legal  # taken
    script.run()
    assert state.to_dict()["knights"] == {"20L": 0, "22L": 1, "48L": 2, "19L": 0}
    # Seat 1's side: 21L touches seat 0's knight, 23L is fine.
    legal = legal_strings(state)
    assert state.current_player() == 1
    assert not any(t.startswith("reinforce 21L") for t in legal)
    assert any(t.startswith("reinforce 23L") for t in legal)


# --------------------------------------------------------------------------------------------
# Bastions
# --------------------------------------------------------------------------------------------


def test_bastions_one_per_turn_three_per_player(make):
    turns = [
        "bastion 21L; 20L",
        far(0),
        far(1),
        "bastion 5L; " + far(2),
        far(3),
        far(4),
        "bastion 9L; " + far(5),
        "22L",
        far(6),
    ]
    script = Script(make, turns)
    state = script.state
    legal = legal_strings(state)
    bastions = {t for t in legal if t.startswith("bastion")}
    assert len(bastions) == 112  # every free land space, islands included, no river
    assert "bastion 1L" in bastions and "bastion 10-11" in bastions
    assert "bastion 1W" not in bastions
    after = step(state.clone(), "bastion 21L")
    snap = after.to_dict()
    assert after.current_player() == 0 and snap["bastion_placed"]
    assert snap["bastions"] == ["21L"] and snap["bastions_left"] == [2, 3, 3]
    assert not any(t.startswith("bastion") for t in legal_strings(after))
    with pytest.raises(ValueError):
        step(after, "bastion 22L")
    step(after, "20L")
    assert after.to_dict()["phase"] == "draw" and not after.to_dict()["bastion_placed"]
    script.run(7)
    snap = state.to_dict()
    assert snap["bastions_left"] == [0, 3, 3] and not snap["bastion_placed"]
    assert state.current_player() == 1
    script.run(8)
    script.run()
    # Seat 0 has none left; the bastion is neutral and keeps 20L and 22L apart.
    assert state.current_player() == 0
    assert not any(t.startswith("bastion") for t in legal_strings(state))
    snap = state.to_dict()
    assert snap["knights"]["20L"] == 0 and snap["knights"]["22L"] == 1
    assert snap["domains"] == [] and snap["bastions"] == ["5L", "9L", "21L"]
    assert not any("21L" in t for t in legal_strings(state))


# --------------------------------------------------------------------------------------------
# Domains, ownership, dukes, takeovers
# --------------------------------------------------------------------------------------------


def test_domain_ownership_and_takeover(make):
    turns = [
        "20L",
        "21L",
        far(0),
        "reinforce 19L with 30",
        "22L",
        far(1),
        far(2),
        "reinforce 23L with 31",
    ]
    script = Script(make, turns)
    state = script.run(2)
    snap = state.to_dict()
    # Two knights of different colours: a domain without a duke.
    assert snap["domains"] == [
        {"spaces": ["20L", "21L"], "owner": None, "duke": False, "bishop": False, "value": 0}
    ]
    script.run(4)
    snap = state.to_dict()
    # 2 against 1: seat 0's duke. 19L touches S9 (church): value 1 + 1, a bishop.
    assert snap["domains"] == [
        {
            "spaces": ["19L", "20L", "21L"],
            "owner": 0,
            "duke": True,
            "bishop": True,
            "value": 2,
        }
    ]
    assert snap["bishops"] == [1, 0, 0] and snap["archbishop"] == 0
    script.run(5)
    snap = state.to_dict()
    # 2 against 2: the owner stays; 22L adds S11 (city 3).
    assert domain_of(snap, "22L") == {
        "spaces": ["19L", "20L", "21L", "22L"],
        "owner": 0,
        "duke": True,
        "bishop": True,
        "value": 5,
    }
    assert snap["points"] == [0, 0, 0]
    script.run()
    snap = state.to_dict()
    # 3 against 2: seat 1 takes over; seat 0 banks the old domain's value (5).
    assert domain_of(snap, "23L")["owner"] == 1
    assert domain_of(snap, "23L")["value"] == 5
    assert snap["points"] == [5, 0, 0]
    assert snap["scores"] == [5, 0, 0] and state.scores() == [5.0, 0.0, 0.0]
    assert snap["bishops"] == [0, 1, 0] and snap["archbishop"] == 1


def test_one_player_domain_needs_two_knights(make):
    script = Script(make, ["20L", far(0), far(1), "reinforce 21L with 30"])
    state = script.run(3)
    assert state.to_dict()["domains"] == []
    script.run()
    assert state.to_dict()["domains"] == [
        {"spaces": ["20L", "21L"], "owner": 0, "duke": True, "bishop": False, "value": 1}
    ]


def test_merge_majority_keeps_most_valuable_duke(make):
    # Seat 0: {7R, 8R} (S4 city 2: value 3) and {10R, 11R} (value 1), joined by 9R.
    turns = [
        "7R", far(0), far(1),
        "reinforce 8R with 30", far(2), far(3),
        "10R", far(4), far(5),
        "reinforce 11R with 31", far(6), far(7),
        "9R",
    ]  # fmt: skip
    script = Script(make, turns)
    state = script.run(12)
    snap = state.to_dict()
    assert [(d["spaces"], d["owner"], d["value"]) for d in snap["domains"]] == [
        (["7R", "8R"], 0, 3),
        (["10R", "11R"], 0, 1),
    ]
    script.run()
    snap = state.to_dict()
    merged = domain_of(snap, "9R")
    assert merged["spaces"] == ["7R", "8R", "9R", "10R", "11R"]
    assert merged["owner"] == 0 and merged["value"] == 3
    assert snap["points"] == [1, 0, 0]  # the less valuable duke is scored and removed


def test_merge_without_majority_scores_everybody(make):
    turns = [
        "7R", "10R", far(0),
        "reinforce 8R with 30", "reinforce 11R with 31", "9R",
    ]  # fmt: skip
    script = Script(make, turns)
    state = script.run(5)
    assert [d["owner"] for d in state.to_dict()["domains"]] == [0, 1]
    script.run()
    snap = state.to_dict()
    assert snap["domains"] == [
        {
            "spaces": ["7R", "8R", "9R", "10R", "11R"],
            "owner": None,
            "duke": False,
            "bishop": False,
            "value": 2,
        }
    ]
    assert snap["points"] == [3, 1, 0]


def test_merge_new_majority_places_a_new_duke(make):
    turns = [
        "6R", "8R", "11R",
        "7R", "10R", "reinforce 12R with 30",
        far(0), "9R",
    ]  # fmt: skip
    script = Script(make, turns)
    state = script.run(7)
    snap = state.to_dict()
    assert [(d["spaces"], d["owner"], d["value"]) for d in snap["domains"]] == [
        (["6R", "7R", "8R"], 0, 3),
        (["10R", "11R", "12R"], 2, 2),
    ]
    script.run()
    snap = state.to_dict()
    merged = domain_of(snap, "9R")
    assert merged["owner"] == 1 and merged["value"] == 1 + 2 + 1 and merged["bishop"]
    assert snap["points"] == [3, 0, 2]
    assert snap["bishops"] == [0, 1, 0] and snap["archbishop"] == 1


def test_merge_owner_of_one_old_domain_keeps_it(make):
    turns = [
        "7R", "10R", far(0),
        "reinforce 8R with 30", "reinforce 11R with 31", far(1),
        "12R", far(2), far(3),
        "9R",
    ]  # fmt: skip
    script = Script(make, turns)
    state = script.run(9)
    snap = state.to_dict()
    assert [(d["spaces"], d["owner"], d["value"]) for d in snap["domains"]] == [
        (["7R", "8R"], 0, 3),
        (["10R", "11R", "12R"], 1, 2),
    ]
    script.run()
    snap = state.to_dict()
    assert domain_of(snap, "9R")["owner"] == 0
    assert snap["points"] == [0, 2, 0]


# --------------------------------------------------------------------------------------------
# Castles
# --------------------------------------------------------------------------------------------


def test_castle_of_a_new_domain_goes_to_the_placer(make):
    script = Script(make, ["6L", "7L"])
    state = script.run()
    snap = state.to_dict()
    # 1 against 1 on the spaces; the castle knight makes it 2 against 1: seat 1's duke.
    assert snap["castle_knights"] == {"S3": 1}
    assert snap["knights_left"] == [24, 23, 25]
    assert snap["domains"] == [
        {"spaces": ["6L", "7L"], "owner": 1, "duke": True, "bishop": False, "value": 2}
    ]


def test_castle_goes_to_the_owner_and_changes_hands(make):
    turns = [
        "5L", far(0), far(1),
        "reinforce 6L with 30", "7L", far(2),
        far(3), "reinforce 8L with 31", far(4),
        far(5), "reinforce 9L with 32", far(6),
        far(7), "reinforce 10L with 33",
    ]  # fmt: skip
    script = Script(make, turns)
    state = script.run(5)
    snap = state.to_dict()
    assert snap["castle_knights"] == {"S3": 0}  # the owner's, not the placer's
    assert snap["knights_left"] == [22, 23, 24]
    assert domain_of(snap, "7L")["owner"] == 0
    script.run(11)
    snap = state.to_dict()
    # 2 + castle against 3: the owner stays.
    assert domain_of(snap, "9L")["owner"] == 0 and snap["castle_knights"] == {"S3": 0}
    script.run()
    snap = state.to_dict()
    # 4 against 3: seat 1 takes over, seat 0 banks 1 + castle 1, the castle changes colour.
    assert domain_of(snap, "10L")["owner"] == 1
    assert snap["points"] == [2, 0, 0]
    assert snap["castle_knights"] == {"S3": 1}
    assert snap["knights_left"] == [25 - 6 + 1, 25 - 5 - 1, 25 - 4]


def test_tie_keeps_owner_and_castle(make):
    # 6L/7L: seat 1's castle and duke; seat 2 ties it up 2 against 2: nothing changes.
    script = Script(make, ["6L", "7L", "8L", far(0), far(1), "reinforce 9L with 30"])
    state = script.run(3)
    snap = state.to_dict()
    assert domain_of(snap, "8L")["owner"] == 1 and snap["castle_knights"] == {"S3": 1}
    script.run()
    snap = state.to_dict()
    assert domain_of(snap, "8L")["owner"] == 1 and snap["castle_knights"] == {"S3": 1}


# --------------------------------------------------------------------------------------------
# Bishops and the archbishop
# --------------------------------------------------------------------------------------------


def test_bishops_and_tied_archbishop(make):
    turns = ["4R", "12R", far(0), "reinforce 5R with 30", "reinforce 13R with 31"]
    script = Script(make, turns)
    state = script.run(4)
    snap = state.to_dict()
    assert snap["bishops"] == [1, 0, 0] and snap["archbishop"] == 0
    script.run()
    snap = state.to_dict()
    assert snap["bishops"] == [1, 1, 0] and snap["archbishop"] is None


def test_archbishop_displaces(make):
    turns = [
        "4R", "29L", far(0),
        "reinforce 5R with 40", "reinforce 30L with 41", "bastion 31L; " + far(1),
        "28L", far(2), far(3),
        "30L",
    ]  # fmt: skip
    script = Script(make, turns, keep={0: [31]})
    state = script.run(7)
    snap = state.to_dict()
    assert snap["archbishop"] == 0
    # {28L s0, 29L s1, 30L s1}: seat 1 owns it; 30L touches S15 (city 2): value 3.
    assert domain_of(snap, "29L") == {
        "spaces": ["28L", "29L", "30L"],
        "owner": 1,
        "duke": True,
        "bishop": False,
        "value": 3,
    }
    script.run(9)
    legal = legal_strings(state)
    assert "30L" in legal and "30R" in legal  # displacement even though 30R is free
    assert "30W" not in legal
    assert "31L" not in legal and "31R" in legal  # never a bastion
    assert not any(t.startswith("reinforce 30L") for t in legal)  # never by reinforcement
    before = state.to_dict()["knights_left"]
    script.run()
    snap = state.to_dict()
    assert snap["knights"]["30L"] == 0
    assert snap["knights_left"] == [before[0] - 1, before[1] + 1, before[2]]
    # 2 against 1 now: seat 0 takes over, seat 1 banks 3.
    assert domain_of(snap, "30L")["owner"] == 0
    assert snap["points"] == [0, 3, 0]


def test_without_archbishop_no_displacement(make):
    script = Script(make, ["28L", far(0), far(1), "reinforce 29L with 30"], keep={1: [29]})
    state = script.run()
    assert state.current_player() == 1 and state.to_dict()["archbishop"] is None
    legal = legal_strings(state)
    assert "29R" in legal and "29L" not in legal


# --------------------------------------------------------------------------------------------
# Discarding a hand that cannot place
# --------------------------------------------------------------------------------------------


def test_discard_only_when_no_card_places(make):
    state = make("rheinlaender", map=tiny_map()).new_initial_state()
    assert state.to_dict()["phase"] == "deal"  # no sites: no landmark nodes
    deal(state, [[7, 8, 9, 10, 11], [12, 13, 14, 15, 16], [1, 2, 3, 4, 5]])
    step(state, "bastion A", "P7", "card 6")
    step(state, "bastion B", "P12")
    assert state.chance_outcomes() == [(RESHUFFLE, 1.0)]  # only the reshuffle card
    step(state, "reshuffle")
    assert state.legal_actions() == [7, 12]
    step(state, "card 7")
    legal = legal_strings(state)
    assert "C with 5" in legal and "bastion C" in legal
    assert not any(t.startswith("discard") for t in legal)
    step(state, "bastion C")
    assert legal_strings(state) == {f"discard {c}" for c in (1, 2, 3, 4, 5)}
    step(state, "discard 3")
    snap = state.to_dict()
    assert snap["hands"][2] == [1, 2, 4, 5] and snap["discard"] == [3]
    assert snap["knights_left"][2] == 25 and snap["phase"] == "draw"


# --------------------------------------------------------------------------------------------
# End of the game and scoring
# --------------------------------------------------------------------------------------------


def _random_game(make, players, seed, **params):
    state = make("rheinlaender", players=players, **params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _expected_final(snap):
    final = list(snap["points"])
    for domain in snap["domains"]:
        if domain["owner"] is not None:
            final[domain["owner"]] += 5 + domain["value"] - 1
    if snap["archbishop"] is not None:
        final[snap["archbishop"]] += 5
    return final


def _expected_returns(scores):
    n = len(scores)
    best = max(scores)
    k = scores.count(best)
    if k == n:
        return [0.0] * n
    return [1.0 / k if s == best else -1.0 / (n - k) for s in scores]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_end_after_the_last_knight_and_final_scoring(make, players):
    state = make("rheinlaender", players=players).new_initial_state()
    rng = random.Random(players)
    previous = None
    while not state.is_terminal():
        previous = state.clone()
        assert min(state.to_dict()["knights_left"]) >= 1
        state.apply_action(rng.choice(state.legal_actions()))
    snap = state.to_dict()
    assert snap["end_reason"] == "knights" and snap["phase"] == "terminal"
    assert state.current_player() == -4 and state.legal_actions() == []
    # The game ended right after a decision: no draw for that turn.
    assert previous.current_player() >= 0
    assert snap["turn"] == previous.to_dict()["turn"] + 1
    assert snap["scores"] == _expected_final(snap)
    assert state.scores() == [float(s) for s in snap["scores"]]
    assert state.returns() == pytest.approx(_expected_returns(snap["scores"]))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_castle_completed_by_the_last_knight(make):
    """A last knight that completes a castle: the castle is manned anyway (extra knight)."""
    for seed in range(200):
        state = make("rheinlaender").new_initial_state()
        rng = random.Random(seed)
        found = None
        while not state.is_terminal():
            snap = state.to_dict()
            if state.current_player() >= 0 and snap["knights_left"][state.current_player()] == 1:
                found = _castle_move(state, snap)
                if found is not None:
                    break
            state.apply_action(rng.choice(state.legal_actions()))
        if found is None:
            continue
        action, site = found
        seat = state.current_player()
        state.apply_action(action)
        snap = state.to_dict()
        assert state.is_terminal() and snap["end_reason"] == "knights"
        assert site in snap["castle_knights"]
        holder = snap["castle_knights"][site]
        if holder == seat:
            assert snap["knights_left"][seat] == 0  # the extra knight came from outside
        assert min(snap["knights_left"]) >= 0
        assert snap["scores"] == _expected_final(snap)
        return
    pytest.fail("no game found where a last knight completes a castle")


def _castle_move(state, snap):
    board = shipped_map()
    kinds = snap["landmarks"]
    for action in state.legal_actions():
        text = state.action_to_string(action)
        if text.startswith(("bastion", "discard")):
            continue
        space = text.split()[1] if text.startswith("reinforce") else text.split()[0]
        if space in snap["knights"]:
            continue  # a displacement completes nothing
        for site in board["sites"]:
            touches = site["touches"]
            if (
                kinds[site["id"]]["kind"] == "castle"
                and site["id"] not in snap["castle_knights"]
                and space in touches
                and all(t in snap["knights"] or t == space for t in touches)
            ):
                return action, site["id"]
    return None


def test_max_turns_ends_in_a_draw(make):
    state = _random_game(make, 3, 7, max_turns=6)
    snap = state.to_dict()
    assert snap["end_reason"] == "max_turns" and snap["turn"] == 6
    assert state.returns() == [0.0, 0.0, 0.0]
    assert snap["scores"] == _expected_final(snap)


# --------------------------------------------------------------------------------------------
# Errors leave the state unchanged
# --------------------------------------------------------------------------------------------


def test_illegal_action_leaves_state_unchanged(make):
    script = Script(make, ["12L"])
    state = script.state
    before = state.to_dict()
    history = state.history()
    for bad in ["12W", "13L", "discard 12"]:
        with pytest.raises(ValueError, match="player 0"):
            state.apply_action(state.string_to_action(bad))
        assert state.to_dict() == before and state.history() == history
    for chance_outcome in ["card 3", "castle"]:  # not even a decision of this node
        with pytest.raises(ValueError, match="unknown Rheinländer action"):
            state.string_to_action(chance_outcome)
        assert state.to_dict() == before and state.history() == history


# --------------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------------


def _two_tables(make, last_card_of_seat_1, draw_of_seat_1):
    state = lay(make("rheinlaender").new_initial_state())
    deal(state, [[1, 2, 3, 4, 5], [6, 7, 8, 9, last_card_of_seat_1], [11, 12, 13, 14, 15]])
    step(state, "1L", "card 20", "6L", f"card {draw_of_seat_1}", "11L", "card 22")
    return state


def test_other_hands_are_hidden(make):
    a = _two_tables(make, 10, 30)
    b = _two_tables(make, 50, 31)
    assert a.to_dict() != b.to_dict()
    for p in (0, 2):
        np.testing.assert_array_equal(a.observation_tensor(p), b.observation_tensor(p))
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_string(p) == b.information_state_string(p)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert a.observation_string(1) != b.observation_string(1)
    assert a.information_state_string(1) != b.information_state_string(1)
    tokens = a.information_state_string(0).split()
    assert len(tokens) == len(a.history())
    assert tokens.count("?") == 5 + 1 + 5 + 1  # seats 1 and 2: their deals and draws
    assert tokens[-1] == "?" and tokens[-2] == str(a.history()[-2])


def test_observation_tensor_layout(make):
    state = _two_tables(make, 10, 30)
    S, T, N, n = 166, 26, 54, 3
    a6 = 2 * n * S + 2 * S + 4 * T + n * T
    a9 = a6 + 2 * N + 8 * n
    obs0 = state.observation_tensor(0)
    obs1 = state.observation_tensor(1)
    assert obs0.dtype == np.float32 and obs0.shape == (1651,)
    assert obs0[0] == 1.0 and obs1[2 * S + 0] == 1.0  # 1L: seat 0's knight
    assert obs0[S + 15] == 1.0 and obs1[15] == 1.0  # 6L: seat 1's knight
    hand0 = [c + 1 for c in range(N) if obs0[a6 + c] == 1.0]
    assert hand0 == state.to_dict()["hands"][0]
    assert [c + 1 for c in range(N) if obs0[a6 + N + c] == 1.0] == [1, 6, 11]
    assert obs0[a9 + 2 + 2] == 1.0  # phase play
    assert obs0[a6 + 2 * N + 6] == 1.0  # seat 0 (relative 0) is to decide
    assert obs0[a9] == pytest.approx(37 / 55)


def test_resample_from_infostate(make):
    state = _two_tables(make, 10, 30)
    hands = []
    for seed in range(12):
        other = state.resample_from_infostate(0, seed)
        assert other.information_state_string(0) == state.information_state_string(0)
        np.testing.assert_array_equal(other.observation_tensor(0), state.observation_tensor(0))
        assert other.observation_string(0) == state.observation_string(0)
        assert other.legal_actions() == state.legal_actions()
        snap = other.to_dict()
        assert snap["hands"][0] == state.to_dict()["hands"][0]
        assert snap["knights"] == state.to_dict()["knights"]
        hands.append(tuple(tuple(h) for h in snap["hands"][1:]))
        held = [c for h in snap["hands"] for c in h]
        assert len(held) == len(set(held)) and not set(held) & set(snap["discard"])
    assert len(set(hands)) > 1


@pytest.mark.parametrize("players", [3, 5])
def test_resample_in_random_games(make, players):
    rng = random.Random(players)
    state = make("rheinlaender", players=players).new_initial_state()
    checked = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        if len(state.history()) % 37 == 0 and state.to_dict()["phase"] != "landmarks":
            p = rng.randrange(players)
            other = state.resample_from_infostate(p, rng.randrange(1000))
            assert other.information_state_string(p) == state.information_state_string(p)
            np.testing.assert_array_equal(other.observation_tensor(p), state.observation_tensor(p))
            assert other.to_dict()["hands"][p] == state.to_dict()["hands"][p]
            checked += 1
    assert checked >= 4


# --------------------------------------------------------------------------------------------
# Random games
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games(make, players):
    game = make("rheinlaender", players=players)
    board = shipped_map()
    for seed in range(4):
        rng = random.Random(1000 * players + seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal))
            strings = [state.action_to_string(a) for a in legal]
            assert len(set(strings)) == len(strings)
            if state.is_chance_node():
                assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
            if steps % 25 == 0:
                _check_invariants(state, board, game.num_players)
            state.apply_action(rng.choice(legal))
            steps += 1
        _check_invariants(state, board, game.num_players)
        assert "game over" in str(state) and "view of seat 0" in state.observation_string(0)
        assert steps == len(state.history()) <= game.max_game_length
        assert sum(state.returns()) == pytest.approx(0.0)
        assert max(state.returns()) > 0 or state.returns() == [0.0] * players


def _check_invariants(state, board, players):
    snap = state.to_dict()
    assert json.loads(json.dumps(snap)) == snap
    expected = expected_domains(snap, board)
    assert [d["spaces"] for d in snap["domains"]] == [d["spaces"] for d in expected]
    for domain, marks in zip(snap["domains"], expected):
        owner = domain["owner"]
        assert domain["duke"] == (owner is not None)
        assert domain["value"] == marks["landmarks"] + (1 if owner is not None else 0)
        if owner is not None:
            # In an owned domain every castle knight is the owner's.
            spaces = set(domain["spaces"])
            for site in board["sites"]:
                if site["id"] in snap["castle_knights"] and set(site["touches"]) <= spaces:
                    assert snap["castle_knights"][site["id"]] == owner
    per_seat = [0] * players
    for seat in snap["knights"].values():
        per_seat[seat] += 1
    for seat in snap["castle_knights"].values():
        per_seat[seat] += 1
    knights = KNIGHTS[players]
    for seat in range(players):
        assert 0 <= snap["knights_left"][seat] <= knights
        assert per_seat[seat] + snap["knights_left"][seat] >= knights
    bishops = [0] * players
    for domain in snap["domains"]:
        if domain["bishop"]:
            bishops[domain["owner"]] += 1
    assert snap["bishops"] == bishops
    best = max(bishops)
    leader = bishops.index(best) if best > 0 and bishops.count(best) == 1 else None
    assert snap["archbishop"] == leader
    held = [c for hand in snap["hands"] for c in hand]
    assert len(held) + len(snap["discard"]) + snap["deck_size"] == 55


def test_chips_fill_helper_uses_every_chip():
    chips = fill_chips({})
    assert sorted(chips) == sorted(
        ["castle"] * 7 + ["church"] * 7 + ["city 2"] * 4 + ["city 3"] * 4 + ["city 4"] * 4
    )
    assert re.fullmatch(r"city \d", fill_chips({"S1": "city 4"})[0])
