"""OpenSpiel: every game loads with pyspiel.load_game, passes OpenSpiel's random simulation test,
matches the engine at every step, and OpenSpiel's MCTS bot plays it through evaluate_bots."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import rivals
from tests.ecosystem_cases import CASE_IDS, CASES, random_game
from tests.optional import require
from tests.random_play import play_randomly, random_action

pyspiel = require("pyspiel")
evaluate_bots = require("open_spiel.python.algorithms.evaluate_bots")
mcts = require("open_spiel.python.algorithms.mcts")
uniform_random = require("open_spiel.python.bots.uniform_random")
require("rivals.openspiel")

NAMES = rivals.openspiel.register()
MCTS_ACTIONS = 80
# OpenSpiel parameters are scalars: parameter sets with lists or objects stay engine-only.
OPENSPIEL = [
    (case, case_id)
    for case, case_id in zip(CASES, CASE_IDS)
    if all(isinstance(value, (bool, int, float, str)) for value in case[1].values())
]
OPENSPIEL_CASES = [case for case, _ in OPENSPIEL]
OPENSPIEL_IDS = [case_id for _, case_id in OPENSPIEL]


def load(name: str, params: dict[str, Any]) -> Any:
    return pyspiel.load_game(rivals.openspiel.pyspiel_name(name), params)


def test_register_covers_every_game_and_is_idempotent() -> None:
    assert [f"rivals_{name}" for name in rivals.games()] == NAMES
    assert rivals.openspiel.register() == NAMES
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered
    for name in rivals.games():
        game = pyspiel.load_game(f"rivals_{name}")
        engine = rivals.make(name)
        assert game.num_players() == engine.num_players
        assert game.num_distinct_actions() == engine.num_distinct_actions
        assert game.max_game_length() == engine.max_game_length
        assert tuple(game.observation_tensor_shape()) == engine.observation_shape
        game_type = game.get_type()
        assert game_type.short_name == f"rivals_{name}"
        assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game_type.min_num_players <= engine.num_players <= game_type.max_num_players


def test_parameters() -> None:
    game = pyspiel.load_game("rivals_rosenkoenig(players=4)")
    assert game.num_players() == 4
    assert game.rivals_game.params == {"players": 4}
    assert pyspiel.load_game("rivals_rosenkoenig").get_type().min_num_players == 2
    assert pyspiel.load_game("rivals_rosenkoenig").get_type().max_num_players == 4
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("rivals_rosenkoenig(players=3)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("rivals_rosenkoenig(colour=1)")


@pytest.mark.parametrize(("name", "params"), OPENSPIEL_CASES, ids=OPENSPIEL_IDS)
def test_random_sim_test(name: str, params: dict[str, Any]) -> None:
    game = load(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def check_observations(state: Any, engine: rivals.State) -> None:
    assert str(state) == str(engine)
    for player in range(engine.game.num_players):
        assert state.observation_string(player) == engine.observation_string(player)
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(player)),
            engine.observation_tensor(player).ravel(),
        )


@pytest.mark.parametrize(("name", "params"), OPENSPIEL_CASES, ids=OPENSPIEL_IDS)
def test_every_step_matches_the_engine(name: str, params: dict[str, Any]) -> None:
    game = load(name, params)
    state = game.new_initial_state()
    engine = rivals.make(name, **params).new_initial_state()
    rng = random.Random(17)
    players = range(game.num_players())
    while True:
        assert state.current_player() == engine.current_player()
        assert state.is_terminal() == engine.is_terminal()
        assert state.legal_actions() == engine.legal_actions()
        # Observations are checked on every fifth step: they are large, and derived from the
        # same state as the legal actions checked on every step.
        if len(engine.history()) % 5 == 0 or state.is_terminal():
            check_observations(state, engine)
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert state.chance_outcomes() == engine.chance_outcomes()
        else:
            mover = state.current_player()
            for other in players:
                if other != mover:
                    assert state.legal_actions(other) == []
        texts = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
        assert texts == [engine.action_to_string(a) for a in engine.legal_actions()]
        action = random_action(state, rng)
        clone = state.clone()
        state.apply_action(action)
        engine.apply_action(action)
        assert clone.history() == state.history()[:-1], "a clone is independent"
    assert state.returns() == engine.returns()
    assert state.history() == engine.history()


@pytest.mark.parametrize(("name", "params"), OPENSPIEL_CASES, ids=OPENSPIEL_IDS)
def test_mcts_bot_through_evaluate_bots(name: str, params: dict[str, Any]) -> None:
    game = load(name, params)
    # OpenSpiel's MCTS runs its rollouts in Python, so it plays the last MCTS_ACTIONS actions of a
    # random game (all of a short one): long games stay fast and every game is covered.
    start = random_game(name, params, seed=9).history()
    state = game.new_initial_state()
    for action in start[: max(0, len(start) - MCTS_ACTIONS)]:
        state.apply_action(action)
    begin = len(state.history())
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng
    )
    bots = [searcher] + [
        uniform_random.UniformRandomBot(seat, rng) for seat in range(1, game.num_players())
    ]
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    replayed = rivals.make(name, **params).new_initial_state()
    searched = 0
    for step, action in enumerate(state.history()):
        searched += step >= begin and replayed.current_player() == 0
        replayed.apply_action(action)  # the engine checks every move OpenSpiel played
    assert searched > 0, "the MCTS bot made moves"
    assert replayed.is_terminal()
    assert returns == replayed.returns()
    assert all(game.min_utility() <= value <= game.max_utility() for value in returns)


def test_serialization_round_trip() -> None:
    game = pyspiel.load_game("rivals_rosenkoenig(players=4)")
    state = play_randomly(game.new_initial_state(), random.Random(4), plies=50)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert game2.num_players() == 4
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.rivals_state.to_dict() == state.rivals_state.to_dict()


def test_information_state_strings() -> None:
    game = pyspiel.load_game("rivals_rosenkoenig")
    state = play_randomly(game.new_initial_state(), random.Random(2), plies=30)
    # Rosenkönig hides nothing: the information state is the history (OpenSpiel's convention for
    # perfect information), the observation the engine's picture of the table.
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert state.information_state_string(0) == ", ".join(str(a) for a in state.history())
    assert state.observation_string(1) == state.rivals_state.observation_string(1)


def printed_in_a_fresh_interpreter(value: Any, code: str) -> str:
    """What ``code`` prints in a new interpreter, where ``value`` is unpickled as ``loaded``: what
    multiprocessing (spawn) and Ray do, in a worker that has not registered the rivals games."""
    script = "import json, pickle, sys\nloaded = pickle.loads(sys.stdin.buffer.read())\n" + code
    result = subprocess.run(
        [sys.executable, "-c", script], input=pickle.dumps(value), capture_output=True, timeout=120
    )
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode().strip()


def test_a_game_pickles_into_a_fresh_interpreter() -> None:
    game = pyspiel.load_game("rivals_verraeter", {"players": 3})
    printed = printed_in_a_fresh_interpreter(
        game,
        "print(loaded, loaded.num_players(), len(loaded.new_initial_state().legal_actions()))",
    )
    assert printed == f"{game} 3 {len(game.new_initial_state().legal_actions())}"


def test_a_state_pickles_into_a_fresh_interpreter() -> None:
    game = pyspiel.load_game("rivals_verraeter", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(40):
        state.apply_action(random_action(state, rng))
    printed = printed_in_a_fresh_interpreter(
        state,
        "print(loaded.history())\n"
        "print(json.dumps(loaded.rivals_state.to_dict(), sort_keys=True))\n"
        "print(loaded.information_state_string(1))",
    )
    history, snapshot, seen = printed.split("\n", 2)
    assert history == str(state.history())
    assert json.loads(snapshot) == state.rivals_state.to_dict()
    assert seen == state.information_state_string(1)


@pytest.mark.parametrize("name", ["verraeter", "battlecards", "rheinlaender"])
def test_openspiels_ismcts_deals_what_its_seat_has_not_seen(name: str) -> None:
    game = pyspiel.load_game(rivals.openspiel.pyspiel_name(name))
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or len(state.history()) < 25:
        state.apply_action(random_action(state, rng))
    seat = state.current_player()
    seen = state.information_state_string(seat)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    dealt = [state.resample_from_infostate(seat, sampler) for _ in range(6)]
    for other in dealt:  # OpenSpiel's own view of each deal: its history and the seat's view
        assert other.information_state_string(seat) == seen
        assert len(other.history()) == len(state.history())
        assert other.legal_actions() == state.legal_actions()
    if name != "rheinlaender":  # where the others' hands are more than one card
        assert len({str(other.rivals_state.to_dict()) for other in dealt}) > 1
    ismcts = require("open_spiel.python.algorithms.ismcts")
    random_state = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, 1.0, 30, random_state=random_state)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["battlecards", "verraeter", "rheinlaender"])
def test_a_seat_has_legal_actions_only_when_it_is_to_move(name: str) -> None:
    # The outcomes left depend on hidden cards, and so do the mover's actions (the cards in its
    # hand): another seat must not learn them from its own list.
    game = pyspiel.load_game(rivals.openspiel.pyspiel_name(name))
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = [action for action, _ in state.chance_outcomes()]
    assert state.legal_actions() == outcomes
    assert state.legal_actions(pyspiel.PlayerId.CHANCE) == outcomes
    for seat in range(game.num_players()):
        assert state.legal_actions(seat) == []
        assert state.legal_actions_mask(seat) == [0] * game.num_distinct_actions()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    mover = state.current_player()
    assert state.legal_actions(mover) == state.legal_actions()
    mask = state.legal_actions_mask(mover)
    assert [a for a, bit in enumerate(mask) if bit] == state.legal_actions()
    for seat in set(range(game.num_players())) - {mover}:
        assert state.legal_actions(seat) == []
        assert state.legal_actions_mask(seat) == [0] * game.num_distinct_actions()
