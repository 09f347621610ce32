"""The forms a replay log takes on disk, chosen by its name: replay lines or a compact record
(``.rec``: ``is_record``, the record itself in ``rivals.arena.records``), plain, gzip (``.gz``,
the standard library) or zstandard (``.zst``, the optional ``zstandard`` package), each
compressed chunk of games written as a whole member (frame), so that appending one never touches
what is there.

Reading decompresses in bounded steps and says where each member ends in the file: a resumed log
is cut back only there, and a last member that a killed writer left unfinished is told apart
from a corrupt one (``Inflated.torn_at``)."""

from __future__ import annotations

import importlib
import os
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

__all__ = [
    "GAME_START",
    "GZIP",
    "HEADER_START",
    "PLAIN",
    "RECORD_FORMAT",
    "ZSTD",
    "CorruptStream",
    "Inflated",
    "compress",
    "compression_of",
    "is_record",
]

RECORD_FORMAT = "rivals-record"
RECORD_SUFFIX = ".rec"
# How a record's lines begin: its headers and its games.
HEADER_START = f'{{"format": "{RECORD_FORMAT}", '.encode()
GAME_START = b'{"index": '

PLAIN, GZIP, ZSTD = "plain", "gzip", "zstd"
_SUFFIXES = {".gz": GZIP, ".zst": ZSTD}
# Levels by what is compressed: replay lines are long and alike, so gzip's default level halves
# them again over its fastest; a compact record is short and nearly random, so the fastest loses
# little there. (Measured by bench/records.py.)
_LEVELS = {(GZIP, False): 6, (GZIP, True): 1, (ZSTD, False): 3, (ZSTD, True): 1}
# Compressing is the slowest part of writing a compact record: a chunk's text is compressed in
# pieces of about this size, each a member (frame) of its own, on threads (zlib and zstandard
# release the GIL). The pieces depend on the text alone, so equal games still give equal files on
# any machine, and at this size they cost next to nothing in compression.
_PIECE = 1 << 20
# How much decompressed text one step may give: a member built to expand without bound (a
# "zip bomb") is read a bounded piece at a time, and the reader refuses a line past
# rivals.replay.MAX_BYTES.
_STEP_OUTPUT = 1 << 20
# zstandard's decompressor has no output bound per call: it is fed input a little at a time,
# and no frame expands more than about 32,000 times (a run-length block of 128 KiB in 4 bytes).
_ZSTD_STEP_INPUT = 2048


class CorruptStream(ValueError):
    """A compressed log that cannot be read: its message names the file and the byte."""


def compression_of(path: str | os.PathLike[str]) -> str:
    """``"gzip"`` for a name ending ``.gz``, ``"zstd"`` for ``.zst``, ``"plain"`` otherwise."""
    name = os.fsdecode(path)
    for suffix, kind in _SUFFIXES.items():
        if name.endswith(suffix):
            return kind
    return PLAIN


