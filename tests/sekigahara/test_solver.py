"""The exact Sekigahara solver (the ``solver`` bot: its moves and ``analyse``).

Small end-games are solved independently by brute force through the pure-Python reference: every
reachable state (decisions inside a turn, acquisitions and reveals included) becomes a node of an
explicit graph, and value iteration from 0 (endless play scores 0) runs to its fixed point. The
solver must give the same value at every node.

To keep those graphs small, custom card files make card 8 impossible to lock (requirement 5) and
other cards lockable with a single token (requirement 0); both seats keep most of their tokens
stuck on card 8 and fight with the rest over the other cards, abilities included.
"""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import reference
from tests.sekigahara.helpers import analyse, value

RULES = ["turn_start", "symmetric", "off"]
DATA_FILE = Path(__file__).resolve().parents[2] / "python" / "rivals" / "data" / "sekigahara.json"

# One free token each: cards 1-5 and 7 lock with one token. Seat 0 (A) takes 1 and 3, seat 1 (B)
# takes 2 and 4 (so equal influence is an advantage for B); 4 tokens each stay on card 8. Then
# B to move, centre {5, 6, 8} (6 cannot be locked with one token), deck {7, 9}.
ONE_FREE = {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 7: 0, 8: 5}
ONE_FREE_SCRIPT = [
    "reveal 8", "reveal 1", "reveal 2",
    "place 8", "place 8",                      # A
    "place 2", "place 8", "place 8",           # B (never all equal: the symmetric rule)
    "place 8", "place 8", "place 1",           # A
    "place 8", "place 8", "end", "reveal 3",   # B acquires 2
    "end", "reveal 4",                         # A acquires 1
    "place 4", "end",                          # B
    "place 3", "end",                          # A
    "end", "reveal 5",                         # B acquires 4
    "end", "reveal 6",                         # A acquires 3
]  # fmt: skip

# Two free tokens each, 3 stay on card 8; cards 5 and 7 lock with one token. Then A to move,
# centre {5, 6, 8}, deck {7, 9}, camps A [1, 3], B [2, 4].
TWO_FREE = {5: 0, 7: 0, 8: 5}
TWO_FREE_SCRIPT = [
    "reveal 8", "reveal 1", "reveal 2",
    "place 8", "place 8",                      # A
    "place 2", "place 8", "place 8",           # B
    "place 8", "place 1", "place 1",           # A
    "place 8", "place 2", "end",               # B
    "end", "reveal 3",                         # A acquires 1
    "end", "reveal 4",                         # B acquires 2
    "place 3", "place 3", "end",               # A
    "place 4", "place 4", "end",               # B
    "end", "reveal 5",                         # A acquires 3
    "end", "reveal 6",                         # B acquires 4
]  # fmt: skip


def card_file(directory: Path, name: str, requirements: dict[int, int]) -> str:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for card in data["cards"]:
        card["requirement"] = requirements.get(card["id"], card["requirement"])
    path = directory / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def one_free(tmp_path_factory: pytest.TempPathFactory) -> str:
    return card_file(tmp_path_factory.mktemp("sekigahara"), "one_free.json", ONE_FREE)


@pytest.fixture(scope="module")
def two_free(tmp_path_factory: pytest.TempPathFactory) -> str:
    return card_file(tmp_path_factory.mktemp("sekigahara"), "two_free.json", TWO_FREE)


def scripted(rule: str, cards: str, script: list[str]) -> tuple[Any, Any]:
    """The position after ``script`` in the engine and in the reference."""
    engine = rivals.make("sekigahara", repetition_rule=rule, cards=cards).new_initial_state()
    oracle = reference.make("sekigahara", repetition_rule=rule, cards=cards).new_initial_state()
    for text in script:
        engine.apply_action(engine.string_to_action(text))
        oracle.apply_action(oracle.string_to_action(text))
    return engine, oracle


def brute_force(root: Any) -> tuple[list[Any], list[float]]:
    """Every state reachable from a reference state, with seat 0's value by value iteration."""

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
                # A clone that shares the (immutable) game: clone() would copy its card set too,
                # which is most of the work on graphs of ten thousand states.
                child = copy.deepcopy(state, {id(state.game): state.game})
                child.apply_action(action)
                at = index.setdefault(key(child), len(states))
                if at == len(states):
                    states.append(child)
                out.append((at, probability))
        edges.append(out)
    values = [s.returns()[0] if s.is_terminal() else 0.0 for s in states]
    changed = True
    while changed:
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
    return states, values


