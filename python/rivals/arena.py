"""Arenas: many games between C++ bots, on local threads or on a Ray cluster, with a replay log
that is never lost, overwritten or mixed.

>>> import rivals
>>> from rivals import arena
>>> game = rivals.make("rosenkoenig")
>>> lineup = arena.Lineup.of(game, [("mcts", {"iterations": 50}), "random"])
>>> with arena.Arena(lineup, 10, seed=1, out="games.jsonl") as match:  # doctest: +SKIP
...     standings = match.run()
>>> arena.tally("games.jsonl").records[0].wins  # doctest: +SKIP

- ``Lineup``: who plays (each entry's full bot spec, defaults filled in by the engine) and which
  seat each entry holds; copies of one bot get labels of their own (``random#2``).
- ``Standings``: running totals per entry, so memory stays flat whatever the number of games.
- ``Arena``: plays the games, appends each chunk's replays to the log (one write, then fsync)
  under an exclusive lock, and resumes a log after re-checking every stored game.
- ``read_log``: the one reader of replay logs (``rivals replay``, ``render`` and ``--resume``).
- ``tally(path)``: the standings of a log, every game re-checked (``tally_runs`` for a log of
  several arenas one after another, as a tournament writes).

Game ``i`` of an arena is seeded from ``(seed, i)`` alone (its bots) and ``(seed, i // group)``
(its chance outcomes), so the results are the same whatever the backend, the chunk sizes or the
number of threads, and a resumed arena ends exactly like one never interrupted, as long as no bot
thinks by the clock (``time_s``).

Arenas are *duplicate* by default: the games come in groups (``Lineup.duplicate_group``: a pair
with the seats swapped for two sides, every seat rotation otherwise) that draw their deals and
draws from one chance stream, so the luck of the cards falls on every side alike. With two
entries the standings also count pairs (pentanomial) for the statistics of ``rivals.stats``,
and ``Arena(sprt=...)`` stops as soon as a sequential test is decided.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib
import json
import math
import os
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
import numpy.typing as npt

from rivals import files, stats
from rivals import replay as replays
from rivals._core import MAX_THREADS, Bot, Game, State, make_game
from rivals._guard import UseGuard, one_caller
from rivals.bots import clock_dependent

__all__ = [
    "MAX_GAMES",
    "Arena",
    "BotSpec",
    "Chunk",
    "CorruptLog",
    "Entry",
    "ExistingLog",
    "Lineup",
    "LocalBackend",
    "LogLine",
    "OtherArena",
    "RayBackend",
    "Record",
    "ReplayLog",
    "Standings",
    "check_labels",
    "interrupts_deferred",
    "read_log",
    "replay_lines",
    "run",
    "tally",
    "tally_runs",
]

BotSpec = tuple[str, dict[str, Any]]

# Game indices are 32-bit in the engine; a billion games is years of play for any real bot, and
# the totals stay exact in float64.
MAX_GAMES = 10**9
MAX_SEED = 2**64 - 1

# A wall-clock target per local chunk: long enough that thread start-up is noise, short enough
# that progress shows and an interrupt loses little.
CHUNK_SECONDS = 0.5
# Chunks are bounded in games too, so their results and replays take little memory: a chunk
# with replays holds every action of its games in Python lists.
MAX_CHUNK_GAMES = 65536
MAX_CHUNK_GAMES_WITH_REPLAYS = 2048


# --------------------------------------------------------------------------------------------
# Backends: chunks of games in game order


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


def _chunk(first_game: int, result: Mapping[str, Any]) -> Chunk:
    histories = result.get("histories")
    return Chunk(
        first_game,
        np.asarray(result["returns"]),
        np.asarray(result["lengths"]),
        np.asarray(result["seating"]),
        [list(h) for h in histories] if histories is not None else None,
    )


def _chunk_cap(keep_histories: bool) -> int:
    return MAX_CHUNK_GAMES_WITH_REPLAYS if keep_histories else MAX_CHUNK_GAMES


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
        chance_group: int = 1,
    ) -> Iterator[Chunk]:
        """The chunks in game order; games ``i`` and ``j`` with ``i // chance_group == j //
        chance_group`` share their chance outcomes (``play_match``)."""
        ...


class LocalBackend:
    """``play_match`` on this machine's threads, in chunks sized to about CHUNK_SECONDS."""

    name = "local"

    def __init__(self, threads: int | None = None) -> None:
        if threads is not None:
            _check_int("threads", threads, 1, MAX_THREADS)
        self.workers = threads or os.cpu_count() or 1

    def run(
        self,
        game: Game,
        bots: Sequence[BotSpec],
        seed: int,
        first_game: int,
        num_games: int,
        keep_histories: bool,
        chance_group: int = 1,
    ) -> Iterator[Chunk]:
        done = 0
        cap = _chunk_cap(keep_histories)
        size = min(self.workers, num_games, cap)
        while done < num_games:
            began = time.perf_counter()
            result = game.play_match(
                list(bots),
                size,
                seed,
                first_game + done,
                self.workers,
                keep_histories,
                chance_group,
            )
            yield _chunk(first_game + done, result)
            done += size
            seconds = time.perf_counter() - began
            wanted = size * 4 if seconds <= 0 else int(size * CHUNK_SECONDS / seconds)
            size = max(1, min(max(self.workers, min(wanted, size * 4)), num_games - done, cap))


