"""Running totals of an arena or a tournament's pairing (``Standings``, a ``Record`` per
entry with its win rate's interval, pairs counted pentanomially)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rivals import stats
from rivals.arena.lineups import Lineup


@dataclass
class Record:
    """One entry's totals. A game is a win when the entry's return is positive (in free-for-all
    games: among the tied leaders), a loss when negative, a draw otherwise. The rank is 1 plus
    the number of seats with a higher return."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank_sum: float = 0.0  # exact: ranks are whole (or, averaged over a team, halves)
    # Games per return value: returns take few distinct values (+1, -1, 0, 1/k, ...), and summing
    # them at the end makes the total independent of how the games were split into chunks.
    return_counts: dict[float, int] = field(default_factory=dict)
    group: int = 1

    @property
    def return_sum(self) -> float:
        return math.fsum(value * count for value, count in sorted(self.return_counts.items()))

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate, as ``rivals.stats`` takes a score's: the games of a
        group share their luck, so the group is the unit, and with only the totals known each
        group counts as won or lost whole (the widest spread its share of wins could have); a
        group not yet complete counts as the part of one that it is."""
        groups = self.games / self.group
        won = self.wins / self.group
        low, high, _ = stats.score_intervals([groups - won, 0.0, won])
        return float(low), float(high)

    @property
    def mean_return(self) -> float:
        return self.return_sum / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0


@dataclass
class Standings:
    """Running totals of an arena: a record per entry, the games and their total length.

    With two entries, also the first entry's results against the second as ``stats`` counts
    them: ``trinomial`` (loss, draw, win: its return below, equal to or above the other's) and,
    when ``paired`` (games ``2k`` and ``2k + 1`` a duplicate pair), ``pentanomial`` (pairs by
    their total score 0, 1/2, 1, 3/2, 2). ``group``: the games of a duplicate group (1 when
    unpaired), for the records' win intervals."""

    lineup: Lineup
    records: list[Record] = field(default_factory=list)
    games: int = 0
    length_sum: int = 0
    paired: bool = False
    trinomial: list[int] = field(default_factory=lambda: [0, 0, 0])
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    # The score of the first game of a pair whose second game is still to come.
    pending: float | None = None
    group: int = 1

    def __post_init__(self) -> None:
        if not self.records:
            self.records = [Record(group=self.group) for _ in self.lineup.entries]

    @property
    def versus(self) -> bool:
        """Whether there are two sides, so that ``trinomial`` and ``pentanomial`` are kept."""
        return len(self.lineup.entries) == 2

    def scores(
        self, returns: npt.NDArray[np.float64], seating: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.float64]:
        """Per game, the first entry's score against the second (1, 1/2 or 0)."""
        entry_at = np.asarray(self.lineup.seat_entry, dtype=np.int64)[seating]
        own = [
            np.where(entry_at == index, returns, 0.0).sum(axis=1)
            / np.maximum((entry_at == index).sum(axis=1), 1)
            for index in (0, 1)
        ]
        return np.asarray((own[0] > own[1]) + 0.5 * (own[0] == own[1]), dtype=np.float64)

    def counts(self) -> list[int]:
        """The counts the statistics use: pairs when paired, else games."""
        return self.pentanomial if self.paired else self.trinomial

    def add_scores(self, scores: Sequence[float]) -> None:
        for value in scores:
            self.trinomial[int(2 * value)] += 1
            if not self.paired:
                continue
            if self.pending is None:
                self.pending = value
            else:
                self.pentanomial[int(2 * (self.pending + value))] += 1
                self.pending = None

    @property
    def mean_length(self) -> float:
        return self.length_sum / self.games if self.games else 0.0

    @property
    def ranked(self) -> bool:
        """Whether a rank says more than win/draw/loss: more than two sides and no teams (in a
        game of teams a seat's place is its team's, whether one bot plays the team or each seat
        has its own)."""
        lineup = self.lineup
        return lineup.players > 2 and lineup.game.info.teams.get(lineup.players) is None

    def add(
        self,
        returns: npt.NDArray[np.float64],
        seating: npt.NDArray[np.int32],
        lengths: npt.NDArray[np.int32],
    ) -> None:
        """Counts games: ``returns`` and ``seating`` (the seat-list position in each seat, as
        ``play_match`` gives it) are ``[games, players]``, ``lengths`` ``[games]``."""
        if len(lengths) == 0:
            return
        if self.versus:
            self.add_scores(self.scores(returns, seating).tolist())
        entry_at = np.asarray(self.lineup.seat_entry, dtype=np.int64)[seating]
        ranks = 1 + (returns[:, None, :] > returns[:, :, None]).sum(axis=2)
        for index, record in enumerate(self.records):
            mask = entry_at == index
            seats = mask.sum(axis=1)
            own = np.where(mask, returns, 0.0).sum(axis=1) / seats
            record.games += len(own)
            record.wins += int((own > 0).sum())
            record.losses += int((own < 0).sum())
            record.draws = record.games - record.wins - record.losses
            values, counts = np.unique(own, return_counts=True)
            for value, count in zip(values.tolist(), counts.tolist()):
                record.return_counts[value] = record.return_counts.get(value, 0) + count
            record.rank_sum += float((np.where(mask, ranks, 0).sum(axis=1) / seats).sum())
        self.games += len(lengths)
        self.length_sum += int(np.asarray(lengths, dtype=np.int64).sum())
