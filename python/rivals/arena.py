"""Arenas: many games between C++ bots, in chunks, on local threads or on a Ray cluster.

Game ``i`` of an arena is seeded from ``(seed, i)`` alone (chance and every bot), so the results
are the same whatever the backend, the chunk sizes or the number of threads; an interrupted arena
that kept its replays continues exactly where it stopped (``resume_point``).
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rivals import replay as replays
from rivals._core import Game, make_game

__all__ = [
    "BotSpec",
    "Chunk",
    "LocalBackend",
    "RayBackend",
    "Resume",
    "resume_point",
    "run",
]

BotSpec = tuple[str, dict[str, Any]]

# A wall-clock target per local chunk: long enough that thread start-up is noise, short enough
# that progress shows and an interrupt loses little.
CHUNK_SECONDS = 0.5


@dataclass
class Chunk:
    """The results of games ``first_game .. first_game + len(lengths) - 1``."""

    first_game: int
    returns: npt.NDArray[np.float64]
    lengths: npt.NDArray[np.int32]
    seating: npt.NDArray[np.int32]
    histories: list[list[int]] | None

    @property
    def size(self) -> int:
        return len(self.lengths)


def _chunk(first_game: int, result: dict[str, Any]) -> Chunk:
    histories = result.get("histories")
    return Chunk(
        first_game,
        np.asarray(result["returns"]),
        np.asarray(result["lengths"]),
        np.asarray(result["seating"]),
        [list(h) for h in histories] if histories is not None else None,
    )


class Backend(Protocol):
    name: str
    workers: int

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        seed: int,
        first_game: int,
        num_games: int,
        keep_histories: bool,
    ) -> Iterator[Chunk]:
        """The chunks in game order."""
        ...


class LocalBackend:
    """``play_match`` on this machine's threads, in chunks sized to about CHUNK_SECONDS."""

    name = "local"

    def __init__(self, threads: int | None = None) -> None:
        self.workers = threads or os.cpu_count() or 1

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        seed: int,
        first_game: int,
        num_games: int,
        keep_histories: bool,
    ) -> Iterator[Chunk]:
        done = 0
        size = min(self.workers, num_games)
        while done < num_games:
            began = time.perf_counter()
            result = game.play_match(
                list(bots), size, seed, first_game + done, self.workers, keep_histories
            )
            yield _chunk(first_game + done, result)
            done += size
            seconds = time.perf_counter() - began
            wanted = size * 4 if seconds <= 0 else int(size * CHUNK_SECONDS / seconds)
            size = max(1, min(max(self.workers, min(wanted, size * 4)), num_games - done))


def _play_remote(
    name: str,
    params: dict[str, Any],
    bots: list[BotSpec],
    seed: int,
    first_game: int,
    count: int,
    threads: int,
    keep_histories: bool,
) -> dict[str, Any]:
    game = make_game(name, params)
    return dict(game.play_match(bots, count, seed, first_game, threads, keep_histories))


class RayBackend:
    """Chunks as Ray tasks, on a cluster (``address``) or on a local Ray instance.

    Every node needs ``rivals`` installed. Tasks run ``play_match`` on ``threads_per_task``
    threads; at most ``2 * workers`` tasks are in flight, and results are yielded in game order.
    """

    name = "ray"

    def __init__(
        self, address: str | None = None, chunk_games: int | None = None, threads_per_task: int = 1
    ) -> None:
        try:
            # Ray is optional and only partly typed: use it as Any.
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise ValueError(
                "the ray backend needs Ray: pip install 'rivals[ray]' (or pip install ray)"
            ) from None
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.threads_per_task = max(1, threads_per_task)
        self.workers = max(1, cpus // self.threads_per_task)
        self.chunk_games = chunk_games
        self._task = ray.remote(num_cpus=self.threads_per_task)(_play_remote)

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        seed: int,
        first_game: int,
        num_games: int,
        keep_histories: bool,
    ) -> Iterator[Chunk]:
        ray = self._ray
        size = self.chunk_games or max(1, math.ceil(num_games / (8 * self.workers)))
        starts = list(range(first_game, first_game + num_games, size))
        end = first_game + num_games
        pending: dict[Any, int] = {}
        finished: dict[int, Chunk] = {}
        submitted = 0
        for start in starts:
            while submitted < len(starts) and len(pending) < 2 * self.workers:
                first = starts[submitted]
                count = min(size, end - first)
                ref = self._task.remote(
                    game.name,
                    game.params,
                    list(bots),
                    seed,
                    first,
                    count,
                    self.threads_per_task,
                    keep_histories,
                )
                pending[ref] = first
                submitted += 1
            while start not in finished:
                ready, _ = ray.wait(list(pending), num_returns=1)
                first = pending.pop(ready[0])
                finished[first] = _chunk(first, ray.get(ready[0]))
            yield finished.pop(start)


