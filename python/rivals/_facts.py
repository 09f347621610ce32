"""What the ecosystem adapters (OpenSpiel, PettingZoo, pictures) need to know about a game beyond
its ``Game`` object: whether anything is hidden, whether the returns always sum to zero, the range
of its observations, which player counts it accepts and which seats form teams.

The engine answers most questions itself; the facts that only a game's rules settle are kept here,
and a game not listed gets the cautious answer (hidden information; zero-sum only when it always has
two players, where the contract promises +1/-1/0; observations unbounded).
"""

from __future__ import annotations

import math
from functools import cache

from rivals._core import make_game

__all__ = [
    "MAX_PLAYERS_PROBED",
    "observation_bounds",
    "perfect_information",
    "player_counts",
    "teams",
    "zero_sum",
]

# Both games lay everything open: Rosenkönig's hands are public and Sekigahara's deck order is not
# part of the state (docs/rules/*.md, "Observation tensor").
_PERFECT_INFORMATION = frozenset({"rosenkoenig", "sekigahara"})
# Games whose returns sum to zero with any number of seats: Rosenkönig's two colours get +1 and
# -1; in Rheinländer and Verräter k tied leaders get 1/k each and the others -1/(n - k)
# (docs/rules/*.md, "Returns").
_ZERO_SUM = frozenset({"rheinlaender", "rosenkoenig", "sekigahara", "verraeter"})
# Games whose observation tensors are scaled into [0, 1] (docs/rules/*.md, "Observation tensor").
_UNIT_OBSERVATIONS = frozenset({"rosenkoenig", "sekigahara"})
# Seats that share one result, by game and player count: Rosenkönig with four players is Red
# (seats 0 and 2) against White (1 and 3) (docs/rules/rosenkoenig.md). Every other game is each
# seat for itself.
_TEAMS = {("rosenkoenig", 4): ((0, 2), (1, 3))}
MAX_PLAYERS_PROBED = 8


def perfect_information(name: str) -> bool:
    """Whether every seat sees the whole state of game ``name`` (chance aside)."""
    return name in _PERFECT_INFORMATION


def observation_bounds(name: str) -> tuple[float, float]:
    """Bounds of every entry of game ``name``'s observation tensor: [0, 1] where the rules page
    promises it, unbounded otherwise."""
    if name in _UNIT_OBSERVATIONS:
        return 0.0, 1.0
    return -math.inf, math.inf


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


def teams(name: str, num_players: int) -> tuple[tuple[int, ...], ...] | None:
    """The seats of each team of game ``name`` with ``num_players``, or ``None`` when every seat
    plays for itself."""
    return _TEAMS.get((name, num_players))


def zero_sum(name: str) -> bool:
    """Whether the returns of game ``name`` sum to zero at every end, with any player count."""
    return name in _ZERO_SUM or player_counts(name) == (2,)
