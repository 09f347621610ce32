"""The exact Sekigahara solver (``rivals._core.sekigahara_solve`` and the ``solver`` bot).

Small end-games are solved independently by brute force through the pure-Python reference: every
reachable state (decisions inside a turn, acquisitions and reveals included) becomes a node of an
explicit graph, and value iteration from 0 (endless play scores 0) runs to its fixed point. The
solver must give the same values.

To keep those graphs small, a custom card file makes card 8 impossible to lock (requirement 5)
and cards 5 and 7 lockable with a single token (requirement 0); both seats then keep three tokens
stuck on card 8 and fight with the other two over the remaining cards, abilities included.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import reference
from rivals._core import sekigahara_solve

RULES = ["turn_start", "symmetric", "off"]
DATA_FILE = Path(__file__).resolve().parents[2] / "python" / "rivals" / "data" / "sekigahara.json"
REQUIREMENTS = {5: 0, 7: 0, 8: 5}

# Seat 0 (A) takes cards 1 and 3, seat 1 (B) takes 2 and 4; both keep 3 tokens on card 8. After
# the last reveal: A to move, centre {5, 6, 8}, deck {7, 9}, camps A [1, 3], B [2, 4].
SCRIPT = [
    "reveal 8", "reveal 1", "reveal 2",
    "place 8", "place 8",                      # A
    "place 2", "place 8", "place 8",           # B (never all equal: the symmetric rule)
    "place 8", "place 1", "place 1",           # A
    "place 8", "place 2", "end",               # B
    "end", "reveal 3",                         # A acquires 1
    "end", "reveal 4",                         # B acquires 2 (equal influence is now B's)
    "place 3", "place 3", "end",               # A
    "place 4", "place 4", "end",               # B
    "end", "reveal 5",                         # A acquires 3
    "end", "reveal 6",                         # B acquires 4
]  # fmt: skip


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> str:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for card in data["cards"]:
        card["requirement"] = REQUIREMENTS.get(card["id"], card["requirement"])
    path = tmp_path_factory.mktemp("sekigahara") / "stuck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def pair(rule: str, cards: str, actions: list[int]) -> tuple[Any, Any]:
    """The same position in the engine and in the reference."""
    engine = rivals.make("sekigahara", repetition_rule=rule, cards=cards).new_initial_state()
    oracle = reference.make("sekigahara", repetition_rule=rule, cards=cards).new_initial_state()
    for action in actions:
        engine.apply_action(action)
        oracle.apply_action(action)
    return engine, oracle


def script_actions(cards: str) -> list[int]:
    state = rivals.make("sekigahara", cards=cards).new_initial_state()
    for text in SCRIPT:
        state.apply_action(state.string_to_action(text))
    return list(state.history())


def brute_force(root: Any) -> float:
    """Seat 0's value of a reference state: explicit graph, value iteration from 0."""

    def key(state: Any) -> str:
        snapshot = state.to_dict()
        del snapshot["turn"]  # the turn counter only feeds max_turns, which the solver ignores
        return json.dumps(snapshot, sort_keys=True)

    index = {key(root): 0}
    states = [root]
    edges: list[list[tuple[int, float]]] = []
    for state in states:  # grows while we walk it
        out = []
        if not state.is_terminal():
            outcomes = (
                state.chance_outcomes()
                if state.is_chance_node()
                else [(a, 1.0) for a in state.legal_actions()]
            )
            for action, probability in outcomes:
                child = state.clone()
                child.apply_action(action)
                at = index.setdefault(key(child), len(states))
                if at == len(states):
                    states.append(child)
                out.append((at, probability))
        edges.append(out)
    values = [s.returns()[0] if s.is_terminal() else 0.0 for s in states]
    while True:
        changed = False
        for i, state in enumerate(states):
            if state.is_terminal():
                continue
            options = [values[j] for j, _ in edges[i]]
            if state.is_chance_node():
                new = sum(p * values[j] for j, p in edges[i])
            else:
                new = max(options) if state.current_player() == 0 else min(options)
            if abs(new - values[i]) > 1e-12:
                values[i] = new
                changed = True
        if not changed:
            return values[0]


