"""Self-play training (rivals.train, ``rivals train``): a tiny run learns, writes a network the
engine plays with, repeats from its seed, and a run killed and resumed equals one never
interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import rivals
from rivals import network
from tests import test_arena_cli
from tests.optional import require

require("jax")
require("optax")

from rivals import train  # noqa: E402  (after the skip for a wheel without the train extra)

TINY = [
    "--games",
    "24",
    "--iterations",
    "40",
    "--hidden",
    "16",
    "--epochs",
    "4",
    "--batch-size",
    "64",
    "--threads",
    "2",
    "--seed",
    "5",
]


def rivals_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return test_arena_cli.rivals_cli(*args, timeout=timeout, env=None)


def test_a_tiny_run_learns_and_its_network_plays(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = rivals_cli("train", "sekigahara", "--out", str(out), "--generations", "2", *TINY)
    assert done.returncode == 0, done.stderr
    assert "generation 1:" in done.stdout
    last = out / "networks" / "gen-001.json"
    assert f"network: {last}" in done.stdout
    first = network.load(out / "networks" / "gen-000.json")
    second = network.load(last)
    # The first generation fits its positions: the loss it ends with is below that of a network
    # that knows nothing (always 0: the mean squared result, about 1 for won and lost games).
    results = np.load(out / "data" / "gen-000.npz")
    rows = results["returns"][results["games"], results["players"]]
    assert first.about["training_loss"] < 0.8 * float(np.mean(rows**2))
    assert second.about["validation_loss_before"] > 0
    game = rivals.make("sekigahara")
    outcome = game.play_match(
        [
            (
                "mcts",
                {"iterations": 50, "rollout_depth": 0, "evaluation": "net", "network": str(last)},
            ),
            "random",
        ],
        num_games=2,
        seed=1,
    )
    assert outcome["lengths"].min() > 0
    log = (out / "train.log").read_text(encoding="utf-8")
    assert "generation 0:" in log and "generation 1:" in log


def test_a_run_repeats_from_its_seed_and_resumes_where_it_was_killed(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    done = rivals_cli("train", "rosenkoenig", "--out", str(whole), "--generations", "2", *TINY)
    assert done.returncode == 0, done.stderr
    # Killed once the first generation's network is written, in the second's self-play.
    killed = tmp_path / "killed"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rivals.cli",
            "train",
            "rosenkoenig",
            "--out",
            str(killed),
            "--generations",
            "2",
            *TINY,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    first = killed / "networks" / "gen-000.json"
    deadline = time.monotonic() + 120
    while not first.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert first.exists()
    again = rivals_cli(
        "train", "rosenkoenig", "--out", str(killed), "--resume", "--generations", "2", *TINY
    )
    assert again.returncode == 0, again.stderr
    for part in [
        "networks/gen-000.json",
        "networks/gen-001.json",
        "data/gen-000.npz",
        "data/gen-001.npz",
        "settings.json",
    ]:
        assert (whole / part).read_bytes() == (killed / part).read_bytes(), part


def test_a_folder_holding_a_run_is_refused_unless_resumed_with_the_same_settings(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    settings = train.Settings("sekigahara", generations=1, games=4, iterations=10, hidden=(4,))
    train.train(settings, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "train.log"}
    with pytest.raises(train.TrainingError, match="holds a training run already"):
        train.train(settings, out)
    other = train.Settings("sekigahara", generations=1, games=4, iterations=20, hidden=(4,))
    with pytest.raises(train.TrainingError, match=r"other settings \(iterations\)"):
        train.train(other, out, resume=True)
    with pytest.raises(train.TrainingError, match="holds no training run"):
        train.train(settings, tmp_path / "empty", resume=True)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "train.log"}
    assert before == after
    # More generations go on from the last one.
    longer = train.Settings("sekigahara", generations=2, games=4, iterations=10, hidden=(4,))
    assert train.train(longer, out, resume=True).name == "gen-001.json"
    assert json.loads((out / "settings.json").read_text(encoding="utf-8"))["generations"] == 2


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"games": 1}, "games must be"),
        ({"hidden": (0,)}, "hidden must be"),
        ({"bot_params": {"iterations": 5}}, "bot_params may not set 'iterations'"),
        ({"value_mix": 2.0}, "value_mix must be"),
    ],
)
def test_bad_settings_are_refused_by_name(change: dict[str, object], words: str) -> None:
    with pytest.raises(train.TrainingError, match=words):
        train.Settings("rosenkoenig", **change)  # type: ignore[arg-type]


def test_the_command_line_refuses_a_bad_bot_before_playing(tmp_path: Path) -> None:
    done = rivals_cli(
        "train", "rosenkoenig", "--out", str(tmp_path / "x"), "--bot-param", "colour=1"
    )
    assert done.returncode == 2
    assert "unknown parameter 'colour'" in done.stderr
    assert not (tmp_path / "x").exists()


def test_self_play_on_ray_plays_the_games_local_threads_play(tmp_path: Path) -> None:
    import ray  # the optional backend's package: scripts/setup.sh installs it for the suite

    # Two generations: the second's bots read the first's network, which travels to the tasks
    # as a document (a path of this machine would mean nothing on another node).
    settings = train.Settings("sekigahara", generations=2, games=10, iterations=10, hidden=(4,))
    train.train(settings, tmp_path / "local", threads=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        train.train(settings, tmp_path / "ray", backend="ray")
    finally:
        ray.shutdown()
    for part in ["data/gen-000.npz", "data/gen-001.npz", "networks/gen-001.json"]:
        assert (tmp_path / "local" / part).read_bytes() == (tmp_path / "ray" / part).read_bytes()
    with pytest.raises(train.TrainingError, match="neither 'local' nor 'ray'"):
        train.train(settings, tmp_path / "other", backend="dask")
    assert not (tmp_path / "other").exists()
