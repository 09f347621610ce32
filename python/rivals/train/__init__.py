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

import io
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from rivals import files, network
from rivals._core import Game, make_game
from rivals.train import _self_play

__all__ = ["Progress", "Settings", "TrainingError", "train"]

SETTINGS_FILE = "settings.json"
LOG_FILE = "train.log"
# Every twentieth game is held out of training, to measure the network on games it never saw.
HOLDOUT_EVERY = 20


class TrainingError(ValueError):
    """A run that cannot start or go on: a folder holding another run, a setting out of range."""


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run's result.

    ``bot`` (a bot or preset of the game) plays the self-play games with ``bot_params`` at
    ``iterations`` per move (never by the clock, so runs repeat); from the second generation on
    it reads the last network, valuing positions with it unless ``net_params`` names another
    ``evaluation`` (a bot whose prior is the network's policy may value them by the game's own
    evaluation), with ``net_params`` on top. The first
    ``random_decisions`` decisions of each game are uniformly random, so games differ. The network
    has the ``hidden`` layers and learns from the last ``window`` generations' positions for
    ``epochs`` passes; its target is the game's result for the seat, mixed with the mover's search
    value by ``value_mix`` (0: the result alone). Besides the compact observation it reads the
    game's own ``evaluations`` (None: all of them), which compute exactly what a small network
    could only approximate (Rosenkönig's score by flood fill). With ``policy`` it also learns a
    policy head, by cross-entropy, from the share of each move in the searches' visits, which a
    search can use as its prior (mcts's ``policy_weight``)."""

    game: str
    game_params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    generations: int = 4
    games: int = 200
    iterations: int = 800
    bot: str = "best"
    bot_params: Mapping[str, Any] = field(default_factory=dict)
    net_params: Mapping[str, Any] = field(default_factory=lambda: {"rollout_depth": 0})
    random_decisions: int = 6
    hidden: tuple[int, ...] = (64, 32)
    epochs: int = 3
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 3
    value_mix: float = 0.0
    evaluations: tuple[str, ...] | None = None
    policy: bool = False

    def __post_init__(self) -> None:
        checks: list[tuple[str, bool, str]] = [
            ("generations", 1 <= self.generations <= 1000, "1-1000"),
            ("games", 2 <= self.games <= 1_000_000, "2-1000000"),
            ("iterations", 1 <= self.iterations <= 10_000_000, "1-10000000"),
            ("random_decisions", 0 <= self.random_decisions <= 10_000, "0-10000"),
            ("epochs", 1 <= self.epochs <= 1000, "1-1000"),
            ("batch_size", 1 <= self.batch_size <= 1 << 20, "1-1048576"),
            ("learning_rate", 0 < self.learning_rate <= 1, "above 0, at most 1"),
            ("weight_decay", 0 <= self.weight_decay <= 1, "0-1"),
            ("window", 1 <= self.window <= 1000, "1-1000"),
            ("value_mix", 0 <= self.value_mix <= 1, "0-1"),
            ("seed", 0 <= self.seed < 1 << 64, "0 to 2**64 - 1"),
        ]
        for name, ok, accepted in checks:
            if not ok:
                raise TrainingError(f"{name} must be {accepted}, got {getattr(self, name)!r}")
        widths = self.hidden
        if not 1 <= len(widths) <= network.MAX_LAYERS or not all(
            1 <= w <= network.MAX_WIDTH for w in widths
        ):
            raise TrainingError(
                f"hidden must be 1 to {network.MAX_LAYERS} layer widths of 1 to "
                f"{network.MAX_WIDTH}, got {list(widths)}"
            )
        for name, taken in (
            ("bot_params", {"evaluation", "network", "time_s", "iterations", "solve_s"}),
            ("net_params", {"network", "time_s", "iterations", "solve_s"}),
        ):
            reserved = taken & set(getattr(self, name))
            if reserved:
                raise TrainingError(
                    f"{name} may not set {sorted(reserved)[0]!r}: the training sets it"
                )

    def to_json(self) -> dict[str, Any]:
        values = asdict(self)
        values["hidden"] = list(self.hidden)
        if self.evaluations is not None:
            values["evaluations"] = list(self.evaluations)
        return values

    @classmethod
    def from_json(cls, values: Mapping[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise TrainingError(f"{SETTINGS_FILE}: unknown setting {unknown[0]!r}")
        given = dict(values)
        for key in ("hidden", "evaluations"):
            if given.get(key) is not None:
                given[key] = tuple(given[key])
        return cls(**given)

    def make_game(self) -> Game:
        return make_game(self.game, dict(self.game_params))

    def policy_actions(self) -> int | None:
        """The decisions a policy head scores, or None without one."""
        return self.make_game().num_distinct_actions if self.policy else None

    def evaluation_names(self, game: Game) -> tuple[str, ...]:
        """The game's own evaluations the network reads."""
        own = tuple(name for name in game.info.evaluations if name != "net")
        if self.evaluations is None:
            return own
        unknown = [name for name in self.evaluations if name not in own]
        if unknown:
            raise TrainingError(
                f"evaluations: {self.game} has no evaluation {unknown[0]!r} (its own: "
                f"{', '.join(own)})"
            )
        return self.evaluations

    def self_play_bot(self, previous: Path | None) -> tuple[str, dict[str, Any]]:
        """The bot spec of a generation: the configured bot, by iterations and never by the clock
        (an endgame solver's time limit, ``solve_s``, is off), valuing positions with the network
        at ``previous`` (None for the first generation)."""
        params: dict[str, Any] = {**self.bot_params, "time_s": 0, "iterations": self.iterations}
        accepted = make_game(self.game, dict(self.game_params)).make_bot(self.bot, params).params
        if "solve_s" in accepted:
            params["solve_s"] = None
        if previous is not None:
            params.update(evaluation="net")
            params.update(self.net_params)
            params.update(network=str(previous))
        return self.bot, params


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


@dataclass
class _Positions:
    boards: npt.NDArray[np.uint8]
    features: npt.NDArray[np.float32]  # the observation's features, then the evaluations read
    targets: npt.NDArray[np.float32]
    holdout: npt.NDArray[np.bool_]
    # The searches' visits by row, as compressed rows (row r's entries are [starts[r],
    # starts[r + 1])): decisions and shares. Empty for a row without a search.
    policy_starts: npt.NDArray[np.int64]
    policy_actions: npt.NDArray[np.int32]
    policy_shares: npt.NDArray[np.float32]

    def policy_targets(self, rows: npt.NDArray[np.int64], actions: int) -> npt.NDArray[np.float32]:
        """Dense policy targets [rows, actions]: each row's shares, zeros where it has none."""
        out = np.zeros((len(rows), actions), dtype=np.float32)
        counts = self.policy_starts[rows + 1] - self.policy_starts[rows]
        entries = np.repeat(self.policy_starts[rows] - np.cumsum(counts) + counts, counts)
        entries += np.arange(int(counts.sum()))
        out[np.repeat(np.arange(len(rows)), counts), self.policy_actions[entries]] = (
            self.policy_shares[entries]
        )
        return out


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


class _Run:
    """A run's folder: its settings, positions, networks and log."""

    def __init__(self, folder: Path, settings: Settings, resume: bool) -> None:
        self.folder = folder
        self.settings = settings
        settings_path = folder / SETTINGS_FILE
        text = json.dumps(settings.to_json(), indent=2, sort_keys=True) + "\n"
        if settings_path.exists():
            if not resume:
                raise TrainingError(
                    f"{folder} holds a training run already; resume it (--resume) or give "
                    "another folder"
                )
            stored = Settings.from_json(json.loads(settings_path.read_text(encoding="utf-8")))
            if replace(stored, generations=settings.generations) != settings:
                differ = [
                    f.name
                    for f in fields(Settings)
                    if f.name != "generations"
                    and getattr(stored, f.name) != getattr(settings, f.name)
                ]
                raise TrainingError(
                    f"{folder} holds a run with other settings ({', '.join(differ)}); resume "
                    "it with the same ones, or give another folder"
                )
            if settings.generations > stored.generations:
                files.write_new(settings_path, text, force=True)
        else:
            if resume:
                raise TrainingError(f"{folder} holds no training run to resume")
            if folder.exists() and any(folder.iterdir()):
                raise TrainingError(f"{folder} is not empty; give a new or empty folder")
            folder.mkdir(parents=True, exist_ok=True)
            files.write_new(settings_path, text)
        for sub in ("data", "networks"):
            (folder / sub).mkdir(exist_ok=True)

    def network_path(self, generation: int) -> Path:
        return self.folder / "networks" / f"gen-{generation:03d}.json"

    def data_path(self, generation: int) -> Path:
        return self.folder / "data" / f"gen-{generation:03d}.npz"

    def log(self, progress: Progress, line: str) -> None:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with open(self.folder / LOG_FILE, "a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {line}\n")
            handle.flush()
            os.fsync(handle.fileno())
        progress.log(line)

    def positions(
        self,
        generation: int,
        game: Game,
        previous: Path | None,
        players: _self_play.SelfPlay,
        progress: Progress,
    ) -> _Positions:
        """The generation's positions: from its file, or played now and written."""
        path = self.data_path(generation)
        if path.exists():
            return self.load_positions(generation)
        settings = self.settings
        bot = settings.self_play_bot(previous)
        seed = _generation_seed(settings.seed, generation)
        parts: list[dict[str, Any]] = []
        progress.phase(generation, "self-play", settings.games)
        chunk = players.chunk_games()
        spans = [
            (first, min(chunk, settings.games - first)) for first in range(0, settings.games, chunk)
        ]
        rows_before = 0
        played = players.run(game, [bot] * game.num_players, spans, seed, settings.random_decisions)
        for (first, count), part in zip(spans, played):
            part["games"] = part["games"] + first
            part["policy_rows"] = part["policy_rows"] + rows_before
            rows_before += len(part["players"])
            parts.append(part)
            progress.advance(count)
        arrays = {
            key: np.concatenate([p[key] for p in parts])
            for key in (
                "boards",
                "features",
                "evaluations",
                "players",
                "movers",
                "games",
                "search_values",
                "policy_actions",
                "policy_shares",
            )
        }
        arrays["returns"] = np.concatenate([p["returns"] for p in parts]).astype(np.float32)
        arrays["policy_rows"] = np.concatenate([p["policy_rows"] for p in parts])
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **cast("dict[str, Any]", arrays))
        files.write_new(path, buffer.getvalue())
        return self._positions(arrays)

    def load_positions(self, generation: int) -> _Positions:
        path = self.data_path(generation)
        try:
            with np.load(path, allow_pickle=False) as stored:
                arrays = {key: stored[key] for key in stored.files}
        except (OSError, ValueError, KeyError) as error:
            raise TrainingError(f"{path}: not a positions file of a run ({error})") from None
        return self._positions(arrays)

    def _positions(self, arrays: Mapping[str, Any]) -> _Positions:
        results = arrays["returns"][arrays["games"], arrays["players"]].astype(np.float32)
        searched = _seat_values(self.settings.make_game(), arrays)
        mix = self.settings.value_mix
        targets = np.where(
            np.isnan(searched) | (mix == 0), results, (1 - mix) * results + mix * searched
        ).astype(np.float32)
        game = self.settings.make_game()
        own = [name for name in game.info.evaluations if name != "net"]
        columns = [own.index(name) for name in self.settings.evaluation_names(game)]
        floats = np.concatenate(
            [arrays["features"], arrays["evaluations"][:, columns]], axis=1
        ).astype(np.float32)
        rows = len(targets)
        entries = np.asarray(arrays.get("policy_rows", np.zeros(0, np.int32)), dtype=np.int64)
        order = np.argsort(entries, kind="stable")
        starts = np.searchsorted(entries[order], np.arange(rows + 1)).astype(np.int64)
        return _Positions(
            arrays["boards"],
            floats,
            targets,
            arrays["games"] % HOLDOUT_EVERY == 0,
            starts,
            np.asarray(arrays.get("policy_actions", np.zeros(0, np.int32)))[order],
            np.asarray(arrays.get("policy_shares", np.zeros(0, np.float32)))[order],
        )


def _seat_values(game: Game, arrays: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The mover's search value as each row's seat sees it: the mover's own row has it; where two
    opposed sides play a zero-sum game, every seat of the mover's side has it and every other seat
    its negation; elsewhere another seat's row has none (NaN)."""
    players = game.num_players
    side = list(range(players))
    for team in game.info.teams.get(players, ()):
        for seat in team:
            side[seat] = team[0]
    side_of = np.asarray(side)
    mover_side = side_of[arrays["movers"]]
    row_side = side_of[arrays["players"]]
    values = arrays["search_values"].astype(np.float32)
    mover = values[np.flatnonzero(arrays["players"] == arrays["movers"])]
    per_decision = np.repeat(mover, players)
    if game.info.utility == "zero_sum" and len(set(side)) == 2:
        return np.where(mover_side == row_side, per_decision, -per_decision).astype(np.float32)
    return np.where(arrays["players"] == arrays["movers"], values, np.nan).astype(np.float32)


def _generation_seed(seed: int, generation: int) -> int:
    """A seed per generation, apart from every other's."""
    return (seed * 1_000_003 + generation * 7_919 + 1) % (1 << 64)
