"""One caller at a time for the package's own objects that are not safe to share (an arena, a
tournament, the Gymnasium and PettingZoo environments, a ``VectorEnv``'s arrays), guarded as the
engine guards its states, bots and environments: a second caller, on another thread or in Python
code that the first call runs (a callback, a signal handler), gets a ``RuntimeError`` at once,
worded as the engine words it, and nothing changes. It never blocks. In a process forked while
another thread held it, it stays held (that thread is not in the child), and the error says so."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


_process = os.getpid()


def _renew_process() -> None:
    global _process
    _process = os.getpid()


os.register_at_fork(after_in_child=_renew_process)


def process_id() -> int:
    """This process's id, renewed in every forked child (no system call per use)."""
    return _process


class UseGuard:
    """Held by one call of its object at a time; ``kind`` names the object in the message and
    ``advice`` says what to do instead."""

    def __init__(self, kind: str, advice: str) -> None:
        self._lock = threading.Lock()
        self._call: str | None = None
        self._process = _process
        self._kind = kind
        self._advice = advice

    # A copy of its object (deepcopy, pickle) is a new object, in use by nobody.
    def __reduce__(self) -> tuple[type[UseGuard], tuple[str, str]]:
        return UseGuard, (self._kind, self._advice)

    def enter(self, call: str) -> None:
        if not self._lock.acquire(blocking=False):
            if self._process != _process:
                raise RuntimeError(
                    f"this {self._kind} was in use by {self._call or 'a call'} on another thread "
                    "when this process was forked; that call does not go on here, so this "
                    f"process cannot use it for {call}: make a new {self._kind} in this process"
                )
            raise RuntimeError(
                f"this {self._kind} is in use by another call ({self._call or 'a call'}, on "
                f"another thread or in Python code it ran) and cannot be used for {call} "
                f"meanwhile; {self._advice}"
            )
        self._process = _process
        self._call = call

    def leave(self) -> None:
        self._call = None
        self._lock.release()


def one_caller(method: F) -> F:
    """Runs ``method`` holding its object's ``_guard`` (a ``UseGuard``)."""
    call = method.__name__

    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        guard: UseGuard = self._guard
        guard.enter(call)
        try:
            return method(self, *args, **kwargs)
        finally:
            guard.leave()

    return cast(F, guarded)
