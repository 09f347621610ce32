"""Objects shared between threads (docs/errors.md, "What may be shared between threads"): a second
concurrent user of a Bot or a VectorEnv, or a change to a State while another thread reads it,
raises RuntimeError at once; several readers of one State are fine. Nothing shared ever crashes
or corrupts. Everything runs in a fresh interpreter (``run_isolated``), where a crash fails the
test instead of killing the runner."""

from __future__ import annotations

import itertools
import pickle
import random
import threading
import time
from typing import Any, Callable

import numpy as np
import pytest

import rivals
from tests.isolated import run_isolated

GAMES = rivals.games()
IN_USE = "in use by another call"


def isolated(check: str, *args: Any, timeout: float = 120) -> None:
    call = f"{check}({', '.join(repr(a) for a in args)})"
    out = run_isolated(f"from tests.test_sharing import {check}\n{call}\nprint('ok')", timeout)
    assert out.splitlines()[-1] == "ok"


def decision_state(game: rivals.Game, seed: int = 0) -> rivals.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 4:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


class Busy:
    """Runs call() (which must take a few seconds) on another thread and waits until it is well
    inside it, the GIL released."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.result: list[object] = []
        calling = threading.Event()

        def run() -> None:
            calling.set()
            self.result.append(call())

        self.thread = threading.Thread(target=run)
        self.thread.start()
        assert calling.wait(30)
        time.sleep(0.3)
        assert self.thread.is_alive(), "the call ended before the test could overlap it"

    def join(self) -> object:
        self.thread.join()
        assert len(self.result) == 1
        return self.result[0]


def check_a_bot_has_one_user_at_a_time(name: str) -> None:
    game = rivals.make(name)
    bot = rivals.bots.make("mcts", game, time_s=2.0)
    mine, other = decision_state(game, 1), decision_state(game, 2)
    busy = Busy(lambda: bot.step(mine))
    with pytest.raises(RuntimeError, match=rf"this Bot is {IN_USE} \(step,.*one bot per thread"):
        bot.step(other)
    assert mine.is_legal(busy.join())
    fast = rivals.bots.make("mcts", game, iterations=20)
    assert other.is_legal(fast.step(other))


def check_a_state_has_readers_or_one_writer(name: str) -> None:
    game = rivals.make(name)
    state = decision_state(game)
    before = (state.to_json(), state.history())
    legal = state.legal_actions()[0]
    thinking = rivals.bots.make("mcts", game, time_s=2.0)
    busy = Busy(lambda: thinking.step(state))
    for change in (lambda: state.apply_action(legal), state.undo):
        with pytest.raises(RuntimeError, match=rf"this State is {IN_USE} \(bot.step,"):
            change()
    # Reading while the bot reads is safe, and so is a second bot reading.
    assert str(state) and state.legal_actions() and state.clone().history() == before[1]
    assert pickle.loads(pickle.dumps(state)).history() == before[1]
    other = rivals.bots.make("mcts", game, seed=3, iterations=30)
    alone = rivals.bots.make("mcts", game, seed=3, iterations=30).step(state.clone())
    assert other.step(state) == alone
    assert state.is_legal(busy.join())
    assert (state.to_json(), state.history()) == before
    state.apply_action(legal)  # free again


def check_a_vector_env_has_one_user_at_a_time(name: str) -> None:
    env = rivals.VectorEnv(name, 256, seed=5)
    out = env.reset()
    rng = np.random.default_rng(0)
    # Overlaps depend on scheduling: keep at it until some happened (a busy machine needs longer).
    started = time.monotonic()
    running = True
    conflicts = 0
    unexpected: list[BaseException] = []

    def stepper() -> None:
        nonlocal out
        while running:
            mask = out["legal_mask"]
            try:
                out = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
            except RuntimeError as error:
                if IN_USE not in str(error):
                    unexpected.append(error)
                    return
            except ValueError as error:
                # The other thread stepped in between (its zeros are legal in some games).
                if "not legal" not in str(error):
                    unexpected.append(error)
                    return

    worker = threading.Thread(target=stepper)
    worker.start()
    try:
        while time.monotonic() - started < 1.0 or (
            conflicts < 3 and time.monotonic() - started < 60
        ):
            for call in (
                lambda: env.state(3),
                lambda: env.step(np.zeros(256, dtype=np.int64)),
                env.sample_legal,
            ):
                try:
                    call()
                except RuntimeError as error:
                    assert f"this VectorEnv is {IN_USE}" in str(error), error
                    conflicts += 1
                except ValueError as error:
                    assert "not legal" in str(error), error
    finally:
        running = False
        worker.join()
    assert not unexpected, unexpected
    assert conflicts > 0, "no call overlapped a step: the test tests nothing"
    check_env_consistent(env, out)


def check_env_consistent(env: rivals.VectorEnv, out: dict[str, Any]) -> None:
    """The views agree with the states the environments rebuild from their histories."""
    for e in range(env.num_envs):
        state = env.state(e)
        if out["terminated"][e]:
            assert state.is_terminal()
            continue
        assert int(out["player"][e]) == state.current_player()
        assert sorted(np.flatnonzero(out["legal_mask"][e]).tolist()) == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_has_one_user_at_a_time(name: str) -> None:
    isolated("check_a_bot_has_one_user_at_a_time", name)


@pytest.mark.parametrize("name", GAMES)
def test_a_state_has_readers_or_one_writer(name: str) -> None:
    isolated("check_a_state_has_readers_or_one_writer", name)


@pytest.mark.parametrize("name", GAMES)
def test_a_vector_env_has_one_user_at_a_time(name: str) -> None:
    isolated("check_a_vector_env_has_one_user_at_a_time", name)


def check_a_vector_env_is_not_closed_under_a_step() -> None:
    # The opponent thinks for seconds, so the step is in progress when close() comes.
    env = rivals.VectorEnv(
        "rosenkoenig", 1, seed=2, opponents={1: ("mcts", {"iterations": 400_000})}
    )
    out = env.reset()
    action = np.array([int(np.flatnonzero(out["legal_mask"][0])[0])])
    busy = Busy(lambda: env.step(action))
    with pytest.raises(RuntimeError, match=rf"VectorEnv is {IN_USE} \(step.*for close meanwhile"):
        env.close()
    result = busy.join()
    assert isinstance(result, dict) and result["player"][0] == 0  # the step's arrays, whole
    env.close()
    assert env.closed


def test_a_vector_env_is_not_closed_under_a_step() -> None:
    isolated("check_a_vector_env_is_not_closed_under_a_step")


class ReEntering:
    """An action whose conversion to an int first moves the state itself: a second move while
    the first is in progress, as another thread's would be."""

    def __init__(self, state: Any, inner: int, outer: int) -> None:
        self.state, self.inner, self.outer = state, inner, outer

    def __index__(self) -> int:
        self.state.apply_action(self.inner)
        return self.outer