def check_states(states: list[Any], values: list[float], count: int) -> set[str]:
    """The solver's value of ``count`` of the reference states (it replays their history in C++):
    the root, the rare phases (acquisition decisions, reveals, ends) first, then action phases at
    random. Returns the phases checked."""
    rare = [i for i in range(1, len(states)) if states[i].to_dict()["phase"] != "action"]
    common = [i for i in range(1, len(states)) if states[i].to_dict()["phase"] == "action"]
    rng = random.Random(len(states))
    rng.shuffle(rare)
    rng.shuffle(common)
    chosen = ([0, *rare, *common])[:count]
    phases = set()
    for i in chosen:
        phases.add(states[i].to_dict()["phase"])
        solved = value(states[i])
        assert solved == pytest.approx(values[i], abs=1e-9), states[i].history()
    return phases


# --------------------------------------------------------------------------------------------
# Against brute force
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_scripts_reach_the_intended_positions(rule: str, one_free: str, two_free: str) -> None:
    for cards, script, mover, stuck in [
        (one_free, ONE_FREE_SCRIPT, 1, 4),
        (two_free, TWO_FREE_SCRIPT, 0, 3),
    ]:
        engine, oracle = scripted(rule, cards, script)
        snapshot = engine.to_dict()
        assert snapshot == oracle.to_dict()
        assert snapshot["deck"] == [7, 9]
        assert [c["id"] for c in snapshot["camps"][0]] == [1, 3]
        assert [c["id"] for c in snapshot["camps"][1]] == [2, 4]
        assert snapshot["neutral"] == [
            {"id": 5, "influence": [0, 0]},
            {"id": 6, "influence": [0, 0]},
            {"id": 8, "influence": [stuck, stuck]},
        ]
        assert snapshot["current_player"] == mover and snapshot["actions_left"] == 3


@pytest.mark.parametrize("rule", RULES)
def test_an_end_game_matches_brute_force(rule: str, one_free: str) -> None:
    engine, oracle = scripted(rule, one_free, ONE_FREE_SCRIPT)
    states, values = brute_force(oracle)
    analysis = analyse(engine)
    assert analysis["returns"] == pytest.approx([values[0], -values[0]], abs=1e-9)
    assert analysis["action"] in engine.legal_actions()
    assert analysis["nodes"] > 0 and analysis["contexts"] > 0 and analysis["seconds"] >= 0
    phases = check_states(states, values, 400)
    assert {"action", "blank", "swap", "reveal", "terminal"} <= phases


def test_abilities_at_the_last_acquisition_match_brute_force(two_free: str) -> None:
    """Card 5's blank, then card 7's swap chosen by the card 3 holder, with the deck at one card."""
    _, oracle = scripted("turn_start", two_free, TWO_FREE_SCRIPT)
    moves = [
        "place 5", "end",           # A leads on card 5
        "place 6", "end",           # B
        "end", "blank 2",           # A acquires 5; B's card 2 loses its text
        "reveal 7",                 # deck {9}
        "place 7", "end",           # B leads on card 7
    ]  # fmt: skip
    for text in moves:
        oracle.apply_action(oracle.string_to_action(text))
    assert oracle.to_dict()["deck"] == [9]
    states, values = brute_force(oracle)
    phases = check_states(states, values, min(len(states), 200))
    assert {"action", "swap", "reveal", "terminal"} <= phases


@pytest.mark.parametrize("rule", RULES)
def test_two_free_tokens_and_two_cards_left_match_brute_force(rule: str, two_free: str) -> None:
    """The largest graphs of this file, 14,000 states and more: about 30 s of CPU for the three
    rules together, so they run with the rest rather than never."""
    engine, oracle = scripted(rule, two_free, TWO_FREE_SCRIPT)
    states, values = brute_force(oracle)
    assert value(engine) == pytest.approx(values[0], abs=1e-9)
    check_states(states, values, 60)


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
            solved = value(state)
            assert -1.0 <= solved <= 1.0
            children = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                children.append(value(child))
            if state.is_chance_node():
                expected = sum(p * v for (_, p), v in zip(state.chance_outcomes(), children))
            elif state.current_player() == 0:
                expected = max(children)
            else:
                expected = min(children)
            assert solved == pytest.approx(expected, abs=1e-9)
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 30


def test_value_is_exact_in_units_of_the_deck_orders() -> None:
    """With d cards in the deck, a value counts deck orders: a multiple of 1/d!."""
    factorial = {1: 1, 2: 2, 3: 6}
    checked = 0
    for seed in range(8):
        state = random_position("turn_start", seed, 3)
        if state.is_terminal():
            continue
        deck = len(state.to_dict()["deck"])
        scaled = value(state) * factorial[deck]
        assert scaled == pytest.approx(round(scaled), abs=1e-6)
        checked += deck > 1
    assert checked >= 4, "too few positions where the deck order matters"


