"""Self-play training of value networks (docs/learning.md).

Each generation plays games between copies of a search bot in C++ on every thread
(``Game.self_play``), records every decision from every seat's view, and fits a network to the
games' results (and, with ``value_mix``, to the searches' values) with JAX and optax (the
``train`` extra). The next generation's bot values its leaves with that network
(``evaluation="net"``), so the positions and the values improve together, as in expert iteration.

A run lives in one folder::

    settings.json            what the run is: game, seed and every setting below
    data/gen-000.npz         the positions of each generation (never rewritten)
    networks/gen-000.json    the network each generation trained (docs/formats.md); the last
                             generation's is the run's result
    train.log                what happened, with times (appended)

The same settings and seed give the same files on any machine with any thread count; a run
killed at any point and resumed (``resume=True``) ends with the files an uninterrupted one
writes, since every generation starts from the files of the one before. A run resumed with more
``generations`` goes on from its last one.

>>> from rivals import train
>>> settings = train.Settings("rosenkoenig", generations=2, games=40, iterations=100)
>>> train.train(settings, "runs/rk")  # doctest: +SKIP
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals import network
from rivals.train import _self_play

# Its parts keep every name it had as rivals.train.<name> (pyproject.toml lets this file import
# what it does not use itself).
from rivals.train._run import HOLDOUT_EVERY, LOG_FILE, _Positions, _Run
from rivals.train._settings import SETTINGS_FILE, Settings, TrainingError

__all__ = ["Progress", "Settings", "TrainingError", "train"]


class Progress:
    """What a run reports as it goes; the command line draws it as bars. Every method does
    nothing here."""

    def phase(self, generation: int, name: str, total: int) -> None:
        """A phase ("self-play" over games, "training" over rows) of a generation begins."""

    def advance(self, done: int, loss: float | None = None) -> None:
        """``done`` more games or rows; the training loss so far."""

    def log(self, line: str) -> None:
        """A line of the run's log (also written to train.log)."""


def train(
    settings: Settings,
    folder: str | os.PathLike[str],
    *,
    threads: int = 1,
    resume: bool = False,
    progress: Progress | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Path:
    """Runs (or with ``resume`` continues) a training run in ``folder`` and returns the path of
    its last generation's network. A folder that holds a run already is refused unless
    ``resume``, and then only with the same settings (``generations`` may grow).

    Self-play runs on ``threads`` threads here (``backend="local"``), or as Ray tasks of
    ``threads`` threads each (``backend="ray"``) on the cluster at ``ray_address`` or on a Ray
    instance started here; both play the same games."""
    from rivals.train import _model  # JAX is needed from here on

    progress = progress or Progress()
    if backend not in ("local", "ray"):
        raise TrainingError(f"backend: {backend!r} is neither 'local' nor 'ray'")
    players = _self_play.SelfPlay(threads, backend, ray_address)
    run = _Run(Path(folder), settings, resume)
    game = settings.make_game()
    board_shape = tuple(game.compact_observation_shape["board"])
    features = int(game.compact_observation_shape["features"][0])
    evaluations = settings.evaluation_names(game)
    run.log(progress, f"{'resumed' if resume else 'started'}: {settings.game} seed {settings.seed}")
    previous: Path | None = None
    for generation in range(settings.generations):
        target = run.network_path(generation)
        if target.exists():
            previous = target
            continue
        started = time.perf_counter()
        data = run.positions(generation, game, previous, players, progress)
        played = time.perf_counter() - started
        window = [
            run.load_positions(g)
            for g in range(max(0, generation - settings.window + 1), generation)
        ] + [data]
        scale = _Scale.of(run.load_positions(0) if generation else data)
        trained, curve = _fit(
            _model, settings, generation, window, data, scale, previous, run, progress
        )
        net = network.Network(
            settings.game,
            board_shape,
            features,
            tuple(scale.folded(trained["hidden"])),
            trained["value"],
            {
                "generation": generation,
                "settings": settings.to_json(),
                "positions": int(sum(len(w.targets) for w in window)),
                **_losses(_model, settings, data, window, scale, trained, previous),
                "validation_curve": curve,
            },
            evaluations,
            trained.get("policy"),
        )
        network.write(net, target)
        previous = target
        elapsed = time.perf_counter() - started
        run.log(
            progress,
            f"generation {generation}: {len(data.targets)} positions of {settings.games} games "
            f"in {played:.1f} s, trained in {elapsed - played:.1f} s; "
            + ", ".join(f"{k} {v:.4f}" for k, v in net.about.items() if "loss" in k),
        )
    assert previous is not None
    run.log(progress, f"done: {previous}")
    return previous


@dataclass(frozen=True)
class _Scale:
    """The floats' mean and spread (features and evaluations), from the first generation's
    positions: the network trains on standardised floats, and its file holds the first layer with
    the scaling folded in."""

    board: int
    mean: npt.NDArray[np.float32]
    spread: npt.NDArray[np.float32]

    @classmethod
    def of(cls, positions: _Positions) -> _Scale:
        mean = positions.features.mean(axis=0, dtype=np.float64).astype(np.float32)
        spread = positions.features.std(axis=0, dtype=np.float64).astype(np.float32)
        spread[spread < 1e-6] = 1.0
        return cls(positions.boards.shape[1], mean, spread)

    def inputs(self, positions: _Positions, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        features = (positions.features[rows] - self.mean) / self.spread
        return np.concatenate([positions.boards[rows].astype(np.float32), features], axis=1)

    def folded(
        self, layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
    ) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """The hidden layers with the first one reading raw features."""
        weights, bias = layers[0]
        weights = weights.astype(np.float64)
        feature_rows = weights[self.board :] / self.spread[:, None]
        bias = bias - (self.mean.astype(np.float64) @ feature_rows)
        weights = np.concatenate([weights[: self.board], feature_rows], axis=0)
        return [(weights.astype(np.float32), bias.astype(np.float32)), *layers[1:]]


Batch = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], Any]


