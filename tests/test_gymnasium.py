"""The gymnasium face of VectorEnv: its spaces, and the random-policy example with env_checker."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from tests import optional

spaces = optional.require("gymnasium.spaces")


def test_spaces_are_gymnasium_spaces() -> None:
    env = rivals.VectorEnv("rosenkoenig", 3, obs="compact", dtype=np.float16)
    single = env.single_observation_space
    assert isinstance(single, spaces.Dict)
    assert single["board"].shape == (3, 9, 9) and single["board"].dtype == np.uint8
    assert single["features"].shape == (77,) and single["features"].dtype == np.float16
    assert env.observation_space["features"].shape == (3, 77)
    assert env.single_action_space == spaces.Discrete(50)
    assert env.action_space == spaces.MultiDiscrete([50, 50, 50])
    planes = rivals.VectorEnv("verraeter", 2).single_observation_space
    assert planes.shape == (277,) and planes.dtype == np.float32


def test_the_autoreset_mode_is_gymnasiums_own_and_costs_no_import() -> None:
    from gymnasium.vector import AutoresetMode

    assert rivals.VectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    with rivals.VectorEnv("sekigahara", 2) as env:
        assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, rivals; print('gymnasium' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"


def test_the_random_policy_example_runs() -> None:
    """examples/random_policy.py, in a subprocess: a whole loop, the spaces and env_checker."""
    example = Path(__file__).resolve().parents[1] / "examples" / "random_policy.py"
    done = subprocess.run(
        [sys.executable, str(example), "--steps", "120"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(
        r"VectorEnv: 120 steps of 64 environments, (\d+) games, random won \d+", lines[0]
    )
    assert int(lines[0].split(", ")[1].split()[0]) > 0
    assert re.fullmatch(
        r"LearnerEnv: env_checker passed; one game of \d+ decisions, return [+-][01]", lines[1]
    )


def test_the_learner_takes_only_integers_and_a_refused_seed_changes_nothing() -> None:
    learner = optional.require("rivals.gymnasium_env").LearnerEnv
    env = learner("rosenkoenig", np.int64(0), {1: "random"}, illegal_action="lose")
    env.reset(seed=np.int64(3))
    action = int(np.flatnonzero(env.action_masks())[0])
    # Not a move at all, so not a lost game either: int(4.7) would have played 4.
    for bad in (action + 0.7, str(action), True, None):
        with pytest.raises(ValueError, match="an action must be an integer"):
            env.step(bad)
    generator = env.np_random.bit_generator.state
    with pytest.raises(ValueError, match=r"seed must be an int 0..2\*\*64-1"):
        env.reset(seed=2**64)
    assert env.np_random.bit_generator.state == generator
    info = env.step(np.int16(action))[4]
    assert not info["illegal_action"]


def test_the_learner_seat_must_be_a_seat_of_the_game() -> None:
    learner = optional.require("rivals.gymnasium_env").LearnerEnv
    for seat in (5, -1):
        with pytest.raises(ValueError, match=rf"rosenkoenig: seat {seat} is not a seat \(0 to 1\)"):
            learner("rosenkoenig", seat, {1: "random"})


def test_a_learner_has_one_user_at_a_time() -> None:
    learner = optional.require("rivals.gymnasium_env").LearnerEnv
    # The opponent thinks for seconds, so the step is still in progress when the others come.
    env = learner("rosenkoenig", 0, {1: ("mcts", {"iterations": 400_000})})
    env.reset(seed=1)
    action = int(np.flatnonzero(env.action_masks())[0])
    results: list[Any] = []
    stepping = threading.Thread(target=lambda: results.append(env.step(action)))
    stepping.start()
    time.sleep(0.3)
    assert stepping.is_alive(), "the step ended before the test could overlap it"
    generator = env.np_random.bit_generator.state
    for name, call in (
        ("step", lambda: env.step(action)),
        ("reset", lambda: env.reset(seed=2)),
        ("close", env.close),
    ):
        with pytest.raises(RuntimeError, match=rf"LearnerEnv is in use .*\(step.*for {name} "):
            call()
    assert env.np_random.bit_generator.state == generator  # a refused reset reseeds nothing
    stepping.join()
    assert len(results) == 1 and not results[0][2]  # the step went on undisturbed
    env.close()
