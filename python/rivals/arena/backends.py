"""Where an arena's games are played: this machine's threads (``LocalBackend``) or a Ray
cluster (``RayBackend``), in chunks of games whose results do not depend on the split."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals import _ray
from rivals._core import MAX_THREADS, Game, make_game
from rivals.arena.lineups import BotSpec

# A wall-clock target per local chunk: long enough that thread start-up is noise, short enough
# that progress shows and an interrupt loses little.
CHUNK_SECONDS = 0.5
# Chunks are bounded in games too, so their results and replays take little memory: a chunk
# with replays holds every action of its games in Python lists (16,384 random Rosenkönig games:
# about 25 MB) or its record lines (about 6 MB), and its replay lines are written after it, a few
# seconds' worth at most.
MAX_CHUNK_GAMES = 65536
MAX_CHUNK_GAMES_WITH_REPLAYS = 16384


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    return value


@dataclass
class Chunk:
    """The results of games ``first_game .. first_game + len(lengths) - 1``, with their
    histories or their lines of a compact record (``records``, one per game, as ``play_match``
    writes them) when asked for."""

    first_game: int
    returns: npt.NDArray[np.float64]
    lengths: npt.NDArray[np.int32]
    seating: npt.NDArray[np.int32]
    histories: list[list[int]] | None
    records: bytes | None = None

    @property
    def size(self) -> int:
        return len(self.lengths)


def _chunk(first_game: int, result: Mapping[str, Any]) -> Chunk:
    histories = result.get("histories")
    return Chunk(
        first_game,
        np.asarray(result["returns"]),
        np.asarray(result["lengths"]),
        np.asarray(result["seating"]),
        # The engine gives lists already; another backend's result may hold other sequences.
        [h if isinstance(h, list) else list(h) for h in histories]
        if histories is not None
        else None,
        result.get("records"),
    )


def _chunk_cap(keep_histories: bool) -> int:
    return MAX_CHUNK_GAMES_WITH_REPLAYS if keep_histories else MAX_CHUNK_GAMES


@dataclass(frozen=True)
class _Games:
    """What a backend plays, but for which games: ``Backend.run``'s other arguments."""

    bots: list[BotSpec]
    seed: int
    keep_histories: bool
    chance_group: int
    records: bool

    def play(self, game: Game, first_game: int, count: int, threads: int) -> dict[str, Any]:
        """``play_match`` of ``count`` games from ``first_game`` on ``threads`` threads, with
        their histories or their record lines when asked for."""
        return dict(
            game.play_match(
                self.bots,
                count,
                self.seed,
                first_game,
                threads,
                self.keep_histories and not self.records,
                self.chance_group,
                records=self.keep_histories and self.records,
            )
        )


class Backend:
    """Where an arena's games are played: ``LocalBackend`` or ``RayBackend``, each giving its
    ``name``, its ``workers`` and its way of playing the chunks (``_chunks``)."""

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
        chance_group: int = 1,
        records: bool = False,
    ) -> Iterator[Chunk]:
        """The chunks in game order; games ``i`` and ``j`` with ``i // chance_group == j //
        chance_group`` share their chance outcomes (``play_match``). ``records`` gives each
        chunk's record lines rather than its histories (with ``keep_histories``)."""
        games = _Games(list(bots), seed, keep_histories, chance_group, records)
        return self._chunks(game, games, first_game, num_games)

    def _chunks(
        self, game: Game, games: _Games, first_game: int, num_games: int
    ) -> Iterator[Chunk]:
        raise NotImplementedError


class LocalBackend(Backend):
    """``play_match`` on this machine's threads, in chunks sized to about CHUNK_SECONDS."""

    name = "local"

    def __init__(self, threads: int | None = None) -> None:
        if threads is not None:
            _check_int("threads", threads, 1, MAX_THREADS)
        self.workers = threads or os.cpu_count() or 1

    def _chunks(
        self, game: Game, games: _Games, first_game: int, num_games: int
    ) -> Iterator[Chunk]:
        done = 0
        cap = _chunk_cap(games.keep_histories)
        size = min(self.workers, num_games, cap)
        while done < num_games:
            began = time.perf_counter()
            result = games.play(game, first_game + done, size, self.workers)
            yield _chunk(first_game + done, result)
            done += size
            seconds = time.perf_counter() - began
            wanted = size * 4 if seconds <= 0 else int(size * CHUNK_SECONDS / seconds)
            size = max(1, min(max(self.workers, min(wanted, size * 4)), num_games - done, cap))


def _play_remote(
    name: str, params: dict[str, Any], games: _Games, first_game: int, count: int, threads: int
) -> dict[str, Any]:
    """A Ray task's chunk: the game made again from its name and parameters on the worker."""
    return games.play(make_game(name, params), first_game, count, threads)


class RayBackend(Backend):
    """Chunks as Ray tasks, on a cluster (``address``) or on a local Ray instance.

    Every node needs ``rivals`` installed. Tasks run ``play_match`` on ``threads_per_task``
    threads; at most ``2 * workers`` tasks are in flight, and results are yielded in game order.
    """

    name = "ray"

    def __init__(
        self, address: str | None = None, chunk_games: int | None = None, threads_per_task: int = 1
    ) -> None:
        ray, cpus = _ray.start(address, "the ray backend")
        self._ray = ray
        self.threads_per_task = max(1, threads_per_task)
        self.workers = max(1, cpus // self.threads_per_task)
        self.chunk_games = chunk_games
        self._task = ray.remote(num_cpus=self.threads_per_task)(_play_remote)

    def _chunks(
        self, game: Game, games: _Games, first_game: int, num_games: int
    ) -> Iterator[Chunk]:
        ray = self._ray
        size = self.chunk_games or math.ceil(num_games / (8 * self.workers))
        size = max(1, min(size, _chunk_cap(games.keep_histories)))
        end = first_game + num_games
        starts = iter(range(first_game, end, size))  # lazy: a billion games are many chunks
        pending: dict[Any, int] = {}
        finished: dict[int, Chunk] = {}
        for start in range(first_game, end, size):
            while len(pending) < 2 * self.workers:
                first = next(starts, None)
                if first is None:
                    break
                count = min(size, end - first)
                ref = self._task.remote(
                    game.name, game.params, games, first, count, self.threads_per_task
                )
                pending[ref] = first
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
    chance_group: int = 1,
) -> Chunk:
    """Plays games ``first_game .. first_game + num_games - 1`` (one bot spec per seat) and
    returns all their results as one chunk. For long arenas use ``Arena``, whose memory stays
    flat."""
    parts = []
    for chunk in (backend or LocalBackend()).run(
        game, bots, seed, first_game, num_games, keep_histories, chance_group
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