def _play_remote(
    name: str,
    params: dict[str, Any],
    bots: list[BotSpec],
    seed: int,
    first_game: int,
    count: int,
    threads: int,
    keep_histories: bool,
    chance_group: int,
) -> dict[str, Any]:
    game = make_game(name, params)
    return dict(
        game.play_match(bots, count, seed, first_game, threads, keep_histories, chance_group)
    )


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
        chance_group: int = 1,
    ) -> Iterator[Chunk]:
        ray = self._ray
        size = self.chunk_games or math.ceil(num_games / (8 * self.workers))
        size = max(1, min(size, _chunk_cap(keep_histories)))
        end = first_game + num_games
        starts = iter(range(first_game, end, size))  # lazy: a billion games are many chunks
        pending: dict[Any, int] = {}
        finished: dict[int, Chunk] = {}
        for start in range(first_game, end, size):
            while len(pending) < 2 * self.workers:
                first = next(starts, None)
                if first is None:
                    break
                ref = self._task.remote(
                    game.name,
                    game.params,
                    list(bots),
                    seed,
                    first,
                    min(size, end - first),
                    self.threads_per_task,
                    keep_histories,
                    chance_group,
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


# --------------------------------------------------------------------------------------------
# Lineups: who plays, in which seat


@dataclass(frozen=True)
class Entry:
    """One participant of an arena: a bot in one seat, or in every seat of one team."""

    label: str
    name: str
    params: dict[str, Any]  # every parameter, defaults filled in by the engine

    @property
    def spec(self) -> dict[str, Any]:
        """As recorded in a replay's ``"bots"`` list."""
        return {"name": self.name, "params": self.params}


def label_copies(names: Sequence[str]) -> list[str]:
    """``["mcts", "random", "mcts"]`` -> ``["mcts", "random", "mcts#2"]``."""
    labels = []
    for index, name in enumerate(names):
        count = sum(other == name for other in names[:index]) + 1
        labels.append(name if count == 1 else f"{name}#{count}")
    return labels


def check_labels(labels: Sequence[Any] | None, names: Sequence[Any]) -> None:
    """Raises ``ValueError`` naming the first of ``labels`` (or, without labels, of the bots'
    ``names``, which then label them) that cannot label a bot (``rivals.replay.is_label``): before
    anything is played, as a label goes into every replay line and every table."""
    for k, label in enumerate(labels if labels is not None else names):
        if not replays.is_label(label):
            field = f"labels[{k}]" if labels is not None else f"the name of bots[{k}]"
            raise ValueError(f"{field} must be {replays.LABEL_RULE}, got {replays.shown(label)}")


def seat_plan(game: Game, listed: int) -> tuple[list[int], list[int]]:
    """For ``listed`` bots: which listed bot each entry plays, and which entry holds each seat.

    Where the game has teams (Rosenkönig with four players) an entry is a team when as many bots
    as teams are listed (fewer repeat round-robin), or one seat when one bot per seat is listed.
    Otherwise every seat is an entry of its own, the listed bots repeating round-robin over the
    seats, so no bot ever plays against itself as one entry.
    """
    players = game.num_players
    teams = game.info.teams.get(players)
    if listed < 1:
        raise ValueError("an arena needs at least one bot")
    if teams is not None and listed < players:
        if listed > len(teams):
            size = len(teams[0])
            raise ValueError(
                f"{game.name} with {players} players has {len(teams)} teams of {size} seats: "
                f"list at most {len(teams)} bots (one per team) or {players} (one per seat), "
                f"not {listed}"
            )
        team_of = {seat: index for index, team in enumerate(teams) for seat in team}
        return [team % listed for team in range(len(teams))], [team_of[s] for s in range(players)]
    if listed > players:
        raise ValueError(
            f"{listed} bots for {players} seats of {game.name}; list at most {players}"
        )
    return [seat % listed for seat in range(players)], list(range(players))


@dataclass(frozen=True)
class Lineup:
    """The entries of an arena and the entry in each seat of game 0.

    Game ``i`` rotates the seats: seat ``s`` holds the entry of seat ``(s + i) % players`` of
    game 0, so with a multiple of ``players`` games every entry plays every seat equally often.
    """

    game: Game
    entries: tuple[Entry, ...]
    seat_entry: tuple[int, ...]

    def __post_init__(self) -> None:
        # What every replay line of the arena records about its bots, checked before a game is
        # played: a line that cannot be written would lose the games played for it.
        for index, entry in enumerate(self.entries):
            if not replays.is_label(entry.label):
                raise ValueError(
                    f"entries[{index}].label must be {replays.LABEL_RULE}, "
                    f"got {replays.shown(entry.label)}"
                )
            try:
                json.dumps(entry.spec, ensure_ascii=False, allow_nan=False).encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"entries[{index}] ({entry.label}): its name or params hold a lone "
                    "surrogate: text must be valid Unicode"
                ) from None
            except (TypeError, ValueError) as error:
                raise ValueError(
                    f"entries[{index}] ({entry.label}): its name and params must be JSON: {error}"
                ) from None

    @classmethod
    def of(
        cls,
        game: Game,
        bots: Sequence[str | BotSpec],
        overrides: Mapping[str, Mapping[str, Any]] | None = None,
        labels: Sequence[str] | None = None,
    ) -> Lineup:
        """The lineup of ``bots`` (names or ``(name, params)``), filled over the seats as
        ``seat_plan`` says; ``overrides`` adds parameters for one label (``{"mcts#2": {...}}``).
        ``labels`` names the listed bots (default: their names, copies numbered); entries that
        repeat a listed bot over more seats get its label numbered.

        Raises ``ValueError`` for an unknown bot or parameter, or a count that fits no seating.
        """
        listed = [(bot, {}) if isinstance(bot, str) else (bot[0], dict(bot[1])) for bot in bots]
        entry_listed, seat_entry = seat_plan(game, len(listed))
        if labels is not None and len(labels) != len(listed):
            raise ValueError(f"{len(labels)} labels for {len(listed)} bots")
        check_labels(labels, [name for name, _ in listed])
        names = [(labels or [name for name, _ in listed])[k] for k in entry_listed]
        entry_labels = label_copies(names)
        extra = dict(overrides or {})
        unknown = [label for label in extra if label not in entry_labels]
        if unknown:
            raise ValueError(
                f"no bot {unknown[0]!r} in this arena (have: {', '.join(entry_labels)})"
            )
        entries = []
        for label, k in zip(entry_labels, entry_listed):
            name, params = listed[k]
            entries.append(_entry(game, label, name, {**params, **extra.get(label, {})}))
        return cls(game, tuple(entries), tuple(seat_entry))

    @property
    def players(self) -> int:
        return len(self.seat_entry)

    @property
    def teams(self) -> bool:
        """Whether some entry holds several seats (a team)."""
        return len(self.entries) < self.players

    def seat_specs(self) -> list[BotSpec]:
        """One spec per seat of game 0, for ``play_match``."""
        return [(self.entries[k].name, self.entries[k].params) for k in self.seat_entry]

    def entry_at(self, index: int, seat: int) -> Entry:
        """The entry in ``seat`` of game ``index``."""
        return self.entries[self.seat_entry[(seat + index) % self.players]]

    def seat_labels(self, index: int) -> list[str]:
        return [self.entry_at(index, seat).label for seat in range(self.players)]

    def seat_bots(self, index: int) -> list[dict[str, Any]]:
        return [self.entry_at(index, seat).spec for seat in range(self.players)]

    @property
    def duplicate_group(self) -> int:
        """The games of one duplicate group: every distinct seat rotation once, all with the same
        chance outcomes (2 for two entries, teams included; the seat count otherwise)."""
        players = self.players
        for period in range(1, players + 1):
            if players % period == 0 and all(
                self.seat_entry[(seat + period) % players] == self.seat_entry[seat]
                for seat in range(players)
            ):
                return period
        return players

    def clock_limited(self) -> list[Entry]:
        """Entries that think by the clock (``time_s`` > 0): their games depend on the machine's
        speed, so the same seed can give other games."""
        return [e for e in self.entries if clock_dependent(self.game, e.name, e.params)]

    @classmethod
    def from_record(cls, record: Any) -> Lineup:
        """The lineup that wrote an arena replay line (its ``"bots"`` and ``"arena"`` keys)."""
        if not isinstance(record, dict):
            raise ValueError("not a JSON object")
        info = record.get("arena")
        bots = record.get("bots")
        if not isinstance(info, dict) or not isinstance(bots, list):
            raise ValueError("not an arena replay (no 'arena' and 'bots' entries)")
        index, labels = _as_index(info.get("index")), info.get("labels")
        name, params = record.get("game"), record.get("params")
        if not isinstance(name, str) or not isinstance(params, dict):
            raise ValueError("no 'game' name and 'params' object")
        game = replays.game_of_record(name, params)
        players = game.num_players
        if index is None or not isinstance(labels, list) or len(labels) != players:
            raise ValueError("'arena' needs an 'index' and one label per seat")
        if len(bots) != players:
            raise ValueError(f"'bots' needs one entry per seat ({players}), got {len(bots)}")
        order: list[str] = []
        specs: dict[str, tuple[str, dict[str, Any]]] = {}
        seat_labels = [labels[(position - index) % players] for position in range(players)]
        for position, label in enumerate(seat_labels):
            spec = bots[(position - index) % players]
            if not isinstance(label, str) or not isinstance(spec, dict):
                raise ValueError("'arena.labels' must be strings and 'bots' objects")
            if not isinstance(spec.get("name"), str) or not isinstance(spec.get("params"), dict):
                raise ValueError("each of 'bots' needs a 'name' and its 'params'")
            if label not in specs:
                order.append(label)
                specs[label] = (spec["name"], spec["params"])
        entries = tuple(_entry(game, label, *specs[label]) for label in order)
        return cls(game, entries, tuple(order.index(label) for label in seat_labels))


