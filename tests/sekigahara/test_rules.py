"""Rules tests for Sekigahara, from docs/rules/sekigahara.md and the seed's rules and Q&A. One
module on purpose, long as the rules are: it is read beside the rules page, rule by rule.

Every test takes the ``make`` fixture (tests/conftest.py) and so runs on the
pure-Python reference and on the engine. Positions are built by applying action strings; every
reveal is a chance outcome chosen explicitly, so each test controls which cards come out.

Seat 0 (blue) moves first, seat 1 (red) holds the Tokugawa token (+1 at scoring). Shipped cards:
strength = id; requirement 1 for cards 1-5, 2 for cards 6-9.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from tests.action_names import assert_round_trip

Make = Callable[..., Any]

REQUIREMENT = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 2}
SNAPSHOT_KEYS = {
    "camps",
    "neutral",
    "supply",
    "deck",
    "current_player",
    "phase",
    "turn",
    "turn_player",
    "actions_left",
    "locked",
    "reveals_pending",
    "start_influence",
    "end_reason",
    "scores",
}
DATA_FILE = Path(__file__).resolve().parents[2] / "python" / "rivals" / "data" / "sekigahara.json"

# --------------------------------------------------------------------------------------------
# Helpers (public API only, so they drive the reference and the engine alike)
# --------------------------------------------------------------------------------------------


def play(state: Any, *moves: str) -> Any:
    """Apply actions by their strings (reveals too: ``"reveal 7"``)."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def start(make: Make, first: Sequence[int] = (1, 2, 3), **params: Any) -> Any:
    """A new game with the three setup reveals ``first``; seat 0's first turn to play."""
    state = make("sekigahara", **params).new_initial_state()
    return play(state, *(f"reveal {c}" for c in first))


def snap(state: Any) -> dict[str, Any]:
    return dict(state.to_dict())


