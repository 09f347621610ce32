"""The replay log of an arena: the file itself (``ReplayLog``: one writer under an exclusive lock,
whole chunks appended and fsynced, never truncated or mixed), the lines a run resuming it checks
(``resumable_lines``) and what an arena and a tournament share around it (``LogSession``).
Reading a log's lines is ``rivals.arena.log_lines``, checking each stored game against the arena
resuming it ``rivals.arena.log_checks``; their names are here too, where they were first."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from rivals import files
from rivals._core import Bot, Game
from rivals._guard import UseGuard, one_caller
from rivals.arena import forms

# The parts moved out of this module are still rivals.arena.log.<name> (pyproject.toml lets
# this file import what it does not use itself).
from rivals.arena.log_checks import OtherArena, _check_line, check_identity
from rivals.arena.log_lines import (
    _REPLAY_START,
    CorruptLog,
    CutOffMember,
    LogLine,
    check_written_by_a_run,
    cut_off_write,
    line_start,
    read_log,
)


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
