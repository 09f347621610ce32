"""examples/ppo.py, its short version (``--quick``): a fixed number of decisions learnt from, so
that the outcome depends on the seed alone, not on the machine's speed or load."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tests import optional

optional.require("jax")
optional.require("optax")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo.py"


@pytest.fixture(scope="module")
def ppo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ppo_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while a class is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_the_short_version_learns(ppo: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    summary = ppo.main(["--quick", "--seed", "0"])
    before = summary["untrained sampling vs random"]
    after = summary["trained sampling vs random"]
    assert before.games == after.games == 200
    # Measured over seeds 0-4 (docs/learning.md): before 0.42-0.55, after 0.85-0.93.
    assert after.score - before.score >= 0.25, (before, after)
    assert after.interval()[0] > before.interval()[1]
    printed = capsys.readouterr().out
    progress = re.findall(
        r"^ *\d+ s +([\d,]+) decisions +[\d,]+/s  won \(sampling\) against random \d+% of \d+"
        r"  loss: policy [+-]\d\.\d{4} value \d\.\d{3} entropy \d\.\d\d$",
        printed,
        re.MULTILINE,
    )
    assert progress, printed
    decisions = int(progress[-1].replace(",", ""))
    assert ppo.QUICK_STEPS <= decisions < ppo.QUICK_STEPS + 2 * 64 * ppo.Config.rollout
    assert "trained policy,   argmax, against random" in printed


def test_a_seed_repeats_its_run_exactly(ppo: ModuleType) -> None:
    config = ppo.Config(opponents=("random",), envs_per_seat=16, rollout=8)
    first, _ = ppo.train(config, steps=1, seconds=None)
    again, _ = ppo.train(config, steps=1, seconds=None)
    other, _ = ppo.train(ppo.Config(**{**config.__dict__, "seed": 1}), steps=1, seconds=None)
    weights = [np.asarray(first[layer]["w"]) for layer in sorted(first)]
    assert all(
        np.array_equal(w, np.asarray(again[layer]["w"])) for w, layer in zip(weights, sorted(first))
    )
    assert not np.array_equal(weights[0], np.asarray(other[sorted(other)[0]]["w"]))
    # One update moved the network away from where it started.
    start = ppo.initial_params(config)
    assert not np.array_equal(np.asarray(start["policy"]["w"]), np.asarray(first["policy"]["w"]))