def is_record(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a compact record: ``.rec``, ``.rec.gz`` or ``.rec.zst``."""
    name = os.fsdecode(path)
    return any(name.endswith(RECORD_SUFFIX + tail) for tail in ("", ".gz", ".zst"))


def _zstandard() -> Any:
    try:
        # zstandard is optional and untyped here: used as Any.
        return importlib.import_module("zstandard")
    except ImportError:
        raise ValueError(
            "a .zst log needs the zstandard package: pip install 'rivals[zstd]' (or pip install "
            "zstandard), or name the file .gz"
        ) from None


def check_available(kind: str) -> None:
    """``ValueError`` when ``kind`` needs a package that is not installed."""
    if kind == ZSTD:
        _zstandard()


def compress(kind: str, data: bytes, compact: bool) -> bytes:
    """``data`` (whole lines) as whole members (gzip) or frames (zstd, with their checksums) of
    ``kind``, one per piece of about ``_PIECE`` bytes that ends a line, compressed on a thread
    each; ``compact`` for a compact record (chooses the level)."""
    if kind == PLAIN:
        return data
    level = _LEVELS[(kind, compact)]
    pieces = _pieces(data)
    if len(pieces) == 1:
        return _compressed(kind, level, pieces[0])
    with ThreadPoolExecutor(min(len(pieces), os.cpu_count() or 1)) as pool:
        return b"".join(pool.map(lambda piece: _compressed(kind, level, piece), pieces))


def _pieces(data: bytes) -> list[memoryview]:
    """``data`` cut after the first newline at or past each ``_PIECE`` bytes."""
    view = memoryview(data)
    pieces = []
    start = 0
    while len(data) - start > _PIECE:
        end = data.find(b"\n", start + _PIECE - 1) + 1
        if end == 0 or end == len(data):
            break
        pieces.append(view[start:end])
        start = end
    pieces.append(view[start:])
    return pieces


def _compressed(kind: str, level: int, data: memoryview) -> bytes:
    if kind == GZIP:
        # mtime 0: equal games give equal files, whenever they were written.
        compressor = zlib.compressobj(level, zlib.DEFLATED, 31)
        return compressor.compress(data) + compressor.flush()
    if kind == ZSTD:
        zstd = _zstandard()
        return bytes(
            zstd.ZstdCompressor(level=level, write_checksum=True, write_content_size=True).compress(
                data
            )
        )
    raise ValueError(f"no compression {kind!r}")


class Inflated:
    """The decompressed text of a log, iterated as ``(piece, end)``: ``end`` is the file offset
    where a member ends when ``piece`` is the last of it, else None. After the iteration,
    ``torn_at`` is the file offset of a last member that the file ends inside (a write cut off),
    else None. A member that does not decompress, or data that starts none, is a
    ``CorruptStream`` naming ``where`` and its byte."""

    def __init__(self, handle: IO[bytes], kind: str, where: str, block: int = 1 << 20) -> None:
        self.handle, self.kind, self.where, self.block = handle, kind, where, block
        self.torn_at: int | None = None
        self.size = 0

    def _decoder(self) -> Any:
        if self.kind == GZIP:
            return zlib.decompressobj(31)
        return _zstandard().ZstdDecompressor().decompressobj()

    def _corrupt(self, start: int, problem: object) -> CorruptStream:
        member = "gzip member" if self.kind == GZIP else "zstd frame"
        return CorruptStream(
            f"{self.where}: corrupt: the {member} at byte {start} does not decompress ({problem})"
        )

    def __iter__(self) -> Iterator[tuple[bytes, int | None]]:
        decoder: Any = None
        start = 0  # where the member being read starts in the file
        position = 0  # the file offset of `data`'s first byte
        data = b""
        while True:
            if not data:
                data = self.handle.read(self.block)
                if not data:
                    break
            if decoder is None:
                start = position
                decoder = self._decoder()
            taken, piece, ended = self._step(decoder, data, start)
            position += taken
            data = data[taken:]
            if ended:
                decoder = None
                yield piece, position
            elif piece:
                yield piece, None
        self.size = position
        if decoder is not None:
            self.torn_at = start

    def _step(self, decoder: Any, data: bytes, start: int) -> tuple[int, bytes, bool]:
        """Feeds ``decoder`` from ``data``: the bytes taken, the text out and whether the member
        ended."""
        try:
            if self.kind == GZIP:
                piece = decoder.decompress(data, _STEP_OUTPUT)
                rest = decoder.unused_data if decoder.eof else decoder.unconsumed_tail
                return len(data) - len(rest), piece, bool(decoder.eof)
            fed = data[:_ZSTD_STEP_INPUT]
            piece = decoder.decompress(fed)
            if decoder.eof:
                return len(fed) - len(decoder.unused_data), piece, True
            return len(fed), piece, False
        except Exception as error:  # zlib.error, zstandard.ZstdError
            raise self._corrupt(start, error) from None