def legal(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def camp(state: Any, seat: int) -> list[int]:
    return [card["id"] for card in snap(state)["camps"][seat]]


def influence(state: Any) -> dict[int, list[int]]:
    return {card["id"]: list(card["influence"]) for card in snap(state)["neutral"]}


def grab(state: Any, card: int) -> Any:
    """The player to move takes ``card``: places requirement + 1 tokens on it, the opponent
    ends their turn, the player locks it at their next advantage check and ends. Stops right after
    the acquisition: at card 5's or 7's decision, at the reveal, or at the end of the game."""
    seat = state.current_player()
    assert snap(state)["phase"] == "action"
    need = REQUIREMENT[card] + 1
    if snap(state)["actions_left"] < need:
        play(state, "end", "end")  # the first turn has only 2 actions
    play(state, *[f"place {card}"] * need)
    if state.current_player() == seat:
        play(state, "end")
    assert state.current_player() == 1 - seat
    play(state, "end")
    assert state.current_player() == seat
    assert snap(state)["locked"] == [card]
    return play(state, "end")


def build(
    make: Make, plan: Sequence[tuple[Any, ...]], reveal_next: Sequence[int] = (), **params: Any
) -> Any:
    """Play the acquisitions of ``plan`` in order: entries ``(seat, card, *decisions)``.

    The cards are revealed in plan order, then ``reveal_next``, then the others ascending, so each
    card of the plan is central when its turn comes; each acquisition's reveal is the next card of
    that order."""
    needed = [entry[1] for entry in plan] + list(reveal_next)
    order = needed + [c for c in range(1, 10) if c not in needed]
    state = start(make, order[:3], **params)
    revealed = 3
    for seat, card, *decisions in plan:
        if state.current_player() != seat:
            play(state, "end")
        grab(state, card)
        play(state, *decisions)
        while state.is_chance_node():
            play(state, f"reveal {order[revealed]}")
            revealed += 1
    return state


def random_game(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# The draw of the rules page: seat 0 [2, 6, 9] scores 2 + (6 - 1) + 9 = 16;
# seat 1 [4, 3, 8] scores 4 + 3 + 8 + 1 (Tokugawa) = 16.
DRAW_PLAN = [(0, 2), (1, 4), (0, 6), (1, 3), (0, 9), (1, 8)]

# --------------------------------------------------------------------------------------------
# Game object, parameters, encoding
# --------------------------------------------------------------------------------------------


def test_game_attributes(make: Make) -> None:
    game = make("sekigahara")
    assert game.name == "sekigahara"
    assert game.params == {"repetition_rule": "turn_start", "max_turns": 500, "cards": None}
    assert json.loads(json.dumps(game.params)) == game.params
    assert game.num_players == 2
    assert game.num_distinct_actions == 109
    assert game.max_chance_outcomes == 9
    assert game.max_game_length == 3 * 500 + 18
    assert tuple(game.observation_shape) == (251,)
    assert make("sekigahara", max_turns=10).max_game_length == 48


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"repetition_rule": "always"}, "repetition_rule"),
        ({"repetition_rule": 1}, "repetition_rule"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"max_turns": "50"}, "max_turns"),
        ({"cards": 3}, "cards"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_params(make: Make, params: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        make("sekigahara", **params)


def test_shipped_card_file() -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    assert data["format"] == "rivals-sekigahara-cards"
    assert data["version"] == 1
    cards = {card["id"]: card for card in data["cards"]}
    assert sorted(cards) == list(range(1, 10))
    for cid, card in cards.items():
        assert card["strength"] == cid
        assert card["requirement"] == REQUIREMENT[cid]
    assert cards[1]["name"] == "Sanada Masayuki" and cards[1]["name_zh"] == "真田昌幸"


def test_custom_card_file(make: Make, tmp_path: Path) -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for card in data["cards"]:
        if card["id"] == 1:
            card["requirement"] = 0
            card["strength"] = 10
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    state = start(make, (1, 2, 3), cards=str(path))
    # Requirement 0: one token is more than the requirement.
    play(state, "place 1", "place 2", "end")
    assert snap(state)["locked"] == [1]
    play(state, "end", "reveal 4")
    play(state, "place 3", "place 3", "end")
    play(state, "end")
    assert snap(state)["locked"] == [3]
    play(state, "end", "reveal 5")
    assert camp(state, 0) == [1] and camp(state, 1) == [3]
    # Strength 10 for card 1, which sets card 3 (seat 1's highest base) to 2.
    assert state.scores() == [10.0, 3.0]


@pytest.mark.parametrize(
    "change",
    [
        {"format": "rivals-other"},
        {"version": 2},
        {"cards": []},
    ],
)
def test_bad_card_file(make: Make, tmp_path: Path, change: dict[str, Any]) -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    data.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError):
        make("sekigahara", cards=str(path))
    with pytest.raises(ValueError):
        make("sekigahara", cards=str(tmp_path / "missing.json"))


def test_action_strings(make: Make) -> None:
    assert make("sekigahara").max_chance_outcomes == 9
    state = start(make, (1, 2, 3))  # seat 0 decides: decision ids name decisions
    expected = {
        0: "end",
        1: "place 1",
        7: "place 7",
        9: "place 9",
        10: "move 1->2",
        17: "move 1->9",
        18: "move 2->1",
        81: "move 9->8",
        82: "order 1",
        86: "order 5",
        91: "blank 1",
        99: "blank 9",
        100: "swap 1",
        108: "swap 9",
    }
    assert_round_trip(state, expected)
    texts = [state.action_to_string(a) for a in range(109)]
    assert len(set(texts)) == 109
    assert [state.string_to_action(t) for t in texts] == list(range(109))
    for a in range(1, 10):
        for b in range(1, 10):
            if a != b:
                assert state.string_to_action(f"move {a}->{b}") == (
                    10 + 8 * (a - 1) + (b - 1 if b < a else b - 2)
                )
    for bad in ["move 3->3", "place 0", "place 10", "Place 1", "move 3 -> 5", " end", "pass"]:
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad_id in (-1, 109):
        with pytest.raises(ValueError):
            state.action_to_string(bad_id)
    with pytest.raises(ValueError):
        state.string_to_action("reveal 4")  # a chance outcome, not a decision


def test_chance_outcome_strings(make: Make) -> None:
    state = make("sekigahara").new_initial_state()  # the first setup reveal
    assert state.is_chance_node()
    for card in range(1, 10):
        assert state.action_to_string(card - 1) == f"reveal {card}"
        assert state.string_to_action(f"reveal {card}") == card - 1
    assert state.legal_actions() == list(range(9))
    for bad in ["reveal 0", "reveal 10", "end", "place 1", "Reveal 1"]:
        with pytest.raises(ValueError):
            state.string_to_action(bad)
    for bad_id in (-1, 9, 109):
        with pytest.raises(ValueError):
            state.action_to_string(bad_id)


# --------------------------------------------------------------------------------------------
# Setup and the first turns
# --------------------------------------------------------------------------------------------


def test_setup_reveals(make: Make) -> None:
    state = make("sekigahara").new_initial_state()
    for k, card in enumerate((8, 2, 5)):
        assert state.is_chance_node()
        assert snap(state)["reveals_pending"] == 3 - k
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == state.legal_actions()
        assert len(outcomes) == 9 - k
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p == pytest.approx(1 / (9 - k)) for _, p in outcomes)
        play(state, f"reveal {card}")
    d = snap(state)
    assert [c["id"] for c in d["neutral"]] == [2, 5, 8]  # ascending by id
    assert all(c["influence"] == [0, 0] for c in d["neutral"])
    assert d["deck"] == [1, 3, 4, 6, 7, 9]
    assert d["supply"] == [5, 5]
    assert d["camps"] == [[], []]
    assert d["phase"] == "action" and d["current_player"] == 0 and d["turn"] == 0
    assert set(d) >= SNAPSHOT_KEYS
    assert state.scores() == [0.0, 1.0]  # the Tokugawa token
    assert state.returns() == [0.0, 0.0]


