"""Rheinländer benchmarks: the shared table of games with hidden information (_hidden.py)."""

from __future__ import annotations

from rivals.bench._hidden import HiddenInformationBench

BENCH = HiddenInformationBench(
    name="rheinlaender",
    title="Rheinländer",
    seed=20240604,
    player_counts=(3, 5),
    ismcts_iterations={"full": 1000, "quick": 300, "tiny": 20},
)
TITLE = BENCH.title
run = BENCH.run