def _entry(game: Game, label: str, name: str, params: dict[str, Any]) -> Entry:
    try:
        bot = game.make_bot(name, params, 0)
    except ValueError as error:
        raise ValueError(f"bot {label}: {error}") from None
    # A preset is recorded as the bot it plays with every parameter, so a replay line says
    # exactly what played and stays valid when the preset is tuned anew.
    return Entry(label, bot.name, dict(bot.params))


def _as_index(value: Any) -> int | None:
    """``value`` if it is an int >= 0 (not a bool), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


# --------------------------------------------------------------------------------------------
# Standings: running totals


@dataclass
class Record:
    """One entry's totals. A game is a win when the entry's return is positive (in free-for-all
    games: among the tied leaders), a loss when negative, a draw otherwise. The rank is 1 plus
    the number of seats with a higher return. ``group``: the games of a duplicate group, which
    share their luck."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank_sum: float = 0.0  # exact: ranks are whole (or, averaged over a team, halves)
    # Games per return value: returns take few distinct values (+1, -1, 0, 1/k, ...), and summing
    # them at the end makes the total independent of how the games were split into chunks.
    return_counts: dict[float, int] = field(default_factory=dict)
    group: int = 1

    @property
    def return_sum(self) -> float:
        return math.fsum(value * count for value, count in sorted(self.return_counts.items()))

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate, as ``rivals.stats`` takes a score's: the games of a
        group share their luck, so the group is the unit, and with only the totals known each
        group counts as won or lost whole (the widest spread its share of wins could have); a
        group not yet complete counts as the part of one that it is."""
        groups = self.games / self.group
        won = self.wins / self.group
        low, high, _ = stats.score_intervals([groups - won, 0.0, won])
        return float(low), float(high)

    @property
    def mean_return(self) -> float:
        return self.return_sum / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0


@dataclass
class Standings:
    """Running totals of an arena: a record per entry, the games and their total length.

    With two entries, also the first entry's results against the second as ``stats`` counts
    them: ``trinomial`` (loss, draw, win: its return below, equal to or above the other's) and,
    when ``paired`` (games ``2k`` and ``2k + 1`` a duplicate pair), ``pentanomial`` (pairs by
    their total score 0, 1/2, 1, 3/2, 2). ``group``: the games of a duplicate group (1 when
    unpaired), for the records' win intervals."""

    lineup: Lineup
    records: list[Record] = field(default_factory=list)
    games: int = 0
    length_sum: int = 0
    paired: bool = False
    trinomial: list[int] = field(default_factory=lambda: [0, 0, 0])
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    # The score of the first game of a pair whose second game is still to come.
    pending: float | None = None
    group: int = 1

    def __post_init__(self) -> None:
        if not self.records:
            self.records = [Record(group=self.group) for _ in self.lineup.entries]

    @property
    def versus(self) -> bool:
        """Whether there are two sides, so that ``trinomial`` and ``pentanomial`` are kept."""
        return len(self.lineup.entries) == 2

    def scores(
        self, returns: npt.NDArray[np.float64], seating: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.float64]:
        """Per game, the first entry's score against the second (1, 1/2 or 0)."""
        entry_at = np.asarray(self.lineup.seat_entry, dtype=np.int64)[seating]
        own = [
            np.where(entry_at == index, returns, 0.0).sum(axis=1)
            / np.maximum((entry_at == index).sum(axis=1), 1)
            for index in (0, 1)
        ]
        return np.asarray((own[0] > own[1]) + 0.5 * (own[0] == own[1]), dtype=np.float64)

    def counts(self) -> list[int]:
        """The counts the statistics use: pairs when paired, else games."""
        return self.pentanomial if self.paired else self.trinomial

    def add_scores(self, scores: Sequence[float]) -> None:
        for value in scores:
            self.trinomial[int(2 * value)] += 1
            if not self.paired:
                continue
            if self.pending is None:
                self.pending = value
            else:
                self.pentanomial[int(2 * (self.pending + value))] += 1
                self.pending = None

    @property
    def mean_length(self) -> float:
        return self.length_sum / self.games if self.games else 0.0

    @property
    def ranked(self) -> bool:
        """Whether a rank says more than win/draw/loss: more than two sides and no teams (in a
        game of teams a seat's place is its team's, whether one bot plays the team or each seat
        has its own)."""
        lineup = self.lineup
        return lineup.players > 2 and lineup.game.info.teams.get(lineup.players) is None

    def add(
        self,
        returns: npt.NDArray[np.float64],
        seating: npt.NDArray[np.int32],
        lengths: npt.NDArray[np.int32],
    ) -> None:
        """Counts games: ``returns`` and ``seating`` (the seat-list position in each seat, as
        ``play_match`` gives it) are ``[games, players]``, ``lengths`` ``[games]``."""
        if len(lengths) == 0:
            return
        if self.versus:
            self.add_scores(self.scores(returns, seating).tolist())
        entry_at = np.asarray(self.lineup.seat_entry, dtype=np.int64)[seating]
        ranks = 1 + (returns[:, None, :] > returns[:, :, None]).sum(axis=2)
        for index, record in enumerate(self.records):
            mask = entry_at == index
            seats = mask.sum(axis=1)
            own = np.where(mask, returns, 0.0).sum(axis=1) / seats
            record.games += len(own)
            record.wins += int((own > 0).sum())
            record.losses += int((own < 0).sum())
            record.draws = record.games - record.wins - record.losses
            values, counts = np.unique(own, return_counts=True)
            for value, count in zip(values.tolist(), counts.tolist()):
                record.return_counts[value] = record.return_counts.get(value, 0) + count
            record.rank_sum += float((np.where(mask, ranks, 0).sum(axis=1) / seats).sum())
        self.games += len(lengths)
        self.length_sum += int(np.asarray(lengths, dtype=np.int64).sum())


# --------------------------------------------------------------------------------------------
# The replay log


@dataclass(frozen=True)
class LogLine:
    """A line of a replay log: its number (from 1), where it starts, its bytes without the
    newline, and whether the newline was there (a last line without it is a cut-off write)."""

    number: int
    offset: int
    data: bytes
    complete: bool

    def decode(self) -> Any:
        """The line's JSON value, read as strictly as any replay (``rivals.replay.decode``);
        ``ValueError`` when it is not UTF-8 JSON within the replay limits."""
        return replays.decode(self.data)

    @property
    def end(self) -> int:
        """Where the line ends in the file, its newline included."""
        return self.offset + len(self.data) + (1 if self.complete else 0)


def read_log(
    source: str | os.PathLike[str] | IO[bytes], block: int = 1 << 20, name: str | None = None
) -> Iterator[LogLine]:
    """The lines of a JSON-lines file, read in blocks, so memory follows the longest line and not
    the file. Lines end at ``b"\\n"`` only: JSON strings may hold U+2028 and other characters
    that ``str.splitlines`` would split at. A line longer than any replay may be
    (``rivals.replay.MAX_BYTES``) is a ``CorruptLog`` naming ``name`` (the path by default); a
    path that is not a regular file is a ``ValueError`` (``rivals.replay.open_file``)."""
    if isinstance(source, (str, os.PathLike)):
        handle: IO[bytes] = replays.open_file(source)
        where = name or str(source)
    else:
        handle, where = source, name or "the log"
    try:
        number, offset, pending = 1, 0, b""
        while True:
            data = handle.read(block)
            if not data:
                break
            pending += data
            start = 0
            while (end := pending.find(b"\n", start)) >= 0:
                yield LogLine(number, offset, pending[start:end], True)
                number += 1
                offset += end + 1 - start
                start = end + 1
            pending = pending[start:]
            if len(pending) > replays.MAX_BYTES:
                raise CorruptLog(
                    f"{where}:{number}: corrupt: a line longer than {replays.MAX_BYTES} bytes"
                )
        if pending:
            yield LogLine(number, offset, pending, False)
    finally:
        if handle is not source:
            handle.close()


def resumable_lines(log: ReplayLog, game: Game) -> Iterator[LogLine]:
    """The lines of ``log`` that resuming a run of ``game`` checks: every line but a last one
    that an interrupted write left, which is dropped so that its game is played again
    (``cut_off_write``)."""
    start = line_start(game)
    for line in log.lines():
        if cut_off_write(line, start, str(log.path)):
            return
        yield line


def cut_off_write(line: LogLine, start: bytes, path: str) -> bool:
    """Whether ``line`` is what an interrupted write left: a last line without its newline that
    is the start of a game line (``start``, from ``line_start``: zero bytes after it allowed,
    which a crash can leave) and not yet whole JSON. Any other last line without its newline (a
    whole game whose newline an editor dropped) is a line like the others (False), and a
    fragment that no such write starts with is a ``CorruptLog``: a file from elsewhere is never
    cut back or read past."""
    if line.complete:
        return False
    try:
        line.decode()
    except ValueError:
        written = line.data.rstrip(b"\0")
        if start.startswith(written) or written.startswith(start):
            return True
        raise CorruptLog(
            f"{path}:{line.number}: corrupt: the last line has no newline and does not start as "
            "a game line of this game does, so it is no write of it cut off"
        ) from None
    return False


def check_written_by_a_run(line: LogLine, start: bytes, where: str) -> None:
    """Raises ``CorruptLog`` when ``line``, a game already checked as this run's, is JSON
    written otherwise than a run writes it (other spacing, key order, escapes or line ends):
    resumed, the file would mix two encodings. ``start`` is ``line_start(game)``. A game of an
    earlier replay version (read through the replay's upgrade) was written by an earlier rivals
    in its own way, and passes."""
    record = line.decode()
    if record.get("version") != replays.VERSION:
        return
    if (
        not line.data.startswith(start)
        or json.dumps(record, ensure_ascii=False).encode("utf-8") != line.data
    ):
        raise CorruptLog(
            f"{where}: corrupt: this game is written otherwise than rivals writes it (other "
            "spacing, key order, escapes or line ends), so resuming would mix two encodings"
        )


_REPLAY_START = f'{{"format": "{replays.FORMAT}", '.encode()


def line_start(game: Game) -> bytes:
    """How every game line of ``game`` in a log begins, up to its first action."""
    text = json.dumps(replays.to_dict(game.new_initial_state()), ensure_ascii=False)
    actions = '"actions": ['
    return text[: text.index(actions) + len(actions)].encode("utf-8")


class OtherArena(ValueError):
    """A log holds games of another arena (other game, parameters, data, bots or seed)."""


class CorruptLog(ValueError):
    """A stored game does not hold up: not JSON, out of order, or its actions do not give its
    recorded result."""


def _recorded_params(game: Game) -> dict[str, Any]:
    """The game parameters as a replay of ``game`` records them."""
    return replays.portable_params(game)


def _pairing_text(group: int) -> str:
    return f"duplicate groups of {group} games" if group > 1 else "unpaired games"


def _check_line(
    line: LogLine, lineup: Lineup, seed: int, index: int, where: str, group: int = 1
) -> Any:
    """The record of ``line`` if it is game ``index`` of this arena (whose games come in
    duplicate groups of ``group``), replayed and re-checked; raises ``OtherArena`` or
    ``CorruptLog`` naming ``where`` (``FILE:LINE``)."""
    try:
        record = line.decode()
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    if not isinstance(record, dict) or not isinstance(record.get("arena"), dict):
        raise OtherArena(f"{where}: not an arena replay (no 'arena' entry)")
    info = record["arena"]
    game = lineup.game
    if record.get("game") != game.name or record.get("params") != _recorded_params(game):
        raise OtherArena(f"{where}: {_other_game(record, game)}")
    if info.get("seed") != seed:
        raise OtherArena(
            f"{where}: written with seed {replays.shown(info.get('seed'))}, not {seed}"
        )
    recorded_group = info.get("duplicate", 1)
    if recorded_group != group:
        shown = _pairing_text(recorded_group) if isinstance(recorded_group, int) else "?"
        raise OtherArena(f"{where}: written as {shown}, this arena plays {_pairing_text(group)}")
    if info.get("index") != index:
        raise CorruptLog(
            f"{where}: corrupt: game {replays.shown(info.get('index'))} where game {index} was due"
        )
    bots = record.get("bots")
    if not isinstance(bots, list):
        raise OtherArena(f"{where}: no 'bots' entry (written by an older rivals?)")
    expected = lineup.seat_bots(index)
    for seat, (found, wanted) in enumerate(zip(bots, expected)):
        if found != wanted and not _added_at_default(game, found, wanted):
            raise OtherArena(f"{where}: other bots: seat {seat} {_difference(found, wanted)}")
    if len(bots) != len(expected):
        raise OtherArena(f"{where}: other bots: {len(bots)} seats recorded, not {len(expected)}")
    if info.get("labels") != lineup.seat_labels(index):
        raise OtherArena(f"{where}: other bots ({replays.shown(info.get('labels'))})")
    try:
        state = replays.from_dict(record)
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    result = record.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("returns"), list):
        raise CorruptLog(f"{where}: corrupt: no 'result.returns' list")
    if not state.is_terminal():
        raise CorruptLog(
            f"{where}: corrupt: the game is not over after its {len(state.history())} actions"
        )
    if result["returns"] != state.returns():
        raise CorruptLog(
            f"{where}: corrupt: result.returns is {replays.shown(result['returns'])}, "
            f"but replaying gives {state.returns()!r}"
        )
    return state


