"""The server's registry: the tables being played, the links that reach them, the limits they
live within, and the thread pool the bots think in."""

from __future__ import annotations

import itertools
import logging
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from rivals._core import Game, State
from rivals.web.lobby import SeatSpec
from rivals.web.reviews import Review, Solvers
from rivals.web.tables import Client, Table, TableError
from rivals.web.watch import Watch

__all__ = ["Limits", "Server"]

log = logging.getLogger("rivals.web")


# A finished game nobody is connected to any more is let go after this long.
FINISHED_S = 600.0


@dataclass(frozen=True)
class Limits:
    """What the server holds at most, and for how long."""

    tables: int = 32  # games held at once
    connections: int = 256  # browser connections at once
    watchers: int = 16  # connections to one table
    idle_s: float = 3600.0  # a table or a connection that long without a move or a message
    message_bytes: int = 16 * 1024  # one message from a browser
    upload_bytes: int = 8 * 1024 * 1024  # a replay sent to resume or review
    reviews: int = 32  # finished games held for review at once
    analyses: int = 2  # positions analysed at once (each takes a thread for its bot's time)


class Server:
    """Every table, reachable by its seats' tokens (a person's private link) and its id (the
    spectators' link); nothing lists them."""

    def __init__(
        self,
        limits: Limits | None = None,
        threads: int | None = None,
        watch: Sequence[str | os.PathLike[str]] = (),
    ) -> None:
        self.limits = limits or Limits()
        # The replay logs given on the command line, numbered from 1 as the pages name them.
        self.watches = [Watch(number, path) for number, path in enumerate(watch, 1)]
        workers = threads or max(2, os.cpu_count() or 1)
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="rivals-bot")
        self.tables: dict[str, Table] = {}
        self.seats: dict[str, Table] = {}
        self.connections = 0
        self.rematches: dict[str, Table] = {}
        self.reviews: dict[str, Review] = {}
        self.solvers = Solvers()
        self._numbers = itertools.count(1)

    def create_table(
        self,
        game: Game,
        seats: list[SeatSpec],
        state: State | None = None,
        chance: Callable[[State], int] | None = None,
    ) -> Table:
        """A new table (see ``Table``), its bots made; ``TableError`` when the server holds as
        many as it may. Its first moves (chance, bots) are played once it is run or joined."""
        if len(self.tables) >= self.limits.tables:
            self._make_room()
        if len(self.tables) >= self.limits.tables:
            raise TableError(
                f"the server holds {self.limits.tables} games already; finish one or try later"
            )
        table = Table(next(self._numbers), game, seats, self.executor, state, chance)
        self.tables[table.id] = table
        for token in table.tokens:
            self.seats[token] = table
        kinds = ", ".join(spec.describe(game) for spec in seats)
        log.info("table %d: %s (%s)", table.number, game.name, kinds)
        return table

    def lookup(self, token: str) -> tuple[Table, int | None] | None:
        """The table and seat a link's token opens (``None`` for the spectators' link)."""
        table = self.seats.get(token)
        if table is not None:
            return table, table.tokens[token]
        table = self.tables.get(token)
        return (table, None) if table is not None else None

    def remove(self, table: Table, reason: str) -> None:
        table.close(reason)
        self.tables.pop(table.id, None)
        self.rematches.pop(table.id, None)
        for token in table.tokens:
            self.seats.pop(token, None)
        log.info("table %d closed: %s", table.number, reason)

    def _make_room(self) -> None:
        """Lets go of the finished game left longest ago by everyone (its page reconnecting
        finds it gone; its review, if asked for, stays)."""
        left = [t for t in self.tables.values() if t.over and not t.clients]
        if left:
            oldest = min(left, key=lambda table: table.last_active)
            self.remove(oldest, "the game is over and the server needed its place")

    def reap(self, now: float | None = None) -> int:
        """Closes the tables and reviews idle for longer than the limit; how many."""
        now = time.monotonic() if now is None else now
        idle = [
            t
            for t in self.tables.values()
            if now - t.last_active > self.limits.idle_s
            or (t.over and not t.clients and now - t.last_active > FINISHED_S)
        ]
        for table in idle:
            self.remove(table, f"closed after {self.limits.idle_s / 60:g} minutes without a move")
        old = [r for r in self.reviews.values() if now - r.last_active > self.limits.idle_s]
        for review in old:
            del self.reviews[review.id]
        return len(idle) + len(old)

    def add_review(self, review: Review) -> Review:
        """Holds ``review``; ``TableError`` when as many are held as may be."""
        if len(self.reviews) >= self.limits.reviews:
            raise TableError(
                f"the server holds {self.limits.reviews} reviews already; try again later"
            )
        self.reviews[review.id] = review
        return review

    def review_of(self, table: Table, client: Client) -> Review:
        """A review of ``table``'s game once it is over: every seat's view for a seat (they
        have played it out), the public view for a spectator."""
        if not table.over:
            raise TableError("a game is reviewed once it is over")
        viewers: list[int | None] = (
            [None] if client.seat is None else [*range(table.game.num_players), None]
        )
        return self.add_review(Review(table.state.clone(), viewers, table.names()))

    def rematch(self, table: Table, client: Client) -> Table:
        """The next game at the same table, the same seats, new links: each person connected
        is sent their own; one table however many ask."""
        if client.seat is None:
            raise TableError("spectators watch; a seat's own link asks for a rematch")
        if not table.over:
            raise TableError("a rematch follows a finished game")
        new = self.rematches.get(table.id)
        if new is None or new.id not in self.tables:
            new = self.create_table(table.game, table.seats)
            self.rematches[table.id] = new
            new.run()
        links = {seat: token for token, seat in new.tokens.items()}
        for other in table.clients:
            message = {"type": "rematch", "spectate": new.id}
            if other.seat is not None:
                message["seat"] = links[other.seat]
            other.send(message)
        return new

    def close(self) -> None:
        for table in list(self.tables.values()):
            self.remove(table, "the server stopped")
        self.executor.shutdown(wait=False, cancel_futures=True)