def _batches(
    scale: _Scale,
    window: list[_Positions],
    rng: np.random.Generator | None,
    batch_size: int,
    held_out: bool,
    actions: int | None,
) -> Callable[[], Iterator[Batch]]:
    """Mini-batches (inputs, value targets, policy targets over ``actions`` or None) over the
    rows of ``window`` (the held-out rows, or the others), shuffled by ``rng`` anew for each pass
    when given."""

    def batches() -> Iterator[Batch]:
        rows = [
            (k, np.flatnonzero(p.holdout == held_out).astype(np.int64))
            for k, p in enumerate(window)
        ]
        order = np.concatenate(
            [np.stack([np.full(len(r), k), r], axis=1) for k, r in rows if len(r)], axis=0
        )
        if rng is not None:
            order = order[rng.permutation(len(order))]
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            inputs, targets, policies = [], [], []
            for k in np.unique(chunk[:, 0]):
                picked = chunk[chunk[:, 0] == k, 1]
                inputs.append(scale.inputs(window[k], picked))
                targets.append(window[k].targets[picked])
                if actions is not None:
                    policies.append(window[k].policy_targets(picked, actions))
            policy = np.concatenate(policies) if actions is not None else None
            yield np.concatenate(inputs), np.concatenate(targets), policy

    return batches


def _fit(
    model: Any,
    settings: Settings,
    generation: int,
    window: list[_Positions],
    data: _Positions,
    scale: _Scale,
    previous: Path | None,
    run: _Run,
    progress: Progress,
) -> tuple[dict[str, Any], list[float]]:
    """The trained layers, and the loss on the generation's held-out games after each epoch
    (each also logged with the time it took)."""
    inputs = window[0].boards.shape[1] + window[0].features.shape[1]
    actions = settings.policy_actions()
    if previous is None:
        params = model.init(settings.seed, inputs, settings.hidden, actions)
    else:
        params = model.from_numpy(_unfolded(network.load(previous), scale))
    trainer = model.Trainer(settings.learning_rate, settings.weight_decay)
    rng = np.random.default_rng([settings.seed, generation, 1])
    rows = sum(int((~w.holdout).sum()) for w in window)
    progress.phase(generation, "training", rows * settings.epochs)
    seen = {"loss": 0.0, "rows": 0}
    curve: list[float] = []
    started = time.perf_counter()

    def on_batch(count: int, loss: float) -> None:
        seen["loss"] += loss * count
        seen["rows"] += count
        progress.advance(count, seen["loss"] / seen["rows"])

    def on_epoch(epoch: int, params: Any) -> None:
        held_out = _batches(scale, [data], None, settings.batch_size, True, actions)()
        curve.append(round(trainer.loss(params, held_out), 6))
        run.log(
            progress,
            f"generation {generation} epoch {epoch + 1}: validation_loss {curve[-1]:.4f} after "
            f"{time.perf_counter() - started:.1f} s of training",
        )

    batches = _batches(scale, window, rng, settings.batch_size, False, actions)
    params = trainer.fit(params, batches, settings.epochs, on_batch, on_epoch)
    trained: dict[str, Any] = model.to_numpy(params)
    return trained, curve


def _unfolded(net: network.Network, scale: _Scale) -> dict[str, Any]:
    """The layers of a written network as the training sees them (standardised features): the
    inverse of _Scale.folded."""
    written, written_bias = net.layers[0]
    weights = written.astype(np.float64)
    feature_rows = weights[scale.board :] * scale.spread[:, None]
    bias = written_bias + scale.mean.astype(np.float64) @ weights[scale.board :]
    first = (
        np.concatenate([weights[: scale.board], feature_rows]).astype(np.float32),
        bias.astype(np.float32),
    )
    return {
        "hidden": [first, *net.layers[1:]],
        "value": net.value_layer,
        "policy": net.policy_layer,
    }


def _losses(
    model: Any,
    settings: Settings,
    data: _Positions,
    window: list[_Positions],
    scale: _Scale,
    trained: dict[str, Any],
    previous: Path | None,
) -> dict[str, float]:
    """The losses (the value's mean squared error, plus the policy's cross-entropy where there
    is a policy) of the trained network on the rows it learnt from and on the generation's
    held-out games, and of the network before on those games (how much the generation taught
    it)."""
    trainer = model.Trainer(settings.learning_rate, settings.weight_decay)
    params = model.from_numpy(trained)
    actions = settings.policy_actions()
    size = settings.batch_size

    def held_out() -> Iterator[Batch]:
        return _batches(scale, [data], None, size, True, actions)()

    losses = {
        "training_loss": trainer.loss(
            params, _batches(scale, window, None, size, False, actions)()
        ),
        "validation_loss": trainer.loss(params, held_out()),
    }
    if previous is not None:
        before = model.from_numpy(_unfolded(network.load(previous), scale))
        losses["validation_loss_before"] = trainer.loss(before, held_out())
    return {key: round(value, 6) for key, value in losses.items()}