def test_first_turn_two_actions_then_three(make: Make) -> None:
    state = start(make)
    assert snap(state)["actions_left"] == 2
    # No tokens on the table yet: only places and end.
    assert legal(state) == {"end", "place 1", "place 2", "place 3"}
    play(state, "place 1")
    assert state.current_player() == 0 and snap(state)["actions_left"] == 1
    assert "move 1->2" in legal(state)
    play(state, "place 1")
    # The action limit ends the phase without an `end` decision.
    d = snap(state)
    assert d["current_player"] == 1 and d["turn"] == 1 and d["actions_left"] == 3
    play(state, "place 2", "place 3", "place 3")
    assert state.current_player() == 0 and snap(state)["turn"] == 2


def test_only_the_turn_player_locks(make: Make) -> None:
    state = start(make)
    play(state, "place 1", "place 1")
    # Seat 1's check: it has no tokens, so nothing is locked, although seat 0 leads on card 1.
    assert snap(state)["locked"] == []
    play(state, "end")
    # Seat 0's second turn: its check locks card 1 (2 > 0 and 2 > 1).
    assert snap(state)["locked"] == [1]


def test_ending_with_no_action_qa7(make: Make) -> None:
    state = start(make)
    play(state, "end")
    assert state.current_player() == 1 and snap(state)["turn"] == 1
    play(state, "place 2", "end")
    assert state.current_player() == 0
    assert influence(state) == {1: [0, 0], 2: [0, 1], 3: [0, 0]}


# --------------------------------------------------------------------------------------------
# Locking
# --------------------------------------------------------------------------------------------


def test_lock_and_acquire(make: Make) -> None:
    state = start(make)
    play(state, "place 1", "place 1", "place 1", "end")  # seat 1 puts one token on card 1
    d = snap(state)
    assert d["locked"] == [1] and d["supply"] == [3, 4]
    # Q&A 6: no place on, move from or move to a locked card.
    acts = legal(state)
    assert "place 1" not in acts
    assert not any(a.startswith("move 1->") or a.endswith("->1") for a in acts)
    assert acts == {"end", "place 2", "place 3"}
    play(state, "place 2", "end")
    # Card 1 is acquired: its tokens go back to both owners, it joins the right end of the camp.
    d = snap(state)
    assert d["camps"][0] == [{"id": 1, "blank": False}]
    assert d["supply"] == [4, 5]
    assert influence(state) == {2: [1, 0], 3: [0, 0]}
    assert state.is_chance_node() and d["phase"] == "reveal" and d["reveals_pending"] == 1
    play(state, "reveal 9")
    d = snap(state)
    assert [c["id"] for c in d["neutral"]] == [2, 3, 9]
    assert d["current_player"] == 1 and d["turn"] == 3 and d["locked"] == []


def test_lock_needs_more_than_the_opponent(make: Make) -> None:
    state = start(make)
    play(state, "place 1", "place 1", "place 1", "place 1", "end")
    assert influence(state)[1] == [2, 2]
    assert snap(state)["locked"] == []  # 2 is not more than 2
    play(state, "place 1", "end")
    # Seat 1's check: 2 < 3, no lock for seat 1 either.
    assert snap(state)["locked"] == []
    play(state, "end")
    assert snap(state)["locked"] == [1]  # seat 0: 3 > 2 and 3 > 1


def test_lock_needs_more_than_the_requirement(make: Make) -> None:
    state = start(make, (6, 1, 2))
    play(state, "place 6", "place 6", "end")
    assert snap(state)["locked"] == []  # 2 tokens are not more than requirement 2
    play(state, "place 6", "end", "end")
    assert snap(state)["locked"] == [6]  # 3 > 2
    state = start(make, (6, 1, 2))
    play(state, "place 1", "end")
    play(state, "end")
    assert snap(state)["locked"] == []  # 1 token is not more than requirement 1


def test_card_2_equal_counts_as_advantage(make: Make) -> None:
    state = build(make, [(0, 2)])
    assert camp(state, 0) == [2]
    # Seat 1 to move; the central cards are 1, 3, 4.
    play(state, "place 1", "place 1", "end")
    play(state, "place 1", "place 1", "end")  # seat 0: 2 against 2 on card 1
    # Seat 1 has no card 2: the tie is no advantage for it.
    assert state.current_player() == 1 and snap(state)["locked"] == []
    play(state, "end")
    # Seat 0 with card 2: the tie is an advantage, and 2 > requirement 1.
    assert snap(state)["locked"] == [1]