@pytest.mark.parametrize("name", GAMES)
def test_a_reference_state_takes_one_move_at_a_time(name: str) -> None:
    state = rivals.reference.make(name).new_initial_state()
    legal = state.legal_actions()
    with pytest.raises(RuntimeError, match="reference state is in use by another call"):
        state.apply_action(ReEntering(state, legal[-1], legal[0]))
    assert state.history() == []
    copy = pickle.loads(pickle.dumps(state.clone()))  # a copy has a lock of its own
    copy.apply_action(legal[0])
    state.apply_action(legal[0])
    assert state.history() == copy.history() == [legal[0]]


# --- Stress: threads deliberately sharing a bot, a state and an environment --------------------

# What a thread may see when others share its objects: the guard's refusal, or the consequences
# of another thread having moved the shared state or environment on in between. A worker reading
# the result arrays while another thread's send() writes them may read a torn mask (numpy's
# nonzero counts, then fills, and leaves unfilled indices as garbage): the step refuses the
# garbage action as out of range.
EXPECTED = (
    IN_USE,
    "is not legal",
    "is out of range",
    "the game is over",
    "no player is to move",
    "no action to take back",
    "call recv() first",
    "recv() without a send()",
)


def stress(name: str, share_bot: bool, share_state: bool, share_env: bool, seconds: float) -> None:
    game = rivals.make(name)
    shared_bot = rivals.bots.make("mcts", game, iterations=20)
    shared_state = decision_state(game)
    shared_env = rivals.VectorEnv(game, 8, seed=1, threads=2)
    shared_out = shared_env.reset()
    stop = time.monotonic() + seconds
    failures: list[BaseException] = []
    done = {"ops": 0, "refused": 0}
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        bot = shared_bot if share_bot else rivals.bots.make("mcts", game, iterations=20)
        state = shared_state if share_state else decision_state(game, seed)
        env = shared_env if share_env else rivals.VectorEnv(game, 8, seed=seed)
        # The result arrays are views of the environment's buffers, the same after every call.
        out = shared_out if share_env else env.reset()
        operations: list[Callable[[], object]] = [
            lambda: bot.step(state),
            lambda: state.apply_action(rng.choice(state.legal_actions() or [0])),
            state.undo,
            lambda: str(state),
            lambda: pickle.loads(pickle.dumps(state)),
            lambda: state.clone().legal_actions(),
            lambda: env.step(random_actions(rng, out)),
            lambda: env.state(rng.randrange(8)).legal_actions(),
            lambda: env.send(random_actions(rng, out)),
            env.recv,
            env.reset,
        ]
        while time.monotonic() < stop:
            try:
                rng.choice(operations)()
                refused = 0
            except (RuntimeError, ValueError, IndexError) as error:
                if not any(text in str(error) for text in EXPECTED):
                    failures.append(error)
                    return
                refused = 1
            with lock:
                done["ops"] += 1
                done["refused"] += refused
        if not share_env:
            drain(env)
        if not share_state:
            assert_replays(state)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert done["ops"] > 100, done
    assert_replays(shared_state)
    drain(shared_env)
    check_env_consistent(shared_env, shared_env.step(random_actions(random.Random(), shared_out)))
    assert (
        shared_state.is_terminal()
        or shared_state.is_chance_node()
        or shared_state.is_legal(shared_bot.step(shared_state))
    )


