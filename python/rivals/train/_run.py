"""A training run's folder (``_Run``): its settings file, each generation's positions (played
by self-play and written once, or read back), its networks' paths and its log."""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from rivals import files
from rivals._core import Game
from rivals.train import _self_play
from rivals.train._settings import SETTINGS_FILE, Settings, TrainingError

if TYPE_CHECKING:
    from rivals.train import Progress

LOG_FILE = "train.log"
# Every twentieth game is held out of training, to measure the network on games it never saw.
HOLDOUT_EVERY = 20


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
