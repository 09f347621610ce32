"""Where a generation's self-play games are played: on this machine's threads, or as Ray tasks on
a cluster. Either way the games are the same: a chunk's games depend only on the seed and the
number of its first game, and the chunks come back in order."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rivals import _ray, network
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


def _play_remote(name: str, params: dict[str, Any], *args: Any) -> dict[str, Any]:
    return _play(make_game(name, params), *args)


class SelfPlay:
    """Chunks of ``threads`` threads' games: here (``backend="local"``), or as Ray tasks
    (``backend="ray"``) on the cluster at ``address`` or on a Ray instance started here, at most
    two per worker in flight. Every Ray node needs ``rivals`` installed; a network the bots read
    travels with the task as a document, so no node reads a path of this one."""

    def __init__(self, threads: int, backend: str = "local", address: str | None = None) -> None:
        self.threads = max(1, threads)
        self._ray: Any = None
        if backend == "ray":
            self._ray, cpus = _ray.start(address, "self-play on Ray")
            self._workers = max(1, cpus // self.threads)
            self._task = self._ray.remote(num_cpus=self.threads)(_play_remote)

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
        if self._ray is None:
            for span in spans:
                yield _play(game, bots, span, seed, self.threads, random_decisions)
            return
        shipped = [(name, _network_inline(params)) for name, params in bots]
        # Waiting on the oldest task keeps the chunks in order; the others run meanwhile.
        in_flight: deque[Any] = deque()
        for span in spans:
            in_flight.append(
                self._task.remote(
                    game.name, game.params, shipped, span, seed, self.threads, random_decisions
                )
            )
            if len(in_flight) == 2 * self._workers:
                yield self._ray.get(in_flight.popleft())
        while in_flight:
            yield self._ray.get(in_flight.popleft())


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