def test_card_2_does_not_lower_the_requirement_qa2(make: Make) -> None:
    state = build(make, [(0, 2)])
    play(state, "place 1", "end")
    play(state, "place 1", "place 3", "end")  # card 1: 1 against 1; card 3: 1 against 0
    play(state, "end")
    assert snap(state)["locked"] == []  # neither 1 > requirement 1


def test_two_locks_acquired_in_the_chosen_order(make: Make) -> None:
    state = start(make, (1, 2, 3))
    play(state, "place 1", "place 2", "end")
    play(state, "place 1", "place 2", "end", "end")
    assert snap(state)["locked"] == [1, 2]
    play(state, "end")
    d = snap(state)
    assert d["locked"] == [1, 2] and d["phase"] == "order" and d["current_player"] == 0
    assert legal(state) == {"order 1", "order 2"}
    play(state, "order 2")
    # The last locked card is acquired without a decision.
    d = snap(state)
    assert camp(state, 0) == [2, 1]
    assert d["phase"] == "reveal" and d["reveals_pending"] == 2 and d["supply"] == [5, 5]
    play(state, "reveal 7")
    assert state.is_chance_node() and snap(state)["reveals_pending"] == 1
    play(state, "reveal 4")
    assert state.current_player() == 1
    assert [c["id"] for c in snap(state)["neutral"]] == [3, 4, 7]

    other = start(make, (1, 2, 3))
    play(other, "place 1", "place 2", "end", "place 1", "place 2", "end", "end", "end")
    play(other, "order 1")
    assert camp(other, 0) == [1, 2]


# --------------------------------------------------------------------------------------------
# Moves, card 8 and rule 2.4
# --------------------------------------------------------------------------------------------


def test_moves_and_card_8_tokens_never_move(make: Make) -> None:
    state = start(make, (8, 1, 2))
    play(state, "place 8", "place 1")
    # Seat 1 has no tokens yet: no moves.
    assert state.current_player() == 1
    assert not any(a.startswith("move") for a in legal(state))
    play(state, "end")
    acts = legal(state)
    assert {"move 1->2", "move 1->8"} <= acts
    assert not any(a.startswith("move 8->") for a in acts)
    assert not any(a.startswith("move 2->") for a in acts)  # no own token on card 2
    play(state, "move 1->8")
    assert influence(state) == {1: [0, 0], 2: [0, 0], 8: [2, 0]}
    assert not any(a.startswith("move") for a in legal(state))


def test_moving_a_token_just_moved(make: Make) -> None:
    state = start(make, (1, 2, 3), repetition_rule="off")
    play(state, "place 1", "end", "end")
    play(state, "move 1->2", "move 2->3", "move 3->1")
    assert influence(state) == {1: [1, 0], 2: [0, 0], 3: [0, 0]}
    assert state.current_player() == 1


def test_repetition_turn_start(make: Make) -> None:
    state = start(make, (1, 2, 3))
    play(state, "place 1", "place 2", "place 3", "end")
    d = snap(state)
    assert d["start_influence"] == [
        {"id": 1, "influence": [1, 0]},
        {"id": 2, "influence": [1, 0]},
        {"id": 3, "influence": [0, 1]},
    ]
    play(state, "move 1->2")
    assert "move 2->1" not in legal(state)  # it would restore the start of this phase
    assert {"move 2->3", "place 1", "end"} <= legal(state)
    play(state, "move 2->3")
    assert "move 3->1" not in legal(state)
    with pytest.raises(ValueError):
        state.apply_action(state.string_to_action("move 3->1"))
    assert influence(state) == {1: [0, 0], 2: [1, 0], 3: [1, 1]}


def test_repetition_symmetric(make: Make) -> None:
    state = start(make, (1, 2, 3), repetition_rule="symmetric")
    assert snap(state)["start_influence"] is None
    play(state, "place 1", "place 2")
    play(state, "place 1")
    # Seat 1: equal influence on every card would follow: forbidden.
    assert "place 2" not in legal(state)
    assert {"place 3", "move 1->2", "end"} <= legal(state)
    play(state, "end")
    play(state, "move 2->1")  # seat 0: 2 on card 1, 0 on card 2
    # Back to the position at the start of the phase: allowed, as it is not symmetric.
    assert "move 1->2" in legal(state)
    play(state, "move 1->2")
    assert influence(state) == {1: [1, 1], 2: [1, 0], 3: [0, 0]}


def test_repetition_off(make: Make) -> None:
    state = start(make, (1, 2, 3), repetition_rule="off")
    play(state, "place 1", "place 2", "place 1")
    assert "place 2" in legal(state)
    play(state, "end", "move 1->2")
    assert "move 2->1" in legal(state)
    play(state, "move 2->1")
    assert influence(state) == {1: [1, 1], 2: [1, 0], 3: [0, 0]}
    assert snap(state)["start_influence"] is None


