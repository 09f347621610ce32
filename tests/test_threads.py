"""Python threads running the engine at once give the same results as one thread; a process
forked after any call (what ``multiprocessing`` does by default on Linux) can use what the parent
made, or gets a clear error for an object a thread was using at the fork, and never hangs.

The fork checks run in a fresh interpreter (``run_isolated``), which forks; a child that does not
answer within ``CHILD_S`` is killed, so a hang fails the test instead of holding the run."""

from __future__ import annotations

import ast
import contextlib
import os
import random
import signal
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import arena, reference, tournament
from tests.games import CONFIGS
from tests.isolated import run_isolated, under_sanitizer

GAMES = sorted(CONFIGS)


# A game between seeded bots, cut after this many actions: enough for every phase of the shorter
# games, while a whole Battlecards game of mcts moves would cost a minute.
ACTIONS = 200


def bot_game(name: str, seed: int) -> list[int]:
    """A game between seeded mcts bots (to its end or ACTIONS actions), chance from a seeded
    Python RNG."""
    game = rivals.make(name)
    bots = [
        rivals.bots.make("mcts", game, seed=seed * 10 + seat, iterations=40)
        for seat in range(game.num_players)
    ]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < ACTIONS:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.history()


@pytest.mark.parametrize("name", GAMES)
def test_bots_in_parallel_threads_play_as_they_do_alone(name: str) -> None:
    seeds = list(range(6))
    alone = [bot_game(name, seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda seed: bot_game(name, seed), seeds))
    assert together == alone


@pytest.mark.parametrize("name", GAMES)
def test_batches_from_parallel_threads_match_one_thread(name: str) -> None:
    game = rivals.make(name)
    alone = [game.random_playouts(300, seed=seed)["returns"] for seed in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(
            pool.map(lambda seed: game.random_playouts(300, seed=seed)["returns"], range(4))
        )
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)


def test_vector_envs_in_parallel_threads() -> None:
    def run(seed: int) -> np.ndarray:
        env = rivals.VectorEnv("rosenkoenig", 16, seed=seed, threads=2)
        out = env.reset()
        rng = np.random.default_rng(seed)
        total = np.zeros(2, dtype=np.float32)
        for _ in range(200):
            actions = (rng.random(out["legal_mask"].shape) * out["legal_mask"]).argmax(axis=1)
            out = env.step(actions)
            total += out["rewards"].sum(axis=0)
        return np.concatenate([total, out["obs"].ravel()[:1000]])

    alone = [run(seed) for seed in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(run, range(3)))
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)


# -- forks -----------------------------------------------------------------------------------------

# A forked child's work here takes well under a second; one silent this long hangs.
CHILD_S = 60.0