def _other_game(record: dict[str, Any], game: Game) -> str:
    """Why the game of ``record`` is not taken for ``game``, whose records differ from it."""
    recorded = record.get("params")
    if record.get("game") == game.name and isinstance(recorded, dict):
        try:
            same = replays.game_of_record(game.name, recorded) == game
        except ValueError:
            same = False
        if same:
            # The same data named in another form (the shipped default as null, by its name or
            # as the document): a log keeps the form its first game recorded, and saying only
            # "other data" would send the user looking for a difference that is not there.
            ours = _recorded_params(game)
            differing = "; ".join(
                f"{key} is {replays.shown(recorded.get(key))} there, "
                f"{replays.shown(ours.get(key))} here"
                for key in dict.fromkeys([*recorded, *ours])
                if recorded.get(key) != ours.get(key)
            )
            return (
                f"the same game of {game.name} with its data given in another form ({differing}):"
                " give the game parameters as the file records them"
            )
    return (
        f"a game of {_as_text(record.get('game'))} with other parameters or data "
        f"({replays.shown(recorded)})"
    )


def _added_at_default(game: Game, found: Any, wanted: dict[str, Any]) -> bool:
    """Whether a recorded bot differs from this arena's only by parameters the record lacks, each
    at its default here: parameters added to a bot since the record was written, whose defaults
    play as the bot did before them (a new parameter's default keeps the old play, seed for
    seed), so an arena written by an older rivals can be resumed."""
    if not isinstance(found, dict) or found.get("name") != wanted["name"]:
        return False
    recorded, params = found.get("params"), wanted["params"]
    if not isinstance(recorded, dict) or not set(recorded) < set(params):
        return False
    if any(recorded[key] != params[key] for key in recorded):
        return False
    defaults = _bot_defaults(game, wanted["name"])
    return all(
        key in defaults and params[key] == defaults[key] for key in set(params) - set(recorded)
    )