def test_repetition_differs_between_the_readings(make: Make) -> None:
    """The same position under the three readings of rule 2.4."""
    moves = ("place 1", "place 2", "place 1", "end", "move 1->3")

    def legal_after(rule: str) -> set[str]:
        return legal(play(start(make, (1, 2, 3), repetition_rule=rule), *moves))

    assert "move 3->1" not in legal_after("turn_start")
    assert "move 3->1" in legal_after("symmetric")
    assert "move 3->1" in legal_after("off")
    # Seat 1 equalling seat 0 on every card: forbidden only by the symmetric reading.
    for rule, allowed in (("turn_start", True), ("symmetric", False), ("off", True)):
        state = play(start(make, (1, 2, 3), repetition_rule=rule), "place 1", "place 2")
        play(state, "place 1")
        assert ("place 2" in legal(state)) == allowed


def test_only_end_when_nothing_else_is_legal(make: Make) -> None:
    state = start(make, (8, 1, 2))
    play(state, "place 8", "place 8")
    play(state, "place 8", "place 8", "place 8")
    play(state, "place 8", "place 1", "place 1")
    play(state, "end")
    # Seat 0: no supply, three tokens on card 8 (3 against 3) and two on locked card 1.
    d = snap(state)
    assert d["supply"] == [0, 2] and d["current_player"] == 0 and d["locked"] == [1]
    assert state.legal_actions() == [0]


# --------------------------------------------------------------------------------------------
# Card 5: blanking
# --------------------------------------------------------------------------------------------


def test_card_5_may_blank_itself(make: Make) -> None:
    state = start(make, (5, 1, 2))
    play(state, "place 5", "place 5", "end", "end")
    d = snap(state)
    assert d["phase"] == "blank" and d["current_player"] == 0
    assert legal(state) == {"blank 5"}
    play(state, "blank 5")
    assert snap(state)["camps"][0] == [{"id": 5, "blank": True}]
    assert state.scores() == [5.0, 1.0]  # a blank card keeps its strength


def test_card_5_targets_either_camp_and_blank_loses_text(make: Make) -> None:
    state = build(make, [(0, 2), (0, 4), (1, 3)])
    assert camp(state, 0) == [2, 4]
    assert state.scores() == [2 + 5.0, 3 + 1.0]
    # Seat 1 takes card 5 and blanks seat 0's card 4.
    if state.current_player() != 1:
        play(state, "end")
    grab(state, 5)
    assert snap(state)["phase"] == "blank" and state.current_player() == 1
    assert legal(state) == {"blank 2", "blank 4", "blank 3", "blank 5"}
    play(state, "blank 4")
    d = snap(state)
    assert d["camps"][0] == [{"id": 2, "blank": False}, {"id": 4, "blank": True}]
    # Card 4 keeps strength 4 but loses its +1 per card to its left.
    assert state.scores() == [2 + 4.0, 3 + 5 + 1.0]


def test_blank_card_2_loses_the_tie_advantage(make: Make) -> None:
    state = build(make, [(0, 2), (1, 5, "blank 2")])
    assert snap(state)["camps"][0] == [{"id": 2, "blank": True}]
    # Seat 0 to move.
    play(state, "place 1", "place 1", "end")
    play(state, "place 1", "place 1", "end")
    assert state.current_player() == 0 and snap(state)["locked"] == []


# --------------------------------------------------------------------------------------------
# Card 7: the swap, and card 3
# --------------------------------------------------------------------------------------------


def test_card_7_swap_positions_qa5_and_mandatory_qa4(make: Make) -> None:
    state = build(make, [(0, 1), (1, 2), (1, 4)], reveal_next=(7,))
    assert camp(state, 0) == [1] and camp(state, 1) == [2, 4]
    if state.current_player() != 0:
        play(state, "end")
    grab(state, 7)
    d = snap(state)
    assert d["phase"] == "swap" and d["current_player"] == 0
    # Mandatory: only targets in the opponent's camp, no way to skip.
    assert legal(state) == {"swap 2", "swap 4"}
    play(state, "swap 2")
    # Card 7 went to the right end first; card 2 takes that place, card 7 takes card 2's.
    assert camp(state, 0) == [1, 2]
    assert camp(state, 1) == [7, 4]
    assert state.is_chance_node()


def test_card_7_with_empty_opponent_camp(make: Make) -> None:
    state = build(make, [(0, 1)], reveal_next=(7,))
    play(state, "end")
    grab(state, 7)
    assert state.is_chance_node()  # no decision: nothing to swap with
    assert camp(state, 0) == [1, 7] and camp(state, 1) == []


