"""Sekigahara's bots against the exact solver: how often each bot's move is optimal, and how much
expected value its moves lose, by the number of cards left.

    nice python bench/sekigahara_solver.py                 # the figures in docs/bots-results.md
    nice python bench/sekigahara_solver.py --games 4 --deck 1 --deck 2
    nice python bench/sekigahara_solver.py --deck 1 --deck 2 --bot "mcts 1000" --bot "alphabeta 8"

Positions are the distinct decision states of self-play games between two ``mcts`` bots (200
iterations; seeds from the game number) once the deck is down to ``--deck`` cards (``deck + 3``
cards left to win, counting the three in the centre). At each position the ``solver`` bot's
``analyse`` values every legal move; a position counts when its moves do not all have the same
value. Per bot (every one in ``BOTS``, or those named with ``--bot``) and deck size the table
shows the share of those positions where the bot's move has the best value and the mean loss
(best value minus the value of the bot's move, in expected return: a win is +1, a loss -1). One
solver serves the whole run, so its table of solved contexts grows from position to position (and
memory with it); the cost of solving from five cards in the deck and more is what limits this to
small decks.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Any

import rivals
from rivals._core import Bot
from rivals.bench._common import run_script
from rivals.cli import integer

BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "random": ("random", {}),
    "mcts 200": ("mcts", {"iterations": 200}),
    "mcts 1000": ("mcts", {"iterations": 1000}),
    "ismcts 1000": ("ismcts", {"iterations": 1000}),
    "alphabeta 2": ("alphabeta", {"depth": 2}),
    "alphabeta 4": ("alphabeta", {"depth": 4}),
    "alphabeta 8": ("alphabeta", {"depth": 8}),
    "alphabeta 12": ("alphabeta", {"depth": 12}),
    "mcts 40k rd12": ("mcts", {"iterations": 40000, "rollout_depth": 12}),
    "mcts 40k rd12 p8": ("mcts", {"iterations": 40000, "rollout_depth": 12, "proof_depth": 8}),
    "mcts 40k rd12 p12": ("mcts", {"iterations": 40000, "rollout_depth": 12, "proof_depth": 12}),
    "mcts 40k rd12 s0.2": ("mcts", {"iterations": 40000, "rollout_depth": 12, "solve_s": 0.2}),
    "best": ("best", {}),
    "best cpu": ("best", {"clock": "cpu"}),
}


def positions(games: int, decks: set[int]) -> list[rivals.State]:
    """Decision states of self-play games with ``len(deck)`` in ``decks``, each distinct state
    once (a game circling through the same positions would otherwise outweigh the others)."""
    found = []
    seen: set[int] = set()
    game = rivals.make("sekigahara")
    for seed in range(games):
        players = [
            rivals.bots.make("mcts", game, seed=2 * seed + s, iterations=200) for s in (0, 1)
        ]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                # The reveals are uniform: any seeded pick is a fair one.
                state.apply_action(
                    outcomes[(seed * 7919 + len(state.history())) % len(outcomes)][0]
                )
                continue
            if (
                len(state.to_dict()["deck"]) in decks
                and len(state.legal_actions()) > 1
                and state.hash() not in seen
            ):
                seen.add(state.hash())
                found.append(state.clone())
            state.apply_action(players[state.current_player()].step(state))
    return found


def values(solver: Bot, state: rivals.State) -> dict[int, float]:
    """The exact value of each legal move for the player to move."""
    sign = 1.0 if state.current_player() == 0 else -1.0
    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        out[action] = sign * float(solver.analyse(child)["returns"][0])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=integer(1), default=12)
    parser.add_argument("--deck", type=int, action="append", default=None)
    parser.add_argument(
        "--bot", action="append", choices=sorted(BOTS), default=None, help="(default: all)"
    )
    args = parser.parse_args()
    bots = {label: BOTS[label] for label in args.bot or BOTS}
    decks = set(args.deck or [1, 2, 3])
    began = time.perf_counter()
    states = positions(args.games, decks)
    solver = rivals.bots.make("solver", rivals.make("sekigahara"))
    optimal: dict[tuple[str, int], int] = defaultdict(int)
    loss: dict[tuple[str, int], float] = defaultdict(float)
    counted: dict[int, int] = defaultdict(int)
    for index, state in enumerate(states):
        exact = values(solver, state)
        best = max(exact.values())
        if min(exact.values()) > best - 1e-9:
            continue  # every move is as good: nothing to tell the bots apart by
        deck = len(state.to_dict()["deck"])
        counted[deck] += 1
        for label, (name, params) in bots.items():
            bot = rivals.bots.make(name, state.game, seed=index, **params)
            value = exact[bot.step(state)]
            optimal[(label, deck)] += value > best - 1e-9
            loss[(label, deck)] += best - value
    seconds = time.perf_counter() - began
    print(
        f"{len(states)} distinct positions from {args.games} games, "
        f"{sum(counted.values())} with moves of different value; {seconds:.0f} s"
    )
    ordered = sorted(counted)
    heading = " ".join(f"{f'{d + 3} cards left ({counted[d]})':>26}" for d in ordered)
    print(f"{'bot':12} {heading}")
    print(f"{'':12} " + " ".join(f"{'optimal':>14} {'mean loss':>11}" for _ in ordered))
    for label in bots:
        cells = []
        for deck in ordered:
            share = optimal[(label, deck)] / counted[deck]
            cells.append(f"{100 * share:13.0f}% {loss[(label, deck)] / counted[deck]:11.3f}")
        print(f"{label:12} " + " ".join(cells))


if __name__ == "__main__":
    run_script(main)
