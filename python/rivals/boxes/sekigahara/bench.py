"""Sekigahara benchmarks: the engine against the pure-Python reference, state copies, the
engine's own arena, and the exact solver's time and memory. Every compared pair is measured in
the same run, alternating, and reported as a median ratio (see bench/README.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any, cast

import rivals
from rivals.bench._common import Row, Sizes, env_flag
from rivals.bench._rows import arena_row, state_rows, undo_rows, vs_reference

NAME = "sekigahara"
TITLE = "Sekigahara"
SEED = 20240602
# Deck sizes the solver starts from, per mode (each one a turn start of a seeded random game).
SOLVER_DECKS = {"full": (2, 3, 4, 5), "quick": (2, 3, 4), "tiny": (1, 2)}
# Turn-start positions in one solver context (both seats' influence, the seat to move).
CONTEXT_NODES = 6272

Log = Callable[[str], None]

# Runs in a fresh interpreter, so its peak resident memory is the solve's and nothing else's.
_SOLVE_SCRIPT = """
import json, resource, sys, time
import rivals
args = json.loads(sys.argv[1])
game = rivals.make("sekigahara", repetition_rule=args["rule"])
state = game.state_from_history(args["history"])
solver = rivals.bots.make("solver", game)
unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
cpu = time.process_time()
analysis = solver.analyse(state)
cpu = time.process_time() - cpu
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
value, nodes = analysis["returns"][0], analysis["nodes"]
print(json.dumps({"value": value, "nodes": nodes, "cpu_s": cpu, "before": before, "after": after}))
"""


def _turn_start(deck: int, seed: int) -> list[int]:
    """The history of a seeded random game up to the first turn start with at most ``deck``
    cards left in the deck (the next seed if that game ends first)."""
    game = rivals.make(NAME)
    while True:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            snapshot = cast("dict[str, Any]", state.to_dict())
            if (
                len(snapshot["deck"]) <= deck
                and snapshot["phase"] == "action"
                and snapshot["actions_left"] == 3
            ):
                return list(state.history())
            state.apply_action(rng.choice(state.legal_actions()))
        seed += 1


def _solve(history: list[int], rule: str) -> dict[str, Any]:
    """Solves a position in a fresh interpreter: value, nodes, CPU seconds, peak memory."""
    argument = json.dumps({"history": history, "rule": rule})
    done = subprocess.run(
        [sys.executable, "-c", _SOLVE_SCRIPT, argument],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _solver_rows(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    rows = []
    notes = []
    positions = [
        (f"{deck} cards in the deck", _turn_start(deck, SEED)) for deck in SOLVER_DECKS[sizes.mode]
    ]
    # The whole game from its first reveal takes minutes and gigabytes: only when asked for.
    if env_flag("RIVALS_BENCH_SOLVE_OPENING"):
        positions.append(("the opening (before the reveals)", []))
    for label, history in positions:
        log(f"solver from {label}")
        result = _solve(history, "turn_start")
        contexts = result["nodes"] // CONTEXT_NODES
        memory_mb = max(result["after"] - result["before"], 0) / 2**20
        rows.append(Row("4", f"solver from {label}: CPU s", result["cpu_s"], clock="cpu"))
        rows.append(Row("4", f"solver from {label}: memory MB", memory_mb))
        notes.append(
            f"Solver from {label}: value {result['value']:+.6f} for seat 0, {contexts:,} "
            f"contexts, peak resident memory {result['after'] / 2**20:,.0f} MB."
        )
    return rows, notes


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    """The rows of the Sekigahara table and the notes printed under it."""
    rows1, games, histories = vs_reference(NAME, None, SEED, sizes, log)
    solver_rows, solver_notes = _solver_rows(sizes, log)
    game = rivals.make(NAME)
    rows = [
        *rows1,
        *state_rows(game, histories[0], sizes, log, "2"),
        *undo_rows(game, max(histories, key=len), sizes, log, "2"),
        arena_row(game, games, SEED, sizes, log, "3"),
        *solver_rows,
    ]
    notes = [
        f"C++ batches: {games:,} games (about {sizes.work_s:g} s each, one thread); the reference "
        f"replays {sizes.reference_games} games that play_match(random bots) recorded in the "
        "engine.",
        "rivals and baseline: medians over the rounds; ratio: median of the per-round ratios, "
        "above 1 favours rivals (row 3: play_match over random_playouts).",
        "Row 4: the solver bot's analyse() from a turn start of a seeded random game, in a "
        "fresh interpreter; memory is the growth of its peak resident set during the solve. "
        "RIVALS_BENCH_SOLVE_OPENING=1 adds the whole game (minutes, about 2 GB).",
        *solver_notes,
    ]
    return rows, notes