_DEFAULTS: dict[tuple[str, str, str], dict[str, Any]] = {}


def _bot_defaults(game: Game, bot: str) -> dict[str, Any]:
    """Every parameter of ``bot`` at its default in ``game`` (made once: some bots allocate)."""
    key = (game.name, json.dumps(game.params, sort_keys=True), bot)
    if key not in _DEFAULTS:
        _DEFAULTS[key] = dict(game.make_bot(bot, {}, 0).params)
    return _DEFAULTS[key]


def _difference(found: Any, wanted: dict[str, Any]) -> str:
    """How a recorded bot spec differs from this arena's: ``holds mcts with iterations=2, this
    arena has iterations=400``."""
    if not isinstance(found, dict) or not isinstance(found.get("params"), dict):
        return f"holds {replays.shown(found)}, this arena has {wanted['name']}"
    if found.get("name") != wanted["name"]:
        return f"holds {replays.shown(found.get('name'))}, this arena has {wanted['name']!r}"
    params: dict[str, Any] = found["params"]
    keys = [
        k
        for k in dict.fromkeys([*params, *wanted["params"]])
        if params.get(k, _MISSING) != wanted["params"].get(k, _MISSING)
    ]

    def show(values: dict[str, Any]) -> str:
        # A recorded key or value comes from a file: escaped (json.dumps's ASCII) and cut.
        def name(key: str) -> str:
            return key if key in wanted["params"] else _as_text(key)

        def value(item: Any) -> str:
            text = json.dumps(item)
            return text if len(text) <= 80 else text[:77] + "..."

        shown = [f"{name(k)}={value(values[k])}" if k in values else f"no {name(k)}" for k in keys]
        return ", ".join(shown[:8] + (["..."] if len(shown) > 8 else []))

    return f"holds {wanted['name']} with {show(params)}, this arena has {show(wanted['params'])}"


