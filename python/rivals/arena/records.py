"""What an arena writes for its games: replay lines (``replay_lines``, the default form) or a
compact record (``record_lines``, a file named ``.rec``, ``.rec.gz`` or ``.rec.zst``) that holds
each game's actions alone under one header per arena and converts back to exactly the replay
lines (``StoredGame.decode``, ``replay_records``). The format is in docs/formats.md
("rivals-record")."""

from __future__ import annotations

import binascii
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from rivals import replay as replays
from rivals._core import MAX_THREADS, Game, State
from rivals.arena.backends import Chunk
from rivals.arena.forms import GAME_START, HEADER_START, RECORD_FORMAT, is_record
from rivals.arena.lineups import Lineup
from rivals.arena.log_lines import CorruptLog, LogLine, read_log
from rivals.arena.standings import Standings

RECORD_VERSION = 1
_HEADER_KEYS = ("format", "version", "game", "params", "bots", "arena", "action_bytes")
_HEADER_ARENA = ("seed", "labels")
# A game line exactly as record_lines writes it: any other spelling is refused, so a record
# never mixes two encodings and reads with one match per line.
# Stored games are checked on every core: reading is the engine's work, not Python's.
_CHECK_THREADS = min(os.cpu_count() or 1, MAX_THREADS)
_ACTION_TYPES: dict[int, np.dtype[Any]] = {1: np.dtype(np.uint8), 2: np.dtype(">u2")}
# (The hex digits are matched one at a time, and their count checked apart: a repeated pair
# costs the regex engine a step per pair, more than the rest of reading a game.)
_GAME_LINE = re.compile(rb'\{"index": (0|[1-9][0-9]{0,18}), "actions": "([0-9a-f]*)"\}')

__all__ = [
    "GAME_START",
    "HEADER_START",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordGames",
    "StoredGame",
    "action_bytes",
    "is_record",
    "record_lines",
    "replay_lines",
    "replay_records",
]


def action_bytes(game: Game) -> int:
    """How many bytes a record spends per action of ``game``: one while every decision and
    chance outcome id fits in a byte, else two (big-endian)."""
    return 1 if max(game.num_distinct_actions, game.max_chance_outcomes) <= 256 else 2


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


def header(lineup: Lineup, seed: int, group: int) -> dict[str, Any]:
    """The header line of an arena in a record: what every replay line of it shares."""
    game = lineup.game
    arena: dict[str, Any] = {"seed": seed, "labels": lineup.seat_labels(0)}
    if group > 1:
        arena["duplicate"] = group
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game.name,
        "params": replays.portable_params(game),
        "bots": lineup.seat_bots(0),
        "arena": arena,
        "action_bytes": action_bytes(game),
    }


def record_lines(
    lineup: Lineup, seed: int, group: int, chunk: Chunk, with_header: bool = False
) -> bytes:
    """The record lines of ``chunk``'s games (which need their record lines from the engine,
    ``Chunk.records``, or their histories), after the arena's header ``with_header`` (the first
    chunk written of an arena)."""
    start = (
        json.dumps(header(lineup, seed, group), ensure_ascii=False).encode("utf-8") + b"\n"
        if with_header
        else b""
    )
    if chunk.records is not None:
        return start + chunk.records
    width = action_bytes(lineup.game)
    lines = [start]
    for offset, history in enumerate(chunk.histories or []):
        actions = bytes(history) if width == 1 else np.asarray(history, ">u2").tobytes()
        index = chunk.first_game + offset
        lines.append(f'{{"index": {index}, "actions": "{actions.hex()}"}}\n'.encode())
    return b"".join(lines)


