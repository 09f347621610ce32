"""Shared pieces of the per-game benchmarks: sizes, clocks, alternating A/B runs, the table."""

from __future__ import annotations

import dataclasses
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rivals._core import Game


@dataclass(frozen=True)
class Sizes:
    """How much work each measurement does; one instance per mode (full, quick, tiny)."""

    mode: str
    # Seconds of work a C++ batch is sized for (from a calibration run), per measurement.
    work_s: float
    # Games the pure-Python reference replays per measurement.
    reference_games: int
    # Seconds each Python-level move loop runs per measurement.
    loop_s: float
    # Python-level clones timed per measurement.
    clones: int
    # C++ copies per game.copy_ns() call.
    copies: int
    # Alternating A/B rounds per comparison; medians over these are reported.
    rounds: int
    # Games the calibration run plays to estimate a C++ rate.
    calibration_games: int
    pyspiel: bool
    # States game.undo_ns() undoes per measurement (a tenth as many replay from the start).
    undo_copies: int


FULL = Sizes("full", 1.0, 500, 1.0, 200_000, 1_000_000, 5, 20_000, True, 2_000)
QUICK = Sizes("quick", 0.25, 50, 0.3, 50_000, 1_000_000, 3, 5_000, True, 500)
# For tests: the whole Rosenkönig run takes about two seconds.
TINY = Sizes("tiny", 0.01, 3, 0.01, 2_000, 10_000, 2, 200, False, 10)


def run_script(main: Callable[[], int | None]) -> None:
    """Runs a benchmark script's ``main`` and exits with its status; Ctrl-C ends it with status
    130 and no traceback, as it ends ``rivals``."""
    try:
        status = main()
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)


def env_flag(name: str) -> bool | None:
    """``True``/``False`` for an environment variable set to 1/0 (yes/no, ...), else ``None``."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    return None


def choose_sizes(quick: bool, tiny: bool | None, pyspiel: bool | None) -> Sizes:
    """The sizes for a run; ``None`` falls back to RIVALS_BENCH_TINY / RIVALS_BENCH_PYSPIEL."""
    if tiny is None:
        tiny = bool(env_flag("RIVALS_BENCH_TINY"))
    sizes = TINY if tiny else QUICK if quick else FULL
    if pyspiel is None:
        pyspiel = env_flag("RIVALS_BENCH_PYSPIEL")
    if pyspiel is not None and pyspiel != sizes.pyspiel:
        sizes = dataclasses.replace(sizes, pyspiel=pyspiel)
    return sizes


@dataclass(frozen=True)
class Timing:
    cpu_s: float
    wall_s: float


def timed(fn: Callable[[], object]) -> Timing:
    """CPU time of the whole process (all threads) and wall time of one call of ``fn``."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    fn()
    return Timing(time.process_time() - cpu0, time.perf_counter() - wall0)


def positive(seconds: float) -> float:
    """Guards rates against a zero reading of a coarse clock on a tiny run."""
    return max(seconds, 1e-9)


@dataclass
class Pair:
    """Alternating measurements of A (ours) and B (the baseline), one value of each per round."""

    a: list[float] = field(default_factory=list)
    b: list[float] = field(default_factory=list)

    @property
    def a_median(self) -> float:
        return statistics.median(self.a)

    @property
    def b_median(self) -> float:
        return statistics.median(self.b)

    def ratio(self, higher_is_better: bool = True) -> float:
        """Median of the per-round ratios: pairing rounds cancels slow drifts in machine load."""
        pairs = zip(self.a, self.b)
        if higher_is_better:
            return statistics.median(a / b for a, b in pairs)
        return statistics.median(b / a for a, b in pairs)


def alternate(
    a: Callable[[], float],
    b: Callable[[], float],
    rounds: int,
    log: Callable[[str], None] | None = None,
    what: str = "",
) -> Pair:
    """Runs ``a`` and ``b`` ``rounds`` times each, in the order AB BA AB ..., telling ``log``
    ``what`` is measured before each round.

    Swapping the order every round keeps either side from always running right after the other
    (caches, CPU frequency, a neighbour's load on a shared machine).
    """
    pair = Pair()
    for r in range(rounds):
        if log is not None:
            log(f"{what} (round {r + 1}/{rounds})")
        if r % 2 == 0:
            pair.a.append(a())
            pair.b.append(b())
        else:
            pair.b.append(b())
            pair.a.append(a())
    return pair