def continuations(rule: str, cards: str, seed: int, count: int) -> Iterator[tuple[Any, Any]]:
    """Positions after the script: random play, every state (mid-turn, acquisition, reveal)."""
    engine, oracle = pair(rule, cards, script_actions(cards))
    rng = random.Random(seed)
    for _ in range(count):
        if engine.is_terminal():
            return
        action = rng.choice(engine.legal_actions())
        engine.apply_action(action)
        oracle.apply_action(action)
        yield engine.clone(), oracle.clone()


# --------------------------------------------------------------------------------------------
# Against brute force
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_script_reaches_the_intended_position(rule: str, cards: str) -> None:
    engine, oracle = pair(rule, cards, script_actions(cards))
    snapshot = engine.to_dict()
    assert snapshot == oracle.to_dict()
    assert snapshot["deck"] == [7, 9]
    assert [c["id"] for c in snapshot["camps"][0]] == [1, 3]
    assert [c["id"] for c in snapshot["camps"][1]] == [2, 4]
    assert snapshot["neutral"] == [
        {"id": 5, "influence": [0, 0]},
        {"id": 6, "influence": [0, 0]},
        {"id": 8, "influence": [3, 3]},
    ]
    assert snapshot["current_player"] == 0 and snapshot["actions_left"] == 3


@pytest.mark.parametrize("rule", RULES)
def test_two_cards_left_matches_brute_force(rule: str, cards: str) -> None:
    engine, oracle = pair(rule, cards, script_actions(cards))
    value, best, nodes, seconds = sekigahara_solve(engine)
    assert value == pytest.approx(brute_force(oracle), abs=1e-9)
    assert best in engine.legal_actions()
    assert nodes > 0 and seconds >= 0
    # The binding reads only game and history, so a reference state gives the same answer.
    assert sekigahara_solve(oracle)[0] == value


@pytest.mark.parametrize(("rule", "seed"), [("turn_start", 1), ("symmetric", 2), ("off", 3)])
def test_later_positions_match_brute_force(rule: str, seed: int, cards: str) -> None:
    phases = set()
    for engine, oracle in continuations(rule, cards, seed, 14):
        phases.add(oracle.to_dict()["phase"])
        assert sekigahara_solve(engine)[0] == pytest.approx(brute_force(oracle), abs=1e-9), (
            engine.history()
        )
    assert "action" in phases


def test_abilities_in_the_end_game_match_brute_force(cards: str) -> None:
    """Card 5's blank and card 7's swap (chosen by the card 3 holder) at the last acquisition."""
    actions = script_actions(cards)
    engine, _ = pair("turn_start", cards, actions)
    for text in ["place 5", "end"]:  # A leads on card 5 and acquires it next turn
        engine.apply_action(engine.string_to_action(text))
    for text in ["place 6", "end", "end"]:  # B, then A acquires 5
        engine.apply_action(engine.string_to_action(text))
    assert engine.to_dict()["phase"] == "blank"
    engine.apply_action(engine.string_to_action("blank 2"))  # B's card 2 loses its text
    engine.apply_action(engine.string_to_action("reveal 7"))
    assert engine.to_dict()["deck"] == [9]
    # B takes card 7 with one token; A holds card 3 and so chooses the swap.
    for text in ["place 7", "end", "end"]:
        engine.apply_action(engine.string_to_action(text))
    seen = set()
    for _ in range(4):
        _, oracle = pair("turn_start", cards, list(engine.history()))
        seen.add(oracle.to_dict()["phase"])
        assert sekigahara_solve(engine)[0] == pytest.approx(brute_force(oracle), abs=1e-9)
        if engine.is_terminal():
            break
        engine.apply_action(engine.legal_actions()[0])
    assert {"action", "swap", "reveal", "terminal"} <= seen


# --------------------------------------------------------------------------------------------
# Consistency with the engine's rules on the shipped cards
# --------------------------------------------------------------------------------------------


def random_position(rule: str, seed: int, deck_left: int) -> Any:
    """A state from a random game once the deck is down to ``deck_left`` cards."""
    state = rivals.make("sekigahara", repetition_rule=rule).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.to_dict()["deck"]) > deck_left:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("rule", RULES)
