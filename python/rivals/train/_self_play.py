"""Where a generation's self-play games are played: on this machine's threads, or as Ray tasks on
a cluster. Either way the games are the same: a chunk's games depend only on the seed and the
number of its first game, and the chunks come back in order."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rivals import network
from rivals._core import Game, make_game

BotSpec = tuple[str, dict[str, Any]]
# One chunk of games: its first game and how many.
Span = tuple[int, int]


def _play(
    game: Game,
    bots: Sequence[BotSpec],
    span: Span,
    seed: int,
    threads: int,
    random_decisions: int,
) -> dict[str, Any]:
    first, count = span
    return dict(
        game.self_play(
            list(bots),
            count,
            seed=seed,
            first_game=first,
            threads=threads,
            random_decisions=random_decisions,
        )
    )


def _play_remote(
    name: str,
    params: dict[str, Any],
    bots: list[BotSpec],
    span: Span,
    seed: int,
    threads: int,
    random_decisions: int,
) -> dict[str, Any]:
    return _play(make_game(name, params), bots, span, seed, threads, random_decisions)


class LocalSelfPlay:
    """Every chunk on this machine, on ``threads`` threads."""

    def __init__(self, threads: int = 1) -> None:
        self.threads = threads

    def chunk_games(self) -> int:
        return max(2 * self.threads, 8)

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        spans: Sequence[Span],
        seed: int,
        random_decisions: int,
    ) -> Iterator[dict[str, Any]]:
        for span in spans:
            yield _play(game, bots, span, seed, self.threads, random_decisions)


class RaySelfPlay:
    """Chunks as Ray tasks, on a cluster (``address``) or on a Ray instance started here; each
    task plays on ``threads_per_task`` threads, and at most two per worker are in flight. Every
    node needs ``rivals`` installed; a network the bots read travels with the task as a document,
    so no node reads a path of this one."""

    def __init__(self, address: str | None = None, threads_per_task: int = 1) -> None:
        try:
            # Ray is optional and only partly typed: use it as Any.
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise ValueError(
                "self-play on Ray needs Ray: pip install 'rivals[ray]' (or pip install ray)"
            ) from None
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        self.threads_per_task = max(1, threads_per_task)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, cpus // self.threads_per_task)
        self._task = ray.remote(num_cpus=self.threads_per_task)(_play_remote)

    def chunk_games(self) -> int:
        return max(2 * self.threads_per_task, 8)

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        spans: Sequence[Span],
        seed: int,
        random_decisions: int,
    ) -> Iterator[dict[str, Any]]:
        ray = self._ray
        shipped = [(name, _network_inline(params)) for name, params in bots]
        waiting = iter(enumerate(spans))
        pending: dict[Any, int] = {}
        finished: dict[int, dict[str, Any]] = {}
        for index in range(len(spans)):
            while len(pending) < 2 * self.workers:
                next_span = next(waiting, None)
                if next_span is None:
                    break
                ref = self._task.remote(
                    game.name,
                    game.params,
                    shipped,
                    next_span[1],
                    seed,
                    self.threads_per_task,
                    random_decisions,
                )
                pending[ref] = next_span[0]
            while index not in finished:
                ready, _ = ray.wait(list(pending), num_returns=1)
                finished[pending.pop(ready[0])] = ray.get(ready[0])
            yield finished.pop(index)


def _network_inline(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with a network named by a path of this machine replaced by its document."""
    named = params.get("network")
    if not isinstance(named, str) or named in network.shipped_names():
        return params
    try:
        document = json.loads(Path(named).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"network file {named!r}: cannot be read ({error})") from None
    return {**params, "network": document}
