"""Following a running ``rivals arena`` or ``rivals tournament`` from its replay log.

The logs are the files given to ``rivals serve --watch``; a browser names one by its number,
never by a path. A log is read again when it has grown, as ``rivals.arena.tally_runs`` reads it
on ``--resume`` (every game re-checked): one arena gives each bot's record with its interval
and, for two bots, the Elo difference; several arenas one after another (a tournament's
pairings) give ratings with their intervals and each pairing. The games that finished last are
listed, each one opening in the review.
"""

from __future__ import annotations

import collections
import os
import threading
import time
from pathlib import Path
from typing import Any

from rivals import arena, stats, tournament
from rivals.web import views

__all__ = ["RECENT", "Watch"]

# Games listed as they finish, the newest first.
RECENT = 30
# A log is read again at most this often, however fast it grows.
EVERY_S = 2.0


class Watch:
    """A replay log being written by an arena or a tournament."""

    def __init__(self, number: int, path: str | os.PathLike[str]) -> None:
        self.number = number
        self.path = Path(path)
        self._lock = threading.Lock()
        self._read_at = 0.0
        self._key: tuple[int, int] | None = None
        self._last: dict[str, Any] = {"state": "reading the log…"}

    @property
    def name(self) -> str:
        return self.path.name

    def snapshot(self) -> dict[str, Any]:
        """The standings and the games last finished, read again if the log changed (at most
        every ``EVERY_S`` seconds; meanwhile, and while another thread reads it, the last)."""
        if not self._lock.acquire(blocking=False):
            return self._last
        try:
            now = time.monotonic()
            if now - self._read_at < EVERY_S and self._key is not None:
                return self._last
            try:
                info = os.stat(self.path)
            except FileNotFoundError:
                self._last = {"state": f"waiting for {self.name} to be written"}
                return self._last
            except OSError as error:
                self._last = {"error": f"{self.name}: {error.strerror or error}"}
                return self._last
            key = (info.st_size, info.st_mtime_ns)
            if key != self._key:
                self._last = self._read()
                self._key = key
            self._read_at = now
            return self._last
        finally:
            self._lock.release()

    def _read(self) -> dict[str, Any]:
        try:
            runs = arena.tally_runs(self.path)
            recent = self._recent()
        except (ValueError, OSError) as error:
            return {"error": str(error)}
        first = runs[0].lineup.game
        out: dict[str, Any] = {
            "game": first.name,
            "long_name": first.info.long_name,
            "params": views.params_shown(first),
            "games": sum(run.games for run in runs),
            "recent": recent,
            "updated": time.strftime("%H:%M:%S"),
        }
        if len(runs) == 1:
            out.update(kind="arena", **_arena(runs[0]))
        else:
            out.update(kind="tournament", **_tournament(runs))
        return out

    def _recent(self) -> list[dict[str, Any]]:
        # Only the games listed are decoded (a record's converted to replays).
        kept: collections.deque[arena.StoredGame] = collections.deque(
            arena.replay_records(self.path), maxlen=RECENT
        )
        games = []
        for stored in reversed(kept):
            line = stored.line
            try:
                record = stored.decode(f"{self.name}:{line.number}")
                info = record["arena"]
                returns = [float(value) for value in record["result"]["returns"]]
                labels = [str(label) for label in info["labels"]]
                games.append(
                    {
                        "line": line.number,
                        "index": int(info["index"]),
                        "labels": labels,
                        "returns": returns,
                        "moves": len(record["actions"]),
                    }
                )
            except (ValueError, KeyError, TypeError):
                continue  # tally_runs has refused a corrupt log before this reads it
        return games

    def game(self, line_number: int) -> Any:
        """The replay dict on line ``line_number`` of the log; ``ValueError`` if there is none."""
        for stored in arena.replay_records(self.path):
            if stored.line.number == line_number:
                return stored.decode(f"{self.name}:{line_number}")
            if stored.line.number > line_number:
                break
        raise ValueError(f"{self.name} has no game on line {line_number}")


def _arena(standings: arena.Standings) -> dict[str, Any]:
    rows = []
    for entry, record in zip(standings.lineup.entries, standings.records):
        low, high = record.win_interval
        row = {
            "label": entry.label,
            "games": record.games,
            "wins": record.wins,
            "draws": record.draws,
            "losses": record.losses,
            "win_rate": record.win_rate,
            "low": low,
            "high": high,
            "mean_return": record.mean_return,
        }
        if standings.ranked:
            row["mean_rank"] = record.mean_rank
        rows.append(row)
    versus = None
    if standings.versus and standings.games:
        first, second = (entry.label for entry in standings.lineup.entries)
        estimate = stats.elo_estimate(standings.counts())
        units = "duplicate pairs" if standings.paired else "games"
        versus = (
            f"{first} vs {second}: Elo {tournament.elo_text(estimate)} at 95%, "
            f"from {estimate.units} {units}"
        )
    return {
        "rows": rows,
        "versus": versus,
        "ranked": standings.ranked,
        "mean_length": standings.mean_length,
        "paired": standings.paired,
    }


def _tournament(runs: list[arena.Standings]) -> dict[str, Any]:
    labels: list[str] = []
    pairings = []
    for standings in runs:
        entries = standings.lineup.entries
        if len(entries) != 2:
            raise ValueError("a tournament rates two bots at a time")
        for entry in entries:
            if entry.label not in labels:
                labels.append(entry.label)
        first, second = (labels.index(entry.label) for entry in entries)
        pairings.append(tournament.Pairing(first, second, standings.lineup, standings))
    ratings = tournament.rate(labels, pairings)
    played = dict.fromkeys(labels, 0)
    points = dict.fromkeys(labels, 0.0)
    pairing_rows = []
    for pairing in pairings:
        standings = pairing.standings
        losses, draws, wins = standings.trinomial
        one, other = labels[pairing.first], labels[pairing.second]
        played[one] += standings.games
        played[other] += standings.games
        points[one] += wins + draws / 2
        points[other] += losses + draws / 2
        pairing_rows.append(
            {
                "first": one,
                "second": other,
                "games": standings.games,
                "wdl": f"{wins}-{draws}-{losses}",
                "elo": tournament.elo_text(stats.elo_estimate(standings.counts())),
            }
        )
    rows = []
    for rank, index in enumerate(ratings.order(), 1):
        label = labels[index]
        rows.append(
            {
                "rank": rank,
                "label": label,
                "elo": tournament.rating_text(ratings, index),
                "interval": tournament.rating_interval_text(ratings, index),
                "games": played[label],
                "score": points[label] / played[label] if played[label] else None,
            }
        )
    return {"rows": rows, "pairings": pairing_rows}