def test_terminal_and_chance_states() -> None:
    state = random_position("turn_start", 0, 0)
    assert state.is_terminal()
    analysis = analyse(state)
    assert analysis["returns"] == state.returns()
    assert analysis["action"] == -1


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
        if value(state) == (1.0 if seat == 0 else -1.0):
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
    with pytest.raises(ValueError, match="unknown bot 'solver' for rosenkoenig; available: "):
        rivals.bots.make("solver", rivals.make("rosenkoenig"))
    assert "solver" in rivals.bots.names()
    assert rivals.make("sekigahara").info.solvers == ("solver",)
    assert all(
        not rivals.make(name).info.solvers for name in rivals.games() if name != "sekigahara"
    )


def test_solver_bot_rejects_bad_params() -> None:
    game = rivals.make("sekigahara")
    with pytest.raises(ValueError, match="max_contexts"):
        rivals.bots.make("solver", game, max_contexts=0)
    with pytest.raises(ValueError, match="time_s"):
        rivals.bots.make("solver", game, time_s=-1.0)


# --------------------------------------------------------------------------------------------
# The binding's checks and budget
# --------------------------------------------------------------------------------------------


def test_analyse_rejects_other_games_and_bots_that_are_not_solvers() -> None:
    solver = rivals.bots.make("solver", rivals.make("sekigahara"))
    with pytest.raises(ValueError, match="plays sekigahara, not rosenkoenig"):
        solver.analyse(rivals.make("rosenkoenig").new_initial_state())
    state = random_position("turn_start", 3, 4)
    with pytest.raises(ValueError, match=r"'mcts' is not an exact solver.*solvers: solver"):
        rivals.bots.make("mcts", state.game).analyse(state)


def test_budget_runs_out_with_runtime_error() -> None:
    state = random_position("turn_start", 3, 4)
    with pytest.raises(rivals.BudgetExceeded, match="contexts"):
        analyse(state, max_contexts=1)
    with pytest.raises(ValueError, match="max_contexts"):
        analyse(state, max_contexts=0)


def test_a_solver_waiting_for_the_shared_table_keeps_to_its_time_budget() -> None:
    # Another solver of the same cards holds their table while it solves the opening (minutes
    # unbounded; cut here by its own budget): the waiting one's time_s counts the wait.
    game = rivals.make("sekigahara")
    opening = rivals.bots.make("solver", game, time_s=3)
    failures: list[BaseException] = []

    def solve_the_opening() -> None:
        try:
            opening.analyse(game.new_initial_state())
        except rivals.BudgetExceeded as error:
            failures.append(error)

    solved = opening.stats()["contexts"]
    solving = threading.Thread(target=solve_the_opening)
    solving.start()
    while opening.stats()["contexts"] == solved:  # until it holds the table
        time.sleep(0.01)
    waiting = rivals.bots.make("solver", game, time_s=0.2)
    started = time.monotonic()
    with pytest.raises(rivals.BudgetExceeded, match="waiting for another solver"):
        waiting.analyse(random_position("turn_start", 3, 4))
    waited = time.monotonic() - started
    still_solving = solving.is_alive()
    solving.join()
    assert still_solving and len(failures) == 1, "the opening was solved in under a second?"
    assert waited < 2.5  # not until the table was free


def endgame_positions(deck: int) -> Iterator[rivals.State]:
    """Decision states of seeded random games, each once its deck is down to ``deck`` cards."""
    game = rivals.make("sekigahara")
    for seed in range(1000):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and len(state.to_dict()["deck"]) <= deck:
                yield state
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_best_plays_the_solvers_move_where_the_solver_reaches() -> None:
    """mcts's solve_s (Sekigahara's best): from three cards in the deck on, the move is one the
    exact solver values best, however few simulations the search would have had."""
    game = rivals.make("sekigahara")
    solver = rivals.bots.make("solver", game)  # one table for every position: quicker
    assert rivals.bots.make("best", game).params["solve_s"] > 0
    # A limit no solve here comes near, so that the test does not depend on the machine's load.
    best = rivals.bots.make("best", game, time_s=0, iterations=1, solve_s=60)
    plain = rivals.bots.make("best", game, time_s=0, iterations=1, solve_s=None)
    differs = counted = 0
    for state in endgame_positions(deck=3):
        if counted == 8:
            break
        values = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            sign = 1 if state.current_player() == 0 else -1
            values[action] = sign * solver.analyse(child)["returns"][0]
        top = max(values.values())
        if min(values.values()) == pytest.approx(top):
            continue  # every move is as good
        counted += 1
        assert values[best.step(state)] == pytest.approx(top)
        assert best.stats()["visits"] == 0  # played as the solver says, without a search
        differs += values[plain.step(state)] < top - 1e-9
    # A search of one simulation misses the best move somewhere: the solver is what found it.
    assert counted == 8 and differs > 0