def test_card_3_owner_chooses_card_7_target_qa3(make: Make) -> None:
    state = build(make, [(0, 1), (1, 3), (1, 2)], reveal_next=(7,))
    assert camp(state, 1) == [3, 2]
    if state.current_player() != 0:
        play(state, "end")
    grab(state, 7)
    d = snap(state)
    assert d["phase"] == "swap" and d["current_player"] == 1 and d["turn_player"] == 0
    assert legal(state) == {"swap 3", "swap 2"}
    with pytest.raises(ValueError):
        state.apply_action(state.string_to_action("swap 1"))  # not in seat 1's camp
    play(state, "swap 3")  # card 3 may choose itself
    assert camp(state, 0) == [1, 3]
    assert camp(state, 1) == [7, 2]
    assert state.is_chance_node()


def test_blank_card_3_gives_no_choice(make: Make) -> None:
    state = build(make, [(1, 3), (0, 5, "blank 3")], reveal_next=(7,))
    assert snap(state)["camps"][1] == [{"id": 3, "blank": True}]
    if state.current_player() != 0:
        play(state, "end")
    grab(state, 7)
    assert snap(state)["phase"] == "swap" and state.current_player() == 0
    play(state, "swap 3")
    assert snap(state)["camps"][0] == [
        {"id": 5, "blank": False},
        {"id": 3, "blank": True},  # the blank mark travels with its card
    ]
    assert camp(state, 1) == [7]


def test_card_3_of_the_acquirer_does_not_choose(make: Make) -> None:
    state = build(make, [(0, 3), (1, 2)], reveal_next=(7,))
    if state.current_player() != 0:
        play(state, "end")
    grab(state, 7)
    assert state.current_player() == 0  # the opponent has no card 3


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def test_card_4_counts_cards_to_its_left(make: Make) -> None:
    state = build(make, [(0, 2), (0, 3), (0, 4)])
    assert camp(state, 0) == [2, 3, 4]
    assert state.scores() == [2 + 3 + 6.0, 1.0]
    state = build(make, [(0, 4), (0, 2)])
    assert state.scores() == [4 + 2.0, 1.0]


def test_card_6_counts_cards_to_its_right(make: Make) -> None:
    state = build(make, [(0, 6), (0, 2), (0, 3)])
    assert state.scores() == [4 + 2 + 3.0, 1.0]


def test_card_9_with_neighbours_on_both_sides(make: Make) -> None:
    state = build(make, [(0, 2), (0, 9)])
    assert state.scores() == [2 + 9.0, 1.0]  # right end: no right neighbour
    play(state, "end")
    grab(state, 3)
    play(state, "reveal 5")
    assert camp(state, 0) == [2, 9, 3]
    assert state.scores() == [2 + 4 + 3.0, 1.0]


def test_card_1_targets_highest_base_qa1(make: Make) -> None:
    # Seat 0 [2, 9, 8]: card 9 is the highest base (its strength with neighbours is only 4); card
    # 1 sets it to base 2, and card 9's own ability still makes it 4.
    state = build(make, [(1, 1), (0, 2), (0, 9), (0, 8)])
    assert camp(state, 0) == [2, 9, 8] and camp(state, 1) == [1]
    assert state.scores() == [2 + 4 + 8.0, 1 + 1.0]


def test_card_1_then_card_4_ability_qa1(make: Make) -> None:
    state = build(make, [(1, 1), (0, 2), (0, 3), (0, 4)])
    assert state.scores() == [2 + 3 + (2 + 2.0), 1 + 1.0]


def test_card_6_not_below_zero(make: Make) -> None:
    # Card 1 sets card 6 (seat 0's highest base) to 2; three cards to its right: max(0, -1) = 0.
    state = build(make, [(1, 1), (0, 6), (0, 2), (0, 3), (0, 4)])
    assert camp(state, 0) == [6, 2, 3, 4]
    assert state.scores() == [0 + 2 + 3 + (4 + 3.0), 1 + 1.0]


def test_card_1_blank_does_nothing(make: Make) -> None:
    state = build(make, [(1, 1), (0, 5, "blank 1"), (0, 9)])
    assert state.scores() == [5 + 9.0, 1 + 1.0]


def test_card_1_targets_a_blank_card(make: Make) -> None:
    # Seat 0 [9 (blank), 5]: the blank card 9 keeps base 9, so card 1 still picks it.
    state = build(make, [(1, 1), (0, 9), (0, 5, "blank 9")])
    assert snap(state)["camps"][0] == [{"id": 9, "blank": True}, {"id": 5, "blank": False}]
    assert state.scores() == [2 + 5.0, 1 + 1.0]


def test_card_1_of_seat_0_hits_seat_1(make: Make) -> None:
    state = build(make, [(0, 1), (1, 8), (1, 3)])
    assert state.scores() == [1.0, 2 + 3 + 1.0]


