"""One caller at a time for the package's own objects that are not safe to share (an arena, a
tournament, the Gymnasium and PettingZoo environments, a ``VectorEnv``'s arrays), guarded as the
engine guards its states, bots and environments: a second caller, on another thread or in Python
code that the first call runs (a callback, a signal handler), gets a ``RuntimeError`` at once,
worded as the engine words it, and nothing changes. It never blocks."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


class UseGuard:
    """Held by one call of its object at a time; ``kind`` names the object in the message and
    ``advice`` says what to do instead."""

    def __init__(self, kind: str, advice: str) -> None:
        self._lock = threading.Lock()
        self._call: str | None = None
        self._kind = kind
        self._advice = advice

    # A copy of its object (deepcopy, pickle) is a new object, in use by nobody.
    def __reduce__(self) -> tuple[type[UseGuard], tuple[str, str]]:
        return UseGuard, (self._kind, self._advice)

    def enter(self, call: str) -> None:
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(
                f"this {self._kind} is in use by another call ({self._call or 'a call'}, on "
                f"another thread or in Python code it ran) and cannot be used for {call} "
                f"meanwhile; {self._advice}"
            )
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
