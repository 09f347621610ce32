"""The lines of a replay log, read back (``read_log``: plain or compressed, in blocks, strictly),
and what a run resuming a log asks of its last line (``cut_off_write``) and of every game it
keeps (``check_written_by_a_run``). ``rivals.arena.log`` holds the file itself."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from rivals import replay as replays
from rivals._core import Game
from rivals.arena import forms


class CorruptLog(ValueError):
    """A stored game does not hold up: not JSON, out of order, or its actions do not give its
    recorded result."""


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