# --------------------------------------------------------------------------------------------
# The end of the game
# --------------------------------------------------------------------------------------------


def test_deck_exhaustion_and_draw(make: Make) -> None:
    state = build(make, DRAW_PLAN[:-1], reveal_next=(8,))
    assert not state.is_terminal() and len(snap(state)["deck"]) == 1
    assert state.current_player() == 1
    grab(state, 8)
    play(state, "reveal 7")
    d = snap(state)
    assert state.is_terminal() and state.current_player() == -4
    assert d["end_reason"] == "deck" and d["phase"] == "terminal" and d["deck"] == []
    assert camp(state, 0) == [2, 6, 9] and camp(state, 1) == [4, 3, 8]
    assert [c["id"] for c in d["neutral"]] == [1, 5, 7]
    assert state.scores() == [16.0, 16.0]
    assert d["scores"] == [16, 16]
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    assert d["turn_player"] == (d["turn"] - 1) % 2 == 1


def test_deck_exhaustion_win(make: Make) -> None:
    # Seat 0 [9, 2, 6]: 9 + 2 + (6 - 0) = 17 against 16.
    state = build(make, [(0, 9), (1, 4), (0, 2), (1, 3), (0, 6), (1, 8)])
    assert state.is_terminal() and snap(state)["end_reason"] == "deck"
    assert state.scores() == [17.0, 16.0]
    assert state.returns() == [1.0, -1.0]


def test_deck_empty_limits_the_reveals(make: Make) -> None:
    state = build(make, [(0, 2), (1, 3), (0, 4), (1, 5, "blank 5"), (0, 6)])
    d = snap(state)
    assert len(d["deck"]) == 1 and state.current_player() == 1
    central = [c["id"] for c in d["neutral"]]
    assert central == [1, 7, 8]
    play(state, "end", "place 1", "place 7", "end", "end")
    play(state, "place 1", "place 7", "place 7", "end")  # card 1: 2 > 1; card 7: 3 > 2
    assert snap(state)["locked"] == [1, 7]
    play(state, "end")
    assert snap(state)["phase"] == "order"
    play(state, "order 1")
    # Card 7 comes last; seat 1 holds an unblanked card 3, so seat 1 picks the target.
    assert snap(state)["phase"] == "swap" and state.current_player() == 1
    play(state, "swap 5")
    d = snap(state)
    assert d["phase"] == "reveal" and d["reveals_pending"] == 1  # two acquired, one card left
    play(state, "reveal 9")
    d = snap(state)
    assert state.is_terminal() and d["end_reason"] == "deck"
    assert camp(state, 0) == [2, 4, 6, 1, 5] and camp(state, 1) == [3, 7]
    assert [c["id"] for c in d["neutral"]] == [8, 9]


def test_dead_position(make: Make) -> None:
    state = start(make, (8, 1, 3))
    play(state, "place 8", "place 8")
    play(state, "place 8", "place 8", "place 8")
    play(state, "place 8", "place 8", "place 8")
    assert not state.is_terminal()
    play(state, "place 8", "place 8", "end")
    # All ten tokens on card 8 (5 against 5, no card 2): nothing can ever change.
    d = snap(state)
    assert state.is_terminal() and d["end_reason"] == "dead" and d["turn"] == 4
    assert state.scores() == [0.0, 1.0]
    assert state.returns() == [-1.0, 1.0]


def test_not_dead_while_a_token_can_move(make: Make) -> None:
    state = start(make, (8, 1, 3))
    play(state, "place 8", "place 8")
    play(state, "place 8", "place 8", "place 8")
    play(state, "place 8", "place 8", "place 1")
    play(state, "place 8", "place 8", "end")
    assert not state.is_terminal() and state.current_player() == 0
    assert legal(state) == {"end", "move 1->3", "move 1->8"}


def test_not_dead_when_card_2_can_lock(make: Make) -> None:
    # Seat 0 owns card 2: five against five on card 8 is a lock for it, so the game goes on.
    state = build(make, [(0, 2), (1, 1), (0, 3), (1, 4)], reveal_next=(8,))
    assert 8 in [c["id"] for c in snap(state)["neutral"]]
    assert state.current_player() == 0
    play(state, "place 8", "place 8", "end")
    play(state, "place 8", "place 8", "place 8")
    play(state, "place 8", "place 8", "place 8")
    play(state, "place 8", "place 8", "end")
    assert snap(state)["supply"] == [0, 0]
    assert not state.is_terminal()
    assert snap(state)["locked"] == [8] and state.current_player() == 0
    play(state, "end")
    assert camp(state, 0) == [2, 3, 8]
    assert snap(state)["supply"] == [5, 5]  # card 8's tokens return on acquisition


