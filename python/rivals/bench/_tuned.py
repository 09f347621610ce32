"""Row 6 of the Rosenkönig table: the engine's random playouts against a hand-tuned single-file
two-player playout (``tuned_playout.cpp`` beside this file), compiled here with the system C++
compiler and the flags of the engine's own build, and run in the same session, alternating.

Before its speed is trusted, the yardstick must play the same game: its game lengths, red wins
and draws are compared with the engine's over every measured batch, and a difference beyond
sampling error (``MAX_Z`` standard errors) stops the benchmark.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import rivals

from ._common import Row, Sizes, games_for, positive, verdict

SOURCE = Path(__file__).with_name("tuned_playout.cpp")
# The engine's Release build (CMake: -O3 -DNDEBUG, position-independent), with no flag a wheel
# for every machine of the architecture could not use.
FLAGS = ("-O3", "-DNDEBUG", "-std=c++20", "-fPIC")
# The generic engine is to run as fast as the same game written by hand.
TARGET = 1.0
# A real rule difference moves these statistics by many standard errors over the batches the
# benchmark plays; chance alone goes past 5 about once in 3.5 million comparisons.
MAX_Z = 5.0

Log = Callable[[str], None]


def find_compiler() -> str | None:
    """``$CXX``, else the first of c++, g++, clang++ on PATH."""
    named = os.environ.get("CXX")
    if named:
        return shutil.which(named) or named
    for candidate in ("c++", "g++", "clang++"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


@dataclass
class Tally:
    """Game lengths and results of one side, summed over batches."""

    games: int = 0
    plies: float = 0.0
    plies_squared: float = 0.0
    red: int = 0
    draws: int = 0

    def add(self, games: int, plies: float, plies_squared: float, red: int, draws: int) -> None:
        self.games += games
        self.plies += plies
        self.plies_squared += plies_squared
        self.red += red
        self.draws += draws

    def add_playouts(self, results: dict[str, Any]) -> None:
        """Adds a batch of ``random_playouts`` (its ``lengths`` and ``returns``, seat 0 Red)."""
        lengths = results["lengths"].astype(np.float64)
        red = results["returns"][:, 0]
        self.add(
            len(lengths),
            float(lengths.sum()),
            float((lengths * lengths).sum()),
            int((red > 0).sum()),
            int((red == 0).sum()),
        )

    def mean_length(self) -> float:
        return self.plies / self.games

    def length_variance(self) -> float:
        mean = self.mean_length()
        return max(0.0, self.plies_squared / self.games - mean * mean)


def _z(a: float, b: float, variance_a: float, variance_b: float) -> float:
    spread = math.sqrt(variance_a + variance_b)
    return 0.0 if spread == 0 else abs(a - b) / spread


def _share_z(hits_a: int, n_a: int, hits_b: int, n_b: int) -> float:
    pooled = (hits_a + hits_b) / (n_a + n_b)
    return _z(hits_a / n_a, hits_b / n_b, pooled * (1 - pooled) / n_a, pooled * (1 - pooled) / n_b)


def disagreement(engine: Tally, tuned: Tally) -> dict[str, float]:
    """How many standard errors apart the two sides are, per statistic."""
    return {
        "mean length": _z(
            engine.mean_length(),
            tuned.mean_length(),
            engine.length_variance() / engine.games,
            tuned.length_variance() / tuned.games,
        ),
        "red wins": _share_z(engine.red, engine.games, tuned.red, tuned.games),
        "draws": _share_z(engine.draws, engine.games, tuned.draws, tuned.games),
    }


def tuned_row(sizes: Sizes, seed: int, log: Log) -> tuple[Row, str]:
    """The row, and the note printed under the table (what was compiled how, and the check)."""
    label = "2p random playouts: games/s, engine / hand-tuned single-file playout"
    target = f"≥ {TARGET:g}x"
    compiler = find_compiler()
    if compiler is None:
        reason = "hand-tuned playout row skipped: no C++ compiler (set CXX or install g++)"
        return Row("6", label, None, target=f"{target}: not measured", note="skipped"), reason
    game = rivals.make("rosenkoenig")
    with tempfile.TemporaryDirectory(prefix="rivals-tuned-") as folder:
        program = Path(folder) / "tuned_playout"
        log("compiling the hand-tuned playout")
        built = subprocess.run(
            [compiler, *FLAGS, "-o", str(program), str(SOURCE)],
            capture_output=True,
            text=True,
        )
        if built.returncode != 0:
            reason = f"hand-tuned playout row skipped: {compiler} failed: {built.stderr.strip()}"
            return Row("6", label, None, target=f"{target}: not measured", note="skipped"), reason

        def tuned_batch(games: int, batch_seed: int) -> dict[str, Any]:
            done = subprocess.run(
                [str(program), str(games), str(batch_seed)],
                capture_output=True,
                text=True,
                check=True,
                timeout=600,
            )
            result: dict[str, Any] = json.loads(done.stdout)
            return result

        # Thread CPU time on both sides: the playing thread only, as the yardstick times itself.
        def engine_batch(games: int, batch_seed: int) -> tuple[float, dict[str, Any]]:
            start = time.thread_time()
            results = game.random_playouts(games, seed=batch_seed)
            return positive(time.thread_time() - start), results

        seconds, _ = engine_batch(sizes.calibration_games, seed + 1)
        games = games_for(sizes.calibration_games / seconds, sizes.work_s)
        engine_tally, tuned_tally = Tally(), Tally()
        rates: list[tuple[float, float]] = []

        def engine_rate(batch_seed: int) -> float:
            seconds, results = engine_batch(games, batch_seed)
            engine_tally.add_playouts(results)
            return games / seconds

        def tuned_rate(batch_seed: int) -> float:
            out = tuned_batch(games, batch_seed)
            tuned_tally.add(
                out["games"], out["plies"], out["plies_squared"], out["red"], out["draws"]
            )
            return float(out["games"]) / positive(float(out["cpu_s"]))

        for r in range(sizes.rounds):
            log(f"random playouts, engine vs hand-tuned playout (round {r + 1}/{sizes.rounds})")
            batch_seed = seed + 100 + r
            if r % 2 == 0:
                ours = engine_rate(batch_seed)
                theirs = tuned_rate(batch_seed)
            else:
                theirs = tuned_rate(batch_seed)
                ours = engine_rate(batch_seed)
            rates.append((ours, theirs))
    apart = disagreement(engine_tally, tuned_tally)
    worst = max(apart, key=lambda key: apart[key])
    if apart[worst] > MAX_Z:
        raise RuntimeError(
            f"the hand-tuned playout does not play the engine's game: its {worst} is "
            f"{apart[worst]:.1f} standard errors from the engine's over {engine_tally.games:,} "
            f"games each (mean length {tuned_tally.mean_length():.2f} vs "
            f"{engine_tally.mean_length():.2f}, red wins {tuned_tally.red:,} vs "
            f"{engine_tally.red:,}, draws {tuned_tally.draws:,} vs {engine_tally.draws:,})"
        )
    ratio = statistics.median(a / b for a, b in rates)
    row = Row(
        "6",
        label,
        statistics.median(a for a, _ in rates),
        statistics.median(b for _, b in rates),
        ratio,
        "cpu",
        f"{target} {verdict(ratio >= TARGET)}",
        ratio >= TARGET,
    )

    def share(hits: int, tally: Tally) -> str:
        return f"{hits / tally.games:.4f}"

    note = (
        f"Row 6: {SOURCE.name} built by {compiler} {' '.join(FLAGS)}; both sides timed on the "
        f"playing thread's CPU clock, {games:,} games a batch. Same game: mean length "
        f"{engine_tally.mean_length():.2f} (engine) vs {tuned_tally.mean_length():.2f}, red wins "
        f"{share(engine_tally.red, engine_tally)} vs {share(tuned_tally.red, tuned_tally)}, "
        f"draws {share(engine_tally.draws, engine_tally)} vs "
        f"{share(tuned_tally.draws, tuned_tally)} over {engine_tally.games:,} games each "
        f"(largest gap {apart[worst]:.1f} standard errors, {worst}; the limit is {MAX_Z:g})."
    )
    return row, note