_MISSING = object()


def _as_text(value: Any) -> str:
    """A name from a file as a message shows it: as it is when it is a short one, otherwise
    quoted, escaped and cut (``replay.shown``)."""
    if isinstance(value, str) and len(value) <= 40 and value.isprintable():
        return value
    return replays.shown(value)


def _open_log(path: Path) -> int:
    """A descriptor of ``path`` for reading and appending, created if missing. A named pipe is
    opened for writing only, and refused when nothing reads it: opened for reading too, it
    would take the games in until its buffer filled and then wait for ever."""
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError as error:
                if error.errno == errno.ENXIO:
                    raise ValueError(f"{path}: a named pipe that nothing reads") from None
                raise
            os.set_blocking(fd, True)
            return fd
    except FileNotFoundError:
        pass
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror}") from None
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror}") from None


def _refuse_standard_streams(path: Path, info: os.stat_result) -> None:
    """Refuses the file or pipe this process prints to (``--out /dev/stdout``): what it prints
    would be written in among the games, in a file over them. (A terminal or /dev/null keeps
    no record to spoil.)"""
    for fd, name in ((1, "standard output"), (2, "standard error")):
        try:
            stream = os.fstat(fd)
        except OSError:
            continue
        if (stream.st_dev, stream.st_ino) == (info.st_dev, info.st_ino):
            raise ValueError(f"{path} is this program's {name}, which would mix text into it")


# How much of an existing log is read to say how many lines it holds: enough for any arena's
# record, little enough that a huge or sparse file is refused at once.
_COUNTED_BYTES = 64 << 20


