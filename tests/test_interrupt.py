"""Ctrl-C stops the engine's long calls within a fraction of a second: the C++ loops reach an
interruption point at least every 100 ms, Python sees KeyboardInterrupt, and the objects stay
usable (a bot is interrupted twice in a row). Each case runs in a child interpreter that the test
sends SIGINT to, where a crash fails the test instead of killing the runner."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from tests.isolated import ROOT, run_isolated

# From SIGINT to KeyboardInterrupt: the engine polls every 50 ms; the rest is a busy machine's
# scheduling, with room to spare.
PROMPT_S = 2.0
# A lost interrupt leaves the child in a call made to outlast the test (100,000 games of mcts, ten
# million playouts): past this the child is killed, so the test fails instead of hanging the run.
WATCHDOG_S = 300.0

PRELUDE = """
import sys, time
import rivals

def decision_state(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state

def interrupted(call, rounds=1):
    for _ in range(rounds):
        print("ready", flush=True)
        try:
            call()
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        else:
            print("finished", flush=True)
"""

CASES = {
    "mcts": """
        game = rivals.make("rosenkoenig")
        bot = rivals.bots.make("mcts", game, time_s=30)
        state = decision_state(game)
        interrupted(lambda: bot.step(state), rounds=2)
        assert state.is_legal(rivals.bots.make("mcts", game, iterations=10).step(state))
    """,
    "mcts-threads": """
        game = rivals.make("battlecards")
        bot = rivals.bots.make("mcts", game, time_s=30, threads=3)
        interrupted(lambda: bot.step(decision_state(game)), rounds=2)
    """,
    "ismcts": """
        game = rivals.make("verraeter")
        bot = rivals.bots.make("ismcts", game, time_s=30, threads=2)
        interrupted(lambda: bot.step(decision_state(game)), rounds=2)
    """,
    "alphabeta": """
        game = rivals.make("sekigahara")
        bot = rivals.bots.make("alphabeta", game, time_s=30)
        interrupted(lambda: bot.step(decision_state(game)), rounds=2)
    """,
    "solver": """
        game = rivals.make("sekigahara")
        bot = rivals.bots.make("solver", game)
        interrupted(lambda: bot.step(decision_state(game)), rounds=2)
    """,
    "solver_analyse": """
        game = rivals.make("sekigahara")
        bot = rivals.bots.make("solver", game)
        interrupted(lambda: bot.analyse(game.new_initial_state()), rounds=2)
    """,
    "solver_waiting": """
        # A solver of the same cards that waits for the table while another thread solves the
        # opening (for up to 30 s here) answers Ctrl-C as promptly as one that solves.
        import random, threading
        game = rivals.make("sekigahara")
        rng = random.Random(1)
        late = game.new_initial_state()
        while len(late.history()) < 40:
            late.apply_action(rng.choice(late.legal_actions()))
        opening = rivals.bots.make("solver", game, time_s=30)
        def solve_the_opening():
            try:
                opening.analyse(game.new_initial_state())
            except rivals.BudgetExceeded:
                pass
        solving = threading.Thread(target=solve_the_opening, daemon=True)
        solving.start()
        while opening.stats()["contexts"] == 0:  # until it holds the table
            time.sleep(0.01)
        waiting = rivals.bots.make("solver", game)
        interrupted(lambda: waiting.analyse(late), rounds=2)
        # Still solving, so both interrupts came while it held the table; the process ends
        # without waiting for it.
        import os
        os._exit(0 if solving.is_alive() else 1)
    """,
    "play_match": """
        game = rivals.make("rheinlaender")
        bots = [("mcts", {"iterations": 500})] * game.num_players
        interrupted(lambda: game.play_match(bots, 100_000, threads=2))
        assert game.play_match(["random"] * game.num_players, 3, threads=2)["lengths"].all()
    """,
    "vector_env": """
        import numpy as np
        env = rivals.VectorEnv(
            "rosenkoenig", 3, seed=1, threads=2, opponents={1: ("mcts", {"iterations": 10**9})}
        )
        out = env.reset()
        before = [env.state(e).history() for e in range(3)]
        actions = [int(np.flatnonzero(mask)[0]) for mask in out["legal_mask"]]
        interrupted(lambda: env.step(actions), rounds=2)
        # Interrupted while the bots thought: no game has the learner's move, each is where it
        # was with the learner to move, so the next step is checked against the true position.
        assert [env.state(e).history() for e in range(3)] == before
        assert all(env.state(e).current_player() == 0 for e in range(3))

        def send_and_wait():
            env.send(actions)
            env.recv()  # the step runs on a thread of its own; the wait answers Ctrl-C

        interrupted(send_and_wait, rounds=2)
        assert [env.state(e).history() for e in range(3)] == before
        # A step sent and never received is stopped when the environment goes.
        env.send(actions)
        started = time.monotonic()
        del env
        assert time.monotonic() - started < 5
    """,
    "vector_env_reset_seed": """
        # Seat 0 is a bot's, so a reset runs its search (seconds here). An
        # interrupted reset with a seed keeps the old streams, the bots' included: the next
        # reset is an untouched twin's.
        opponents = {0: ("mcts", {"iterations": 400_000})}
        env, twin = (rivals.VectorEnv("rosenkoenig", 2, seed=3, opponents=opponents) for _ in "ab")
        histories = lambda e: [e.state(k).history() for k in range(2)]
        before = histories(env)
        interrupted(lambda: env.reset(seed=12345), rounds=2)
        assert histories(env) == before
        out, _ = env.reset(), twin.reset()
        assert histories(env) == histories(twin)
        assert env.sample_legal().tolist() == twin.sample_legal().tolist()
        # So does an interrupted step: the bots' streams are put back with the games.
        import numpy as np
        actions = [int(np.flatnonzero(mask)[0]) for mask in out["legal_mask"]]
        interrupted(lambda: env.step(actions))
        env.step(actions), twin.step(actions)
        assert histories(env) == histories(twin)
    """,
    "random_playouts": """
        game = rivals.make("battlecards")
        interrupted(lambda: game.random_playouts(10_000_000, threads=2))
        assert game.random_playouts(3, threads=2)["lengths"].all()
    """,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_a_long_call_promptly(case: str) -> None:
    code = PRELUDE + textwrap.dedent(CASES[case]) + "\nprint('done', flush=True)\n"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    delays = []
    timed_out = threading.Event()

    def kill_stuck_child() -> None:
        timed_out.set()
        child.kill()

    watchdog = threading.Timer(WATCHDOG_S, kill_stuck_child)
    watchdog.start()
    try:
        for line in child.stdout:
            word = line.strip()
            if word == "ready":
                time.sleep(0.5)  # well inside the call
                sent = time.monotonic()
                child.send_signal(signal.SIGINT)
            elif word == "interrupted":
                delays.append(time.monotonic() - sent)
            elif word == "finished":
                pytest.fail("the call ended before the interrupt")
            elif word == "done":
                break
        status = child.wait(timeout=60)
    finally:
        watchdog.cancel()
        child.kill()
        child.wait()
    stderr = child.stderr.read() if child.stderr else ""
    assert not timed_out.is_set(), f"no end within {WATCHDOG_S:.0f} s (interrupt lost?): {stderr}"
    assert status == 0, stderr
    assert delays, stderr
    assert max(delays) < PROMPT_S, delays


# The forked child's call would run for minutes; one that has not stopped by then never will.
CHILD_WATCHDOG_S = 60.0


def test_ctrl_c_reaches_a_child_forked_from_another_thread() -> None:
    # The forking thread is the child's main thread, where Python runs its signal handlers: the
    # engine's calls must listen to it there.
    code = textwrap.dedent(
        f"""
        import os, signal, threading, time
        import rivals
        game = rivals.make("battlecards")
        ready, tell = os.pipe()
        children = []

        def fork():
            pid = os.fork()
            if pid == 0:
                os.write(tell, b"r")
                try:
                    game.random_playouts(10_000_000, threads=2)
                except KeyboardInterrupt:
                    os._exit(0)
                os._exit(1)
            children.append(pid)

        forking = threading.Thread(target=fork)
        forking.start()
        forking.join()
        os.read(ready, 1)
        time.sleep(0.5)  # well inside the call
        sent = time.monotonic()
        os.kill(children[0], signal.SIGINT)
        while os.waitpid(children[0], os.WNOHANG) == (0, 0):
            if time.monotonic() - sent > {CHILD_WATCHDOG_S}:
                os.kill(children[0], signal.SIGKILL)
                raise SystemExit("the child did not stop")
            time.sleep(0.01)
        print(time.monotonic() - sent)
        """
    )
    delay = float(run_isolated(code, timeout=CHILD_WATCHDOG_S + 60).splitlines()[-1])
    assert delay < PROMPT_S
