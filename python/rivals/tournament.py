"""Tournaments: every pairing of a list of bots (round robin) or the first against each other
(gauntlet), played as arenas into one replay log, rated by maximum likelihood.

Past 600 lines on purpose: a tournament is one object (its pairings, their resumption from one log
and the ratings), and its parts shared with the arena already live in ``rivals.arena``.

>>> import rivals
>>> from rivals import tournament
>>> game = rivals.make("sekigahara")
>>> bots = [("mcts", {"iterations": 100}), ("mcts", {"iterations": 400}), "random"]
>>> with tournament.Tournament(game, bots, 20, out="t.jsonl") as event:  # doctest: +SKIP
...     event.run()
...     print(event.ratings().elo)

Pairing ``p`` (in ``pairings`` order) is the arena of its two bots with the tournament's seed:
its games, and its lines in the log, are exactly those of ``rivals arena`` with the same bots,
seed and pairing mode, so every pairing meets the same deals. The log holds the pairings one
after the other, each with its games in order, under the arena's guarantees: an exclusive lock,
whole lines only, an existing file refused unless resumed (every stored game re-checked against
its pairing) or replaced.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rivals import arena, files, stats
from rivals._core import Game
from rivals._guard import UseGuard, one_caller
from rivals.arena import forms, records
from rivals.render import params_text

__all__ = ["MODES", "Pairing", "Results", "Tournament", "rate", "report_html", "tally"]

MODES = ("round-robin", "gauntlet")


@dataclass
class Pairing:
    """Two bots (their indices in the tournament's list) and their arena's running totals."""

    first: int
    second: int
    lineup: arena.Lineup
    standings: arena.Standings

    def units(self) -> dict[tuple[float, int], int]:
        """The first bot's results as ``stats.fit_ratings`` takes them: by (total, games) of each
        complete pair, or of each game when unpaired."""
        standings = self.standings
        if standings.paired:
            return {(k / 2, 2): n for k, n in enumerate(standings.pentanomial) if n}
        return {(k / 2, 1): n for k, n in enumerate(standings.trinomial) if n}


def pairings_of(count: int, mode: str) -> list[tuple[int, int]]:
    if mode == "round-robin":
        return [(a, b) for a in range(count) for b in range(a + 1, count)]
    if mode == "gauntlet":
        return [(0, b) for b in range(1, count)]
    raise ValueError(f"unknown tournament mode {mode!r} (have: {', '.join(MODES)})")


class Tournament(arena.LogSession):
    """``games`` games per pairing of ``bots`` (names or ``(name, params)``; ``labels`` names
    them, by default their names with copies numbered) with ``seed``, replays in ``out``.

    ``resume``, ``force``, ``backend`` and ``duplicate`` are as for ``arena.Arena``; with
    ``duplicate`` (default) ``games`` must be even (whole pairs). The game must have two sides
    (two seats, or two teams), since each pairing is rated as one bot's score against the
    other's. Raises ``ValueError`` for a bad bot, count, mode or file.
    """

    def __init__(
        self,
        game: Game,
        bots: Sequence[str | arena.BotSpec],
        games: int,
        seed: int = 0,
        out: str | os.PathLike[str] | None = None,
        *,
        mode: str = "round-robin",
        labels: Sequence[str] | None = None,
        resume: bool = False,
        force: bool = False,
        backend: arena.Backend | None = None,
        duplicate: bool = True,
    ) -> None:
        # A log written by two threads at once would hold games twice, out of order.
        self._guard = UseGuard("Tournament", "run one Tournament on one thread")
        listed = [(bot, {}) if isinstance(bot, str) else (bot[0], dict(bot[1])) for bot in bots]
        if len(listed) < 2:
            raise ValueError(f"a tournament needs at least two bots, got {len(listed)}")
        names = [name for name, _ in listed]
        arena.check_labels(labels, names)
        self.labels = list(labels) if labels is not None else arena.label_copies(names)
        if len(self.labels) != len(listed) or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"one distinct label per bot is needed, got {self.labels!r}")
        self.game = game
        self.mode = mode
        self.games = arena._check_int("the games per pairing", games, 1, arena.MAX_GAMES)
        self.seed = arena._check_int("the seed", seed, 0, arena.MAX_SEED)
        if resume and out is None:
            raise ValueError("resume continues the replays of a file: give out")
        if resume and force:
            raise ValueError("resume keeps the file, force replaces it: not both")
        self.pairings: list[Pairing] = []
        for a, b in pairings_of(len(listed), mode):
            lineup = arena.Lineup.of(
                game, [listed[a], listed[b]], labels=[self.labels[a], self.labels[b]]
            )
            if len(lineup.entries) != 2:
                raise ValueError(
                    f"a tournament rates one side against another; {game.name} with "
                    f"{game.num_players} players seats two bots as {len(lineup.entries)} "
                    "entries of their own (use rivals arena for free-for-all games)"
                )
            group = lineup.duplicate_group if duplicate else 1
            self.pairings.append(
                Pairing(a, b, lineup, arena.Standings(lineup, paired=group == 2, group=group))
            )
        self.group = self.pairings[0].lineup.duplicate_group if duplicate else 1
        if self.games % self.group:
            raise ValueError(
                f"{self.games} games per pairing do not make whole duplicate pairs: give an "
                "even number (or unpaired games)"
            )
        self.entries: list[arena.Entry] = []
        for index in range(len(listed)):
            pairing = next(p for p in self.pairings if index in (p.first, p.second))
            self.entries.append(pairing.lineup.entries[0 if pairing.first == index else 1])
        self.backend: arena.Backend = backend or arena.LocalBackend()
        self._open_log(out, resume, force)

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    @property
    def played(self) -> int:
        return sum(p.standings.games for p in self.pairings)

    def _load(self) -> int:
        try:
            return self._load_lines()
        except arena.CutOffMember as cut:
            # Whole lines of a compressed member cut off: counted, they go with it.
            for pairing in self.pairings:
                pairing.standings = arena.Standings(
                    pairing.lineup, paired=self.group == 2, group=self.group
                )
            return self._load_lines(cut.sealed)

    def _load_lines(self, stop: int | None = None) -> int:
        checked = arena.Checked(self.game.num_players)
        games = records.RecordGames(self.game, records.action_bytes(self.game))
        self._headers = 0
        try:
            return self._read_lines(stop, checked, games)
        except ValueError as error:
            games.fail(error)

    def _read_lines(
        self, stop: int | None, checked: arena.Checked, games: records.RecordGames
    ) -> int:
        """``_load_lines``' reading: each stored game checked, a replay line at once and a
        record's a batch at a time (``games``), and counted."""
        assert self.log is not None
        count = 0
        valid, ends_line = 0, True
        start = arena.line_start(self.game)
        for line in arena.resumable_lines(self.log, self.game, stop):
            where = f"{self.log.path}:{line.number}"
            if self.log.compact and line.data.startswith(forms.HEADER_START):
                self._check_header(line, count, where)
                self._headers += 1
                if line.sealed is not None:
                    valid, ends_line = line.sealed, line.complete
                continue
            if count >= self.total_games:
                raise arena.OtherArena(
                    f"{where}: the file holds more than the {self.total_games} games of this "
                    f"tournament ({len(self.pairings)} pairings of {self.games})"
                )
            pairing = self.pairings[count // self.games]
            index = count % self.games
            if self.log.compact:
                if self._headers <= count // self.games:
                    raise arena.OtherArena(
                        f"{where}: a pairing goes on past {self.games} games: written with more "
                        f"games per pairing than {self.games}"
                    )
                games.add(line, index, where)
                if games.full or index == self.games - 1:
                    games.into(pairing.standings)
            else:
                self._check_games_per_pairing(line, index, count, where)
                state = arena._check_line(line, pairing.lineup, self.seed, index, where, self.group)
                arena.check_written_by_a_run(line, start, where)
                checked.add(state, index)
                if checked.full or index == self.games - 1:
                    checked.into(pairing.standings)
            count += 1
            if line.sealed is not None:
                valid, ends_line = line.sealed, line.complete
        if count:
            standings = self.pairings[(count - 1) // self.games].standings
            checked.into(standings)
            games.into(standings)
        self.log.keep(valid, ends_line)
        return count

    def _check_header(self, line: arena.LogLine, count: int, where: str) -> None:
        """Raises unless ``line``, a header of a record, opens the pairing due after ``count``
        games."""
        if count % self.games or count // self.games != self._headers:
            raise arena.OtherArena(
                f"{where}: the next pairing starts after {count % self.games} games of the one "
                f"before: written with {count % self.games} games per pairing, not {self.games}"
            )
        if self._headers >= len(self.pairings):
            raise arena.OtherArena(
                f"{where}: the file holds more than the {self.total_games} games of this "
                f"tournament ({len(self.pairings)} pairings of {self.games})"
            )
        lineup = self.pairings[self._headers].lineup
        arena._check_header(line, lineup, self.seed, self.group, where)

    def _check_games_per_pairing(
        self, line: arena.LogLine, index: int, count: int, where: str
    ) -> None:
        """Raises ``OtherArena`` when a pairing ends in the file before or after game ``index``
        of this one: the file was written with another ``games``, which would otherwise show
        as a game out of order."""
        try:
            recorded = line.decode()["arena"]["index"]
        except (ValueError, TypeError, KeyError):
            return  # not a game line: _check_line says what it is
        if index > 0 and recorded == 0:
            raise arena.OtherArena(
                f"{where}: the next pairing starts after {index} games of the one before: "
                f"written with {index} games per pairing, not {self.games}"
            )
        if index == 0 and count > 0 and recorded == self.games:
            raise arena.OtherArena(
                f"{where}: a pairing goes on past {self.games} games: written with more games "
                f"per pairing than {self.games}"
            )

    @one_caller
    def run(self, on_chunk: Callable[[Tournament], None] | None = None) -> None:
        """Plays the missing games, pairing by pairing, appending each chunk's replays to the
        log before counting them; ``on_chunk`` sees the tournament after each chunk."""
        if self.log is not None:
            self.log.check_process()  # before any game is played for it
        keepers = [(e.label, self.game.make_bot(e.name, e.params, 0)) for e in self.entries]
        self._keepers = [(label, bot) for label, bot in keepers if bot.stats()]
        for position, pairing in enumerate(self.pairings):
            standings = pairing.standings
            if standings.games >= self.games:
                continue
            chunks = self.backend.run(
                self.game,
                pairing.lineup.seat_specs(),
                self.seed,
                standings.games,
                self.games - standings.games,
                self.log is not None,
                self.group,
                records=self.log is not None and self.log.compact,
            )
            for chunk in chunks:
                with arena.interrupts_deferred():
                    if self.log is not None:
                        try:
                            self.log.append(self._lines(position, pairing, chunk))
                        except OSError:
                            standings.add(chunk.returns, chunk.seating, chunk.lengths)
                            raise
                    standings.add(chunk.returns, chunk.seating, chunk.lengths)
                    self.recorded = self.played if self.log is not None else 0
                    if on_chunk is not None:
                        on_chunk(self)

    def _lines(self, position: int, pairing: Pairing, chunk: arena.Chunk) -> str | bytes:
        """What the log gets for ``chunk`` of the pairing at ``position``: its replay lines, or
        its record lines after the pairing's header when that is not written yet."""
        assert self.log is not None
        if not self.log.compact:
            return arena.replay_lines(pairing.lineup, self.seed, self.group, chunk)
        header = self._headers <= position
        self._headers = max(self._headers, position + 1)
        return records.record_lines(pairing.lineup, self.seed, self.group, chunk, header)

    # How many pairings have their header in the record being written (a compact record only).
    _headers = 0

    def ratings(self, confidence: float = 0.95) -> stats.Ratings:
        """``rate`` of the pairings played so far."""
        return rate(self.labels, self.pairings, confidence)


def rate(
    labels: Sequence[str], pairings: Sequence[Pairing], confidence: float = 0.95
) -> stats.Ratings:
    """Maximum-likelihood Elo ratings relative to the first bot, from the complete units (pairs,
    or games when unpaired) played so far. Bots not yet connected to the first by games (a
    tournament stopped early) get NaN."""
    units: dict[tuple[int, int], dict[tuple[float, int], int]] = {}
    for pairing in pairings:
        table = pairing.units()
        if table:
            units[(pairing.first, pairing.second)] = table
    connected = [0]
    for index in connected:
        for a, b in units:
            for other in (b,) if a == index else (a,) if b == index else ():
                if other not in connected:
                    connected.append(other)
    count = len(labels)
    elo, error, centre = [math.nan] * count, [math.nan] * count, [math.nan] * count
    elo[0] = error[0] = centre[0] = 0.0
    if len(connected) > 1:
        connected.sort()
        position = {bot: k for k, bot in enumerate(connected)}
        fitted = stats.fit_ratings(
            [labels[bot] for bot in connected],
            {
                (position[a], position[b]): table
                for (a, b), table in units.items()
                if a in position and b in position
            },
            confidence,
        )
        assert fitted.centre is not None
        for bot, k in position.items():
            elo[bot], error[bot], centre[bot] = fitted.elo[k], fitted.error[k], fitted.centre[k]
    return stats.Ratings(tuple(labels), tuple(elo), tuple(error), confidence, tuple(centre))


@dataclass
class Results:
    """A tournament read back from its replay log (``tally``): its bots and pairings."""

    labels: list[str]
    pairings: list[Pairing]

    def ratings(self, confidence: float = 0.95) -> stats.Ratings:
        return rate(self.labels, self.pairings, confidence)


def tally(path: str | os.PathLike[str]) -> Results:
    """The pairings of a tournament's replay log with every game re-checked (as
    ``arena.tally_runs``), the bots labelled as in the log."""
    labels: list[str] = []
    pairings: list[Pairing] = []
    for standings in arena.tally_runs(path):
        entries = standings.lineup.entries
        if len(entries) != 2:
            raise arena.OtherArena(
                f"{path}: an arena of {len(entries)} entries; a tournament rates two at a time"
            )
        for entry in entries:
            if entry.label not in labels:
                labels.append(entry.label)
        first, second = (labels.index(entry.label) for entry in entries)
        pairings.append(Pairing(first, second, standings.lineup, standings))
    return Results(labels, pairings)


# --------------------------------------------------------------------------------------------
# The report


def _scale(low: float, high: float) -> tuple[float, float, float]:
    """Axis limits and a tick step covering ``low..high``."""
    span = max(high - low, 50.0)
    low, high = low - span / 20, high + span / 20  # dots at the ends stay inside the frame
    raw = span / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def rating_svg(ratings: stats.Ratings) -> str:
    """A horizontal plot: each bot's rating as a dot with its interval as a bar, best on top."""
    order = [i for i in ratings.order() if ratings.rated(i)]
    # An interval with an open end (at +-ELO_LIMIT: a score of 0 or 1 is within it) runs to the
    # frame with an arrowhead: drawn to the limit it would read as bounded there and squeeze
    # every other bar to a dot. The tables say "below" or "above".
    intervals = [ratings.interval(i) for i in order]
    ends = [ratings.elo[i] for i in order]
    ends += [lo for lo, _ in intervals if lo > -stats.ELO_LIMIT]
    ends += [hi for _, hi in intervals if hi < stats.ELO_LIMIT]
    low, high, step = _scale(min(ends), max(ends))
    shown = {i: _short_label(ratings.names[i]) for i in order}
    # Bold 13 px text takes up to 14 px a character (W); the plot keeps its width.
    label_width = 20 + 14 * max(len(shown[i]) for i in order)
    plot, row, top, right = 560, 34, 30, 70
    width = label_width + plot + right
    height = top + row * len(order) + 40

    def x(value: float) -> float:
        return label_width + plot * (value - low) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="Elo ratings" '
        'font-family="system-ui, sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
    ]
    tick = low
    while tick <= high + 1e-9:
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{top - 8}" x2="{x(tick):.1f}" '
            f'y2="{top + row * len(order)}" stroke="#e3e3e3"/>'
            f'<text x="{x(tick):.1f}" y="{top + row * len(order) + 18}" text-anchor="middle" '
            f'fill="#555">{_elo(tick)}</text>'
        )
        tick += step
    parts.append(
        f'<text x="{label_width + plot / 2:.1f}" y="{height - 6}" text-anchor="middle" '
        f'fill="#333">Elo relative to {html.escape(ratings.names[0])} '
        f"({100 * ratings.confidence:.0f}% intervals)</text>"
    )
    for position, index in enumerate(order):
        y = top + row * position + row / 2
        lo, hi = intervals[position]
        parts.append(
            f'<text x="{label_width - 10}" y="{y + 4:.1f}" text-anchor="end" '
            f'font-weight="600"><title>{html.escape(ratings.names[index])}</title>'
            f"{html.escape(shown[index])}</text>"
        )
        start, end = x(max(lo, low)), x(min(hi, high))
        if ratings.error[index] > 0:
            parts.append(
                f'<line x1="{start:.1f}" y1="{y:.1f}" x2="{end:.1f}" y2="{y:.1f}" '
                'stroke="#3b6ea5" stroke-width="3" stroke-linecap="round"/>'
            )
            for open_end, tip, back in ((lo < low, start, start + 9), (hi > high, end, end - 9)):
                if open_end:
                    parts.append(
                        f'<path d="M{tip:.1f},{y:.1f} L{back:.1f},{y - 5:.1f} '
                        f'L{back:.1f},{y + 5:.1f} Z" fill="#3b6ea5"/>'
                    )
        parts.append(
            f'<circle cx="{x(ratings.elo[index]):.1f}" cy="{y:.1f}" r="5.5" fill="#1d3f66"/>'
            f'<text x="{end + 8:.1f}" y="{y + 4:.1f}" fill="#333">'
            f"{_elo(ratings.elo[index])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def pairing_rows(event: Tournament) -> list[dict[str, Any]]:
    """Per pairing: labels, games, the first bot's wins, draws and losses, its score, and the
    Elo difference with its interval (pentanomial when paired)."""
    rows = []
    for pairing in event.pairings:
        standings = pairing.standings
        losses, draws, wins = standings.trinomial
        estimate = stats.elo_estimate(standings.counts())
        games = standings.games
        rows.append(
            {
                "first": event.labels[pairing.first],
                "second": event.labels[pairing.second],
                "games": games,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": (wins + draws / 2) / games if games else 0.0,
                "elo": estimate,
                "pentanomial": list(standings.pentanomial) if standings.paired else None,
            }
        )
    return rows


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 68em; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
p.meta { color: #555; margin-top: 0; }
p.warn { color: #a3262f; font-weight: bold; }
table { border-collapse: collapse; margin: 1em 0 2em; }
th, td { padding: 0.3em 0.6em; text-align: right; border-bottom: 1px solid #ddd;
         font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: #f2f4f7; }
th:first-child, td:first-child, .name { text-align: left; }
td.cell { text-align: center; min-width: 4.5em; }
td.self { background: #eee; }
svg { max-width: 100%; height: auto; }
td.wrap { white-space: normal; }
"""


_PAIRS_HEADING = (
    '<th title="duplicate pairs by their total score: LL, LD, even (LW, DD, WL), DW, WW">'
    "pairs LL-LD-even-DW-WW</th>"
)


def _cell_colour(score: float) -> str:
    """Green for a winning score, red for a losing one, white at one half."""
    strength = min(1.0, abs(score - 0.5) * 2)
    if strength == 0:
        return "#fff"
    if score > 0.5:
        return f"rgba(46, 160, 67, {0.15 + 0.55 * strength:.2f})"
    return f"rgba(215, 58, 73, {0.15 + 0.55 * strength:.2f})"


def _unrecorded_html(event: Tournament) -> str:
    """A warning when the report counts games its log does not hold (a write to it failed)."""
    if event.log is None or event.played <= event.recorded:
        return ""
    missing = event.played - event.recorded
    log = html.escape(files.shown_path(event.log.path))
    return (
        f'<p class="warn">{missing} of these games are not in {log}: '
        "writing them failed, so the file does not reproduce this report</p>"
    )


# In the head of every report: what a resumed tournament looks for before it replaces a page.
REPORT_MARK = '<meta name="generator" content="rivals tournament">'


# How a report written before the mark opens, and its title ends.
_EARLIER_OPENING = b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
_EARLIER_TITLE = b" tournament</title><style>"


def is_report(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a tournament's report: its head carries the mark, or
    opens as the reports of an earlier rivals did."""
    with open(path, "rb") as handle:
        head = handle.read(4096)
    return REPORT_MARK.encode("utf-8") in head or (
        head.startswith(_EARLIER_OPENING) and _EARLIER_TITLE in head
    )


def report_html(event: Tournament, title: str | None = None) -> str:
    """A standalone page: the rating plot, the ratings table, the cross table of scores and the
    per-pairing results."""
    ratings = event.ratings()
    played = {label: 0 for label in event.labels}
    points = {label: 0.0 for label in event.labels}
    rows = pairing_rows(event)
    score_of: dict[tuple[str, str], tuple[float, int]] = {}
    for row in rows:
        for me, other, flip in (
            (row["first"], row["second"], False),
            (row["second"], row["first"], True),
        ):
            mine = row["losses"] + row["draws"] / 2 if flip else row["wins"] + row["draws"] / 2
            played[me] += row["games"]
            points[me] += mine
            score_of[(me, other)] = (mine / row["games"] if row["games"] else 0.5, row["games"])
    game = event.game
    heading = title or f"{game.name} tournament"
    pairing_mode = "duplicate pairs" if event.group == 2 else "unpaired games"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">' + REPORT_MARK,
        f"<title>{html.escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        # The game's parameters, as the terminal's table shows them: without them the report
        # of a variant (four players, another card set) reads as one of the default game.
        f'<p class="meta">{html.escape(f"{game.name} {params_text(game.params)}".strip())}, '
        f"{html.escape(event.mode)}, {event.games} games per pairing "
        f"({pairing_mode}), seed {event.seed}; {event.played} of {event.total_games} games "
        "played</p>",
        _unrecorded_html(event),
        rating_svg(ratings),
        "<h2>Ratings</h2>",
        "<table><tr><th>rank</th><th class='name'>bot</th><th>Elo</th><th>95% interval</th>"
        "<th>games</th><th>score</th><th class='name'>settings</th></tr>",
    ]
    order = ratings.order()
    for rank, index in enumerate(order, 1):
        label = event.labels[index]
        interval = rating_interval_text(ratings, index)
        share = points[label] / played[label] if played[label] else 0.0
        entry = event.entries[index]
        settings = ", ".join(f"{k}={v}" for k, v in _changed(event.game, entry).items())
        out.append(
            f"<tr><td>{rank}</td><td class='name'>{html.escape(label)}</td>"
            f"<td>{rating_text(ratings, index)}</td><td>{interval}</td><td>{played[label]}</td>"
            f"<td>{100 * share:.1f}%</td><td class='name'>{html.escape(entry.name)} "
            f"{html.escape(settings)}</td></tr>"
        )
    out.append("</table>")
    out.append(settings_html(event))
    out.append("<h2>Scores</h2><table><tr><th>row's score against column</th>")
    out.extend(f"<th>{html.escape(event.labels[i])}</th>" for i in order)
    out.append("</tr>")
    for i in order:
        me = event.labels[i]
        out.append(f"<tr><td class='name'><b>{html.escape(me)}</b></td>")
        for j in order:
            other = event.labels[j]
            if i == j:
                out.append("<td class='cell self'></td>")
            elif (me, other) in score_of and score_of[(me, other)][1]:
                value, games = score_of[(me, other)]
                out.append(
                    f"<td class='cell' style='background:{_cell_colour(value)}' "
                    f"title='{games} games'>{100 * value:.0f}%</td>"
                )
            else:
                out.append("<td class='cell'>·</td>")
        out.append("</tr>")
    out.append(
        "</table><h2>Pairings</h2><table><tr><th class='name'>bot</th>"
        "<th class='name'>against</th><th>games</th><th>W-D-L</th><th>score</th>"
        "<th>Elo (95% interval)</th>"
        f"{_PAIRS_HEADING if event.group == 2 else ''}</tr>"
    )
    for row in rows:
        estimate = row["elo"]
        penta = (
            f"<td>{'-'.join(map(str, row['pentanomial']))}</td>"
            if row["pentanomial"] is not None
            else ""
        )
        out.append(
            f"<tr><td class='name'>{html.escape(row['first'])}</td>"
            f"<td class='name'>{html.escape(row['second'])}</td><td>{row['games']}</td>"
            f"<td>{row['wins']}-{row['draws']}-{row['losses']}</td>"
            f"<td>{score_text(row)}</td><td>{elo_text(estimate)}</td>"
            f"{penta}</tr>"
        )
    out.append("</table></body></html>\n")
    return "\n".join(out)


def settings_html(event: Tournament) -> str:
    """Every bot's every setting, so a report says what "mcts" played with: those it was given
    in bold, the bot's defaults plain."""
    out = [
        "<h2>Settings</h2>",
        "<p class='meta'>every parameter each bot played with; <b>bold</b>: set for this "
        "tournament, the others are the bot's defaults</p>",
        "<table class='settings'><tr><th class='name'>bot</th><th class='name'>plays</th>"
        "<th class='name'>settings</th></tr>",
    ]
    for entry in event.entries:
        changed = _changed(event.game, entry)
        cells = [
            f"<b>{html.escape(f'{key}={json.dumps(value)}')}</b>"
            if key in changed
            else html.escape(f"{key}={json.dumps(value)}")
            for key, value in entry.params.items()
        ]
        out.append(
            f"<tr><td class='name'>{html.escape(entry.label)}</td>"
            f"<td class='name'>{html.escape(entry.name)}</td>"
            f"<td class='name wrap'>{' '.join(cells) or '-'}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)


def score_text(row: dict[str, Any]) -> str:
    return f"{100 * row['score']:.1f}%" if row["games"] else "-"


def rating_text(ratings: stats.Ratings, index: int) -> str:
    return _elo(ratings.elo[index]) if ratings.rated(index) else "-"


def rating_interval_text(ratings: stats.Ratings, index: int) -> str:
    """``-293 to -86``; an end at a sweep's bound as ``below -1032`` or ``above +822``;
    ``too few games`` when both ends are; ``anchor`` for the first bot, ``no games yet`` for a
    bot without."""
    if not ratings.rated(index):
        return "no games yet"
    if index == 0:
        return "anchor"
    low, high = ratings.interval(index)
    if low <= -stats.ELO_LIMIT and high >= stats.ELO_LIMIT:
        return "too few games"
    if low <= -stats.ELO_LIMIT:
        return f"below {_elo(high)}"
    if high >= stats.ELO_LIMIT:
        return f"above {_elo(low)}"
    return f"{_elo(low)} to {_elo(high)}"


def elo_text(estimate: stats.Estimate, too_few: str = "too few games") -> str:
    """``+191 (+79 to +361)``; a clean sweep, whose Elo is unbounded, as ``sweep (>= +822)``;
    an interval that reaches a sweep as ``-191 (below +69)``; one that reaches both as ``+0 (too
    few games)`` (``too_few`` in the brackets); ``-`` before any game."""
    if estimate.units == 0:
        return "-"
    if estimate.elo >= stats.ELO_LIMIT:
        point = "sweep"
    elif estimate.elo <= -stats.ELO_LIMIT:
        point = "swept"
    else:
        point = _elo(estimate.elo)
    if not estimate.bounded:
        return f"{point} ({too_few})"
    if estimate.elo >= stats.ELO_LIMIT:
        return f"sweep (>= {_elo(estimate.low)})"
    if estimate.elo <= -stats.ELO_LIMIT:
        return f"swept (<= {_elo(estimate.high)})"
    if estimate.low <= -stats.ELO_LIMIT:
        return f"{point} (below {_elo(estimate.high)})"
    if estimate.high >= stats.ELO_LIMIT:
        return f"{point} (above {_elo(estimate.low)})"
    return f"{point} ({_elo(estimate.low)} to {_elo(estimate.high)})"


def _short_label(label: str, longest: int = 24) -> str:
    """A label as the plot shows it: cut with an ellipsis past ``longest`` characters."""
    return label if len(label) <= longest else label[: longest - 1] + "\u2026"


def _elo(value: float) -> str:
    """``+191``, ``-69``; ``+0`` for an even score rather than ``-0``."""
    return f"{round(value):+d}"


def _changed(game: Game, entry: arena.Entry) -> dict[str, Any]:
    defaults = game.make_bot(entry.name, {}, 0).params
    return {k: v for k, v in entry.params.items() if defaults.get(k) != v}
