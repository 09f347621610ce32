"""The replay log of an arena: reading it back (``read_log``), checking each stored game
against the arena resuming it, and the file itself (``ReplayLog``: one writer under an exclusive
lock, whole chunks appended and fsynced, never truncated or mixed)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import json
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

from rivals import files
from rivals import replay as replays
from rivals._core import Bot, Game
from rivals._guard import UseGuard, one_caller
from rivals.arena import forms
from rivals.arena.lineups import Lineup


@dataclass(frozen=True)
class LogLine:
    """A line of a replay log: its number (from 1), where it starts (in the decompressed text of
    a compressed log), its bytes without the newline, and whether the newline was there (a last
    line without it is a cut-off write). ``sealed`` is the file offset up to which the file may
    be kept with this line as its last (its end in a plain log; the end of its member in a
    compressed one when the line ends the member, else None); ``torn`` marks what a last member
    that the file ends inside held past its last whole line: a compressed write cut off."""

    number: int
    offset: int
    data: bytes
    complete: bool
    sealed: int | None = None
    torn: bool = False

    def decode(self) -> Any:
        """The line's JSON value, read as strictly as any replay (``rivals.replay.decode``);
        ``ValueError`` when it is not UTF-8 JSON within the replay limits."""
        return replays.decode(self.data)

    @property
    def end(self) -> int:
        """Where the line ends in the (decompressed) text, its newline included."""
        return self.offset + len(self.data) + (1 if self.complete else 0)


def read_log(
    source: str | os.PathLike[str] | IO[bytes],
    block: int = 1 << 20,
    name: str | None = None,
    compression: str | None = None,
) -> Iterator[LogLine]:
    """The lines of a JSON-lines file, read in blocks, so memory follows the longest line and not
    the file; a file named ``.gz`` or ``.zst`` is decompressed as it is read (``compression``
    says how for an open ``source``: ``"plain"``, ``"gzip"`` or ``"zstd"``). Lines end at
    ``b"\\n"`` only: JSON strings may hold U+2028 and other characters that ``str.splitlines``
    would split at. A line longer than any replay may be (``rivals.replay.MAX_BYTES``) or a
    member that does not decompress is a ``CorruptLog`` naming ``name`` (the path by default); a
    path that is not a regular file is a ``ValueError`` (``rivals.replay.open_file``)."""
    if isinstance(source, (str, os.PathLike)):
        handle: IO[bytes] = replays.open_file(source)
        where = name or os.fsdecode(source)
        kind = compression or forms.compression_of(source)
    else:
        handle, where, kind = source, name or "the log", compression or forms.PLAIN
    try:
        yield from _lines(handle, kind, where, block)
    except forms.CorruptStream as error:
        raise CorruptLog(str(error)) from None
    finally:
        if handle is not source:
            handle.close()


def _lines(handle: IO[bytes], kind: str, where: str, block: int) -> Iterator[LogLine]:
    plain = kind == forms.PLAIN
    inflated = None if plain else forms.Inflated(handle, kind, where, block)
    pieces: Iterable[tuple[bytes, int | None]] = (
        ((data, None) for data in iter(lambda: handle.read(block), b""))
        if inflated is None
        else inflated
    )
    number, offset, pending = 1, 0, b""
    for data, member_end in pieces:
        pending += data
        start = 0
        while (end := pending.find(b"\n", start)) >= 0:
            if plain:
                sealed: int | None = offset + end + 1 - start
            else:
                sealed = member_end if end == len(pending) - 1 else None
            yield LogLine(number, offset, pending[start:end], True, sealed)
            number += 1
            offset += end + 1 - start
            start = end + 1
        pending = pending[start:]
        if len(pending) > replays.MAX_BYTES:
            raise CorruptLog(
                f"{where}:{number}: corrupt: a line longer than {replays.MAX_BYTES} bytes"
            )
    if inflated is not None and inflated.torn_at is not None:
        yield LogLine(number, offset, pending, False, None, torn=True)
    elif pending:
        sealed = offset + len(pending) if inflated is None else inflated.size
        yield LogLine(number, offset, pending, False, sealed)


def resumable_lines(log: ReplayLog, game: Game, stop: int | None = None) -> Iterator[LogLine]:
    """The lines of ``log`` (its first ``stop`` bytes when given) that resuming a run of
    ``game`` checks: every line but a last one that an interrupted write left, which is dropped
    so that its game is played again (``cut_off_write``). A compressed log whose last member was
    cut off after whole lines raises ``CutOffMember``: those lines go with their member, and the
    reader starts again with ``stop`` at the end of the member before."""
    start = (forms.HEADER_START, forms.GAME_START) if log.compact else line_start(game)
    sealed, unsealed = 0, False
    for line in log.lines(stop):
        if cut_off_write(line, start, str(log.path)):
            if unsealed:
                raise CutOffMember(sealed)
            return
        yield line
        if line.sealed is not None:
            sealed, unsealed = line.sealed, False
        else:
            unsealed = True


class CutOffMember(Exception):
    """The last member of a compressed log was cut off after lines that looked whole: read the
    file again up to ``sealed`` (the end of the member before)."""

    def __init__(self, sealed: int) -> None:
        super().__init__(sealed)
        self.sealed = sealed


def cut_off_write(line: LogLine, start: bytes | tuple[bytes, ...], path: str) -> bool:
    """Whether ``line`` is what an interrupted write left: a last line without its newline that
    is the start of a game line (``start``, from ``line_start``: zero bytes after it allowed,
    which a crash can leave) and not yet whole JSON, or what a last compressed member cut off
    holds past its whole lines (``line.torn``: any start of a game line, even one that reads as
    JSON; ``start`` may list several beginnings, as a record's headers and games). Any other
    last line without its newline (a whole game whose newline an editor
    dropped) is a line like the others (False), and a fragment that no such write starts with is
    a ``CorruptLog``: a file from elsewhere is never cut back or read past."""
    if line.complete:
        return False
    try:
        if line.torn:
            raise ValueError("cut off")
        line.decode()
    except ValueError:
        written = line.data.rstrip(b"\0")
        starts = start if isinstance(start, tuple) else (start,)
        if any(begins.startswith(written) or written.startswith(begins) for begins in starts):
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
    check_identity(record, lineup, seed, index, where, group)
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


def check_identity(
    record: Any, lineup: Lineup, seed: int, index: int, where: str, group: int = 1
) -> None:
    """Raises ``OtherArena`` or ``CorruptLog`` naming ``where`` unless ``record`` (a replay
    line's dict, or a record's header as game 0's) is of game ``index`` of this arena: its
    game, parameters, seed, pairing, bots and labels."""
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
    """An arena's replay file, held under an exclusive lock (``flock``) from opening
    to ``close``, so two arenas never write one file. (A device such as /dev/null is written
    without a lock, a check or an fsync: it keeps no record.)

    An existing non-empty file is refused unless ``resume`` (continue it) or ``force`` (replace
    it) is given: a record is never truncated by accident. Raises ``ValueError`` (``OSError``
    messages included) with the path.

    Its name chooses its form: replay lines, or a compact record (``.rec``, ``forms.is_record``);
    plain, gzip (``.gz``) or zstandard (``.zst``), each chunk appended as a whole member.

    A process forked from the one that opened it shares its descriptor and lock: writing there
    would mix two arenas' games in one file, so it is refused with ``RuntimeError``.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, resume: bool = False, force: bool = False
    ) -> None:
        self.path = Path(path)
        self.compression = forms.compression_of(self.path)
        forms.check_available(self.compression)
        self.compact = forms.is_record(self.path)
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
                counted = (
                    _count_lines(fd, info.st_size) if self.compression == forms.PLAIN else None
                )
                raise ExistingLog(self.path, counted, info.st_size)
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

    def lines(self, stop: int | None = None) -> Iterator[LogLine]:
        """The lines stored so far (read through the locked descriptor), in the file's first
        ``stop`` bytes when given."""
        with os.fdopen(os.dup(self.fd), "rb") as handle:
            handle.seek(0)
            source: IO[bytes] = handle if stop is None else io.BytesIO(handle.read(stop))
            yield from read_log(source, name=str(self.path), compression=self.compression)

    def keep(self, size: int, ends_line: bool = True) -> None:
        """Cuts the file back to its first ``size`` bytes, and ends them with a newline if they
        lack one (a whole last line stored without it: in a plain file its last byte says so,
        in a compressed one ``ends_line``), so what follows starts a line."""
        os.ftruncate(self.fd, size)
        if self.compression != forms.PLAIN:
            missing = size > 0 and not ends_line
        else:
            missing = size > 0 and os.pread(self.fd, 1, size - 1) != b"\n"
        if missing:
            self.append("\n")

    def append(self, text: str | bytes) -> None:
        """Writes ``text`` (UTF-8 when bytes) at the end in one piece and fsyncs. If the write
        fails or is interrupted, the file is cut back to where it was, so it only ever holds
        whole lines."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        data = forms.compress(self.compression, data, self.compact)
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


SessionT = TypeVar("SessionT", bound="LogSession")


class LogSession:
    """What an arena and a tournament share around their games: the replay log they write
    (``log``, None when the games are not kept), the bots kept alive for the work their games
    share (``_keepers``: the Sekigahara solver's table), one caller at a time (``_guard``), and
    their release by ``close`` or at the end of a ``with`` block."""

    log: ReplayLog | None
    resumed: int  # the games the log held when it was opened to resume
    recorded: int  # the games the log holds now
    _keepers: list[tuple[str, Bot]]
    _guard: UseGuard

    def _open_log(self, out: str | os.PathLike[str] | None, resume: bool, force: bool) -> None:
        """Opens the log at ``out`` (no log without one) and, to ``resume``, loads the games it
        holds; what was opened is released if that fails."""
        self.log = ReplayLog(out, resume=resume, force=force) if out is not None else None
        self._keepers = []
        self.resumed = 0
        try:
            if self.log is not None and resume:
                self.resumed = self._load()
        except BaseException:
            self.close()
            raise
        self.recorded = self.resumed

    def _load(self) -> int:
        """Checks and counts the games of a log opened to resume; returns how many."""
        raise NotImplementedError

    def __enter__(self: SessionT) -> SessionT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @one_caller
    def close(self) -> None:
        """Releases the log (and its lock) and the bots kept for their shared work."""
        if self.log is not None:
            self.log.close()
        self._keepers = []

    def bot_stats(self) -> dict[str, dict[str, Any]]:
        """Per label, the progress of bots that work for long (the solver: contexts solved),
        readable from another thread while the games are played."""
        return {label: dict(bot.stats()) for label, bot in self._keepers}
