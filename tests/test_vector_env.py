"""rivals.VectorEnv against single states, for every game."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import rivals
from rivals.reference._rng import mix64
from tests import optional
from tests.games import CONFIGS, config_id, configs

CASES = [(name, params) for name, params, _ in configs("invariants")]
IDS = [config_id(name, params) for name, params in CASES]


def random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), dtype=np.int64)


def check_against_states(env: rivals.VectorEnv, out: dict[str, Any]) -> None:
    game = env.game
    for e in range(env.num_envs):
        state = env.state(e)
        player = int(out["player"][e])
        if out["terminated"][e]:
            assert state.is_terminal()
            assert player == rivals.TERMINAL
            np.testing.assert_array_equal(
                out["rewards"][e], np.asarray(state.returns(), np.float32)
            )
            assert not out["legal_mask"][e].any()
            continue
        assert not state.is_chance_node(), "chance is resolved inside the environment"
        assert player == state.current_player()
        expected = np.zeros(game.num_distinct_actions, dtype=bool)
        expected[state.legal_actions()] = True
        np.testing.assert_array_equal(out["legal_mask"][e], expected)
        np.testing.assert_array_equal(out["obs"][e], state.observation_tensor(player))
        assert not out["rewards"][e].any()


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_vector_env_agrees_with_single_states(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    env = rivals.VectorEnv(game, 6, seed=3, threads=2)
    out = env.reset()
    assert out["obs"].shape == (6, *game.observation_shape) and out["obs"].dtype == np.float32
    assert out["legal_mask"].shape == (6, game.num_distinct_actions)
    assert out["rewards"].shape == (6, game.num_players) and out["rewards"].dtype == np.float32
    assert out["player"].dtype == np.int32 and out["terminated"].dtype == np.bool_
    check_against_states(env, out)
    rng = np.random.default_rng(1)
    finished = 0
    for step in range(600):
        restarting = out["terminated"].copy()
        out = env.step(random_legal(out["legal_mask"], rng))
        assert not (restarting & out["terminated"]).any()
        finished += int(out["terminated"].sum())
        if step % 7 == 0 or out["terminated"].any():
            check_against_states(env, out)
        ended = out["rewards"][out["terminated"]]
        np.testing.assert_allclose(ended.sum(axis=1), 0.0, atol=1e-6)
    assert finished > 0


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_same_seed_same_games_whatever_the_threads(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    runs = []
    for threads in (1, 3):
        env = rivals.VectorEnv(game, 8, seed=42, threads=threads)
        rng = np.random.default_rng(0)
        out = env.reset()
        trace = []
        for _ in range(300):
            out = env.step(random_legal(out["legal_mask"], rng))
            trace.append({key: value.copy() for key, value in out.items()})
        runs.append(trace)
    for a, b in zip(*runs):
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
    other = rivals.VectorEnv(game, 8, seed=43).reset()
    first = rivals.VectorEnv(game, 8, seed=42).reset()
    assert not np.array_equal(other["obs"], first["obs"])


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_default_results_carry_the_legal_indices_beside_the_mask(
    name: str, params: dict[str, Any]
) -> None:
    """Row by row the indices are the mask's nonzero columns, then -1 up to the game's bound; the
    draw from them that docs/learning.md recommends plays whole games, -1 for finished ones."""
    game = rivals.make(name, **params)
    width = game.max_legal_actions
    env = rivals.VectorEnv(game, 5, seed=11, threads=2)
    out = env.reset()
    assert out["legal_actions"].shape == (5, width) and out["legal_actions"].dtype == np.int32
    assert out["num_legal"].shape == (5,) and out["num_legal"].dtype == np.int32
    rng = np.random.default_rng(4)
    rows = np.arange(env.num_envs)
    finished = 0
    for _ in range(600):
        for e in range(env.num_envs):
            count = int(out["num_legal"][e])
            assert count == int(out["legal_mask"][e].sum())
            np.testing.assert_array_equal(
                out["legal_actions"][e, :count], np.flatnonzero(out["legal_mask"][e])
            )
            assert (out["legal_actions"][e, count:] == -1).all()
            assert count > 0 or out["terminated"][e]
        actions = out["legal_actions"][
            rows, (rng.random(env.num_envs) * out["num_legal"]).astype(int)
        ]
        assert ((actions == -1) == out["terminated"]).all()
        out = env.step(actions)
        finished += int(out["terminated"].sum())
    assert finished > 0
    masked = rivals.VectorEnv(game, 2, seed=11, legal="mask").reset()
    assert "legal_actions" not in masked and "num_legal" not in masked
    np.testing.assert_array_equal(
        masked["legal_mask"], rivals.VectorEnv(game, 2, seed=11).reset()["legal_mask"]
    )


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_sample_legal_draws_legal_actions_and_leaves_the_games_alone(
    name: str, params: dict[str, Any]
) -> None:
    game = rivals.make(name, **params)
    env, twin, extra = (rivals.VectorEnv(game, 4, seed=8, threads=threads) for threads in (1, 3, 1))
    out, _, _ = env.reset(), twin.reset(), extra.reset()
    finished = 0
    for _ in range(600):
        actions = env.sample_legal()
        assert actions.dtype == np.int32 and actions.shape == (4,)
        for e, action in enumerate(actions):
            if out["terminated"][e]:
                assert action == -1
            else:
                assert action in out["legal_actions"][e, : out["num_legal"][e]]
        # The same streams whatever the threads, and drawing more never changes the games.
        np.testing.assert_array_equal(twin.sample_legal(), actions)
        extra.sample_legal(), extra.sample_legal()
        out = env.step(actions)
        for other in (twin.step(actions), extra.step(actions)):
            for key in out:
                np.testing.assert_array_equal(out[key], other[key])
        finished += int(out["terminated"].sum())
    assert finished > 0


def test_sample_legal_is_uniform_and_starts_over_with_a_seed() -> None:
    env = rivals.VectorEnv("rosenkoenig", 64, seed=2)
    out = env.reset()
    first = env.sample_legal()
    draws = np.stack([env.sample_legal() for _ in range(400)])
    # Each legal action of each environment about 1 / num_legal of the time (5 sigma).
    counts = out["num_legal"]
    for e in range(env.num_envs):
        legal = out["legal_actions"][e, : counts[e]]
        assert set(draws[:, e]) <= set(legal)
        p = 1 / counts[e]
        hits = np.array([(draws[:, e] == action).sum() for action in legal])
        assert (abs(hits - 400 * p) <= 5 * np.sqrt(400 * p * (1 - p))).all(), (e, hits)
    assert len({tuple(row) for row in draws}) > 390  # the environments draw apart
    env.reset(seed=2)
    np.testing.assert_array_equal(env.sample_legal(), first)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.sample_legal()


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = rivals.VectorEnv("rosenkoenig", 4, seed=1)
    out = env.reset()
    legal = random_legal(out["legal_mask"], np.random.default_rng(0))
    before = {key: value.copy() for key, value in out.items()}
    histories = [env.state(e).history() for e in range(4)]
    bad = legal.copy()
    bad[2] = 49  # pass is never legal with a fresh hand
    with pytest.raises(ValueError, match="environment 2: action 49 is not legal"):
        env.step(bad)
    with pytest.raises(ValueError, match="one action per environment"):
        env.step(legal[:3])
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.full(4, 2**40))
    for key, value in before.items():
        np.testing.assert_array_equal(out[key], value)
    assert [env.state(e).history() for e in range(4)] == histories
    env.step(legal)


def test_illegal_actions_on_several_threads_name_the_first_and_change_nothing() -> None:
    """The threads check their own blocks: the error still names the first illegal action, and
    the blocks that stepped meanwhile are put back, their rows of the results too."""
    env = rivals.VectorEnv("rosenkoenig", 9, seed=4, threads=3)
    out = env.reset()
    legal = env.sample_legal()
    before = {key: value.copy() for key, value in out.items()}
    histories = [env.state(e).history() for e in range(9)]
    for illegal, first in (([7, 4, 8], 4), ([8], 8), ([1, 2], 1)):
        bad = legal.copy()
        bad[illegal] = 49  # pass is never legal with a fresh hand
        with pytest.raises(ValueError, match=f"environment {first}: action 49 is not legal"):
            env.step(bad)
        for key, value in before.items():
            np.testing.assert_array_equal(out[key], value)
        assert [env.state(e).history() for e in range(9)] == histories
    env.step(legal)
    assert all(len(env.state(e).history()) > len(histories[e]) for e in range(9))


def test_send_and_recv_match_step() -> None:
    sync = rivals.VectorEnv("rosenkoenig", 16, seed=9)
    background = rivals.VectorEnv("rosenkoenig", 16, seed=9, threads=2)
    a, b = sync.reset(), background.reset()
    rng = np.random.default_rng(2)
    for _ in range(50):
        actions = random_legal(a["legal_mask"], rng)
        a = sync.step(actions)
        background.send(actions)
        with pytest.raises(ValueError, match="still running"):
            background.step(actions)
        with pytest.raises(ValueError, match="still running"):
            background.sample_legal()
        b = background.recv()
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
    with pytest.raises(ValueError, match="without a send"):
        background.recv()


def test_bad_construction_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"num_envs must be an int 1\.\.1048576, got 0"):
        rivals.VectorEnv("rosenkoenig", 0)
    with pytest.raises(ValueError, match="unknown game"):
        rivals.VectorEnv("go", 2)
    with pytest.raises(ValueError, match="threads"):
        rivals.VectorEnv("rosenkoenig", 2, threads=0)


# --- encodings, legal-action indices, spaces ------------------------------------------------


def expected_observation(state: Any, player: int, obs: str, dtype: str) -> Any:
    if obs == "planes":
        return state.observation_tensor(player).astype(dtype)
    compact = state.observation_tensor(player, kind="compact")
    return {"board": compact["board"], "features": compact["features"].astype(dtype)}


def assert_same(a: Any, b: Any) -> None:
    if isinstance(b, dict):
        assert sorted(a) == sorted(b)
        for key in b:
            assert_same(a[key], b[key])
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    # Bit for bit: the engine rounds to float16 as numpy does.
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def check_encodings(env: rivals.VectorEnv, out: dict[str, Any]) -> None:
    """Every array the options ask for, against the single-state API; the spaces hold them."""
    width = env.game.max_legal_actions
    # The spaces are gymnasium's: the smoke selection, which runs without gymnasium, checks the
    # arrays only (tests/test_gymnasium.py checks the spaces themselves).
    spaces = not optional.SMOKE
    if env.obs is None:
        assert "obs" not in out
    elif spaces:
        assert env.observation_space.contains(out["obs"])
    assert ("legal_mask" in out) == (env.legal != "indices")
    assert ("legal_actions" in out) == (env.legal != "mask")
    for e in range(env.num_envs):
        state = env.state(e)
        legal = [] if state.is_terminal() else state.legal_actions()
        if "legal_actions" in out:
            assert out["num_legal"][e] == len(legal)
            np.testing.assert_array_equal(
                out["legal_actions"][e], np.array(legal + [-1] * (width - len(legal)), np.int32)
            )
        if env.obs is None:
            continue
        row = (
            out["obs"][e]
            if env.obs == "planes"
            else {key: value[e] for key, value in out["obs"].items()}
        )
        assert not spaces or env.single_observation_space.contains(row)
        if not out["terminated"][e]:
            assert_same(
                row, expected_observation(state, int(out["player"][e]), env.obs, env.dtype.name)
            )


ENCODINGS = [
    ("compact", "float32", "both"),
    ("compact", "float16", "indices"),
    ("planes", "float16", "both"),
    (None, "float32", "indices"),
]


@pytest.mark.parametrize(("obs", "dtype", "legal"), ENCODINGS)
@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_every_encoding_agrees_with_single_states(
    name: str, params: dict[str, Any], obs: str | None, dtype: str, legal: str
) -> None:
    game = rivals.make(name, **params)
    env = rivals.VectorEnv(game, 4, seed=5, threads=2, obs=obs, dtype=dtype, legal=legal)
    out = env.reset()
    check_encodings(env, out)
    rng = np.random.default_rng(3)
    finished = 0
    for step in range(150):
        if "legal_mask" in out:
            actions = random_legal(out["legal_mask"], rng)
        else:
            picks = (rng.random(env.num_envs) * np.maximum(out["num_legal"], 1)).astype(int)
            actions = np.maximum(out["legal_actions"][np.arange(env.num_envs), picks], 0)
        out = env.step(actions)
        finished += int(out["terminated"].sum())
        if step % 5 == 0 or out["terminated"].any():
            check_encodings(env, out)


def test_bad_options_are_value_errors() -> None:
    with pytest.raises(ValueError, match="obs must be"):
        rivals.VectorEnv("rosenkoenig", 2, obs="bits")
    with pytest.raises(ValueError, match="dtype must be float32 or float16"):
        rivals.VectorEnv("rosenkoenig", 2, dtype=np.int8)
    with pytest.raises(ValueError, match="dtype must be float32 or float16"):
        rivals.VectorEnv("rosenkoenig", 2, dtype="no such type")
    # numpy reads a str as a type name after encoding it, which a lone surrogate fails.
    with pytest.raises(ValueError, match=r"dtype must be float32 or float16, got 'f\\udcff'"):
        rivals.VectorEnv("rosenkoenig", 2, dtype="f\udcff")
    with pytest.raises(ValueError, match="legal must be"):
        rivals.VectorEnv("rosenkoenig", 2, legal="all")
    with pytest.raises(ValueError, match="obs must be"):
        rivals._core.VectorEnv("rosenkoenig", 2, 0, 1, "bits", "float32", "mask", None)


# --- Gymnasium conventions: reset(seed=), close(), with ----------------------------------------


def trace(env: rivals.VectorEnv, steps: int, seed: int | None = None) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    out = env.reset(seed=seed)
    runs = [{key: np.copy(value) for key, value in out.items()}]
    for _ in range(steps):
        out = env.step(random_legal(out["legal_mask"], rng))
        runs.append({key: np.copy(value) for key, value in out.items()})
    return runs


def test_reset_with_a_seed_starts_the_streams_over() -> None:
    fresh = trace(rivals.VectorEnv("verraeter", 4, seed=7), 120)
    env = rivals.VectorEnv("verraeter", 4, seed=1)
    other = trace(env, 120)
    reseeded = trace(env, 120, seed=7)
    again = trace(env, 120, seed=7)
    for a, b, c in zip(fresh, reseeded, again):
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
            np.testing.assert_array_equal(a[key], c[key])
    assert any(not np.array_equal(a["obs"], b["obs"]) for a, b in zip(fresh, other))
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="no options"):
        env.reset(options={"x": 1})


def test_close_and_context_manager() -> None:
    with rivals.VectorEnv("rosenkoenig", 2) as env:
        out = env.reset()
        env.send(random_legal(out["legal_mask"], np.random.default_rng(0)))
    assert env.closed
    for call in (env.reset, lambda: env.step([0, 0]), lambda: env.state(0), env.recv):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    env.close()  # closing twice is harmless


# --- opponents inside C++ ----------------------------------------------------------------------

MASK64 = (1 << 64) - 1


def derive_seed(seed: int, stream: int) -> int:
    """core/rng.h: the seed of stream `stream` of `seed`."""
    return mix64(mix64(seed) ^ mix64((stream + 0x632BE59BD9B4E019) & MASK64))


OPPONENTS = {
    "rosenkoenig": {1: ("mcts", {"iterations": 20})},
    "sekigahara": {0: ("mcts", {"iterations": 20})},
    "verraeter": {1: ("ismcts", {"iterations": 10}), 2: "random"},
    "rheinlaender": {0: "random", 2: ("ismcts", {"iterations": 5})},
    "battlecards": {1: "random"},
}
# One parameter set per game: bots inside step() cost most of these tests' time.
OPPONENT_CASES = [(name, rows[0][0]) for name, rows in CONFIGS.items()]


def bot_spec(bot: str | tuple[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    return (bot, {}) if isinstance(bot, str) else bot


@pytest.mark.parametrize(
    ("name", "params"), OPPONENT_CASES, ids=[config_id(*case) for case in OPPONENT_CASES]
)
def test_opponents_play_inside_and_replay_from_their_seeds(
    name: str, params: dict[str, Any]
) -> None:
    """Every finished game, replayed through single states with bots made from the documented
    seeds, gives the bots' moves; the learner only ever sees its own seats to move."""
    game = rivals.make(name, **params)
    opponents = OPPONENTS[name]
    seed, num_envs = 11, 3
    env = rivals.VectorEnv(game, num_envs, seed=seed, threads=2, obs="compact", opponents=opponents)
    learners = set(env.learner_seats)
    assert learners == set(range(game.num_players)) - set(opponents)
    replay_bots = []
    for e in range(num_envs):
        stream = derive_seed(derive_seed(seed, e), 1)
        bots = {}
        for seat, bot in opponents.items():
            bot_name, bot_params = bot_spec(bot)
            bots[seat] = rivals.bots.make(
                bot_name, game, seed=derive_seed(stream, seat), **bot_params
            )
        replay_bots.append(bots)
    sent: list[list[int]] = [[] for _ in range(num_envs)]
    out = env.reset()
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(400):
        check_against_states_compact(env, out, learners)
        for e in np.flatnonzero(out["terminated"]):
            replay(game, env.state(int(e)).history(), sent[e], replay_bots[e], learners)
            sent[e] = []
            finished += 1
        actions = random_legal(out["legal_mask"], rng)
        for e in range(num_envs):
            if not out["terminated"][e]:
                sent[e].append(int(actions[e]))
        out = env.step(actions)
        if finished >= 3:
            break
    assert finished >= 1