def test_values_obey_the_rules_one_step_ahead(rule: str) -> None:
    """A decision's value is the best child's, a reveal's the average of its outcomes."""
    checked = 0
    for seed in range(6):
        state = random_position(rule, seed, 2)
        rng = random.Random(seed)
        for _ in range(8):
            if state.is_terminal():
                break
            value = sekigahara_solve(state)[0]
            assert -1.0 <= value <= 1.0
            children = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                children.append(sekigahara_solve(child)[0])
            if state.is_chance_node():
                expected = sum(p * v for (_, p), v in zip(state.chance_outcomes(), children))
            elif state.current_player() == 0:
                expected = max(children)
            else:
                expected = min(children)
            assert value == pytest.approx(expected, abs=1e-9)
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 30


def test_value_is_exact_in_units_of_the_deck_orders() -> None:
    """With d cards in the deck, a value counts deck orders: a multiple of 1/d!."""
    factorial = {1: 1, 2: 2, 3: 6}
    for seed in range(8):
        state = random_position("turn_start", seed, 3)
        if state.is_terminal():
            continue
        deck = len(state.to_dict()["deck"])
        value = sekigahara_solve(state)[0] * factorial[deck]
        assert value == pytest.approx(round(value), abs=1e-6)


def test_terminal_and_chance_states() -> None:
    state = random_position("turn_start", 0, 0)
    assert state.is_terminal()
    value, best, _, _ = sekigahara_solve(state)
    assert value == state.returns()[0]
    assert best == -1


# --------------------------------------------------------------------------------------------
# The solver bot
# --------------------------------------------------------------------------------------------


def winning_positions(count: int) -> Iterator[tuple[Any, int]]:
    """Decision states of random games (deck <= 3) that the solver values as a forced win for
    the player to move."""
    found = 0
    for seed in range(200):
        state = random_position("turn_start", seed, 3)
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = state.current_player()
        value = sekigahara_solve(state)[0]
        if value == (1.0 if seat == 0 else -1.0):
            yield state, seat
            found += 1
            if found == count:
                return


def test_solver_bot_converts_every_forced_win() -> None:
    played = 0
    for state, seat in winning_positions(5):
        for seed in range(3):
            game = state.clone()
            bot = rivals.bots.make("solver", game.game)
            opponent = rivals.bots.make("random", game.game, seed=seed)
            rng = random.Random(seed)
            while not game.is_terminal():
                if game.is_chance_node():
                    action = rng.choice(game.legal_actions())
                elif game.current_player() == seat:
                    action = bot.step(game)
                else:
                    action = opponent.step(game)
                game.apply_action(action)
            assert game.to_dict()["end_reason"] in ("deck", "dead")
            assert game.returns()[seat] == 1.0, game.history()
            played += 1
    assert played == 15


def test_solver_bot_plays_legal_moves_against_itself() -> None:
    state = random_position("symmetric", 11, 2)
    bot = rivals.bots.make("solver", state.game)
    rng = random.Random(0)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions()) if state.is_chance_node() else bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_solver_bot_is_only_for_sekigahara() -> None:
    with pytest.raises(ValueError, match="solver plays only sekigahara"):
        rivals.bots.make("solver", rivals.make("rosenkoenig"))
    assert "solver" in rivals.bots.names()


def test_solver_bot_rejects_bad_params() -> None:
    game = rivals.make("sekigahara")
    with pytest.raises(ValueError, match="max_contexts"):
        rivals.bots.make("solver", game, max_contexts=0)
    with pytest.raises(ValueError, match="time_s"):
        rivals.bots.make("solver", game, time_s=-1.0)


# --------------------------------------------------------------------------------------------
# The binding's checks and budget
# --------------------------------------------------------------------------------------------


def test_solve_rejects_other_games() -> None:
    with pytest.raises(ValueError, match="rosenkoenig"):
        sekigahara_solve(rivals.make("rosenkoenig").new_initial_state())


def test_budget_runs_out_with_runtime_error() -> None:
    state = random_position("turn_start", 3, 4)
    with pytest.raises(RuntimeError, match="contexts"):
        sekigahara_solve(state, max_contexts=1)
    with pytest.raises(ValueError, match="max_contexts"):
        sekigahara_solve(state, max_contexts=0)