def _count_lines(fd: int, size: int) -> int | None:
    """The lines of ``fd``'s file (``size`` bytes), or None when it is too large to count."""
    if size > _COUNTED_BYTES:
        return None
    with os.fdopen(os.dup(fd), "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


class ReplayLog:
    """An arena's JSON-lines replay file, held under an exclusive lock (``flock``) from opening
    to ``close``, so two arenas never write one file. (A device such as /dev/null is written
    without a lock, a check or an fsync: it keeps no record.)

    An existing non-empty file is refused unless ``resume`` (continue it) or ``force`` (replace
    it) is given: a record is never truncated by accident. Raises ``ValueError`` (``OSError``
    messages included) with the path.

    A process forked from the one that opened it shares its descriptor and lock: writing there
    would mix two arenas' games in one file, so it is refused with ``RuntimeError``.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, resume: bool = False, force: bool = False
    ) -> None:
        self.path = Path(path)
        fd = _open_log(self.path)
        try:
            info = os.fstat(fd)
            self.regular = stat.S_ISREG(info.st_mode)
            if self.regular or stat.S_ISFIFO(info.st_mode):
                _refuse_standard_streams(self.path, info)
            # A device or a pipe (/dev/null) holds no record; locking it would only make two
            # unrelated arenas wait for each other.
            if self.regular:
                self._lock(fd)
            if resume and not self.regular:
                raise ValueError(f"{self.path}: not a regular file, so there is nothing to resume")
            if info.st_size > 0 and not resume and not force:
                raise ExistingLog(self.path, _count_lines(fd, info.st_size), info.st_size)
            if force and self.regular:
                os.ftruncate(fd, 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd
        self._opened_by = os.getpid()

    def _lock(self, fd: int) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = files.lock_holder(fd)
            who = f"pid {holder}" if holder is not None else "pid unknown"
            raise ValueError(f"{self.path} is being written by another arena ({who})") from None

    @property
    def fd(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.path}: the log is closed")
        self.check_process()
        return self._fd

    def check_process(self) -> None:
        """``RuntimeError`` in a process forked from the one that opened the log."""
        if self._opened_by != os.getpid():
            raise RuntimeError(
                f"{self.path}: the log was opened by process {self._opened_by}, which this one "
                "was forked from; both would write it under one lock, so this process may not "
                "(close it here, and open the file anew once that process has closed it)"
            )

    def lines(self) -> Iterator[LogLine]:
        """The lines stored so far (read through the locked descriptor)."""
        with os.fdopen(os.dup(self.fd), "rb") as handle:
            handle.seek(0)
            yield from read_log(handle, name=str(self.path))

    def keep(self, size: int) -> None:
        """Cuts the file back to its first ``size`` bytes, and ends them with a newline if they
        lack one (a whole last line stored without it), so what follows starts a line."""
        os.ftruncate(self.fd, size)
        if size > 0 and os.pread(self.fd, 1, size - 1) != b"\n":
            self.append("\n")

    def append(self, text: str) -> None:
        """Writes ``text`` at the end in one piece and fsyncs. If the write fails or is
        interrupted, the file is cut back to where it was, so it only ever holds whole lines."""
        data = text.encode("utf-8")
        fd = self.fd
        start = os.lseek(fd, 0, os.SEEK_END) if self.regular else 0
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if self.regular:
                os.fsync(fd)
        except BaseException:
            if self.regular:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, start)
            raise

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock
            self._fd = None


class ExistingLog(ValueError):
    """``ReplayLog`` refused a non-empty file: neither resume nor force was asked for."""

    def __init__(self, path: Path, lines: int | None, size: int) -> None:
        self.path, self.lines, self.size = path, lines, size
        super().__init__(f"{path} already holds {self.contents}; resume it or replace it")

    @property
    def contents(self) -> str:
        """What the file holds: ``2 lines (1234 bytes)``, or its size alone when too large to
        count its lines."""
        if self.lines is None:
            return f"{self.size} bytes"
        if self.lines == 0:
            return f"{self.size} bytes and no whole line"
        return f"{self.lines} line{'s' if self.lines != 1 else ''} ({self.size} bytes)"


# --------------------------------------------------------------------------------------------
# Arenas


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Holds back Ctrl-C (SIGINT) until the block is done, then raises ``KeyboardInterrupt``:
    a chunk being written reaches the disk whole, a display being taken down goes. A second
    Ctrl-C raises at once, so a write that cannot finish (a pipe nobody empties) never holds
    the program; a log's append then cuts the file back to whole lines. Where the program has
    its own SIGINT handler, or off the main thread, nothing changes."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[int] = []

    def hold_back(signum: int, frame: object) -> None:
        if caught:
            raise KeyboardInterrupt
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold_back)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    return value


class Arena:
    """Games ``0 .. num_games - 1`` of ``lineup`` with ``seed``, their replays in ``out``.

    With ``resume``, the games already in ``out`` are re-checked (replayed: their actions must
    be legal and give their recorded returns; they must be this arena's: game, parameters, data,
    bots, seed, order), counted, and only the missing ones are played; a last line cut off
    mid-write is dropped. ``force`` replaces a non-empty ``out``. The log stays locked until
    ``close`` (or the end of a ``with`` block).

    ``run`` plays the remaining games; when it is interrupted (``KeyboardInterrupt``) or a write
    fails, ``standings`` still holds every finished game and ``recorded`` says how many of them
    are in the file.

    ``duplicate`` (default) plays the games in duplicate groups (same chance outcomes, seats
    rotated); ``duplicate=False`` gives every game its own chance stream. ``sprt`` (two entries
    only) stops at the first complete pair (or game, unpaired) where the test is decided:
    ``decision`` is then ``"H1"`` (the second bot is at least ``elo1`` stronger) or ``"H0"``, and
    ``num_games`` is the most games it may play. The stopping point depends only on the games, so
    a resumed test stops where an uninterrupted one would.
    """

    def __init__(
        self,
        lineup: Lineup,
        num_games: int,
        seed: int = 0,
        out: str | os.PathLike[str] | None = None,
        *,
        resume: bool = False,
        force: bool = False,
        backend: Backend | None = None,
        duplicate: bool = True,
        sprt: stats.Sprt | None = None,
    ) -> None:
        # A log written by two threads at once would hold games twice, out of order.
        self._guard = UseGuard("Arena", "run one Arena on one thread")
        self.lineup = lineup
        self.num_games = _check_int("the number of games", num_games, 0, MAX_GAMES)
        self.seed = _check_int("the seed", seed, 0, MAX_SEED)
        if resume and out is None:
            raise ValueError("resume continues the replays of a file: give out")
        if resume and force:
            raise ValueError("resume keeps the file, force replaces it: not both")
        self.backend: Backend = backend or LocalBackend()
        self.group = lineup.duplicate_group if duplicate else 1
        if sprt is not None and len(lineup.entries) != 2:
            raise ValueError(
                f"an SPRT compares two bots; this arena has {len(lineup.entries)} "
                f"({', '.join(e.label for e in lineup.entries)})"
            )
        self.sprt = sprt
        self.decision: str | None = None
        self.standings = Standings(lineup, paired=self.group == 2, group=self.group)
        self.log = ReplayLog(out, resume=resume, force=force) if out is not None else None
        self.resumed = 0
        try:
            if self.log is not None and resume:
                self.resumed = self._load()
        except BaseException:
            self.close()
            raise
        self.recorded = self.resumed
        self._keepers: list[tuple[str, Bot]] = []

    def _load(self) -> int:
        assert self.log is not None
        valid = 0
        index = 0
        lineup = self.lineup
        start = line_start(lineup.game)
        for line in resumable_lines(self.log, lineup.game):
            where = f"{self.log.path}:{line.number}"
            if index >= self.num_games:
                raise OtherArena(
                    f"{where}: the file holds more than the {self.num_games} games asked for"
                )
            if self.decision is not None:
                raise OtherArena(
                    f"{where}: the file goes on after the SPRT was decided ({self.decision}) "
                    f"at game {index}"
                )
            state = _check_line(line, lineup, self.seed, index, where, self.group)
            check_written_by_a_run(line, start, where)
            self.standings.add(*_one_game(state, index, lineup.players))
            index += 1
            self.decision = self._decided()
            valid = line.end
        self.log.keep(valid)
        return index

    def __enter__(self) -> Arena:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @one_caller
    def close(self) -> None:
        """Releases the log (and its lock) and the bots kept for their shared work."""
        if self.log is not None:
            self.log.close()
        self._keepers = []

    @property
    def remaining(self) -> int:
        return 0 if self.decision is not None else self.num_games - self.standings.games

    def _decided(self) -> str | None:
        """The SPRT's decision on the games counted, looked at only where a pair is complete."""
        if self.sprt is None or self.standings.pending is not None:
            return None
        return self.sprt.decision(self.sprt_counts())

    def sprt_counts(self) -> list[int]:
        """The counts the SPRT reads: the second bot's losses, draws, wins (or pairs), as its
        hypotheses are about the second bot."""
        return self.standings.counts()[::-1]

    def llr(self) -> float:
        """The SPRT's log-likelihood ratio so far (0 without an SPRT)."""
        return self.sprt.llr(self.sprt_counts()) if self.sprt is not None else 0.0

    def _games_until_decision(self, chunk: Chunk) -> int:
        """How many of ``chunk``'s games the SPRT needs: all, or up to the one deciding it."""
        if self.sprt is None:
            return chunk.size
        trial = Standings(self.lineup, paired=self.standings.paired)
        trial.trinomial = list(self.standings.trinomial)
        trial.pentanomial = list(self.standings.pentanomial)
        trial.pending = self.standings.pending
        for offset, value in enumerate(self.standings.scores(chunk.returns, chunk.seating)):
            trial.add_scores([float(value)])
            if trial.pending is None and self.sprt.decision(trial.counts()[::-1]) is not None:
                return offset + 1
        return chunk.size

    def bot_stats(self) -> dict[str, dict[str, Any]]:
        """Per label, the progress of bots that work for long (the solver: contexts solved),
        readable from another thread while ``run`` plays."""
        return {label: dict(bot.stats()) for label, bot in self._keepers}

    @one_caller
    def run(self, on_chunk: Callable[[Standings], None] | None = None) -> Standings:
        """Plays the remaining games in chunks, appending each chunk's replays to the log before
        counting it; ``on_chunk`` sees the standings after each chunk."""
        game = self.lineup.game
        if self.log is not None:
            self.log.check_process()  # before any game is played for it
        # A bot that shares work between its instances (the solver's table) keeps it only while
        # one of them lives: hold one through every chunk.
        keepers = [(e.label, game.make_bot(e.name, e.params, 0)) for e in self.lineup.entries]
        self._keepers = [(label, bot) for label, bot in keepers if bot.stats()]
        if self.remaining == 0:
            return self.standings
        chunks = self.backend.run(
            game,
            self.lineup.seat_specs(),
            self.seed,
            self.standings.games,
            self.remaining,
            self.log is not None,
            self.group,
        )
        for whole in chunks:
            chunk = _first_games(whole, self._games_until_decision(whole))
            with interrupts_deferred():
                if self.log is not None:
                    try:
                        self.log.append(self._lines(chunk))
                    except OSError:
                        self.standings.add(chunk.returns, chunk.seating, chunk.lengths)
                        raise
                self.standings.add(chunk.returns, chunk.seating, chunk.lengths)
                self.recorded = self.standings.games if self.log is not None else 0
                self.decision = self._decided()
                if on_chunk is not None:
                    on_chunk(self.standings)
            if self.decision is not None:
                break
        return self.standings

    def _lines(self, chunk: Chunk) -> str:
        return replay_lines(self.lineup, self.seed, self.group, chunk)


def _first_games(chunk: Chunk, count: int) -> Chunk:
    if count >= chunk.size:
        return chunk
    return Chunk(
        chunk.first_game,
        chunk.returns[:count],
        chunk.lengths[:count],
        chunk.seating[:count],
        chunk.histories[:count] if chunk.histories is not None else None,
    )


def replay_lines(
    lineup: Lineup, seed: int, group: int, chunk: Chunk, extra: Mapping[str, Any] | None = None
) -> str:
    """The replay log lines of ``chunk``'s games (which need their histories): each game's
    replay with its ``"bots"`` and ``"arena"`` keys (``"duplicate"`` when ``group`` > 1), and
    ``extra`` keys."""
    game = lineup.game
    lines = []
    for offset, history in enumerate(chunk.histories or []):
        index = chunk.first_game + offset
        data = replays.to_dict(game.state_from_history(history))
        data["bots"] = lineup.seat_bots(index)
        data["arena"] = {"index": index, "seed": seed, "labels": lineup.seat_labels(index)}
        if group > 1:
            data["arena"]["duplicate"] = group
        data.update(extra or {})
        lines.append(json.dumps(data, ensure_ascii=False) + "\n")
    return "".join(lines)


def tally(path: str | os.PathLike[str]) -> Standings:
    """The standings of an arena's replay log, every game re-checked as ``Arena`` does on resume
    (``OtherArena``, ``CorruptLog``); a last line cut off mid-write is left out. A tournament's
    log holds one arena per pairing: ``rivals.tournament.tally`` reads it."""
    runs = tally_runs(path)
    if len(runs) > 1:
        raise OtherArena(
            f"{path}: {len(runs)} arenas one after another (a tournament's log): read it with "
            "rivals.tournament.tally"
        )
    return runs[0]


def tally_runs(path: str | os.PathLike[str]) -> list[Standings]:
    """The standings of each arena stored one after another in a replay log (a tournament's
    pairings), every game re-checked; a run ends where a line starts game 0 of other bots."""
    where = Path(path)
    runs: list[Standings] = []
    seed = group = index = 0
    # Before the first game nothing says which game the file holds: any replay's start.
    start = _REPLAY_START
    for line in read_log(where):
        if cut_off_write(line, start, str(where)):
            break
        at = f"{where}:{line.number}"
        try:
            record = line.decode()
        except ValueError as error:
            raise CorruptLog(f"{at}: corrupt: {error}") from None
        if not runs or _starts_other_arena(record, runs[-1].lineup):
            try:
                lineup = Lineup.from_record(record)
            except ValueError as error:
                raise CorruptLog(f"{at}: corrupt: {error}") from None
            recorded_seed = _as_index(record["arena"].get("seed"))
            if recorded_seed is None or recorded_seed > MAX_SEED:
                raise CorruptLog(
                    f"{at}: corrupt: 'arena.seed' is {replays.shown(record['arena'].get('seed'))}"
                )
            seed, index = recorded_seed, 0
            group = record["arena"].get("duplicate", 1)
            if group != 1 and group != lineup.duplicate_group:
                raise CorruptLog(f"{at}: corrupt: 'arena.duplicate' is {replays.shown(group)}")
            runs.append(Standings(lineup, paired=group == 2, group=group))
            start = line_start(lineup.game)
        standings = runs[-1]
        lineup = standings.lineup
        state = _check_line(line, lineup, seed, index, at, group)
        standings.add(*_one_game(state, index, lineup.players))
        index += 1
    if not runs:
        raise CorruptLog(f"{where}: no games in the file")
    return runs


def _starts_other_arena(record: Any, lineup: Lineup) -> bool:
    """Whether ``record`` is game 0 of bots other than ``lineup``'s (the next pairing of a
    tournament); any other line must continue the arena before it."""
    if not isinstance(record, dict) or not isinstance(record.get("arena"), dict):
        return False
    info = record["arena"]
    return _as_index(info.get("index")) == 0 and (
        info.get("labels") != lineup.seat_labels(0) or record.get("bots") != lineup.seat_bots(0)
    )


def _one_game(
    state: State, index: int, players: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """A stored game as ``Standings.add`` takes it: returns, seating and length."""
    return (
        np.asarray([state.returns()], dtype=np.float64),
        np.asarray([[(seat + index) % players for seat in range(players)]], dtype=np.int32),
        np.asarray([len(state.history())], dtype=np.int32),
    )