def run(
    game: Game,
    bots: Sequence[BotSpec],
    num_games: int,
    seed: int = 0,
    backend: Backend | None = None,
    first_game: int = 0,
    keep_histories: bool = False,
    on_chunk: Callable[[Chunk], None] | None = None,
) -> Chunk:
    """Plays games ``first_game .. first_game + num_games - 1`` and returns them as one chunk."""
    parts = []
    for chunk in (backend or LocalBackend()).run(
        game, bots, seed, first_game, num_games, keep_histories
    ):
        if on_chunk is not None:
            on_chunk(chunk)
        parts.append(chunk)
    if not parts:
        players = game.num_players
        return Chunk(
            first_game,
            np.zeros((0, players)),
            np.zeros(0, np.int32),
            np.zeros((0, players), np.int32),
            [] if keep_histories else None,
        )
    histories = [h for part in parts for h in (part.histories or [])] if keep_histories else None
    return Chunk(
        first_game,
        np.concatenate([p.returns for p in parts]),
        np.concatenate([p.lengths for p in parts]),
        np.concatenate([p.seating for p in parts]),
        histories,
    )


@dataclass
class Resume:
    """What an arena's replay file already holds."""

    done: int
    returns: npt.NDArray[np.float64]
    lengths: npt.NDArray[np.int32]
    seating: npt.NDArray[np.int32]
    valid_bytes: int  # the file is cut back to this length before appending


def resume_point(path: Path, game: Game, seed: int, seat_labels: Sequence[str]) -> Resume:
    """Reads an arena's JSON-lines replays and checks that they belong to this arena.

    A last line without its newline is a write that was cut off: it is dropped. Any other problem
    (a line that is not a replay of this game, seed and seating, or games out of order) raises
    ``ValueError`` naming the line.
    """
    players = game.num_players
    returns: list[list[float]] = []
    lengths: list[int] = []
    seating: list[list[int]] = []
    valid = 0
    labels = list(seat_labels)
    with open(path, "rb") as handle:
        data = handle.read()
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        if not line.endswith(b"\n"):
            break
        where = f"{path}:{number}"
        try:
            record = replays.decode(line)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        arena = record.get("arena") if isinstance(record, dict) else None
        if not isinstance(arena, dict):
            raise ValueError(f"{where}: not an arena replay (no 'arena' entry)")
        if record.get("game") != game.name or record.get("params") != replays.portable_params(game):
            raise ValueError(f"{where}: a replay of another game or other parameters")
        if arena.get("seed") != seed:
            raise ValueError(f"{where}: written with seed {arena.get('seed')}, not {seed}")
        index = len(lengths)
        if arena.get("index") != index:
            raise ValueError(f"{where}: game {arena.get('index')} where game {index} was due")
        rotation = [(seat + index) % players for seat in range(players)]
        if arena.get("labels") != [labels[k] for k in rotation]:
            raise ValueError(f"{where}: other bots ({arena.get('labels')})")
        result = record.get("result", {})
        returns.append([float(r) for r in result.get("returns", [])])
        lengths.append(len(record.get("actions", [])))
        seating.append(rotation)
        valid += len(line)
    return Resume(
        len(lengths),
        np.asarray(returns, dtype=np.float64).reshape(-1, players),
        np.asarray(lengths, dtype=np.int32),
        np.asarray(seating, dtype=np.int32).reshape(-1, players),
        valid,
    )
