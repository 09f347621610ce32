"""Rules tests for Rosenkönig, from docs/rules/rosenkoenig.md and the rulebook. One module on
purpose, long as the rules are: it is read beside the rules page, rule by rule.

Every test takes the ``make`` fixture (tests/conftest.py) and so runs on the
pure-Python reference and on the engine. Positions are built by applying actions; the deal and
every draw are chance outcomes chosen explicitly, so each test controls the cards.

Board pictures in comments: row 0 at the top (north), ``*`` marks the crown.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from .helpers import (
    CARDS,
    DRAW,
    PASS,
    colour_stats,
    deal,
    expected_legal,
    expected_returns,
    legal_strings,
    new_state,
    play,
    random_game,
)

SNAPSHOT_KEYS = [
    "board",
    "crown",
    "hands",
    "heroes",
    "stones_left",
    "draw_pile",
    "discard",
    "current_player",
    "receiving",
    "scores",
]

# A plain deal used by several tests.
BASIC_DEAL = [["N1", "NE2", "E3", "S1", "W2"], ["N2", "SE1", "SW3", "NW1", "W1"]]
# After R NW3 -> (1,1) and W NW1 -> (0,0) all other cards of this deal leave the board.
CORNER_DEAL = [["NW3", "N1", "N2", "N3", "NE1"], ["NW1", "W1", "W2", "W3", "SW1"]]

# --------------------------------------------------------------------------------------------
# Game object and parameters
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "length", "shape"), [(2, 311, (81, 9, 9)), (4, 555, (133, 9, 9))]
)
def test_game_attributes(make, players, length, shape):
    game = make("rosenkoenig", players=players)
    assert game.name == "rosenkoenig"
    assert game.params == {"players": players}
    assert game.num_players == players
    assert game.num_distinct_actions == 50
    assert game.max_game_length == length
    assert tuple(game.observation_shape) == shape


def test_default_params(make):
    game = make("rosenkoenig")
    assert game.params == {"players": 2}
    assert json.loads(json.dumps(game.params)) == {"players": 2}


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 1}, {"players": "2"}])
def test_bad_players_value(make, params):
    with pytest.raises(ValueError, match="players") as info:
        make("rosenkoenig", **params)
    assert "2" in str(info.value) and "4" in str(info.value)


def test_unknown_parameter(make):
    with pytest.raises(ValueError, match="players"):
        make("rosenkoenig", board_size=9)


def test_unknown_game(make):
    with pytest.raises(ValueError, match="rosenkoenig"):
        make("rosenkonig")


# --------------------------------------------------------------------------------------------
# Setup: the deal
# --------------------------------------------------------------------------------------------


def test_deal_is_chance_in_seat_order(make):
    state = new_state(make)
    assert state.is_chance_node()
    assert state.current_player() == -1
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(24))
    assert all(p == pytest.approx(1 / 24) for _, p in outcomes)
    assert state.legal_actions() == list(range(24))
    assert [state.action_to_string(a) for a in range(24)] == CARDS
    receivers = []
    cards = ["NW3", "N1", "SE2", "E1", "W3", "S1", "S2", "S3", "NE1", "SW2"]
    for text in cards:
        snap = state.to_dict()
        assert snap["current_player"] == -1
        receivers.append(snap["receiving"])
        state.apply_action(state.string_to_action(text))
    assert receivers == [0] * 5 + [1] * 5
    snap = state.to_dict()
    assert not state.is_chance_node()
    assert state.current_player() == 0
    assert snap["receiving"] is None
    # Hands are listed ascending by card id.
    assert snap["hands"] == [["N1", "E1", "SE2", "W3", "NW3"], ["NE1", "S1", "S2", "S3", "SW2"]]
    assert len(snap["draw_pile"]) == 14 and snap["discard"] == []
    assert sorted(snap["draw_pile"] + cards, key=CARDS.index) == CARDS
    assert snap["heroes"] == [4, 4]
    assert snap["stones_left"] == 52
    assert snap["crown"] == [4, 4]
    assert snap["board"] == ["........."] * 9
    assert state.history() == [CARDS.index(c) for c in cards]


def test_opening_legal_actions(make):
    red = ["N3", "NE1", "SE2", "W3", "NW3"]
    state = deal(new_state(make), [red, ["S1", "S2", "E1", "E2", "N1"]])
    # From the centre every card stays on the board; no stones yet, so no hero; hand full.
    assert state.legal_actions() == sorted(CARDS.index(c) for c in red)


# --------------------------------------------------------------------------------------------
# Playing a card
# --------------------------------------------------------------------------------------------


def test_play_places_stone_moves_crown_and_discards(make):
    state = deal(new_state(make), BASIC_DEAL)
    play(state, "N1")
    snap = state.to_dict()
    assert snap["board"][3] == "....R...."
    assert snap["crown"] == [3, 4]
    assert snap["stones_left"] == 51
    assert snap["hands"][0] == ["NE2", "E3", "S1", "W2"]
    assert snap["discard"] == ["N1"]
    assert snap["current_player"] == 1
    play(state, "SE1")  # White: (3,4) -> (4,5)
    snap = state.to_dict()
    assert snap["board"][4] == ".....W..."
    assert snap["crown"] == [4, 5]
    assert snap["discard"] == ["N1", "SE1"]
    assert snap["stones_left"] == 50
    assert snap["current_player"] == 0


def test_crown_may_pass_over_stones(make):
    state = deal(
        new_state(make), [["N1", "N2", "E3", "S3", "W2"], ["S1", "SE1", "SW3", "NW1", "W1"]]
    )
    play(state, "N1", "S1")  # R (3,4); W (4,4)
    # N2 from (4,4) jumps over the red stone on (3,4) and lands on the empty (2,4).
    assert "N2" in legal_strings(state)
    play(state, "N2")
    assert state.to_dict()["board"][2] == "....R...."


def test_card_cannot_land_on_own_stone(make):
    state = deal(
        new_state(make), [["N1", "N2", "E3", "S3", "W2"], ["S2", "S1", "SW3", "NW1", "W1"]]
    )
    play(state, "N1", "S2")  # R (3,4), W (5,4); crown on (5,4)
    # Red: N2 would land on its own stone (3,4): illegal with or without hero.
    legal = legal_strings(state)
    assert "N2" not in legal and "hero N2" not in legal
    assert {"E3", "S3", "W2", "draw"} <= legal


@pytest.mark.parametrize(
    ("direction", "inward", "diagonal"),
    [("N", "S", "NE"), ("E", "W", "SE"), ("S", "N", "SW"), ("W", "E", "NW")],
)
def test_cards_leaving_the_board_are_illegal(make, direction, inward, diagonal):
    # Red plays <direction>3: the crown ends one square from that edge. White then holds the
    # distance-1 and distance-2 cards towards the edge (straight and diagonal) and one inward card.
    white = [direction + "1", direction + "2", diagonal + "1", diagonal + "2", inward + "1"]
    used = {direction + "3", *white}
    red = [direction + "3", *[c for c in CARDS if c not in used][:4]]
    state = deal(new_state(make), [red, white])
    play(state, direction + "3")
    assert state.current_player() == 1
    # Distance 1 reaches the edge row/column; distance 2 would leave the board.
    assert legal_strings(state) == {direction + "1", diagonal + "1", inward + "1"}
    play(state, direction + "1")  # now the crown is on the edge itself
    crown = state.to_dict()["crown"]
    assert 0 in crown or 8 in crown


def test_cards_leaving_the_board_from_a_corner(make):
    red = ["NW3", "N1", "N2", "NE1", "W1"]
    white = ["NW1", "SW1", "W2", "N3", "E1"]
    state = deal(new_state(make), [red, white])
    play(state, "NW3", "NW1")  # R (1,1); W (0,0), crown in the north-west corner
    # Red: N1, N2, NE1, W1 all leave the board; only drawing remains.
    assert legal_strings(state) == {"draw"}


# --------------------------------------------------------------------------------------------
# Heroes
# --------------------------------------------------------------------------------------------

HERO_DEAL = [["N1", "W1", "S1", "E1", "SW1"], ["S2", "NE1", "N3", "E3", "W3"]]


def hero_position(make):
    """Crown on the centre after: R N1 (3,4); W S2 (5,4); R W1 (5,3); W NE1 (4,4).

    . . . . R . . . .    row 3
    . . . . W*. . . .    row 4
    . . . R W . . . .    row 5
    Red to move with S1 (onto White's (5,4)), E1 (empty (4,5)), SW1 (own (5,3)).
    """
    state = deal(new_state(make), HERO_DEAL)
    return play(state, "N1", "S2", "W1", "NE1")


def test_hero_legality(make):
    state = hero_position(make)
    assert state.current_player() == 0
    # S1 only with a hero (opponent stone); E1 only without (empty square);
    # SW1 never (own stone); draw since the hand has 3 cards.
    assert legal_strings(state) == {"hero S1", "E1", "draw"}
    assert state.string_to_action("hero S1") == 24 + CARDS.index("S1")


def test_hero_flips_opponent_stone_and_uses_no_supply_stone(make):
    state = hero_position(make)
    before = state.to_dict()
    assert before["stones_left"] == 48
    play(state, "hero S1")
    after = state.to_dict()
    assert after["board"][5] == "...RR...."
    assert after["board"][4] == "....W...."
    assert after["crown"] == [5, 4]
    assert after["stones_left"] == 48  # no stone taken from the supply
    assert after["heroes"] == [3, 4]
    assert after["hands"][0] == ["E1", "SW1"]
    assert "S1" in after["discard"]
    assert sum(row.count("R") + row.count("W") for row in after["board"]) == 4
    # Red: (3,4) and the pair (5,3)-(5,4) -> 1 + 4; White: (4,4) -> 1.
    assert after["scores"] == [5, 1]
    assert state.scores() == [5, 1]
    assert state.current_player() == 1
    obs = state.observation_tensor(0)
    assert np.all(obs[76] == 0.75)  # Red's heroes left / 4
    assert np.all(obs[77] == 1.0)


def test_hero_never_lands_on_own_stone_or_empty_square(make):
    state = hero_position(make)
    ids = state.legal_actions()
    hero_e1 = 24 + CARDS.index("E1")
    hero_sw1 = 24 + CARDS.index("SW1")
    assert hero_e1 not in ids  # (4,5) is empty
    assert hero_sw1 not in ids  # (5,3) is Red's own stone
    for a in (hero_e1, hero_sw1, CARDS.index("SW1"), CARDS.index("S1")):
        with pytest.raises(ValueError):
            state.apply_action(a)
    assert state.to_dict() == hero_position(make).to_dict()


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------


def test_draw_only_below_hand_limit_and_even_when_a_card_is_playable(make):
    state = deal(new_state(make), BASIC_DEAL)
    assert DRAW not in state.legal_actions()  # 5 cards: the hand is full
    play(state, "N1")
    assert DRAW not in state.legal_actions()  # White still holds 5
    play(state, "SE1")
    legal = legal_strings(state)
    assert "draw" in legal
    assert {"NE2", "E3", "S1", "W2"} & legal  # playable cards do not forbid drawing
    play(state, "draw")
    snap = state.to_dict()
    assert state.is_chance_node() and snap["current_player"] == -1
    assert snap["receiving"] == 0
    assert len(snap["draw_pile"]) == 14
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == sorted(CARDS.index(c) for c in snap["draw_pile"])
    assert state.legal_actions() == [a for a, _ in outcomes]
    assert all(p == pytest.approx(1 / 14) for _, p in outcomes)
    play(state, "S3")
    snap = state.to_dict()
    assert snap["hands"][0] == ["NE2", "E3", "S1", "S3", "W2"]
    assert len(snap["draw_pile"]) == 13
    assert snap["current_player"] == 1 and snap["receiving"] is None
    play(state, "SW3")  # White; then Red holds 5 again
    assert DRAW not in state.legal_actions()


def test_draw_pile_is_refilled_from_discard_as_soon_as_last_card_is_drawn(make):
    # Deterministic line: every player draws whenever allowed, otherwise plays its lowest legal
    # action; every chance outcome is the lowest card left.
    state = new_state(make)
    while True:
        assert not state.is_terminal()
        if state.is_chance_node():
            snap = state.to_dict()
            if len(snap["draw_pile"]) == 1 and snap["receiving"] is not None and snap["discard"]:
                break
            state.apply_action(state.legal_actions()[0])
        else:
            legal = state.legal_actions()
            state.apply_action(DRAW if DRAW in legal else legal[0])
    before = state.to_dict()
    drawer = before["receiving"]
    last = before["draw_pile"][0]
    play(state, last)
    after = state.to_dict()
    assert last in after["hands"][drawer]
    assert after["draw_pile"] == before["discard"]  # at once, not at the next draw
    assert after["discard"] == []
    # The next draw is uniform over the former discard pile.
    while not state.is_chance_node():
        legal = state.legal_actions()
        state.apply_action(DRAW if DRAW in legal else legal[0])
    outcomes = state.chance_outcomes()
    pile = state.to_dict()["draw_pile"]
    assert [a for a, _ in outcomes] == sorted(CARDS.index(c) for c in pile)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(p == pytest.approx(1 / len(pile)) for _, p in outcomes)


# --------------------------------------------------------------------------------------------
# Passing and the end of the game
# --------------------------------------------------------------------------------------------


def test_pass_only_when_nothing_else_is_possible(make):
    # R NW3 -> (1,1); W NW1 -> (0,0); Red draws NE2: Red's N1 N2 N3 NE1 NE2 all leave the board.
    state = deal(
        new_state(make), [["NW3", "N1", "N2", "N3", "NE1"], ["NW1", "E1", "W1", "W2", "W3"]]
    )
    play(state, "NW3", "NW1", "draw NE2")
    assert legal_strings(state) == {"E1", "draw"}  # White may still act
    play(state, "draw SW1")
    assert state.legal_actions() == [PASS]  # Red: hand full, nothing lands on the board
    assert state.action_to_string(PASS) == "pass"
    assert not state.is_terminal()
    play(state, "pass")
    assert state.current_player() == 1
    assert legal_strings(state) == {"E1"}
    play(state, "E1")  # W (0,1)
    assert state.legal_actions() == [PASS]  # Red, from (0,1): still nothing on the board
    assert not state.is_terminal()


def test_game_ends_when_no_player_can_act(make):
    # R NW3 -> (1,1), W NW1 -> (0,0); both then fill their hands with cards that leave the board.
    state = deal(new_state(make), CORNER_DEAL)
    play(state, "NW3", "NW1", "draw NE2")
    assert not state.is_terminal()
    assert legal_strings(state) == {"draw"}
    play(state, "draw")
    assert not state.is_terminal()
    play(state, "SW2")  # White's hand is full too: nobody can act
    assert state.is_terminal()
    assert state.current_player() == -4
    assert state.legal_actions() == []
    snap = state.to_dict()
    assert snap["current_player"] == -4 and snap["receiving"] is None
    assert snap["stones_left"] == 50
    # One stone each: scores 1-1, largest group 1-1, stones 1-1: a draw.
    assert state.scores() == [1, 1]
    assert state.returns() == [0, 0]
    with pytest.raises(ValueError):
        state.apply_action(PASS)


def test_52nd_stone_ends_the_game_at_once(make):
    # A seeded random game that ends by the supply running out (same line on every impl).
    rng = random.Random(0)
    state = new_state(make)
    previous = None
    while not state.is_terminal():
        previous = state.to_dict()
        state.apply_action(rng.choice(state.legal_actions()))
    snap = state.to_dict()
    assert previous is not None and previous["stones_left"] == 1
    assert snap["stones_left"] == 0
    assert sum(row.count("R") + row.count("W") for row in snap["board"]) == 52
    assert state.history()[-1] < 24  # the last action placed a stone
    mover = previous["current_player"]
    nxt = (mover + 1) % 2
    # The next player could still act (draw): the game ended because of the stones.
    assert expected_legal(snap, nxt, 5) != {"pass"}
    assert state.returns() == expected_returns(snap["board"], 2)


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def test_scores_diagonal_does_not_join_and_sum_of_squares(make):
    state = deal(
        new_state(make), [["NE1", "N2", "W2", "S3", "SE3"], ["SW1", "E3", "N3", "NW3", "SE2"]]
    )
    play(state, "NE1", "SW1", "N2")
    # . . . . R . . . .    row 2   Red (2,4) and (3,5) touch only diagonally: 1 + 1
    # . . . . . R . . .    row 3
    # . . . . W . . . .    row 4
    assert state.to_dict()["scores"] == [2, 1]
    assert state.scores() == [2, 1]
    play(state, "E3", "W2")  # W (2,7); R (2,5) joins both red stones
    snap = state.to_dict()
    assert snap["board"][2] == "....RR.W."
    assert snap["scores"] == [9, 2]  # Red: one group of 3; White: 1 + 1
    assert state.scores() == [9, 2]
    assert state.returns() == [0, 0]  # not over yet


def test_tiebreak_largest_group(make):
    # Final board (crown on (0,2)):
    # . . R*. R . . . .
    # . . . . . . . . .
    # . . R . . . . . .
    # . W W . R . . . .
    # Red: four single stones = 4; White: one pair = 4. Equal scores; White's largest group (2)
    # beats Red's (1) although Red has more stones.
    red = ["NW2", "NE3", "S3", "N3", "E2"]
    white = ["SW1", "W2", "NE2", "SW3", "W3"]
    state = deal(new_state(make), [red, white])
    play(state, "NW2", "SW1", "NE3", "draw NW1", "S3", "W2", "N3", "draw NW3", "draw S2")
    play(state, "pass", "draw N1", "pass", "draw N2", "pass")
    assert not state.is_terminal()
    play(state, "draw NE1")
    assert state.is_terminal()
    snap = state.to_dict()
    assert snap["board"][:4] == ["..R.R....", ".........", "..R......", ".WW.R...."]
    assert state.scores() == [4, 4]
    assert state.returns() == [-1, 1]


def test_tiebreak_more_stones(make):
    # Final board (crown on (0,0)):
    # R*. R . . . . . .
    # . . . . . . . . .
    # . . R . . . . . .
    # . . R . W W . . .
    # . . . R . R . . .
    # . . . . . . . . .
    # . . . . . W . . .
    # . . . . . W . . .
    # Red: 2 + 1 + 1 + 1 + 1 -> 8, largest 2, 6 stones. White: 2 + 2 -> 8, largest 2, 4 stones.
    red = ["W1", "N3", "W2", "NW3", "S2"]
    white = ["SE2", "S1", "NW1", "E3", "NE3"]
    state = deal(new_state(make), [red, white])
    play(state, "W1", "SE2", "draw NW2", "S1", "N3", "NW1", "W2", "E3", "NW3", "draw SW1")
    play(state, "S2", "draw SW2", "NW2", "draw SW3", "draw E2", "draw W3", "draw N1", "pass")
    play(state, "draw N2", "pass", "draw NE1", "pass")
    assert not state.is_terminal()
    play(state, "draw NE2")
    assert state.is_terminal()
    snap = state.to_dict()
    assert colour_stats(snap["board"], "R") == (8, 2, 6)
    assert colour_stats(snap["board"], "W") == (8, 2, 4)
    assert state.scores() == [8, 8]
    assert state.returns() == [1, -1]


def test_full_tie_is_a_draw(make):
    state = deal(new_state(make), CORNER_DEAL)
    play(state, "NW3", "NW1", "draw NE2", "draw SW2")
    assert state.is_terminal()
    assert state.returns() == [0, 0]


# --------------------------------------------------------------------------------------------
# Four players
# --------------------------------------------------------------------------------------------

FOUR_DEAL = [["N1", "W2", "E3"], ["E2", "S3", "N3"], ["W1", "S2", "NW2"], ["NE1", "SE3", "SW3"]]


def test_four_players_deal_turn_order_and_teams(make):
    state = new_state(make, players=4)
    receivers = []
    for seat, cards in enumerate(FOUR_DEAL):
        for text in cards:
            receivers.append(state.to_dict()["receiving"])
            state.apply_action(state.string_to_action(text))
        assert state.to_dict()["hands"][seat] == sorted(cards, key=CARDS.index)
    assert receivers == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert len(state.to_dict()["draw_pile"]) == 12
    assert state.to_dict()["heroes"] == [2, 2, 2, 2]
    movers = []
    for move in ["N1", "E2", "W1", "NE1", "W2"]:
        movers.append(state.current_player())
        play(state, move)
    assert movers == [0, 1, 2, 3, 0]
    assert state.current_player() == 1
    # . . . . R . W . .   row 2   seats 0 and 2 lay red, 1 and 3 white
    # . . . . R R W . .   row 3
    snap = state.to_dict()
    assert snap["board"][2] == "....R.W.."
    assert snap["board"][3] == "....RRW.."
    assert snap["scores"] == [9, 4, 9, 4]
    assert state.scores() == [9, 4, 9, 4]
    obs = state.observation_tensor(2)
    assert obs.shape == (133, 9, 9)
    assert obs[0, 2, 4] == 1 and obs[1, 2, 6] == 1  # seat 2 is red
    obs = state.observation_tensor(3)
    assert obs[0, 2, 6] == 1 and obs[1, 2, 4] == 1  # seat 3 is white


def test_four_players_hand_limit_three(make):
    state = deal(new_state(make, players=4), FOUR_DEAL)
    assert DRAW not in state.legal_actions()  # 3 cards is a full hand
    play(state, "N1", "E2", "W1", "NE1")
    assert state.current_player() == 0
    assert DRAW in state.legal_actions()  # 2 cards, and W2 is playable
    assert "W2" in legal_strings(state)
    play(state, "draw N2")
    assert state.to_dict()["hands"][0] == ["N2", "E3", "W2"]
    assert state.current_player() == 1
    play(state, "S3", "S2")  # seats 1 and 2: W (5,6), R (7,6)
    assert legal_strings(state) == {"draw"}  # seat 3: SE3 and SW3 leave the board
    play(state, "draw W3")
    assert state.current_player() == 0
    assert DRAW not in state.legal_actions()  # back to 3 cards


def test_four_players_own_heroes_only(make):
    hands = [["N1", "S1", "N3"], ["S2", "W1", "E3"], ["E1", "NE1", "SE3"], ["NW1", "W3", "SW3"]]
    state = deal(new_state(make, players=4), hands)
    # s0 N1 (3,4); s1 S2 (5,4); s2 E1 (5,5); s3 NW1 (4,4)
    play(state, "N1", "S2", "E1", "NW1")
    assert "hero S1" in legal_strings(state)
    play(state, "hero S1")  # seat 0 flips White's (5,4)
    assert state.to_dict()["heroes"] == [1, 2, 2, 2]
    play(state, "W1")  # seat 1: W (5,3)
    assert state.current_player() == 2
    assert "hero NE1" in legal_strings(state)  # onto White's (4,4)
    play(state, "hero NE1")
    snap = state.to_dict()
    assert snap["heroes"] == [1, 2, 1, 2]  # each seat spends its own heroes
    assert snap["board"][4] == "....R...."
    assert snap["board"][5] == "...WRR..."
    assert snap["stones_left"] == 47


def test_four_players_seat_without_heroes_cannot_use_teammates(make):
    # Seeded random 4-player games: whenever the player to move has no hero left, no hero action
    # is legal even where its teammate still has heroes and a card lands on a white/red stone.
    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = new_state(make, players=4)
        while not state.is_terminal():
            if not state.is_chance_node():
                snap = state.to_dict()
                seat = state.current_player()
                if snap["heroes"][seat] == 0:
                    assert all(not 24 <= a < 48 for a in state.legal_actions())
                    mate = (seat + 2) % 4
                    if snap["heroes"][mate] > 0:
                        as_mate = dict(snap, heroes=[4, 4, 4, 4])
                        if any(m.startswith("hero") for m in expected_legal(as_mate, seat, 3)):
                            seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns()[0] == state.returns()[2]
        assert state.returns()[1] == state.returns()[3]
    assert seen > 0


def test_four_players_returns_equal_for_teammates(make):
    for seed in range(10):
        state = random_game(new_state(make, players=4), random.Random(seed))
        r = state.returns()
        assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]
        snap = state.to_dict()
        assert r == expected_returns(snap["board"], 4)
        red, white = colour_stats(snap["board"], "R")[0], colour_stats(snap["board"], "W")[0]
        assert state.scores() == [red, white, red, white]


# --------------------------------------------------------------------------------------------
# Action API
# --------------------------------------------------------------------------------------------


def test_illegal_action_raises_and_leaves_state_unchanged(make):
    state = deal(new_state(make), BASIC_DEAL)
    before = state.to_dict()
    history = state.history()
    for bad in [DRAW, PASS, CARDS.index("N2"), 24 + CARDS.index("N1"), 50, -1, 1000]:
        with pytest.raises(ValueError) as info:
            state.apply_action(bad)
        message = str(info.value)
        assert str(bad) in message
        assert "player" in message.lower() or "seat" in message.lower()
        assert state.to_dict() == before
        assert state.history() == history
    # At a chance node: a card that is not in the draw pile.
    play(state, "N1", "SE1", "draw")
    before = state.to_dict()
    with pytest.raises(ValueError):
        state.apply_action(CARDS.index("N1"))  # in the discard pile
    with pytest.raises(ValueError):
        state.apply_action(CARDS.index("NE2"))  # in Red's hand
    assert state.to_dict() == before


def test_action_strings(make):
    state = new_state(make)
    # At a chance node the outcomes are cards, named by the card.
    for a in range(24):
        assert state.action_to_string(a) == CARDS[a]
        assert state.string_to_action(CARDS[a]) == a
    deal(state, BASIC_DEAL)
    assert state.string_to_action("N1") == 0
    assert state.string_to_action("N3") == 2
    assert state.string_to_action("NE1") == 3
    assert state.string_to_action("NW3") == 23
    assert state.string_to_action("hero NE2") == 28
    assert state.string_to_action("draw") == 48
    assert state.string_to_action("pass") == 49
    for a in range(50):
        assert state.string_to_action(state.action_to_string(a)) == a
    for text in ["", "N4", "N0", "X1", "hero", "hero draw", "NE", "Draw"]:
        with pytest.raises(ValueError):
            state.string_to_action(text)


def test_strings_round_trip_and_probabilities_in_random_games(make):
    for players in (2, 4):
        for seed in range(5):
            rng = random.Random(seed)
            state = new_state(make, players=players)
            while not state.is_terminal():
                legal = state.legal_actions()
                strings = [state.action_to_string(a) for a in legal]
                assert len(set(strings)) == len(strings)
                assert [state.string_to_action(s) for s in strings] == legal
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                    assert [a for a, _ in outcomes] == legal
                state.apply_action(rng.choice(legal))


def test_legal_actions_follow_the_rules_in_random_games(make):
    # Every legal-action list of seeded random games checked against the rules, computed from the
    # snapshot alone; also the end rule: the game is over exactly when the supply is empty or
    # nobody can act.
    for players, limit in ((2, 5), (4, 3)):
        for seed in range(8):
            rng = random.Random(1000 + seed)
            state = new_state(make, players=players)
            game_length = 0
            while True:
                snap = state.to_dict()
                assert list(snap) == SNAPSHOT_KEYS
                if state.is_terminal():
                    stuck = all(expected_legal(snap, s, limit) == {"pass"} for s in range(players))
                    assert snap["stones_left"] == 0 or stuck
                    break
                if state.is_chance_node():
                    ids = sorted(CARDS.index(c) for c in snap["draw_pile"])
                    assert state.legal_actions() == ids
                else:
                    legal = state.legal_actions()
                    assert legal == sorted(legal)
                    seat = state.current_player()
                    assert {state.action_to_string(a) for a in legal} == expected_legal(
                        snap, seat, limit
                    )
                    assert (PASS in legal) == (legal == [PASS])
                    assert any(expected_legal(snap, s, limit) != {"pass"} for s in range(players))
                state.apply_action(rng.choice(state.legal_actions()))
                game_length += 1
            assert game_length == len(state.history())
            assert game_length <= make("rosenkoenig", players=players).max_game_length
            assert state.returns() == expected_returns(snap["board"], players)


# --------------------------------------------------------------------------------------------
# Snapshot, observation, misc API
# --------------------------------------------------------------------------------------------


def test_to_dict_schema(make):
    state = new_state(make)
    snap = state.to_dict()
    assert list(snap) == SNAPSHOT_KEYS
    assert snap["current_player"] == -1 and snap["receiving"] == 0
    assert snap["hands"] == [[], []]
    assert snap["scores"] == [0, 0]
    deal(state, CORNER_DEAL)
    play(state, "NW3")
    snap = state.to_dict()
    assert json.loads(json.dumps(snap)) == snap
    assert list(snap) == SNAPSHOT_KEYS
    assert len(snap["board"]) == 9 and all(len(row) == 9 for row in snap["board"])
    assert snap["board"][1] == ".R......."
    assert snap["crown"] == [1, 1]
    assert snap["hands"] == [["N1", "N2", "N3", "NE1"], ["SW1", "W1", "W2", "W3", "NW1"]]
    assert snap["heroes"] == [4, 4]
    assert snap["stones_left"] == 51
    assert snap["draw_pile"] == [c for c in CARDS if c not in CORNER_DEAL[0] + CORNER_DEAL[1]]
    assert snap["discard"] == ["NW3"]
    assert snap["current_player"] == 1
    assert snap["receiving"] is None
    assert snap["scores"] == [1, 0]


def test_observation_tensor_layout(make):
    state = deal(new_state(make), BASIC_DEAL)
    play(state, "N1", "SE1", "draw S2")  # R (3,4); W (4,5); Red draws S2; White to move
    for p in (0, 1):
        obs = state.observation_tensor(p)
        assert obs.dtype == np.float32
        assert obs.shape == (81, 9, 9)
        own, other = ((3, 4), (4, 5)) if p == 0 else ((4, 5), (3, 4))
        assert obs[0].sum() == 1 and obs[0][own] == 1
        assert obs[1].sum() == 1 and obs[1][other] == 1
        assert obs[2].sum() == 79 and obs[2][own] == 0 and obs[2][other] == 0
        assert obs[3].sum() == 1 and obs[3, 4, 5] == 1
        hands = state.to_dict()["hands"]
        for r in (0, 1):
            seat = (p + r) % 2
            held = {CARDS.index(c) for c in hands[seat]}
            for c in range(24):
                assert np.all(obs[4 + 24 * r + c] == (1.0 if c in held else 0.0))
        for c in range(24):
            expected = 1.0 if CARDS[c] in ("N1", "SE1") else 0.0
            assert np.all(obs[52 + c] == expected)
        assert np.all(obs[76] == 1.0) and np.all(obs[77] == 1.0)
        assert np.allclose(obs[78], 50 / 52)
        to_move = (1 - p) % 2  # White (seat 1) is to move
        assert np.all(obs[79 + to_move] == 1.0)
        assert np.all(obs[79 + 1 - to_move] == 0.0)
    play(state, "draw")  # chance node: nobody to move
    obs = state.observation_tensor(0)
    assert np.all(obs[79:81] == 0.0)


def test_observation_at_start_and_four_players(make):
    state = deal(new_state(make, players=4), FOUR_DEAL)
    obs = state.observation_tensor(1)
    assert obs.shape == (133, 9, 9)
    assert obs[2].sum() == 81 and obs[3, 4, 4] == 1
    for r in range(4):
        seat = (1 + r) % 4
        for card in FOUR_DEAL[seat]:
            assert np.all(obs[4 + 24 * r + CARDS.index(card)] == 1.0)
        assert np.all(obs[28 + 96 + r] == 1.0)  # 2 of 2 heroes
    assert np.all(obs[100:124] == 0.0)  # empty discard
    assert np.all(obs[128] == 1.0)  # 52 / 52 stones
    assert np.all(obs[129 + 3] == 1.0)  # seat 0 moves: relative seat 3 from seat 1
    assert obs[129:133].sum() == 81


def test_clone_history_and_strings(make):
    state = deal(new_state(make), BASIC_DEAL)
    copy = state.clone()
    play(state, "N1")
    assert copy.to_dict()["stones_left"] == 52
    assert copy.history() == state.history()[:-1]
    assert state.history()[-1] == 0
    assert all(isinstance(a, int) for a in state.history())
    text = str(state)
    assert isinstance(text, str) and text.count("\n") >= 9
    assert isinstance(state.observation_string(0), str)
    assert isinstance(state.information_state_string(1), str)
    assert state.returns() == [0, 0]