def test_max_turns_is_a_draw(make: Make) -> None:
    state = start(make, (1, 2, 3), max_turns=3)
    play(state, "place 1", "place 1")
    play(state, "end")
    assert not state.is_terminal()
    play(state, "end")  # seat 0 acquires card 1 in the third turn
    play(state, "reveal 4")
    d = snap(state)
    assert state.is_terminal() and d["end_reason"] == "max_turns" and d["turn"] == 3
    assert state.scores() == [1.0, 1.0]
    assert state.returns() == [0.0, 0.0]


def test_max_turns_draw_even_when_ahead(make: Make) -> None:
    state = start(make, (9, 1, 2), max_turns=5)
    play(state, "end", "end", "place 9", "place 9", "place 9", "end", "end", "reveal 3")
    d = snap(state)
    assert d["end_reason"] == "max_turns" and state.scores() == [9.0, 1.0]
    assert state.returns() == [0.0, 0.0]


# --------------------------------------------------------------------------------------------
# API behaviour on the rules' positions
# --------------------------------------------------------------------------------------------


def test_illegal_actions_leave_the_state_unchanged(make: Make) -> None:
    state = start(make, (8, 1, 2))
    play(state, "place 8", "place 1")
    before = snap(state)
    history = state.history()
    for bad in ["move 8->1", "place 3", "order 1", "reveal 4", "swap 2", "blank 1"]:
        with pytest.raises(ValueError):
            state.apply_action(state.string_to_action(bad))
        assert snap(state) == before and state.history() == history
    for bad_id in [-1, 118, 1000]:
        with pytest.raises(ValueError):
            state.apply_action(bad_id)
    assert snap(state) == before


def test_clone_is_independent(make: Make) -> None:
    state = start(make)
    copy = state.clone()
    play(copy, "place 1")
    assert influence(state)[1] == [0, 0] and influence(copy)[1] == [1, 0]
    assert copy.history() == [*state.history(), 1]


def test_observation_tensor(make: Make) -> None:
    state = build(make, [(0, 2), (1, 4)])
    play(state, "place 1")
    obs0 = np.asarray(state.observation_tensor(0))
    obs1 = np.asarray(state.observation_tensor(1))
    assert obs0.shape == (251,) and obs0.dtype == np.float32
    assert obs0[0 * 81 + 0 * 9 + 2 - 1] == 1.0  # own camp, position 0: card 2
    assert obs0[1 * 81 + 0 * 9 + 4 - 1] == 1.0  # opponent's camp, position 0: card 4
    assert obs1[0 * 81 + 0 * 9 + 4 - 1] == 1.0 and obs1[81 + 2 - 1] == 1.0
    assert obs0[180 + 1 - 1] == pytest.approx(0.2)  # own influence on card 1
    assert obs1[180 + 9 + 1 - 1] == pytest.approx(0.2)
    assert obs0[216] == pytest.approx(4 / 5) and obs0[217] == pytest.approx(1.0)
    assert obs0[236] == 1.0  # action phase
    assert obs0[242] == 1.0 and obs1[243] == 1.0  # seat 0 to decide
    assert obs0[246] == pytest.approx(2 / 3)
    assert obs0[250] == 0.0 and obs1[250] == 1.0
    central = {c["id"] for c in snap(state)["neutral"]}
    assert {c for c in range(1, 10) if obs0[171 + c - 1] == 1.0} == central
    deck = set(snap(state)["deck"])
    assert {c for c in range(1, 10) if obs0[207 + c - 1] == 1.0} == deck
    with pytest.raises(ValueError):
        state.observation_tensor(2)


# --------------------------------------------------------------------------------------------
# Random games
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["turn_start", "symmetric", "off"])
def test_random_games(make: Make, rule: str) -> None:
    game = make("sekigahara", repetition_rule=rule)
    rng = random.Random(f"sekigahara-{rule}")
    reasons = set()
    for _ in range(200 if rule == "turn_start" else 60):
        state = random_game(game, rng)
        d = snap(state)
        assert len(state.history()) <= game.max_game_length
        assert d["end_reason"] in ("deck", "dead", "max_turns")
        reasons.add(d["end_reason"])
        returns = state.returns()
        assert sum(returns) == 0.0 and returns in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])
        blue, red = state.scores()
        if d["end_reason"] != "max_turns":
            assert returns[0] == float(np.sign(blue - red))
        # Camps, centre and deck always hold the nine cards once each.
        ids = [c["id"] for seat in d["camps"] for c in seat]
        ids += [c["id"] for c in d["neutral"]] + d["deck"]
        assert sorted(ids) == list(range(1, 10))
        assert sum(d["supply"]) + sum(sum(c["influence"]) for c in d["neutral"]) == 10
    assert "deck" in reasons
