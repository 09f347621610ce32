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
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals import replay as replays
from rivals import stats
from rivals._core import Bot, Game, State
from rivals._guard import UseGuard, one_caller
from rivals.arena import forms, records

# Every name the arena module had is still rivals.arena.<name>: the parts re-exported whole
# (pyproject.toml lets this file import what it does not use itself).
from rivals.arena.backends import (
    CHUNK_SECONDS,
    MAX_CHUNK_GAMES,
    MAX_CHUNK_GAMES_WITH_REPLAYS,
    Backend,
    Chunk,
    LocalBackend,
    RayBackend,
    _check_int,
    run,
)
from rivals.arena.lineups import (
    MAX_GAMES,
    MAX_SEED,
    BotSpec,
    Entry,
    Lineup,
    _as_index,
    check_labels,
    label_copies,
    seat_plan,
)
from rivals.arena.log import (
    _REPLAY_START,
    CorruptLog,
    CutOffMember,
    ExistingLog,
    LogLine,
    LogSession,
    OtherArena,
    ReplayLog,
    _check_line,
    check_identity,
    check_written_by_a_run,
    cut_off_write,
    line_start,
    read_log,
    resumable_lines,
)
from rivals.arena.records import StoredGame, replay_lines, replay_records
from rivals.arena.standings import Record, Standings

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
    "StoredGame",
    "check_labels",
    "interrupts_deferred",
    "read_log",
    "replay_lines",
    "replay_records",
    "run",
    "tally",
    "tally_runs",
]


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


class Arena(LogSession):
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
        self._open_log(out, resume, force)

    # Whether the record being written holds this arena's header (a compact record only).
    _has_header = False

    def _load(self) -> int:
        try:
            return self._load_lines()
        except CutOffMember as cut:
            # Whole lines of a compressed member cut off: counted, they go with it.
            self.standings = Standings(self.lineup, paired=self.group == 2, group=self.group)
            self.decision = None
            return self._load_lines(cut.sealed)

    def _load_lines(self, stop: int | None = None) -> int:
        assert self.log is not None
        valid, ends_line = 0, True
        index = 0
        lineup = self.lineup
        start = line_start(lineup.game)
        checked: Checked | records.RecordGames = (
            records.RecordGames(lineup.game, records.action_bytes(lineup.game))
            if self.log.compact
            else Checked(lineup.players)
        )
        self._has_header = False
        try:
            for line in resumable_lines(self.log, lineup.game, stop):
                where = f"{self.log.path}:{line.number}"
                if self.log.compact and not self._has_header:
                    _check_header(line, lineup, self.seed, self.group, where)
                    self._has_header = True
                    if line.sealed is not None:
                        valid, ends_line = line.sealed, line.complete
                    continue
                if index >= self.num_games:
                    raise OtherArena(
                        f"{where}: the file holds more than the {self.num_games} games asked for"
                    )
                if self.decision is not None:
                    raise OtherArena(
                        f"{where}: the file goes on after the SPRT was decided ({self.decision}) "
                        f"at game {index}"
                    )
                if isinstance(checked, records.RecordGames):
                    checked.add(line, index, where)
                else:
                    state = _check_line(line, lineup, self.seed, index, where, self.group)
                    check_written_by_a_run(line, start, where)
                    checked.add(state, index)
                index += 1
                # An SPRT may stop at any game: it counts each one before the next is read.
                if self.sprt is not None or checked.full:
                    checked.into(self.standings)
                    self.decision = self._decided()
                if line.sealed is not None:
                    valid, ends_line = line.sealed, line.complete
            checked.into(self.standings)
        except ValueError as error:
            if isinstance(checked, records.RecordGames):
                checked.fail(error)
            raise
        self.log.keep(valid, ends_line)
        return index

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
            records=self.log is not None and self.log.compact,
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

    def _lines(self, chunk: Chunk) -> str | bytes:
        assert self.log is not None
        if not self.log.compact:
            return replay_lines(self.lineup, self.seed, self.group, chunk)
        header = not self._has_header
        self._has_header = True
        return records.record_lines(self.lineup, self.seed, self.group, chunk, header)


def _first_games(chunk: Chunk, count: int) -> Chunk:
    if count >= chunk.size:
        return chunk
    return Chunk(
        chunk.first_game,
        chunk.returns[:count],
        chunk.lengths[:count],
        chunk.seating[:count],
        chunk.histories[:count] if chunk.histories is not None else None,
        _first_lines(chunk.records, count) if chunk.records is not None else None,
    )


