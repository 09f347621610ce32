"""Writing an output file without harming one that is there: every page, picture and report the
package writes goes through ``write_new``, so an existing file (a replay log above all) is
replaced only when asked, and never left half written."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import uuid
from pathlib import Path

__all__ = ["lock_holder", "same_file", "shown_path", "write_new"]


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a page or a file can hold it: a name's bytes that are not UTF-8 (which Python
    holds as lone surrogates) as escapes (``t\\udcff.jsonl``), so writing the page cannot fail
    on them."""
    return os.fsdecode(path).encode("utf-8", "backslashreplace").decode("utf-8")


def write_new(path: str | os.PathLike[str], text: str | bytes, force: bool = False) -> None:
    """Writes ``text`` (or bytes) to ``path``, refusing an existing file unless ``force``; it goes
    to a temporary file first and is renamed into place, so ``path`` is never left half written.
    A symbolic link is followed: the file it names is the one written. Even with ``force`` only
    a regular file is replaced, never a device, a pipe or a directory, and never a replay log
    that an arena or a tournament is writing (it holds the log's lock). Raises ``ValueError``
    saying what was wrong."""
    target = check_new(path, force)
    # A fresh name per call, so two writers of one path (threads included) never share one;
    # open() rather than mkstemp, so the file gets the usual permissions (the umask's).
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    created = False
    try:
        with open(temporary, "xb") as handle:
            created = True
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(temporary, target)
        else:
            # link refuses an existing target: a file made meanwhile is not replaced either.
            os.link(temporary, target)
    except FileExistsError:
        raise ValueError(f"{path} already exists; give another name or --force") from None
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror or error}") from None
    finally:
        if created:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)


def check_new(path: str | os.PathLike[str], force: bool = False) -> Path:
    """Whether ``write_new(path, ..., force)`` may write, checked before the work whose result it
    will hold (a tournament's report after all its games): raises ``ValueError`` as it would.
    Returns the path with symbolic links followed."""
    target = Path(os.path.realpath(path))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror or error}") from None
    if info is not None:
        if not force:
            raise ValueError(f"{path} already exists; give another name or --force to replace it")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path} is not a regular file, so it is not replaced")
        _refuse_locked(target, path)
    if not target.parent.is_dir():
        raise ValueError(f"{path}: no folder {target.parent}")
    if not os.access(target.parent, os.W_OK):
        raise ValueError(f"{path}: the folder {target.parent} is not writable")
    return target


def _refuse_locked(target: Path, shown: str | os.PathLike[str]) -> None:
    """Raises ``ValueError`` when an arena or a tournament holds ``target``'s lock: replacing
    the file would lose every game it writes from then on, while it reports them saved."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as error:
        raise ValueError(f"{shown}: {error.strerror or error}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock_holder(fd)
        who = f"pid {holder}" if holder is not None else "pid unknown"
        raise ValueError(f"{shown} is being written by an arena or a tournament ({who})") from None
    finally:
        os.close(fd)  # releases the shared lock taken to look


def lock_holder(fd: int) -> int | None:
    """The pid holding a flock on ``fd``'s file, from /proc/locks (Linux), if it says."""
    info = os.fstat(fd)
    device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == device:
                    return int(fields[4])
    except (OSError, ValueError):
        pass
    return None


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file: the same path once resolved (links followed), or, when
    both exist, the same file by device and inode (a hard link)."""
    a, b = Path(first), Path(second)
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
