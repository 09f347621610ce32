"""``State.undo()`` against replaying the shorter history from the start, in every game.

Undo restarts from a snapshot taken every few actions and replays the actions since; these tests
walk random games back and forth across those snapshots (several actions undone at once, other
actions played after) and compare everything a state answers with the state rebuilt by
``game.state_from_history``.
"""

from __future__ import annotations

import copy
import pickle
import random
import threading
from typing import Any

import pytest

import rivals
from tests.games import config_id, configs
from tests.random_play import play_randomly, random_action

# Random walks for a fifth of the invariant games of tests/games.py (at least one per parameter
# set; RIVALS_TEST_SCALE scales them): each checks everything at every step.
CASES = [(name, params, max(1, games // 5)) for name, params, games in configs("invariants")]
# Longer than several of undo's snapshot intervals.
LONGEST_UNDO = 40
# Steps of one random walk: a whole game in most games, the first part of the longest (a
# Battlecards game can run to thousands of actions); test_a_whole_game_undone_passes_every_position
# takes whole games back.
MOST_STEPS = 500


def case_ids() -> list[str]:
    return [config_id(name, params) for name, params, _ in CASES]


def everything(state: rivals.State) -> dict[str, Any]:
    """What a state answers: its position, chance, hidden cards, history, views and result."""
    game = state.game
    out: dict[str, Any] = {
        "json": state.to_json(),
        "hash": state.hash(),
        "history": state.history(),
        "player": state.current_player(),
        "legal": state.legal_actions(),
        "chance": state.chance_outcomes(),
        "returns": state.returns(),
        "scores": state.scores(),
        "text": str(state),
    }
    for player in range(game.num_players):
        compact = state.observation_tensor(player, kind="compact")
        out[f"view {player}"] = (
            state.observation_tensor(player).tobytes(),
            compact["board"].tobytes(),
            compact["features"].tobytes(),
            state.observation_string(player),
            state.information_state_string(player),
        )
        if game.info.evaluation and not state.is_terminal():
            out[f"evaluation {player}"] = state.evaluate(player)
    return out


def assert_same(state: rivals.State, expected: dict[str, Any], where: str) -> None:
    got = everything(state)
    for key, value in expected.items():
        assert got[key] == value, f"{where}: {key} differs"
    assert got.keys() == expected.keys(), where


def replayed(state: rivals.State) -> dict[str, Any]:
    return everything(state.game.state_from_history(state.history()))


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_undo_equals_replay_from_the_start(
    name: str, params: dict[str, Any], num_games: int
) -> None:
    """At every step, one undo gives the state before the action; now and then several undos in
    a row (across snapshots), then other actions than the undone ones."""
    game = rivals.make(name, **params)
    rng = random.Random(config_id(name, params))
    for number in range(num_games):
        state = game.new_initial_state()
        before = everything(state)
        steps = 0
        while not state.is_terminal() and steps < MOST_STEPS:
            action = random_action(state, rng)
            state.apply_action(action)
            after = everything(state)
            state.undo()
            assert_same(state, before, f"game {number}, undoing action {len(before['history'])}")
            state.apply_action(action)
            before = after
            steps += 1
            if rng.random() < 0.05:
                for _ in range(rng.randint(1, min(LONGEST_UNDO, len(state.history())))):
                    state.undo()
                before = replayed(state)
                assert_same(state, before, f"game {number}, back to {len(state.history())}")
        assert steps > 0
        assert_same(state, replayed(state), f"game {number}, where the walk ends")


@pytest.mark.parametrize(("name", "params", "num_games"), CASES, ids=case_ids())
def test_a_whole_game_undone_passes_every_position(
    name: str, params: dict[str, Any], num_games: int
) -> None:
    game = rivals.make(name, **params)
    state = play_randomly(game.new_initial_state(), random.Random(config_id(name, params)))
    positions = len(state.history())
    while state.history():
        state.undo()
        assert_same(state, replayed(state), f"after undoing to {len(state.history())}")
    assert positions > LONGEST_UNDO or state.history() == []


@pytest.mark.parametrize("name", rivals.games())
def test_undo_at_the_start_raises_and_changes_nothing(name: str) -> None:
    game = rivals.make(name)
    state = game.new_initial_state()
    start = everything(state)
    with pytest.raises(IndexError, match="undo: no action to take back"):
        state.undo()
    assert_same(state, start, "a refused undo")
    rng = random.Random(1)
    play_randomly(state, rng, plies=LONGEST_UNDO)
    for _ in range(LONGEST_UNDO):
        state.undo()
    assert_same(state, start, "undone to the start")
    with pytest.raises(IndexError, match="undo: no action to take back"):
        state.undo()
    assert_same(state, start, "a refused undo after undoing everything")


@pytest.mark.parametrize("name", rivals.games())
@pytest.mark.parametrize(
    "duplicate",
    [
        lambda state: state.clone(),
        copy.copy,
        copy.deepcopy,
        lambda state: pickle.loads(pickle.dumps(state)),
    ],
    ids=["clone", "copy", "deepcopy", "pickle"],
)
def test_undo_after_a_copy_changes_neither_the_other(name: str, duplicate: Any) -> None:
    """A copy and its original share what undo restarts from: undoing one far back and playing
    other actions leaves the other as it was, and the other's undo still replays its own
    history."""
    game = rivals.make(name)
    rng = random.Random(config_id(name, {}))
    original = play_randomly(game.new_initial_state(), rng, plies=3 * LONGEST_UNDO)
    twin = duplicate(original)
    kept = everything(twin)
    for _ in range(LONGEST_UNDO):
        original.undo()
    play_randomly(original, rng, plies=LONGEST_UNDO)
    assert_same(twin, kept, "the copy after its original's undo")
    mine = everything(original)
    for _ in range(LONGEST_UNDO + 3):
        twin.undo()
        assert_same(twin, replayed(twin), f"the copy undone to {len(twin.history())}")
    assert_same(original, mine, "the original after its copy's undo")


@pytest.mark.parametrize("name", rivals.games())
def test_a_copy_is_undone_while_a_bot_reads_its_original(name: str) -> None:
    """Undo writes only its own state: a bot may search the original in another thread the
    whole time (the state guard refuses only a second user of one object)."""
    game = rivals.make(name)
    rng = random.Random(5)
    original = play_randomly(
        game.new_initial_state(),
        rng,
        stop=lambda s: len(s.history()) >= LONGEST_UNDO and not s.is_chance_node(),
    )
    assert not original.is_terminal()
    kept = everything(original)
    twin = original.clone()
    bot = rivals.bots.make("mcts", game, seed=1, iterations=2000)
    chosen: list[int] = []
    thinking = threading.Thread(target=lambda: chosen.append(bot.step(original)))
    thinking.start()
    try:
        while twin.history():
            twin.undo()
    finally:
        thinking.join()
    assert_same(twin, everything(game.new_initial_state()), "the copy undone to the start")
    assert_same(original, kept, "the original after the bot and its copy's undo")
    assert original.is_legal(chosen[0])


@pytest.mark.parametrize("name", rivals.games())
def test_undo_ns_checks_its_arguments(name: str) -> None:
    game = rivals.make(name)
    history = play_randomly(game.new_initial_state(), random.Random(2), plies=30).history()
    assert game.undo_ns(history, undos=len(history), copies=3) > 0
    assert game.undo_ns(history, undos=5, copies=3, from_start=True) > 0
    with pytest.raises(ValueError, match="undos"):
        game.undo_ns(history, undos=len(history) + 1)
    with pytest.raises(ValueError, match="undos"):
        game.undo_ns([], undos=1)
    with pytest.raises(ValueError, match="copies"):
        game.undo_ns(history, copies=0)
    with pytest.raises(ValueError, match="action #1"):
        game.undo_ns([history[0], -1, *history[2:]])
