"""The random-move loop over an OpenSpiel game, the baseline for rivals' Python-level loop.

Run by ``rivals bench`` as a script in a subprocess of the same interpreter, when open-spiel is
installed there (it is an optional extra of rivals), so that importing pyspiel stays out of the
measuring process. The loop is ``random_games`` of python/rivals/bench/_loops.py, the one
``python_loop`` times on rivals: legal actions, a choice by ``random.Random``, apply; chance nodes
go through legal_actions() too.
Prints one JSON line: {"plies_per_s": ..., "plies": ..., "games": ..., "cpu_s": ...}.
"""

from __future__ import annotations

import argparse
import json

import pyspiel  # type: ignore[import-not-found]

from rivals.bench._loops import random_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game(args.game)
    plies, games, elapsed = random_games(game.new_initial_state, args.seconds, args.seed)
    print(
        json.dumps(
            {"plies_per_s": plies / elapsed, "plies": plies, "games": games, "cpu_s": elapsed}
        )
    )


if __name__ == "__main__":
    main()