def check_against_states_compact(
    env: rivals.VectorEnv, out: dict[str, Any], learners: set[int]
) -> None:
    for e in range(env.num_envs):
        state = env.state(e)
        if out["terminated"][e]:
            assert not out["legal_mask"][e].any()
            # The end is seen by the learner that moved last, never by a bot's seat.
            assert_same(
                {k: v[e] for k, v in out["obs"].items()},
                expected_observation(state, last_mover(state, learners), "compact", "float32"),
            )
            continue
        player = int(out["player"][e])
        assert player in learners and state.current_player() == player
        assert_same(
            {k: v[e] for k, v in out["obs"].items()},
            expected_observation(state, player, "compact", "float32"),
        )


def last_mover(state: Any, seats: set[int]) -> int:
    """The one of ``seats`` that made the last of their decisions in ``state``'s history."""
    walker = state.game.new_initial_state()
    last = -1
    for action in state.history():
        if walker.current_player() in seats:
            last = walker.current_player()
        walker.apply_action(action)
    return last


def replay(
    game: Any, history: list[int], sent: list[int], bots: dict[int, Any], learners: set[int]
) -> None:
    state = game.new_initial_state()
    mine = iter(sent)
    for action in history:
        if not state.is_chance_node():
            seat = state.current_player()
            if seat in learners:
                assert action == next(mine)
            else:
                assert bots[seat].step(state) == action
        state.apply_action(action)
    assert state.is_terminal()
    assert next(mine, None) is None