def _first_lines(lines: bytes, count: int) -> bytes:
    end = 0
    for _ in range(count):
        end = lines.index(b"\n", end) + 1
    return lines[:end]


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
    if forms.is_record(where):
        return _tally_record_runs(where)
    runs: list[Standings] = []
    checked = Checked(1)
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
            if runs:
                checked.into(runs[-1])
            checked = Checked(lineup.players)
            seed, index = recorded_seed, 0
            group = record["arena"].get("duplicate", 1)
            if group != 1 and group != lineup.duplicate_group:
                raise CorruptLog(f"{at}: corrupt: 'arena.duplicate' is {replays.shown(group)}")
            runs.append(Standings(lineup, paired=group == 2, group=group))
            start = line_start(lineup.game)
        lineup = runs[-1].lineup
        state = _check_line(line, lineup, seed, index, at, group)
        checked.add(state, index)
        if checked.full:
            checked.into(runs[-1])
        index += 1
    if runs:
        checked.into(runs[-1])
    else:
        raise CorruptLog(f"{where}: no games in the file")
    return runs


def _tally_record_runs(where: Path) -> list[Standings]:
    """``tally_runs`` of a compact record: an arena after each header."""
    runs: list[Standings] = []
    games: records.RecordGames | None = None  # those of the arena of the last header
    index = 0
    try:
        for line in read_log(where):
            if cut_off_write(line, (forms.HEADER_START, forms.GAME_START), str(where)):
                break
            at = f"{where}:{line.number}"
            if line.data.startswith(forms.HEADER_START):
                try:
                    record = line.decode()
                except ValueError as error:
                    raise CorruptLog(f"{at}: corrupt: {error}") from None
                arena = records.RecordArena.of(record, at)
                if not 0 <= arena.seed <= MAX_SEED:
                    raise CorruptLog(f"{at}: corrupt: 'arena.seed' is {arena.seed}")
                if games is not None:
                    games.into(runs[-1])
                games = records.RecordGames(arena.lineup.game, arena.width)
                runs.append(Standings(arena.lineup, paired=arena.group == 2, group=arena.group))
                index = 0
                continue
            if games is None:
                raise CorruptLog(f"{at}: corrupt: a game before any header")
            games.add(line, index, at)
            if games.full:
                games.into(runs[-1])
            index += 1
        if games is None:
            raise CorruptLog(f"{where}: no games in the file")
        games.into(runs[-1])
    except ValueError as error:
        if games is not None:
            games.fail(error)
        raise
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


class Checked:
    """Stored games checked and not yet counted: ``Standings.add`` takes them a batch at a time,
    as one game at a time would cost more than replaying it."""

    BATCH = 4096

    def __init__(self, players: int) -> None:
        self.players = players
        self.returns: list[list[float]] = []
        self.seating: list[list[int]] = []
        self.lengths: list[int] = []

    @property
    def full(self) -> bool:
        return len(self.lengths) >= self.BATCH

    def add(self, state: State, index: int) -> None:
        """Game ``index`` of its arena, finished in ``state``."""
        self.returns.append(state.returns())
        self.seating.append([(seat + index) % self.players for seat in range(self.players)])
        self.lengths.append(len(state.history()))

    def into(self, standings: Standings) -> None:
        """Counts the games held into ``standings``, and forgets them."""
        if not self.lengths:
            return
        standings.add(
            np.asarray(self.returns, dtype=np.float64),
            np.asarray(self.seating, dtype=np.int32),
            np.asarray(self.lengths, dtype=np.int32),
        )
        self.returns, self.seating, self.lengths = [], [], []


def _check_header(line: LogLine, lineup: Lineup, seed: int, group: int, where: str) -> None:
    """Raises unless ``line`` is the header this arena writes in a record: one of its game, seed,
    pairing and bots (``OtherArena``), spelt as a run spells it (``CorruptLog``)."""
    try:
        record = line.decode()
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    check_identity(records.header_as_replay(record, where), lineup, seed, 0, where, group)
    written = json.dumps(records.header(lineup, seed, group), ensure_ascii=False)
    if line.data != written.encode("utf-8"):
        raise CorruptLog(
            f"{where}: corrupt: this header is written otherwise than rivals writes it, so "
            "resuming would mix two encodings"
        )