def playout_rate(game: Game, games: int, seed: int, threads: int = 1) -> tuple[float, Any]:
    """CPU-time games/s of one random_playouts batch, and its results."""
    results: dict[str, Any] = {}

    def batch() -> None:
        results.update(game.random_playouts(games, seed=seed, threads=threads))

    return games / positive(timed(batch).cpu_s), results


def games_for(rate: float, seconds: float, minimum: int = 20) -> int:
    """Games of a batch that takes about ``seconds`` at ``rate`` games/s."""
    return max(minimum, math.ceil(rate * seconds))


@dataclass(frozen=True)
class Row:
    """One line of the table. ``ratio`` is always oriented so that above 1 favours ``rivals``;
    ``met`` (whether the ratio meets its target, ``None`` if it has none) colours it."""

    section: str
    label: str
    rivals: float | None
    baseline: float | None = None
    ratio: float | None = None
    clock: str = ""
    target: str = ""
    met: bool | None = None
    note: str = ""

    @classmethod
    def of_pair(
        cls,
        section: str,
        label: str,
        pair: Pair,
        clock: str,
        target: str = "",
        met: bool | None = None,
        *,
        higher_is_better: bool = True,
    ) -> Row:
        """The row of a paired measurement: our median, the baseline's and their ratio
        (``higher_is_better`` False for a time, so that the ratio still favours ``rivals``)."""
        return cls(
            section,
            label,
            pair.a_median,
            pair.b_median,
            pair.ratio(higher_is_better=higher_is_better),
            clock,
            target,
            met,
        )


def verdict(ok: bool) -> str:
    return "ok" if ok else "missed"


def fmt_number(x: float | None) -> str:
    if x is None:
        return "-"
    if not math.isfinite(x):
        return str(x)
    magnitude = abs(x)
    if x.is_integer() and magnitude < 1e15:
        return f"{int(x):,}"
    if magnitude >= 1000:
        return f"{x:,.0f}"
    if magnitude >= 100:
        return f"{x:.0f}"
    if magnitude >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def fmt_ratio(x: float | None) -> str:
    return "-" if x is None else f"{fmt_number(x)}x"


def machine_line() -> str:
    cpus = os.cpu_count() or 0
    return (
        f"{platform.machine()} {platform.processor() or platform.system()}, {cpus} CPUs, "
        f"Python {sys.version.split()[0]}"
    )


def cpu_model() -> str:
    """The processor's name as the system gives it (Linux: /proc/cpuinfo), or ''."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def load_line() -> str:
    """The load average over 1, 5 and 15 minutes, where the system has one."""
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):
        return "not available"
    return f"{one:.1f}, {five:.1f}, {fifteen:.1f} (1, 5, 15 min)"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(title: str, rows: Sequence[Row], notes: Sequence[str]) -> str:
    """One table as Markdown, with the columns of ``render`` and its notes below it."""
    lines = [
        f"## {title}",
        "",
        "| # | measurement | rivals | baseline | ratio | clock | target |",
        "| --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for row in rows:
        baseline = row.note if row.baseline is None and row.note else fmt_number(row.baseline)
        cells = [row.section, row.label, fmt_number(row.rivals), baseline, fmt_ratio(row.ratio)]
        cells += [row.clock, row.target]
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    lines.append("")
    lines += [f"- {note}" for note in notes]
    return "\n".join(lines).rstrip() + "\n"


def render(console: Console, title: str, rows: Sequence[Row], notes: Sequence[str]) -> None:
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("measurement", no_wrap=True)
    table.add_column("rivals", justify="right", no_wrap=True)
    table.add_column("baseline", justify="right", no_wrap=True)
    table.add_column("ratio", justify="right", no_wrap=True)
    table.add_column("clock")
    table.add_column("target")
    for row in rows:
        style = "" if row.met is None else "green" if row.met else "red"
        baseline = row.note if row.baseline is None and row.note else fmt_number(row.baseline)
        table.add_row(
            row.section,
            row.label,
            fmt_number(row.rivals),
            baseline,
            Text(fmt_ratio(row.ratio), style=style),
            row.clock,
            row.target,
        )
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True)
