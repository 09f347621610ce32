"""Benchmarks, printed by ``rivals bench GAME``: one module per game (the ``bench`` part of its box,
``rivals.boxes.<game>.bench``), each returning table rows; ``scale``, ``learning`` and ``threads``
here.

Every compared figure is measured side by side in the same run, alternating A and B over several
rounds, and reported as medians and a ratio. bench/README.md explains each row.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Sequence
from types import ModuleType

from rich.console import Console

from rivals import boxes
from rivals._core import game_names

from ._common import Row, Sizes, choose_sizes, cpu_model, load_line, machine_line, markdown, render

__all__ = ["games", "main"]

# Name -> module with ``TITLE`` and ``run(sizes, log) -> (rows, notes)``: each game's ``bench``
# part, so a game's benchmarks need only their module, and two tables that are not games:
# VectorEnv and search figures over every game (rivals bench scale); VectorEnv encodings, bots
# inside step() and playouts (rivals bench learning); two threads against one wherever the engine
# uses threads (rivals bench threads).
_GAMES: dict[str, ModuleType] = {
    **{name: module for name in boxes.names() if (module := boxes.part(name, "bench"))},
    **{
        name: importlib.import_module(f"{__name__}.{name}")
        for name in ("learning", "scale", "threads")
    },
}


def games() -> list[str]:
    """Sorted names of the games that have benchmarks."""
    return sorted(_GAMES)


def main(
    games: Sequence[str],
    quick: bool = False,
    *,
    tiny: bool | None = None,
    pyspiel: bool | None = None,
    markdown_page: bool = False,
) -> int:
    """Runs the benchmarks of ``games`` (every game that has some if empty), a table per game.

    ``quick`` does less work per measurement. ``tiny`` (default: RIVALS_BENCH_TINY=1) shrinks
    everything to a couple of seconds for tests and turns the pyspiel row off; ``pyspiel``
    (default: RIVALS_BENCH_PYSPIEL) turns it on or off explicitly. ``markdown_page`` prints one
    Markdown page of every table instead, headed by when the run started and ended, the machine and
    its load then (``rivals bench --markdown > docs/benchmarks.md``), so that the tables on the
    page are always those of one run. Returns an exit status.
    """
    out = Console()
    err = Console(stderr=True)
    available = ", ".join(sorted(_GAMES))
    selected = list(games) or sorted(_GAMES)
    engine_games = set(game_names())
    unknown = [name for name in selected if name not in _GAMES and name not in engine_games]
    if unknown:
        err.print(f"unknown game {unknown[0]!r}; benchmarks exist for {available}", highlight=False)
        return 2
    # The command line passes every engine game when none is named; those without benchmarks
    # yet are noted, not an error.
    missing = [name for name in selected if name not in _GAMES]
    if missing:
        err.print(f"no benchmarks yet for {', '.join(missing)} (only {available})", highlight=False)
    selected = [name for name in selected if name in _GAMES]
    if not selected:
        return 1
    sizes = choose_sizes(quick, tiny, pyspiel)

    def log(message: str) -> None:
        err.print(f"[dim]{message}[/dim]", highlight=False)

    started, load_before = _now(), load_line()
    tables = []
    for name in selected:
        module = _GAMES[name]
        runner: Callable[[Sizes, Callable[[str], None]], tuple[list[Row], list[str]]] = module.run
        load, began = load_average(), time.perf_counter()
        rows, notes = runner(sizes, log)
        seconds = time.perf_counter() - began
        title = f"{module.TITLE} benchmarks ({sizes.mode} mode)"
        took = run_text(seconds, load, load_average())
        if markdown_page:
            tables.append(markdown(title, rows, [*notes, f"This table {took}."]))
        else:
            render(out, title, rows, [*notes, f"Machine: {machine_line()}; {took}."])
    if markdown_page:
        head = [
            "# Benchmarks: measured figures",
            "",
            "Written by `rivals bench --markdown` in one run; run it again to replace this page",
            "whole (`rivals bench --markdown > docs/benchmarks.md`). What each row measures:",
            "`bench/README.md`. Speeds are never asserted in tests; these are the figures of one",
            "machine at one time, and on a shared machine the paired ratios mean more than the",
            "absolute figures.",
            "",
            f"- Command: `rivals bench {' '.join(selected)}` ({sizes.mode} mode)",
            f"- Run: started {started}, ended {_now()}",
            f"- Machine: {machine_line()}" + (f", {cpu_model()}" if cpu_model() else ""),
            f"- Load average: {load_before} at the start, {load_line()} at the end",
            "",
        ]
        print("\n".join(head) + "\n" + "\n\n".join(tables), end="")
    return 0


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def load_average() -> float | None:
    """The one-minute load average, where the system keeps one."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def run_text(seconds: float, start: float | None, end: float | None) -> str:
    """``took 63 s, load average 1.9 at the start and 2.4 at the end``: a table's figures on a
    busy machine read differently (wall-clock rows most)."""
    text = f"took {seconds:.0f} s"
    if start is not None and end is not None:
        text += f", load average {start:.1f} at the start and {end:.1f} at the end"
    return text
