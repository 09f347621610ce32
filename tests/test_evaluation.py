"""The games' evaluations (docs/rules/<game>.md, "Evaluation (for search bots)"): what search bots
make of a position they stop at. The engine's and the reference's are compared at every step of
the differential test; here are the rules they share: strictly inside (-1, 1), on the scale of
the returns (zero-sum where the returns are), the sign of an obvious lead, and the errors."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import rivals
from rivals import reference
from tests.games import config_id, configs

CASES = [(name, params) for name, params, _ in configs("invariants")]
IDS = [config_id(name, params) for name, params in CASES]


def random_states(game: Any, seed: str, games: int) -> list[Any]:
    """Every unfinished state of a few random games, chance nodes included."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_evaluation_is_inside_and_zero_sum(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    seats = range(game.num_players)
    states = random_states(game, f"evaluation {config_id(name, params)}", 2)
    assert any(s.is_chance_node() for s in states) and any(not s.is_chance_node() for s in states)
    for state in states:
        values = [state.evaluate(p) for p in seats]
        where = f"{name} after {state.history()}"
        # Below every proven result, as a search needs (0.9 is the documented bound).
        assert all(-0.9 <= v <= 0.9 for v in values), where
        # The returns sum to zero in every game, and so do their estimates.
        assert sum(values) == pytest.approx(0, abs=1e-12), where
        if name == "rosenkoenig":
            # Teammates share their colour's value.
            assert all(values[p] == values[p % 2] for p in seats), where
    assert any(state.evaluate(0) != 0 for state in states), f"{name}: never away from 0"


def test_two_player_evaluations_are_antisymmetric() -> None:
    for name in ("rosenkoenig", "sekigahara", "battlecards"):
        for state in random_states(rivals.make(name), f"antisymmetric {name}", 1):
            assert state.evaluate(0) == pytest.approx(-state.evaluate(1), abs=1e-12), name


def unfinished(name: str, params: dict[str, Any], phase: str | None = None) -> Any:
    """A reference state of a random game, stopped at its first node of `phase` after the setup
    (or halfway), to change by hand."""
    game = reference.make(name, **params)
    rng = random.Random(f"lead {name}")
    state = game.new_initial_state()
    for step in range(100_000):
        if step > 40 and (state.to_dict().get("phase") == phase if phase else step > 60):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"{name}: no {phase} node")


def assert_leads(state: Any, leader: int) -> None:
    values = [state.evaluate(p) for p in range(state.num_players)]
    assert values[leader] > 0.3, values
    assert all(v < 0 for p, v in enumerate(values) if p != leader), values


def test_an_obvious_lead_is_seen_in_every_game() -> None:
    """Each game's leading term given to one seat by hand (in the reference, whose evaluation the
    differential test holds equal to the engine's)."""
    state = unfinished("rosenkoenig", {})
    state.board = [["R"] * 9 for _ in range(3)] + [["."] * 9 for _ in range(6)]  # 27 red in a row
    assert_leads(state, 0)
    state.board = [[{"R": "W", ".": "."}[c] for c in row] for row in state.board]
    assert_leads(state, 1)

    state = unfinished("sekigahara", {})
    strongest = sorted(state.game.strength, key=state.game.strength.__getitem__)[-3:]
    state.camps = [[], strongest]
    state.blank = set()
    assert_leads(state, 1)

    state = unfinished("rheinlaender", {"players": 4}, "play")
    state.points[2] += 40
    assert_leads(state, 2)

    state = unfinished("verraeter", {"players": 4}, "conflict")
    state.vp[3] += 20
    assert_leads(state, 3)

    state = unfinished("battlecards", {}, "turn_deploy")
    state.vp[1] = state.vp[0] + 12
    assert_leads(state, 1)


def test_a_conflict_being_won_counts_before_it_is_resolved() -> None:
    """Verräter: supply cards played for a house move its players' value before the reveal, so a
    search that stops in the supply phase sees what its cards do."""
    state = unfinished("verraeter", {"players": 4}, "supply")
    seat = state.current_player()
    before = state.evaluate(seat)
    state.played[seat] += [8, 8, 8]
    assert state.evaluate(seat) > before


