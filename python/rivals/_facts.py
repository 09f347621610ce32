"""What the ecosystem adapters (OpenSpiel, PettingZoo, pictures) need to know about a game beyond
its ``Game`` object: whether anything is hidden, whether the returns always sum to zero, and which
player counts it accepts.

The engine answers most questions itself; the two facts that only a game's rules settle are kept
here, and a game not listed gets the cautious answer (hidden information; zero-sum only when it
always has two players, where the contract promises +1/-1/0).
"""

from __future__ import annotations

from functools import cache

from rivals._core import make_game

__all__ = ["MAX_PLAYERS_PROBED", "perfect_information", "player_counts", "zero_sum"]

# Both games lay everything open: Rosenkönig's hands are public and Sekigahara's deck order is not
# part of the state (docs/rules/*.md, "Observation tensor").
_PERFECT_INFORMATION = frozenset({"rosenkoenig", "sekigahara"})
# Team games whose two colours always get +1 and -1 (or 0 and 0) with any number of seats.
_ZERO_SUM = frozenset({"rosenkoenig", "sekigahara"})
MAX_PLAYERS_PROBED = 8


def perfect_information(name: str) -> bool:
    """Whether every seat sees the whole state of game ``name`` (chance aside)."""
    return name in _PERFECT_INFORMATION


@cache
def player_counts(name: str) -> tuple[int, ...]:
    """The player counts game ``name`` accepts: its default, or every ``players=`` value the
    engine accepts when the game has that parameter."""
    default = make_game(name, {})
    if "players" not in default.params:
        return (default.num_players,)
    counts = []
    for players in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            counts.append(make_game(name, {"players": players}).num_players)
        except ValueError:
            continue
    return tuple(sorted(set(counts)))


def zero_sum(name: str) -> bool:
    """Whether the returns of game ``name`` sum to zero at every end, with any player count."""
    return name in _ZERO_SUM or player_counts(name) == (2,)
