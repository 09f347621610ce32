"""Benchmarks, printed by ``rivals bench GAME``: one module per game, each returning table rows.

Every compared figure is measured side by side in the same run, alternating A and B over several
rounds, and reported as medians and a ratio. bench/README.md explains each row.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import time
from collections.abc import Callable, Sequence
from types import ModuleType

from rich.console import Console

from rivals._core import game_names

from ._common import Row, Sizes, choose_sizes, machine_line, render

__all__ = ["games", "main"]

# Game name -> module with ``TITLE`` and ``run(sizes, log) -> (rows, notes)``: every public module
# of this package, found by name, so a game's benchmarks need only their module. ``scale`` and
# ``learning`` are not games: VectorEnv and search figures over every game (rivals bench scale);
# VectorEnv encodings, bots inside step() and playouts (rivals bench learning).
_GAMES: dict[str, ModuleType] = {
    info.name: importlib.import_module(f"{__name__}.{info.name}")
    for info in pkgutil.iter_modules(__path__)
    if not info.name.startswith("_")
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
) -> int:
    """Runs the benchmarks of ``games`` (every game that has some if empty), a table per game.

    ``quick`` does less work per measurement. ``tiny`` (default: RIVALS_BENCH_TINY=1) shrinks
    everything to a couple of seconds for tests and turns the pyspiel row off; ``pyspiel``
    (default: RIVALS_BENCH_PYSPIEL) turns it on or off explicitly. Returns an exit status.
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

    for name in selected:
        module = _GAMES[name]
        runner: Callable[[Sizes, Callable[[str], None]], tuple[list[Row], list[str]]] = module.run
        load, began = load_average(), time.perf_counter()
        rows, notes = runner(sizes, log)
        seconds = time.perf_counter() - began
        render(
            out,
            f"{module.TITLE} benchmarks ({sizes.mode} mode)",
            rows,
            [*notes, f"Machine: {machine_line()}; {run_text(seconds, load, load_average())}."],
        )
    return 0


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