def header_as_replay(record: Any, where: str) -> dict[str, Any]:
    """A record's header as the identity part of game 0's replay line (``game``, ``params``,
    ``bots``, ``arena`` with index 0), for the checks the replay lines pass; ``CorruptLog``
    naming ``where`` for a header that is not one."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise CorruptLog(f"{where}: corrupt: not a header of a {RECORD_FORMAT} arena")
    try:
        replays._check_keys(record, "the header", _HEADER_KEYS)
        if record["version"] != RECORD_VERSION:
            raise replays._fail(
                f"unsupported version {replays.shown(record['version'])}; this build reads "
                f"version {RECORD_VERSION}"
            )
        arena = record["arena"]
        replays._check_keys(arena, "'arena'", _HEADER_ARENA, ("duplicate",))
        if not isinstance(record["game"], str) or not isinstance(record["params"], dict):
            raise replays._fail("no 'game' name and 'params' object")
        game = replays.game_of_record(record["game"], record["params"])
        replays._check_bots(record["bots"], game.num_players)
        as_replay = {key: record[key] for key in ("game", "params", "bots")}
        as_replay["arena"] = {"index": 0, **arena}
        replays._check_arena(as_replay["arena"], game.num_players)
        if record["action_bytes"] != action_bytes(game):
            raise replays._fail(
                f"action_bytes is {replays.shown(record['action_bytes'])}, and {game.name}'s "
                f"actions take {action_bytes(game)}"
            )
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    return as_replay


def game_actions(line: LogLine, width: int, where: str) -> tuple[int, bytes]:
    """The index and the stored actions (``width`` bytes each, big-endian) of a record's game
    line, which must be spelled exactly as ``record_lines`` writes it; ``CorruptLog`` naming
    ``where`` otherwise."""
    match = _GAME_LINE.fullmatch(line.data)
    if match is None or len(match[2]) % 2:
        raise CorruptLog(
            f'{where}: corrupt: not a game line of a record ({{"index": N, "actions": '
            '"HEX"} exactly as rivals writes it)'
        )
    actions = binascii.a2b_hex(match[2])
    if len(actions) % width:
        raise CorruptLog(f"{where}: corrupt: an odd number of bytes for 2-byte actions")
    return int(match[1]), actions


def game_line(line: LogLine, width: int, where: str) -> tuple[int, list[int]]:
    """The index and actions of a record's game line, as ``game_actions`` reads it."""
    index, actions = game_actions(line, width, where)
    return index, np.frombuffer(actions, _ACTION_TYPES[width]).tolist()


def replayed(game: Game, history: list[int], where: str) -> State:
    """The finished game of ``history``, every action checked by the engine; ``CorruptLog``
    naming ``where`` and the action for an illegal one or a game not over."""
    try:
        state = game.state_from_history(history)
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    if not state.is_terminal():
        raise CorruptLog(f"{where}: corrupt: the game is not over after its {len(history)} actions")
    return state


