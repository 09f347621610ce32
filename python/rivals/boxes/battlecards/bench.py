"""Battlecards benchmarks: the shared table of games with hidden information (_hidden.py)."""

from __future__ import annotations

from rivals.bench._hidden import HiddenInformationBench

BENCH = HiddenInformationBench(
    name="battlecards",
    title="Battlecards",
    seed=20240605,
    player_counts=(None,),
    ismcts_iterations={"full": 500, "quick": 100, "tiny": 10},
    # A playout is about a thousand plies: fewer iterations and positions than short games.
    ismcts_positions={"full": 60, "quick": 20, "tiny": 3},
)
TITLE = BENCH.title
run = BENCH.run
