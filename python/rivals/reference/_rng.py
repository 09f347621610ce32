"""The engine's random number generator (``cpp/rivals/core/rng.h``) in plain Python.

``resample_from_infostate`` draws its numbers from it, so that a resample with a given seed is
the same in the reference as in the engine and the two can be compared move by move.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1


def mix64(x: int) -> int:
    """splitmix64, as ``mix64`` in ``cpp/rivals/core/rng.h``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


class Rng:
    """wyrand with Lemire's ranges: the same numbers as ``rivals::Rng`` for the same seed."""

    def __init__(self, seed: int) -> None:
        self.state = mix64(seed & _MASK64)

    def next(self) -> int:
        self.state = (self.state + 0xA0761D6478BD642F) & _MASK64
        product = self.state * (self.state ^ 0xE7037ED1A0B428DB)
        return ((product >> 64) ^ product) & _MASK64

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)`` for ``1 <= n < 2**32``."""
        m = (self.next() & _MASK32) * n
        low = m & _MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next() & _MASK32) * n
                low = m & _MASK32
        return m >> 32

    def pick(self, items: list[int]) -> int:
        """One of ``items``, as ``random_set_bit`` picks from a mask: the ascending list's
        ``below(len)``-th entry."""
        return items[self.below(len(items))]
