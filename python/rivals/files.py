"""Writing an output file without harming one that is there: every page, picture and report the
package writes goes through ``write_new``, so an existing file (a replay log above all) is
replaced only when asked, and never left half written."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

__all__ = ["same_file", "write_new"]


def write_new(path: str | os.PathLike[str], text: str, force: bool = False) -> None:
    """Writes ``text`` to ``path``, refusing an existing file unless ``force``; the text goes to
    a temporary file first and is renamed into place, so ``path`` is never left half written.
    Raises ``ValueError`` saying what was wrong."""
    target = Path(path)
    if target.exists() and not force:
        raise ValueError(f"{target} already exists; give another name or --force to replace it")
    # A fresh name per call, so two writers of one path (threads included) never share one;
    # open() rather than mkstemp, so the file gets the usual permissions (the umask's).
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(temporary, target)
        else:
            # link refuses an existing target: a file made meanwhile is not replaced either.
            os.link(temporary, target)
    except FileExistsError:
        raise ValueError(f"{target} already exists; give another name or --force") from None
    except OSError as error:
        raise ValueError(f"{target}: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)


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
