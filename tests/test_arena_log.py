"""An arena's replay log (rivals.arena.log and its parts): read back at newlines only, an existing
record refused unless resumed or forced, a named pipe nobody reads refused, one writer under a
lock, a failed or interrupted append leaving whole lines."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from rivals import arena


def test_read_log_splits_at_newlines_only(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    rows = [{"text": "a\u2028b\u2029c\x85d\x0ce"}, {"n": 2}, {"n": 3}]
    data = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows) + '{"cut'
    path.write_bytes(data.encode("utf-8"))
    for block in (1, 7, 1 << 20):
        lines = list(arena.read_log(path, block=block))
        assert [line.decode() for line in lines[:3]] == rows
        assert [line.complete for line in lines] == [True, True, True, False]
        assert [line.number for line in lines] == [1, 2, 3, 4]
        assert lines[3].offset == len(data.encode("utf-8")) - len(b'{"cut')
    with pytest.raises(ValueError, match="not JSON"):
        lines[3].decode()


def test_a_log_refuses_a_file_with_games_unless_resumed_or_forced(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    with pytest.raises(arena.ExistingLog, match="already holds 2 lines"):
        arena.ReplayLog(path)
    assert path.read_bytes() == b'{"a": 1}\n{"b": 2}\n'
    arena.ReplayLog(path, resume=True).close()
    assert path.read_bytes() == b'{"a": 1}\n{"b": 2}\n'
    log = arena.ReplayLog(path, force=True)
    assert path.read_bytes() == b""
    log.append('{"c": 3}\n')
    log.close()
    assert path.read_bytes() == b'{"c": 3}\n'


def test_a_log_too_large_to_count_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    with open(path, "wb") as sparse:
        sparse.truncate(200 << 20)  # sparse: no time spent writing, a reader would take long
    with pytest.raises(arena.ExistingLog) as refused:
        arena.ReplayLog(path)
    assert refused.value.lines is None
    assert str(refused.value).startswith(f"{path} already holds {200 << 20} bytes;")


def test_a_named_pipe_nothing_reads_is_refused(tmp_path: Path) -> None:
    # Opened for reading too, it would swallow games until its buffer filled, then hang.
    path = tmp_path / "pipe"
    os.mkfifo(path)
    with pytest.raises(ValueError, match="a named pipe that nothing reads"):
        arena.ReplayLog(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        log = arena.ReplayLog(path)
        log.append('{"a": 1}\n')
        log.close()
        assert os.read(reader, 100) == b'{"a": 1}\n'
    finally:
        os.close(reader)


def test_a_log_is_locked_while_it_is_open(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    first = arena.ReplayLog(path)
    with pytest.raises(ValueError, match=rf"being written by another arena \(pid {os.getpid()}\)"):
        arena.ReplayLog(path, resume=True)
    first.close()
    arena.ReplayLog(path, resume=True).close()


def test_a_failed_append_leaves_whole_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "log.jsonl"
    log = arena.ReplayLog(path)
    log.append('{"a": 1}\n')
    real_write = os.write

    def write_half(fd: int, data: Any) -> int:
        if fd == log.fd:
            monkeypatch.setattr(os, "write", fail)
            return real_write(fd, bytes(data[:3]))
        return real_write(fd, data)

    def fail(fd: int, data: Any) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", write_half)
    with pytest.raises(OSError, match="No space"):
        log.append('{"b": 2}\n{"c": 3}\n')
    monkeypatch.undo()
    log.close()
    assert path.read_bytes() == b'{"a": 1}\n'


def interrupt_myself() -> None:
    """Ctrl-C to this process, and time for the handler to see it."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)


def test_interrupts_are_held_back_to_the_end_of_the_block() -> None:
    reached = []
    with pytest.raises(KeyboardInterrupt), arena.interrupts_deferred():
        interrupt_myself()
        reached.append("end of block")
    assert reached == ["end of block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_interrupt_is_not_held_back() -> None:
    # A write that cannot finish (a pipe nobody empties) must not hold the program.
    reached = []
    with pytest.raises(KeyboardInterrupt), arena.interrupts_deferred():
        interrupt_myself()
        reached.append("after the first")
        interrupt_myself()
        reached.append("after the second")
    assert reached == ["after the first"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