@pytest.mark.parametrize("name", rivals.games())
def test_evaluate_refuses_the_end_and_bad_seats(name: str) -> None:
    game = rivals.make(name)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert -1 < state.evaluate(0) < 1  # defined at chance nodes: a search may stop at one
    for bad in (game.num_players, -1, True, "0"):
        with pytest.raises(ValueError, match="player"):
            state.evaluate(bad)
    rng = random.Random(f"end {name}")
    final = game.new_initial_state()
    while not final.is_terminal():
        final.apply_action(rng.choice(final.legal_actions()))
    with pytest.raises(ValueError, match=f"{name}: evaluate: the game is over"):
        final.evaluate(0)


SHORT_GAMES = [
    ("rheinlaender", {"max_turns": 30}),
    ("verraeter", {"players": 3, "rounds": 2}),
    ("battlecards", {"max_turns": 30}),
]


@pytest.mark.parametrize(("name", "params"), SHORT_GAMES, ids=[n for n, _ in SHORT_GAMES])
def test_alphabeta_plays_the_games_with_hidden_cards_to_the_end(
    name: str, params: dict[str, Any]
) -> None:
    game = rivals.make(name, **params)
    bot = rivals.bots.make("alphabeta", game, seed=2, depth=1)
    rng = random.Random(f"alphabeta {name}")
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        action = bot.step(state)
        assert action in state.legal_actions(), state.history()
        state.apply_action(action)
        decisions += 1
    assert decisions > 10
    assert sum(state.returns()) == pytest.approx(0)


def test_rosenkoenig_evaluations_by_hand() -> None:
    """The named evaluations against the rules page's formulas, worked out by hand: after the
    first card Red has one stone (1 point), nothing else is on the board and each side holds its 4
    heroes; later a hero flip gives a known lead in points and heroes."""
    game = rivals.make("rosenkoenig")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.scores() == [1.0, 0.0] and state.to_dict()["heroes"] == [4, 4]
    widest = 52 * 52 + 30 * 4  # every stone in one group, a side's four heroes worth 30 each
    assert state.evaluate(0) == pytest.approx(0.9 * math.tanh(1 / 40), rel=1e-12)
    assert state.evaluate(1, "default") == pytest.approx(-0.9 * math.tanh(1 / 40), rel=1e-12)
    assert state.evaluate(0, "thesis") == pytest.approx(0.9 / widest, rel=1e-12)
    assert state.evaluate(1, "thesis") == pytest.approx(-0.9 / widest, rel=1e-12)
    assert state.evaluate(0, "calibrated") == pytest.approx(0.9 * math.tanh(1 / 80), rel=1e-12)

    rng = random.Random("a hero")
    while not any(a >= 24 and a < 48 for a in state.legal_actions()) or state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    mover = state.current_player()
    state.apply_action(next(a for a in state.legal_actions() if 24 <= a < 48))
    red, white = state.scores()
    heroes = state.to_dict()["heroes"]
    assert heroes[mover] == 3 and heroes[1 - mover] == 4
    points, hero_lead = red - white, heroes[0] - heroes[1]
    assert state.evaluate(0) == pytest.approx(0.9 * math.tanh((points + 6 * hero_lead) / 40))
    assert state.evaluate(0, "thesis") == pytest.approx(0.9 * (points + 30 * hero_lead) / widest)
    assert state.evaluate(0, "thesis") != pytest.approx(state.evaluate(0))
    calibrated = 0.9 * math.tanh((points + 30 * hero_lead) / 80)
    assert state.evaluate(0, "calibrated") == pytest.approx(calibrated)
    assert state.evaluate(1, "calibrated") == pytest.approx(-calibrated)


@pytest.mark.parametrize("name", rivals.games())
def test_evaluate_refuses_an_evaluation_the_game_lacks(name: str) -> None:
    state = rivals.make(name).new_initial_state()
    offered = rivals.make(name).info.evaluations
    for evaluation in offered:
        assert -1 < state.evaluate(0, evaluation) < 1
    expected = f"{name}: evaluate: no evaluation 'nonesuch' \\(choices: {', '.join(offered)}\\)"
    with pytest.raises(ValueError, match=expected):
        state.evaluate(0, "nonesuch")
    with pytest.raises(ValueError, match=expected):
        reference.make(name).new_initial_state().evaluate(0, "nonesuch")
    # A long name is quoted cut short, alike in the engine and the reference.
    long_name = "x" * 100_000
    messages = []
    for where in (state, reference.make(name).new_initial_state()):
        with pytest.raises(ValueError) as refused:
            where.evaluate(0, long_name)
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert f"'{'x' * 200}...'" in messages[0] and len(messages[0]) < 300
