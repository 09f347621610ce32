"""Verräter benchmarks: the shared table of games with hidden information (_hidden.py)."""

from __future__ import annotations

from rivals.bench._hidden import HiddenInformationBench

BENCH = HiddenInformationBench(
    name="verraeter",
    title="Verräter",
    seed=20240603,
    player_counts=(4, 3),
    ismcts_iterations={"full": 2000, "quick": 500, "tiny": 50},
)
TITLE = BENCH.title
run = BENCH.run
