"""How strong each game's ``best`` preset is: the yardsticks of docs/bots.md, "Presets".

    nice python bench/strength.py                                   # every game, 200 games each
    nice python bench/strength.py --games 2000 --out strength/      # the long run, resumable
    nice python bench/strength.py --game rosenkoenig --match thesis --games 100
    nice python bench/strength.py --game battlecards --param simulations_per_deal=4

Matches (the first bot listed is the one rated):
- ``mcts``: for every game, ``best`` at ``--time-s`` seconds per move (0.1, the preset's own)
  against ``mcts`` at 1000 iterations, the yardstick of the goal ">= +200 Elo in every game";
- ``thesis``: for Rosenkönig, ``best`` against ``alphabeta`` at depth 7 with the thesis engine's
  evaluation, a stand-in for that engine at its strongest (goal: a score of at least 75%);
- ``ismcts``: for the games with hidden cards, ``best`` against ``ismcts`` at 1000 iterations, a
  yardstick that, like ``best``, decides from what its seat may see (``mcts`` searches the true
  state, the other seats' cards included).

Each match of a two-sided game is a ``rivals arena`` (duplicate pairs, one bot thread per game,
``--threads`` games at once); it prints the score, the Elo difference with its 95% interval
(pentanomial, from the pairs) and the win/draw/loss counts. In a game of three or more seats each
for itself (Rheinländer, Verräter) ``best`` plays one seat and the opponent all the others, and a
game counts as ``best``'s result against one of them (``free_for_all``); those games write no
replays. ``best`` thinks by the clock, by default the CPU clock of its thread (``--clock cpu``:
0.1 s of search per move however loaded the machine is, so a shared machine measures what an idle
one would, only more slowly; ``--clock wall`` for wall-clock seconds). The figures still depend on
the machine's speed: say which machine in what you report, with ``--threads`` at most its cores.
``--param KEY=VALUE`` (repeatable) changes a parameter of ``best``, to measure a candidate
for the preset the same way; ``--bot NAME`` rates another bot or preset in its place (``--bot
mcts`` at the same seconds per move: what searching the true state, hidden cards included, is
worth at that budget). With ``--out DIR`` every match writes its replays to
``DIR/<game>-<match>.jsonl``; ``--resume`` continues those files (an existing file is never
overwritten otherwise).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import rivals
from rivals import arena, cli
from rivals import stats as rstats
from rivals.bench._common import run_script
from rivals.cli import integer

YARDSTICK = ("mcts", {"iterations": 1000})
THESIS = ("alphabeta", {"depth": 7, "evaluation": "thesis"})
FAIR_YARDSTICK = ("ismcts", {"iterations": 1000})
HIDDEN = [name for name in rivals.games() if rivals.make(name).info.information == "imperfect"]
MATCHES: dict[str, tuple[list[str], tuple[str, dict[str, Any]]]] = {
    "mcts": (rivals.games(), YARDSTICK),
    "thesis": (["rosenkoenig"], THESIS),
    "ismcts": (HIDDEN, FAIR_YARDSTICK),
}


def play(
    bot: str,
    name: str,
    match: str,
    games: int,
    seed: int,
    time_s: float,
    clock: str,
    changes: dict[str, Any],
    threads: int,
    out: Path | None,
    resume: bool,
) -> None:
    game = rivals.make(name)
    best = (bot, {"time_s": time_s, "clock": clock, **changes})
    opponent = MATCHES[match][1]
    label = bot if bot != opponent[0] else f"{bot} (rated)"
    backend = arena.LocalBackend(threads)
    began = time.perf_counter()
    if game.num_players == 2 or game.num_players in game.info.teams:
        lineup = arena.Lineup.of(game, [best, opponent], labels=[label, opponent[0]])
        path = out / f"{name}-{match}.jsonl" if out is not None else None
        with arena.Arena(lineup, games, seed=seed, out=path, resume=resume, backend=backend) as run:
            standings = run.run()
        counts, trinomial = standings.counts(), standings.trinomial
    else:
        counts = trinomial = free_for_all(game, best, opponent, games, seed, backend)
    seconds = time.perf_counter() - began
    estimate = rstats.elo_estimate(counts)
    losses, draws, wins = trinomial
    played = wins + draws + losses
    print(
        f"{name:13} {match:7} {played:6} {100 * (wins + draws / 2) / max(played, 1):6.1f}% "
        f"{estimate.elo:+6.0f} [{estimate.low:+6.0f}, {estimate.high:+6.0f}] "
        f"{wins:5}-{draws}-{losses:<5} {seconds:7.0f}",
        flush=True,
    )


def free_for_all(
    game: rivals.Game,
    best: tuple[str, dict[str, Any]],
    opponent: tuple[str, dict[str, Any]],
    games: int,
    seed: int,
    backend: arena.Backend,
) -> list[int]:
    """Three or more seats, each for itself: ``best`` in one seat, the opponent in every other,
    seats rotating from game to game, every game its own deals. A game counts as one result of
    ``best`` against the opponent in the seat after it in game 0 (a win when its return is higher),
    so the games are independent and the trinomial interval holds. Returns the loss, draw and
    win counts."""
    lineup = arena.Lineup.of(game, [best] + [opponent] * (game.num_players - 1))
    results = arena.run(game, lineup.seat_specs(), games, seed, backend)
    counts = [0, 0, 0]
    for returns, seating in zip(results.returns, results.seating):
        own = returns[list(seating).index(0)]
        other = returns[list(seating).index(1)]
        counts[1 + (own > other) - (own < other)] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", choices=rivals.games(), default=None)
    parser.add_argument("--bot", default="best", help="the bot or preset rated (default: best)")
    parser.add_argument("--match", action="append", choices=sorted(MATCHES), default=None)
    parser.add_argument("--games", type=integer(2), default=200, help="games per match (even)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-s", type=float, default=0.1, help="best's seconds per move")
    parser.add_argument(
        "--clock", choices=["cpu", "wall"], default="cpu", help="what best's time_s counts"
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of best (repeatable)",
    )
    parser.add_argument("--threads", type=integer(1, 256), default=1, help="games played at once")
    parser.add_argument("--out", type=Path, default=None, help="a folder for the replays")
    parser.add_argument("--resume", action="store_true", help="continue the replays in --out")
    args = parser.parse_args()
    if args.resume and args.out is None:
        parser.error("--resume continues the replays in --out: give --out")
    if args.threads > (os.cpu_count() or 1):
        print(f"note: --threads {args.threads} is more than the {os.cpu_count()} cores")
    try:
        changes = cli.parse_assignments(args.param, "--param")
    except cli.CliError as error:
        parser.error(str(error))
    if args.out is not None:
        if args.out.exists() and not args.out.is_dir():
            parser.error(f"--out {args.out} is not a folder")
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            parser.error(f"--out {args.out}: {error.strerror}")
    changed = "".join(f" {key}={value}" for key, value in changes.items())
    print(
        f"{args.bot}{changed} at {args.time_s} s/move ({args.clock} clock), {args.games} games per "
        f"match, {args.threads} at once"
    )
    print(
        f"{'game':13} {'match':7} {'games':>6} {'score':>7} {'Elo':>6} {'95% interval':>16} "
        f"{'W-D-L':>11} {'s':>7}"
    )
    for match in args.match or list(MATCHES):
        for name in MATCHES[match][0]:
            if args.game is None or name in args.game:
                try:
                    play(
                        args.bot,
                        name,
                        match,
                        args.games,
                        args.seed,
                        args.time_s,
                        args.clock,
                        changes,
                        args.threads,
                        args.out,
                        args.resume,
                    )
                except ValueError as error:  # a parameter the bot refuses: said, not a trace
                    parser.error(str(error))


if __name__ == "__main__":
    run_script(main)