def random_actions(rng: random.Random, out: dict[str, Any]) -> list[int]:
    """A legal action per environment as the views show them (which a racing thread may have
    moved on: then the step is refused as illegal, which is fine)."""
    actions = []
    for row in out["legal_mask"]:
        legal = np.flatnonzero(row)
        actions.append(int(rng.choice(legal.tolist())) if len(legal) else 0)
    return actions


def drain(env: rivals.VectorEnv) -> None:
    """Collects a step left pending by send(), so the environment is idle (the step may have been
    refused: its actions were read from views another thread has moved on since)."""
    try:
        env.recv()
    except ValueError as error:
        assert "without a send" in str(error) or "is not legal" in str(error), error


def assert_replays(state: rivals.State) -> None:
    rebuilt = state.game.state_from_history(state.history())
    assert rebuilt.to_json() == state.to_json() and rebuilt.hash() == state.hash()


SHARINGS = list(itertools.product([False, True], repeat=3))


@pytest.mark.parametrize(
    ("share_bot", "share_state", "share_env"),
    SHARINGS,
    ids=[f"bot={b}-state={s}-env={e}" for b, s, e in SHARINGS],
)
def test_threads_sharing_objects_get_errors_never_crashes(
    share_bot: bool, share_state: bool, share_env: bool
) -> None:
    # Every game takes its turn across the combinations.
    name = GAMES[SHARINGS.index((share_bot, share_state, share_env)) % len(GAMES)]
    isolated("stress", name, share_bot, share_state, share_env, 2.0, timeout=120)