class RecordGames:
    """Game lines of a record read and not yet checked: the engine replays them a batch at a time
    (``Game.check_histories``, on the machine's threads), as a state per game made from Python
    cost more than all the rest of reading, and ``into`` counts them. An error met while reading
    goes through ``fail``, which raises the first bad game read before it instead, so errors
    come in the file's order."""

    BATCH = 4096

    def __init__(self, game: Game, width: int) -> None:
        self.game, self.width = game, width
        self.first = 0  # the index of the first game held
        self._actions: list[bytes] = []
        self._wheres: list[str] = []

    @property
    def full(self) -> bool:
        return len(self._actions) >= self.BATCH

    def add(self, line: LogLine, index: int, where: str) -> None:
        """Game ``index`` of its arena (the one after those held), read from ``line`` at
        ``where``; ``CorruptLog`` for a line not spelled as a game line or of another game."""
        try:
            recorded, actions = game_actions(line, self.width, where)
            if recorded != index:
                raise CorruptLog(f"{where}: corrupt: game {recorded} where game {index} was due")
        except CorruptLog as error:
            self.fail(error)
        if not self._actions:
            self.first = index
        self._actions.append(actions)
        self._wheres.append(where)

    def fail(self, error: Exception) -> NoReturn:
        """Raises the first bad game held, else ``error``."""
        if self._actions:
            self._checked()
        raise error

    def into(self, standings: Standings) -> None:
        """Checks the games held, counts them into ``standings`` and forgets them."""
        if not self._actions:
            return
        games = np.arange(self.first, self.first + len(self._actions))
        returns, lengths = self._checked()
        players = self.game.num_players
        seating = (games[:, None] + np.arange(players)) % players
        standings.add(returns, seating.astype(np.int32), lengths)

    def _checked(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
        """The returns and lengths of the games held, each replayed and found finished, which are
        then forgotten; ``CorruptLog`` naming the line of the first that is not."""
        actions, wheres = self._actions, self._wheres
        self._actions, self._wheres = [], []
        lengths = np.fromiter(map(len, actions), np.int64, len(actions)) // self.width
        flat = np.frombuffer(b"".join(actions), _ACTION_TYPES[self.width])
        try:
            checked = self.game.check_histories(flat, lengths, _CHECK_THREADS)
        except ValueError as error:
            bad = getattr(error, "game", None)
            if bad is None:
                raise
            raise CorruptLog(f"{wheres[bad]}: corrupt: {getattr(error, 'reason', error)}") from None
        return checked["returns"], lengths.astype(np.int32)


@dataclass
class RecordArena:
    """The arena a record's header opens: its lineup, seed, pairing and action width."""

    lineup: Lineup
    seed: int
    group: int
    width: int

    @classmethod
    def of(cls, record: Any, where: str) -> RecordArena:
        as_replay = header_as_replay(record, where)
        try:
            lineup = Lineup.from_record(as_replay)
        except ValueError as error:
            raise CorruptLog(f"{where}: corrupt: {error}") from None
        group = as_replay["arena"].get("duplicate", 1)
        if group != 1 and group != lineup.duplicate_group:
            raise CorruptLog(f"{where}: corrupt: 'arena.duplicate' is {replays.shown(group)}")
        return cls(lineup, as_replay["arena"]["seed"], group, record["action_bytes"])


@dataclass
class StoredGame:
    """A game of a log, in either form: its line and, for a record, the arena of its header;
    ``decode`` gives its replay dict (a record's converted to exactly its replay line)."""

    line: LogLine
    arena: RecordArena | None = None

    def text(self, where: str) -> bytes:
        """The game's replay line (without its newline)."""
        if self.arena is None:
            return self.line.data
        index, history = game_line(self.line, self.arena.width, where)
        replayed(self.arena.lineup.game, history, where)
        chunk = Chunk(index, np.zeros(0), np.zeros(0, np.int32), np.zeros(0, np.int32), [history])
        text = replay_lines(self.arena.lineup, self.arena.seed, self.arena.group, chunk)
        return text.rstrip("\n").encode("utf-8")

    def decode(self, where: str) -> Any:
        """The game's replay dict; ``ValueError`` naming ``where`` for one that is not."""
        return replays.decode(self.text(where))


def replay_records(
    source: str | os.PathLike[str], lines: Iterable[LogLine] | None = None
) -> Iterator[StoredGame]:
    """Every game line of a log at ``source`` (``lines`` when given, read already), whole lines
    only, blank ones left out, a record's headers read and not yielded."""
    record = is_record(source)
    where = os.fsdecode(source)
    arena: RecordArena | None = None
    for line in lines if lines is not None else read_log(source):
        if not line.complete or not line.data.strip():
            continue
        if record and line.data.startswith(HEADER_START):
            try:
                decoded = line.decode()
            except ValueError as error:
                raise CorruptLog(f"{where}:{line.number}: corrupt: {error}") from None
            arena = RecordArena.of(decoded, f"{where}:{line.number}")
            continue
        if record and arena is None:
            raise CorruptLog(f"{where}:{line.number}: corrupt: a game before any header")
        yield StoredGame(line, arena if record else None)
