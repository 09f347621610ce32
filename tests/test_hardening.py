"""The engine's edges: nothing a caller passes crashes the interpreter, hangs it or is silently
misread. Each case once crashed (or misbehaved) and runs in a fresh interpreter, for every game it
applies to: the ``check_*`` functions below run there (``run_isolated``) and fail by assertion."""

from __future__ import annotations

import ctypes
import itertools
import json
import math
import random
import resource
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import rivals
from tests.games import CONFIGS
from tests.isolated import run_isolated, under_sanitizer

GAMES = sorted(CONFIGS)
MAX_THREADS: int = rivals._core.MAX_THREADS


def isolated(check: str, *args: Any, timeout: float = 120) -> None:
    call = f"{check}({', '.join(repr(a) for a in args)})"
    out = run_isolated(f"from tests.test_hardening import {check}\n{call}\nprint('ok')", timeout)
    assert out.splitlines()[-1] == "ok"


def raises(error: type[Exception], match: str, call: Callable[..., object], *args: Any) -> str:
    """Asserts that call(*args) raises `error` with `match` in its message; returns the message."""
    with pytest.raises(error, match=match) as caught:
        call(*args)
    return str(caught.value)


def decision_state(game: rivals.Game, seed: int = 0) -> rivals.State:
    """A state of `game` where a player is to move, a few random actions in."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 6:
        state.apply_action(rng.choice(state.legal_actions()))
        assert not state.is_terminal()
    return state


def bots_for(game: rivals.Game) -> list[str]:
    """The bots that play `game` (alphabeta and solver play only some games)."""
    playing = []
    for name in rivals.bots.names():
        try:
            rivals.bots.make(name, game, iterations=20) if name in ("mcts", "ismcts") else (
                rivals.bots.make(name, game)
            )
        except ValueError:
            continue
        playing.append(name)
    return playing


def identity(game: rivals.Game) -> str:
    """How messages name a game and its rules."""
    return f"{game.name} {json.dumps(game.params, ensure_ascii=False)}"


def small_bot(name: str, game: rivals.Game) -> rivals.bots.Bot:
    budgets = {"mcts": {"iterations": 30}, "ismcts": {"iterations": 30}, "alphabeta": {"depth": 1}}
    return rivals.bots.make(name, game, seed=1, **budgets.get(name, {}))


# --- Game identity -------------------------------------------------------------------------------


def check_bots_refuse_states_of_other_rules(name: str) -> None:
    settings = [params for params, _, _ in CONFIGS[name]]
    for mine in settings:
        game = rivals.make(name, **mine)
        for other in settings:
            if other == mine:
                continue
            foreign = decision_state(rivals.make(name, **other))
            for bot_name in bots_for(game):
                bot = small_bot(bot_name, game)
                message = raises(ValueError, "was made for", bot.step, foreign)
                assert identity(game) in message and identity(foreign.game) in message
                # The bot is unharmed and still plays its own game (the solver would solve
                # the whole game first: minutes).
                if bot_name != "solver":
                    own = decision_state(game)
                    assert own.is_legal(bot.step(own))


@pytest.mark.parametrize("name", GAMES)
def test_bots_refuse_states_of_the_same_game_with_other_rules(name: str) -> None:
    isolated("check_bots_refuse_states_of_other_rules", name, timeout=300)


def test_games_are_equal_exactly_when_their_rules_are() -> None:
    for name in GAMES:
        settings = [params for params, _, _ in CONFIGS[name]]
        for a in settings:
            for b in settings:
                same = rivals.make(name, **a) == rivals.make(name, **b)
                assert same == (rivals.make(name, **a).params == rivals.make(name, **b).params)
                if same:
                    assert hash(rivals.make(name, **a)) == hash(rivals.make(name, **b))
    # Defaults spelled out are the same rules as defaults left out.
    assert rivals.make("verraeter", players=4, rounds=8) == rivals.make("verraeter")


# --- Integer arguments ---------------------------------------------------------------------------

NOT_INTEGERS: list[Any] = [2.5, 2.0, math.nan, True, None, "2", [2]]


def check_integer_arguments(name: str) -> None:
    game = rivals.make(name)
    players = game.num_players
    bots = ["random"] * players
    state = decision_state(game)
    env = rivals.VectorEnv(game, 2)
    calls: dict[str, tuple[Callable[[Any], object], list[Any]]] = {
        "num_games": (lambda v: game.random_playouts(v), [-1, 10**7 + 1, 2**70]),
        "threads": (lambda v: game.random_playouts(2, threads=v), [0, -3, MAX_THREADS + 1, 2**70]),
        "first_game": (lambda v: game.play_match(bots, 1, first_game=v), [-1, 2**62 + 1, 2**70]),
        "match num_games": (lambda v: game.play_match(bots, v), [-1, 2**31, 10**7 + 1]),
        "match threads": (lambda v: game.play_match(bots, 2, threads=v), [0, -3, 400]),
        "copies": (lambda v: game.copy_ns(v), [0, -1, 10**8 + 1]),
        "num_envs": (lambda v: rivals.VectorEnv(game, v), [0, -1, 2**20 + 1, 2**70]),
        "env threads": (lambda v: rivals.VectorEnv(game, 2, threads=v), [0, -3, 400]),
        "seed": (lambda v: game.random_playouts(2, seed=v), [-1, 2**64]),
        "player": (lambda v: state.observation_tensor(v), [-1, players, 2**70]),
    }
    for what, (call, out_of_range) in calls.items():
        for value in out_of_range + NOT_INTEGERS:
            with pytest.raises(ValueError) as caught:
                call(value)
            message = str(caught.value)
            assert what.split()[-1] in message or "seed" in message, (what, value, message)
    with pytest.raises(IndexError, match="no environment 2"):
        env.state(2)
    with pytest.raises(ValueError, match="env must be an int"):
        env.state(1.0)
    # Integral numbers of any kind are accepted wherever an int is.
    assert game.random_playouts(np.int64(3), seed=np.uint64(5), threads=np.int8(2))[
        "returns"
    ].shape == (3, players)
    assert game.play_match(bots, np.int32(2), first_game=np.int64(7))["lengths"].shape == (2,)
    # Still usable after all of it.
    assert game.random_playouts(4, threads=2)["returns"].shape == (4, players)


@pytest.mark.parametrize("name", GAMES)
def test_integer_arguments_are_checked(name: str) -> None:
    isolated("check_integer_arguments", name)


def test_play_match_with_a_negative_first_game_is_a_value_error() -> None:
    run_isolated(
        """
        import rivals
        for name in rivals.games():
            game = rivals.make(name)
            try:
                game.play_match(["random"] * game.num_players, 2, 0, -1)
            except ValueError as error:
                assert "first_game" in str(error), error
            else:
                raise AssertionError(name)
        """
    )


def test_a_vector_env_too_big_for_memory_is_refused() -> None:
    with pytest.raises(ValueError, match=r"rheinlaender: 1048576 environments need \d+ MiB"):
        rivals.VectorEnv("rheinlaender", 2**20)


# --- Actions -------------------------------------------------------------------------------------


def check_actions_of_any_integer_kind(name: str) -> None:
    game = rivals.make(name)
    state = decision_state(game)
    legal = state.legal_actions()[0]
    kinds = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
    for kind in kinds:
        if legal <= np.iinfo(kind).max:
            assert state.is_legal(kind(legal))
            assert state.action_to_string(kind(legal)) == state.action_to_string(legal)
    history = state.history()
    assert game.state_from_history(np.array(history)).history() == history
    twin = state.clone()
    twin.apply_action(np.int64(legal))
    assert twin.history() == [*history, legal]
    before = (state.to_json(), state.history())
    for bad in (float(legal), np.float64(legal), True, np.True_, None, "1", [legal]):
        for call in (state.apply_action, state.is_legal, state.action_to_string):
            with pytest.raises(ValueError, match="an action is an integer"):
                call(bad)
        with pytest.raises(ValueError, match=r"an action is an integer"):
            game.state_from_history([bad])
    for huge in (2**31, -(2**31) - 1, 2**70):
        with pytest.raises(ValueError, match="out of range"):
            state.apply_action(huge)
    assert (state.to_json(), state.history()) == before
    # An endless iterable is read no further than the longest game.
    with pytest.raises(ValueError, match="action #"):
        game.state_from_history(itertools.repeat(legal))
    with pytest.raises(ValueError, match="a history is a list of actions"):
        game.state_from_history(None)


@pytest.mark.parametrize("name", GAMES)
def test_actions_of_any_integer_kind_and_nothing_else(name: str) -> None:
    isolated("check_actions_of_any_integer_kind", name)


def check_vector_env_actions(name: str) -> None:
    env = rivals.VectorEnv(name, 3, seed=1)
    out = env.reset()
    legal = np.array([int(np.flatnonzero(row)[0]) for row in out["legal_mask"]])
    before = {key: value.copy() for key, value in out.items()}
    bad_inputs: list[tuple[Any, str]] = [
        ([5.9, 0, 0], r"environment 0: .*got float 5\.9"),
        (np.array([0.0, 1.0, 2.0]), r"environment 0: .*got float 0\.0"),
        ([int(legal[0]), math.nan, 0], r"environment 1: .*got float nan"),
        (np.zeros((3, 2), dtype=np.int64), r"one action per environment \(3\).*shape \(3, 2\)"),
        ([int(legal[0]), int(legal[1]), 2**70], r"environment 2: action 1180591620717411303424"),
        (np.array([0, 0, 2**40]), r"environment 2: action 1099511627776 is out of range"),
        (None, "one action per environment"),
        ([None, 0, 0], r"environment 0: .*NoneType None"),
        ([int(legal[0]), True, 0], r"environment 1: .*got bool True"),
        (np.array([True, False, True]), r"environment 0: .*got bool True"),
        ([[1], [2, 3], [4]], r"environment 0: .*got list \[1\]"),
        (np.array([[1], [2, 3], [4]], dtype=object), r"environment 0: .*got list \[1\]"),
        ("abc", "one action per environment"),
        (legal[:2], r"one action per environment \(3\)"),
    ]
    for actions, match in bad_inputs:
        with pytest.raises(ValueError, match=match) as caught:
            env.step(actions)
        assert f"{name} VectorEnv(3 environments)" in str(caught.value)
    for key, value in before.items():
        np.testing.assert_array_equal(out[key], value)
    # Any integer dtype, strided views and lists of numpy integers all step.
    twins = [rivals.VectorEnv(name, 3, seed=1) for _ in range(4)]
    for twin in twins:
        twin.reset()
    results = [
        twins[0].step(legal.astype(np.int16)),
        twins[1].step(np.repeat(legal.astype(np.uint32), 2)[::2]),
        twins[2].step([np.int64(a) for a in legal]),
        twins[3].step(tuple(int(a) for a in legal)),
    ]
    reference = env.step(legal)
    for result in results:
        for key in reference:
            np.testing.assert_array_equal(result[key], reference[key])


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_actions_are_integers_named_by_environment(name: str) -> None:
    isolated("check_vector_env_actions", name)


# --- Parameters ----------------------------------------------------------------------------------


def deeply_nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def check_deep_nesting(name: str) -> None:
    deep = deeply_nested(50_000)
    game = rivals.make(name)
    param = next(iter(game.params))
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        rivals.make(name, **{param: deep})
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        rivals.bots.make("mcts", game, iterations=deep)
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        game.play_match([("mcts", {"iterations": {"a": deep}})] * game.num_players, 1)
    # Shallow nesting reaches the parameter check as usual.
    with pytest.raises(ValueError, match=f"parameter {param} must be"):
        rivals.make(name, **{param: deeply_nested(60)})


@pytest.mark.parametrize("name", GAMES)
def test_deeply_nested_parameters_are_refused(name: str) -> None:
    isolated("check_deep_nesting", name)


class Emptying:
    """An integer whose __index__ empties (and so frees the items of) the container it sits in,
    as Python code that runs while the engine reads that container may."""

    def __init__(self, container: Any) -> None:
        self.container = container

    def __index__(self) -> int:
        self.container.clear()
        return 0


def emptying_list() -> list[Any]:
    items: list[Any] = []
    items.extend([Emptying(items), 1, 2, 3])
    return items


def check_containers_changed_while_read() -> None:
    # A list read while an item empties it: a parameter, a bot's, a replay's, an action list.
    with pytest.raises(ValueError, match="parameter expansions must be a list"):
        rivals.make("battlecards", expansions=emptying_list())
    game = rivals.make("rosenkoenig")
    with pytest.raises(ValueError, match="parameter iterations must be an int"):
        rivals.bots.make("mcts", game, iterations=emptying_list())
    with pytest.raises(ValueError, match="unknown parameter 'x'"):
        game.play_match([("random", {"x": emptying_list()})] * 2, 1)
    data = rivals.replay.to_dict(rivals.make("battlecards").new_initial_state())
    data["params"]["expansions"] = emptying_list()
    with pytest.raises(ValueError, match="bad replay"):
        rivals.replay.from_dict(data)
    # A dict emptied while read: the item it held (a tuple here) stays alive until read.
    params: dict[str, Any] = {}
    params["expansions"] = (Emptying(params), 1)
    with pytest.raises(ValueError, match="parameter expansions must be a list"):
        rivals.make_game("battlecards", params)  # make(**params) would read a copy
    env = rivals.VectorEnv("rosenkoenig", 2)
    legal = [int(np.flatnonzero(mask)[0]) for mask in env.reset()["legal_mask"]]
    actions: list[Any] = []

    class Shrinking:
        def __index__(self) -> int:
            actions.clear()
            return legal[0]

    actions.extend([Shrinking(), legal[1]])
    before = env.state(0).history()
    env.step(actions)  # the actions as they were when the step began
    assert env.state(0).history() == [*before, legal[0]]


def test_containers_changed_while_the_engine_reads_them() -> None:
    isolated("check_containers_changed_while_read")


def check_deep_json_data_file(path: str) -> None:
    Path(path).write_text("[" * 100_000 + "]" * 100_000)
    for name, param in (("sekigahara", "cards"), ("verraeter", "cards"), ("rheinlaender", "map")):
        with pytest.raises(ValueError, match=f"{name}: {param} file"):
            rivals.make(name, **{param: path})


def test_a_deeply_nested_data_file_is_refused(tmp_path: Path) -> None:
    # The engine's JSON parser bounds its depth too: fuzz/regressions/cpp_json/deep-nesting.
    isolated("check_deep_json_data_file", str(tmp_path / "deep.json"))


BAD_BOT_PARAMS: dict[str, dict[str, list[Any]]] = {
    "mcts": {
        "iterations": [0, 2**31, 1.5, True],
        "time_s": [-1.0, math.nan, math.inf, 1e10, 86401],
        "exploration": [-0.1, math.nan, math.inf],
        "max_nodes": [0, 2**31],
        "threads": [0, 257, 400],
    },
    "alphabeta": {
        "depth": [0, 65],
        "time_s": [-1.0, math.nan, math.inf, 1e10],
        "table_mb": [0, 4097],
    },
    "solver": {"max_contexts": [0, 2**41], "time_s": [math.nan, math.inf, -1.0, 1e10]},
}
BAD_BOT_PARAMS["ismcts"] = BAD_BOT_PARAMS["mcts"]


def given_in(message: str) -> str:
    return message.rsplit("got ", 1)[1]


@pytest.mark.parametrize("bot", sorted(BAD_BOT_PARAMS))
def test_every_bot_parameter_error_names_its_parameter(bot: str) -> None:
    game = rivals.make("sekigahara")  # every bot plays it
    for param, values in BAD_BOT_PARAMS[bot].items():
        for value in values:
            with pytest.raises(ValueError, match=f"^{bot}: parameter {param} must be") as caught:
                game.make_bot(bot, {param: value})
            given = given_in(str(caught.value))
            if value is True:
                assert given == "true"
            elif isinstance(value, float) and math.isnan(value):
                assert given == "nan"
            else:
                assert float(given) == value


def test_every_game_parameter_error_names_its_parameter() -> None:
    for name in GAMES:
        for param, default in rivals.make(name).params.items():
            wrong: list[Any] = [10**12, -(10**12), math.nan, "no such thing"]
            if isinstance(default, list):
                wrong = [[1], 5]
            elif param in ("cards", "map"):
                wrong = wrong[:3]  # a string is a path: the data file's own checks
            for value in wrong:
                with pytest.raises(ValueError, match=f"^{name}: parameter {param} must be"):
                    rivals.make(name, **{param: value})


def test_time_budgets_are_finite_for_the_solver() -> None:
    game = rivals.make("sekigahara")
    for value in (math.nan, math.inf, -1.0, 1e10):
        with pytest.raises(ValueError, match="parameter time_s must be a number 0-86400"):
            rivals.bots.make("solver", game, time_s=value)
    for contexts in (0, 2**70, 2.5):
        with pytest.raises(ValueError, match="max_contexts"):
            rivals.bots.make("solver", game, max_contexts=contexts)


def test_messages_keep_the_text_past_a_nul_byte() -> None:
    rosenkoenig = rivals.make("rosenkoenig")
    message = raises(ValueError, "unknown game", rivals.make, "rosenkoenig\x00junk")
    # The text after the NUL is kept, the NUL itself shown escaped.
    assert "'rosenkoenig\\x00junk'" in message and "available: " in message
    message = raises(
        ValueError, "unknown parameter", rivals.make_game, "rosenkoenig", {"a\x00b": 1}
    )
    assert "'a\\x00b'" in message
    message = raises(ValueError, "unknown bot", rivals.bots.make, "mc\x00ts", rosenkoenig)
    assert "'mc\\x00ts'" in message
    for name in GAMES:
        state = rivals.make(name).new_initial_state()
        message = raises(ValueError, "pass", state.string_to_action, "pass\x00tail")
        assert "pass\\x00tail" in message


def test_messages_escape_and_cut_what_they_echo() -> None:
    # A name from a file or a caller can carry terminal escapes or be a megabyte long.
    rosenkoenig = rivals.make("rosenkoenig")
    state = decision_state(rosenkoenig)
    name = "\x1b]0;title\x07\u009b2J" + "é" * 1000
    calls: list[Callable[[], object]] = [
        lambda: rivals.make(name),
        lambda: rivals.make_game("rosenkoenig", {name: 1}),
        lambda: rivals.bots.make(name, rosenkoenig),
        lambda: rivals.bots.make("mcts", rosenkoenig, **{name: 1}),
        lambda: state.string_to_action(name),
        lambda: state.evaluate(0, name),
    ]
    for call in calls:
        with pytest.raises(ValueError) as raised:
            call()
        message = str(raised.value)
        assert "'\\x1b]0;title\\x07\\u009b2J" in message, message[:300]
        assert not any(ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F for char in message)
        assert "é" * 90 in message and "é" * 101 not in message, message[:300]


# --- Threads -------------------------------------------------------------------------------------


def check_refused_threads_end_cleanly(name: str) -> None:
    game = rivals.make(name)
    state = decision_state(game)
    # glibc allocates a thread's thread-local data when the thread first uses it, and aborts the
    # process when that fails. With one malloc arena a thread that did start takes those bytes
    # from memory the process already holds, instead of mapping an arena of its own out of an
    # address space that the refused threads have just used up (unlimited arenas aborted about
    # one run in six).
    m_arena_max = -8
    ctypes.CDLL(None).mallopt(m_arena_max, 1)
    limit = 1_000_000_000
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    attempts: list[Callable[[], object]] = [
        lambda: game.random_playouts(400, 0, MAX_THREADS),
        lambda: game.play_match(["random"] * game.num_players, 400, threads=MAX_THREADS),
        lambda: rivals.VectorEnv(game, 400, threads=MAX_THREADS).reset(),
        lambda: rivals.bots.make("mcts", game, iterations=5, threads=MAX_THREADS).step(state),
    ]
    refused = 0
    for attempt in attempts:
        try:
            attempt()
        except RuntimeError as error:
            assert "ask for fewer threads" in str(error), error
            refused += 1
        except MemoryError:
            refused += 1
    assert refused > 0, "the address-space limit refused no thread: the test tests nothing"
    # Everything started was joined: the engine works on, with threads to spare.
    assert game.random_playouts(20, threads=2)["returns"].shape == (20, game.num_players)
    assert state.is_legal(rivals.bots.make("mcts", game, iterations=5, threads=2).step(state))


@pytest.mark.skipif(under_sanitizer(), reason="AddressSanitizer cannot run under RLIMIT_AS")
@pytest.mark.parametrize("name", GAMES)
def test_refused_threads_raise_and_join_what_started(name: str) -> None:
    isolated("check_refused_threads_end_cleanly", name)


def test_a_value_cut_short_in_a_message_is_cut_between_characters() -> None:
    # Two-byte characters past the 200 bytes a message quotes: a cut inside one would leave a
    # stray byte, which Python shows as an escape.
    with pytest.raises(ValueError) as refused:
        rivals.make("rosenkoenig", players="\u00e9" * 150)
    assert "\u00e9\u00e9..." in str(refused.value) and "\\x" not in str(refused.value)
    document = json.loads((Path(rivals.__file__).parent / "data" / "sekigahara.json").read_text())
    document["version"] = "a" + "\u00e9" * 40
    with pytest.raises(ValueError) as refused:
        rivals.make("sekigahara", cards=document)
    assert "..." in str(refused.value) and "\\x" not in str(refused.value)
