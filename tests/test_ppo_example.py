"""examples/ppo.py, its short version (``--quick``): a fixed number of decisions learnt from, so
that the outcome depends on the seed alone, not on the machine's speed or load."""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tests import optional

jax = optional.require("jax")
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
    # Measured with seeds 0-4 (docs/learning.md): sampled, the untrained network scored 47-56%
    # against random and the trained one 96-100%; by argmax, the trained one 98-100%.
    assert after.score - before.score >= 0.3, (before, after)
    assert after.interval()[0] > before.interval()[1]
    assert summary["trained argmax vs random"].score >= 0.9
    printed = capsys.readouterr().out
    progress = re.findall(
        r"^ *\d+ s +([\d,]+) decisions +[\d,]+/s  won \(sampling\) against random \d+% of \d+"
        r"  loss: policy [+-]\d\.\d{4} value \d\.\d{3} entropy \d\.\d\d$",
        printed,
        re.MULTILINE,
    )
    assert progress, printed
    decisions = int(progress[-1].replace(",", ""))
    # Whole updates of 2 seats x 64 environments x a rollout each, the last one crossing the mark.
    assert ppo.QUICK_STEPS <= decisions < ppo.QUICK_STEPS + 2 * 64 * ppo.Config.rollout


def test_a_seed_repeats_its_run_exactly(ppo: ModuleType) -> None:
    config = ppo.Config(opponents=("random",))  # the short version's, compiled once
    first, _ = ppo.train(config, steps=1, seconds=None)
    again, _ = ppo.train(config, steps=1, seconds=None)
    start = ppo.initial_params(config)
    other = ppo.initial_params(replace(config, seed=1))
    leaves = jax.tree_util.tree_leaves
    assert all(np.array_equal(a, b) for a, b in zip(leaves(first), leaves(again)))
    assert not np.array_equal(start["torso1"]["w"], other["torso1"]["w"])
    # The update moved every weight matrix from where the run started.
    assert not any(np.array_equal(first[layer]["w"], start[layer]["w"]) for layer in start)