@pytest.mark.parametrize("name", ["rosenkoenig", "verraeter"])
def test_opponents_give_the_same_games_whatever_the_threads(name: str) -> None:
    runs = []
    for threads in (1, 3):
        env = rivals.VectorEnv(name, 6, seed=2, threads=threads, opponents=OPPONENTS[name])
        runs.append(trace(env, 60))
    for a, b in zip(*runs):
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])


def test_opponents_that_would_peek_or_not_repeat_are_refused() -> None:
    with pytest.raises(ValueError, match="would see the learner's hidden cards"):
        rivals.VectorEnv("verraeter", 2, opponents={1: "mcts"})
    with pytest.raises(ValueError, match="thinks by the clock"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={1: ("mcts", {"time_s": 0.1})})
    with pytest.raises(ValueError, match="leave its threads at 1"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={1: ("mcts", {"threads": 2})})
    with pytest.raises(ValueError, match="leave one to the learner"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={0: "random", 1: "random"})
    with pytest.raises(ValueError, match="not a seat"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={2: "random"})
    with pytest.raises(ValueError, match=r"^opponents: seat 1: unknown bot 'grandmaster'"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={1: "grandmaster"})
    with pytest.raises(ValueError, match=r"^opponents: seat 1: mcts: parameter iterations"):
        rivals.VectorEnv("rosenkoenig", 2, opponents={1: ("mcts", {"iterations": -3})})
    with pytest.raises(ValueError, match=r"^opponents: seat 0: mcts: unknown parameter 'iters'"):
        rivals.VectorEnv("sekigahara", 2, opponents={0: ("mcts", {"iters": 5})})