def in_forked_child(work: Callable[[], Any]) -> tuple[str, Any]:
    """Runs ``work`` in a child forked now: ``("returned", value)`` (a literal), or ``("raised",
    "Type: message")``. Fails when the child hangs (it is killed) or dies."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            answer: tuple[str, Any] = ("returned", work())
        except BaseException as error:
            answer = ("raised", f"{type(error).__name__}: {error}")
        os.write(write, repr(answer).encode())
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + CHILD_S
    while (ended := os.waitpid(pid, os.WNOHANG)) == (0, 0):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            raise AssertionError(f"the forked child hung for {CHILD_S:.0f} s")
        time.sleep(0.01)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    assert os.waitstatus_to_exitcode(ended[1]) == 0 and text, f"the child died: {ended}"
    kind, value = ast.literal_eval(text)
    return str(kind), value


def raised(call: Callable[[], object]) -> str:
    """The message of the RuntimeError that ``call`` raises ("none" if it raises nothing)."""
    try:
        call()
    except RuntimeError as error:
        return str(error)
    return "none"


def in_use(call: Callable[[], object]) -> bool:
    """Whether ``call`` is refused because another call holds its object."""
    try:
        call()
    except RuntimeError as error:
        return "in use" in str(error)
    except ValueError:
        return False
    return False


def wait_until(condition: Callable[[], bool], limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the threads did not start their calls"
        time.sleep(0.01)


def isolated_check(check: str, timeout: float = 300) -> None:
    out = run_isolated(f"from tests.test_threads import {check}\n{check}()\nprint('ok')", timeout)
    assert out.splitlines()[-1] == "ok"


def decision_state(game: rivals.Game) -> rivals.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def late_sekigahara_position(game: rivals.Game) -> rivals.State:
    """40 random actions in: the solver values it in about 0.1 s from an empty table."""
    rng = random.Random(1)
    state = game.new_initial_state()
    while len(state.history()) < 40:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def check_a_vector_env_made_before_a_fork_steps_in_the_child() -> None:
    envs = [rivals.VectorEnv("rosenkoenig", 64, threads=2)]
    out = envs[0].reset()
    envs[0].step(out["legal_mask"].argmax(axis=1))

    def play() -> int:
        out = envs[0].reset(seed=7)
        for _ in range(20):
            out = envs[0].step(out["legal_mask"].argmax(axis=1))
        return zlib.crc32(out["obs"].tobytes()) ^ zlib.crc32(out["legal_mask"].tobytes())

    assert in_forked_child(play) == ("returned", play())  # the parent's games, step for step

    def drop() -> bool:
        envs.clear()  # its worker threads are the parent's: they are not joined here
        return True

    assert in_forked_child(drop) == ("returned", True)


def check_a_step_sent_before_a_fork_is_refused_in_the_child() -> None:
    # The opponent thinks until the step is stopped, so the step runs through the fork.
    opponents = {1: ("mcts", {"iterations": 10**9})}
    env = rivals.VectorEnv("rosenkoenig", 3, threads=2, opponents=opponents)
    env.send(env.reset()["legal_mask"].argmax(axis=1))
    for call in (env.recv, lambda: env.step([0, 0, 0]), env.reset):
        kind, message = in_forked_child(lambda call=call: raised(call))
        assert kind == "returned" and "forked" in message and "send()" in message, message

    def close() -> bool:
        env.close()
        return env.closed

    assert in_forked_child(close) == ("returned", True)
    # The parent's step is stopped when its environment goes (at the end of this function).


def check_objects_in_use_at_a_fork_are_refused_in_the_child() -> None:
    game = rivals.make("rosenkoenig")
    bot = rivals.bots.make("mcts", game, time_s=3, threads=2)
    state = decision_state(game)
    # Each of the two environments' opponent thinks for about a second.
    env = rivals.VectorEnv(
        "rosenkoenig", 2, threads=2, opponents={1: ("mcts", {"iterations": 500_000})}
    )
    actions = env.reset()["legal_mask"].argmax(axis=1)
    busy = [
        threading.Thread(target=bot.step, args=(state,)),
        threading.Thread(target=env.step, args=(actions,)),
    ]
    for thread in busy:
        thread.start()
    # Guarded calls that change nothing: refused while the threads hold the objects.
    wait_until(lambda: in_use(lambda: bot.analyse(state)) and in_use(lambda: env.state(0)))

    def use() -> list[str]:
        fresh = rivals.bots.make("mcts", game, iterations=50, threads=2)
        return [
            raised(lambda: bot.step(state)),
            raised(lambda: state.apply_action(state.legal_actions()[0])),
            raised(lambda: env.step(actions)),
            str(state.is_legal(fresh.step(state.clone()))),  # reading it is still safe
        ]

    kind, messages = in_forked_child(use)
    for thread in busy:
        thread.join()
    assert kind == "returned", messages
    bot_error, state_error, env_error, fresh_move = messages
    assert "Bot was in use by step" in bot_error and "forked" in bot_error, bot_error
    assert "State was in use by bot.step" in state_error and "forked" in state_error
    assert "VectorEnv was in use by step" in env_error and "forked" in env_error, env_error
    assert fresh_move == "True"


def check_a_solver_forked_while_another_solves_works_in_the_child() -> None:
    game = rivals.make("sekigahara")
    late = late_sekigahara_position(game)
    idle = rivals.bots.make("solver", game)
    expected = idle.analyse(late)["returns"]
    # Shares idle's table, and holds it while it solves the opening (for far longer than this
    # test, which ends it by the time budget).
    opening = rivals.bots.make("solver", game, time_s=4)

    def solve_the_opening() -> None:
        with contextlib.suppress(rivals.BudgetExceeded):
            opening.analyse(game.new_initial_state())

    solving = threading.Thread(target=solve_the_opening)
    solving.start()
    solved = idle.stats()["contexts"]
    wait_until(lambda: opening.stats()["contexts"] > solved)  # it holds the table

    def analyse_late() -> list[list[float]]:
        return [
            rivals.bots.make("solver", game).analyse(late)["returns"],
            idle.analyse(late)["returns"],  # made in the parent, its table abandoned here
        ]

    outcome = in_forked_child(analyse_late)
    solving.join()
    assert outcome == ("returned", [expected, expected])


def check_what_the_parent_made_works_in_a_forked_child() -> None:
    game = rivals.make("rosenkoenig")
    state = decision_state(game)
    bot = rivals.bots.make("mcts", game, iterations=2_000, threads=2, seed=3)
    bot.step(state)
    game.play_match(["random", "random"], 10, threads=2)
    lineup = arena.Lineup.of(game, ["random", "mcts"])
    played = arena.Arena(lineup, 8, seed=1, backend=arena.LocalBackend(2))
    played.run()
    sekigahara = rivals.make("sekigahara")
    late = late_sekigahara_position(sekigahara)
    solver = rivals.bots.make("solver", sekigahara)
    solved = solver.analyse(late)["contexts"]
    plain = reference.make("rosenkoenig").new_initial_state()

    def results() -> list[Any]:
        again = rivals.bots.make("mcts", game, iterations=2_000, threads=2, seed=3)
        rerun = arena.Arena(lineup, 8, seed=1, backend=arena.LocalBackend(2))
        return [
            state.is_legal(bot.step(state)) and state.is_legal(again.step(state)),
            game.play_match(["random", "random"], 40, threads=2)["returns"].tolist(),
            game.random_playouts(50, seed=2, threads=2)["lengths"].tolist(),
            rerun.run().counts(),
            solver.analyse(late)["contexts"],  # the parent's table: nothing solved anew
            plain.clone().legal_actions(),
        ]

    kind, child = in_forked_child(results)
    assert kind == "returned", child
    assert child == [
        True,
        game.play_match(["random", "random"], 40, threads=2)["returns"].tolist(),
        game.random_playouts(50, seed=2, threads=2)["lengths"].tolist(),
        played.standings.counts(),
        solved,
        plain.legal_actions(),
    ]


def check_a_forked_child_does_not_write_the_parents_log(folder: str) -> None:
    game = rivals.make("rosenkoenig")
    logs = [Path(folder) / "arena.jsonl", Path(folder) / "tournament.jsonl"]
    lineup = arena.Lineup.of(game, ["random", "random"])
    # Opened (and locked) here, run in the child.
    runs: list[Any] = [
        arena.Arena(lineup, 4, out=logs[0]),
        tournament.Tournament(game, ["random", "random"], 2, out=logs[1]),
    ]
    for run in runs:
        kind, message = in_forked_child(lambda run=run: raised(run.run))
        assert kind == "returned" and "forked" in message and str(run.log.path) in message
        assert in_forked_child(lambda run=run: run.close() is None) == ("returned", True)
    assert [log.stat().st_size for log in logs] == [0, 0]
    for run in runs:
        run.run()  # the parent's log is still its own
    assert all(log.stat().st_size > 0 for log in logs)


# GCC 12's AddressSanitizer runtime takes no lock of its allocator around a fork, so a child
# forked while another thread allocates can wait forever for a lock nobody will free (one run of
# scripts/sanitize.sh in two hung so). These checks run in every other test run.
fork_while_threads_work = pytest.mark.skipif(
    under_sanitizer(), reason="AddressSanitizer's allocator is not fork-safe under GCC 12"
)


def test_a_vector_env_made_before_a_fork_steps_in_the_child() -> None:
    isolated_check("check_a_vector_env_made_before_a_fork_steps_in_the_child")


@fork_while_threads_work
def test_a_step_sent_before_a_fork_is_refused_in_the_child() -> None:
    isolated_check("check_a_step_sent_before_a_fork_is_refused_in_the_child")


@fork_while_threads_work
def test_objects_in_use_at_a_fork_are_refused_in_the_child() -> None:
    isolated_check("check_objects_in_use_at_a_fork_are_refused_in_the_child")


@fork_while_threads_work
def test_a_solver_forked_while_another_solves_works_in_the_child() -> None:
    isolated_check("check_a_solver_forked_while_another_solves_works_in_the_child")


def test_what_the_parent_made_works_in_a_forked_child() -> None:
    isolated_check("check_what_the_parent_made_works_in_a_forked_child")


def test_a_forked_child_does_not_write_the_parents_log(tmp_path: Path) -> None:
    out = run_isolated(
        "from tests.test_threads import check_a_forked_child_does_not_write_the_parents_log as c\n"
        f"c({str(tmp_path)!r})\nprint('ok')"
    )
    assert out.splitlines()[-1] == "ok"
