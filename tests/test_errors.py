"""The error contract of docs/errors.md, for every game: bad input raises, names the offender and
changes nothing."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import rivals
from tests.games import CONFIGS

GAMES = sorted(CONFIGS)


def mid_game_state(name: str, plies: int = 30) -> rivals.State:
    state = rivals.make(name).new_initial_state()
    rng = random.Random(name)
    while not state.is_terminal() and len(state.history()) < plies:
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) == plies and not state.is_terminal()
    return state


def unchanged(state: rivals.State) -> tuple[Any, ...]:
    return (state.to_json(), state.hash(), state.history())


@pytest.mark.parametrize("name", GAMES)
def test_make_names_bad_parameters(name: str) -> None:
    with pytest.raises(ValueError, match=rf"{name}: unknown parameter 'no_such_thing'"):
        rivals.make(name, no_such_thing=1)
    for param, default in rivals.make(name).params.items():
        wrong: object = [] if not isinstance(default, list) else "text"
        with pytest.raises(ValueError, match=param):
            rivals.make(name, **{param: wrong})


@pytest.mark.parametrize("name", GAMES)
def test_state_entry_points_reject_bad_input_and_change_nothing(name: str) -> None:
    state = mid_game_state(name)
    game = state.game
    before = unchanged(state)
    with pytest.raises(ValueError, match="999999"):
        state.apply_action(999999)
    with pytest.raises(ValueError, match=str(game.num_distinct_actions + 7)):
        state.action_to_string(game.num_distinct_actions + 7)
    with pytest.raises(ValueError, match="surely not a move"):
        state.string_to_action("surely not a move")
    for method in ("observation_tensor", "observation_string", "information_state_string"):
        with pytest.raises(ValueError, match=f"player {game.num_players}"):
            getattr(state, method)(game.num_players)
        with pytest.raises(ValueError, match="player -1"):
            getattr(state, method)(-1)
    with pytest.raises(ValueError, match=f"player {game.num_players}"):
        state.resample_from_infostate(game.num_players, 0)
    assert unchanged(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_history_replay_and_bots_name_the_problem(name: str) -> None:
    state = mid_game_state(name, plies=12)
    game = state.game
    history = state.history()
    broken = [*history[:5], 999999, *history[5:]]
    with pytest.raises(ValueError, match="action #5"):
        game.state_from_history(broken)
    with pytest.raises(ValueError, match=r"^action #3: an action is an integer"):
        game.state_from_history([*history[:3], 1.0])
    record = rivals.replay.to_dict(state)
    record["actions"][3]["action"] = 999999
    del record["actions"][3]["text"]
    with pytest.raises(ValueError, match=r"actions\[3\]: .*999999"):
        rivals.replay.from_dict(record)
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        rivals.bots.make("oracle", game)
    other = next(g for g in GAMES if g != name)
    bot = rivals.bots.make("random", rivals.make(other))
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert not state.is_terminal()
    with pytest.raises(ValueError, match=f"plays {other}, not {name}"):
        bot.step(state)


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_seeds_outside_64_bits_are_value_errors(seed: int) -> None:
    game = rivals.make("rosenkoenig")
    calls = [
        lambda: game.random_playouts(2, seed=seed),
        lambda: game.play_match(["random", "random"], 1, seed=seed),
        lambda: rivals.bots.make("random", game, seed=seed),
        lambda: rivals.VectorEnv(game, 2, seed=seed),
        lambda: game.new_initial_state().resample_from_infostate(0, seed),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=f"seed must be an int 0..2\\*\\*64-1, got {seed}"):
            call()


def test_numpy_integers_are_ints_in_game_and_bot_parameters() -> None:
    np = pytest.importorskip("numpy")
    game = rivals.make("rosenkoenig", players=np.int64(4))
    assert game.num_players == 4 and game.params["players"] == 4
    bot = rivals.bots.make("mcts", game, iterations=np.int32(7))
    assert bot.params["iterations"] == 7
    results = game.play_match([("mcts", {"iterations": np.uint16(5)}), "random"] * 2, 2)
    assert results["returns"].shape == (2, 4)
    with pytest.raises(ValueError, match="cannot use a value of type float32"):
        rivals.bots.make("mcts", game, iterations=np.float32(7))


def test_numpy_bools_are_not_numbers_whatever_numpys_version() -> None:
    """numpy's bool has ``__index__`` in numpy up to 2.0 (with a DeprecationWarning), and later
    raises from it: either way a truth value is refused where an action, a count or a seed is
    due, and numpy is not asked (no warning)."""
    np = pytest.importorskip("numpy")
    game = rivals.make("rosenkoenig")
    state = game.new_initial_state()
    before = state.history()
    calls = {
        "apply_action": state.apply_action,
        "is_legal": state.is_legal,
        "action_to_string": state.action_to_string,
        "random_playouts": game.random_playouts,
        "copy_ns": game.copy_ns,
        "VectorEnv": lambda value: rivals.VectorEnv(game, value),
        "seed": lambda value: game.random_playouts(2, seed=value),
    }
    for what, call in calls.items():
        for value in (np.True_, np.False_):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                with pytest.raises(ValueError):
                    call(value)
            assert state.history() == before, what


def test_action_text_errors_offer_only_what_the_node_accepts() -> None:
    sekigahara = rivals.make("sekigahara").new_initial_state()
    while sekigahara.is_chance_node():
        sekigahara.apply_action(sekigahara.legal_actions()[0])
    with pytest.raises(ValueError, match="cannot read action 'reveal 7'") as refused:
        sekigahara.string_to_action("reveal 7")  # a chance outcome, not a decision
    assert "'swap 4' (cards 1-9)" in str(refused.value) and "or 'reveal" not in str(refused.value)
    verraeter = rivals.make("verraeter").new_initial_state()
    assert verraeter.is_chance_node()  # the ring of landscapes is dealt first
    with pytest.raises(ValueError, match="landscape card such as 'Stadt eagle'") as refused:
        verraeter.string_to_action("play 5")
    assert "v one of" not in str(refused.value)  # no supply value goes with a landscape
