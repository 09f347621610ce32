"""``rivals play``: a person plays bots at the terminal, seeing what their seat may see."""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

import rivals
from rivals import replay as replays
from rivals._core import Bot, State
from rivals.cli._common import (
    SEED,
    CliError,
    check_bot,
    game_params,
    integer,
    make_game,
    parse_assignments,
)
from rivals.cli.replay import _load_replay_data
from rivals.play import PLAY_HELP, PlaySession, printable
from rivals.render import player_label, rules_hint, seat_name


def _bot_params(items: Sequence[str], bot: str, hint: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``--param`` for play: ``KEY=V`` or ``BOT.KEY=V`` for the opponents, ``HINT.KEY=V`` for
    the hint bot (``mcts``, or ``ismcts`` in a game with hidden information). Returns (opponent
    params, hint params)."""
    opponent: dict[str, Any] = {}
    hints: dict[str, Any] = {}
    for key, value in parse_assignments(items, "--param").items():
        target, dot, param = key.rpartition(".")
        if not dot:
            opponent[param] = value
            continue
        if target not in (bot, hint):
            have = ", ".join(dict.fromkeys((bot, hint)))
            raise CliError(f"--param {key}=...: no bot {target!r} here (have: {have})")
        if target == bot:
            opponent[param] = value
        if target == hint:
            hints[param] = value
    if bot == hint:
        # Hints then come from a bot as strong as the opponents.
        hints = {**opponent, **hints}
    return opponent, hints


def _resumed_game(args: argparse.Namespace) -> tuple[State, int, list[Any] | None]:
    """``--resume FILE``: the saved game, the person's seat and the bots it names (None when
    the file names none: a replay saved by other means)."""
    if args.game_param:
        raise CliError("--game-param: a resumed game keeps the rules it was saved with")
    data, where = _load_replay_data(Path(args.resume), None)
    try:
        state = replays.from_dict(data)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    game = state.game
    if args.game is not None and args.game != game.name:
        raise CliError(f"{where} is a game of {game.name}, not {args.game}")
    if state.is_terminal():
        raise CliError(f"{where}: the game is over (rivals replay {shlex.quote(where)} shows it)")
    bots = data.get("bots") if isinstance(data, dict) else None
    people = [seat for seat, bot in enumerate(bots or []) if bot is None]
    if bots is None or len(people) != 1:
        seat = 0 if args.seat is None else args.seat
        return state, seat, None
    if args.seat is not None and args.seat != people[0]:
        # Taking over another seat would show it a view its player never had.
        raise CliError(f"--seat {args.seat}: {where} was saved by the player of seat {people[0]}")
    return state, people[0], list(bots)


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    resumed: State | None = None
    saved_bots: list[Any] | None = None
    if args.resume is not None:
        resumed, seat, saved_bots = _resumed_game(args)
        game = resumed.game
    else:
        if args.game is None:
            raise CliError("name a game (rivals games lists them), or --resume FILE")
        game = make_game(args.game, parse_assignments(args.game_param, "--game-param"))
        seat = 0 if args.seat is None else args.seat
    players = game.num_players
    if not 0 <= seat < players:
        raise CliError(f"--seat {seat}: {game.name} has seats 0 to {players - 1}")
    hidden = game.info.information == "imperfect"
    # With hidden information the default opponent and the hints search the information set,
    # so neither sees a card the person's seat may not.
    bot_name = args.bot or ("ismcts" if hidden else "mcts")
    hint_name = "ismcts" if hidden else "mcts"
    opponent_params, hint_params = _bot_params(args.param, bot_name, hint_name)
    from_file = saved_bots is not None and args.bot is None and not args.param
    if saved_bots is not None and from_file:
        # The bots the game was saved with, unless --bot or --param choose others.
        seated = {
            other: (bot["name"], dict(bot["params"]))
            for other, bot in enumerate(saved_bots)
            if bot is not None
        }
    else:
        seated = {other: (bot_name, opponent_params) for other in range(players) if other != seat}
    for other, (name, params) in seated.items():
        # Each seat's: a file may give two seats the same bot with other settings.
        check_bot(
            game, name, params, f"{printable(args.resume)}: seat {other}" if from_file else name
        )
    check_bot(game, hint_name, hint_params, f"{hint_name} (hints)")
    # From 2**63 values: the seed decides the deals, so a small range could be searched for them.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    # Bot seeds follow the game seed; they wrap round at 64 bits like the engine's seeds.
    opponents = {
        other: rivals.bots.make(name, game, (seed + other) % 2**64, **params)
        for other, (name, params) in seated.items()
    }
    names = ["you" if other == seat else seated[other][0] for other in range(players)]

    def hint_bot() -> Bot:
        return rivals.bots.make(hint_name, game, (seed + players) % 2**64, **hint_params)

    state = game.new_initial_state()
    shown = sorted({name for name, _ in seated.values()})
    plays = sorted({opponents[other].name for other in opponents})
    against = ", ".join(shown)
    if plays != shown:
        against += f" ({', '.join(plays)})"
    if resumed is not None:
        moves = len(resumed.history())
        console.print(Text(f"resumed {printable(args.resume)}: {moves} moves played", style="bold"))
    # The seed decides every deal and draw: told before the end, it would tell the cards.
    console.print(Text(f"{game.name}: you are {seat_name(state, seat)} against {against}"))
    if from_file:
        # The file chose these settings: said, so that a file from elsewhere sets nothing unseen.
        for other, bot in sorted(opponents.items()):
            defaults = rivals.bots.make(bot.name, game).params
            changed = [
                f"{key}={json.dumps(value)}"
                for key, value in bot.params.items()
                if defaults.get(key) != value
            ]
            if changed:
                who = player_label(state, other)
                console.print(Text(f"  {who}: {bot.name} with {' '.join(changed)}", style="dim"))
    unfair = [name for name in plays if name not in game.info.fair_bots]
    if unfair:
        console.print(
            Text(
                f"note: {unfair[0]} searches the true state, so it sees your hidden cards; "
                "ismcts plays on what its seat may see",
                style="yellow",
            )
        )
    console.print(Text(f"{PLAY_HELP}; {rules_hint(game.name)}", style="dim"))
    session = PlaySession(
        console, game, seat, opponents, names, hint_bot, seed, sys.stdin, hint_name, resumed
    )
    status = session.run()
    again = "deals and draws this game's cards again"
    if resumed is not None:
        again = f"with --resume {shlex.quote(printable(args.resume))} draws the later cards again"
    console.print(Text(f"seed {seed} (--seed {seed} {again})"))
    return status


def add_parser(commands: Any) -> None:
    play = commands.add_parser("play", help="play against bots at the terminal")
    play.add_argument(
        "game", nargs="?", default=None, help="a game name (see rivals games); not with --resume"
    )
    play.add_argument(
        "--resume",
        default=None,
        metavar="FILE",
        help="continue a game saved with save FILE (its game, seat and bots)",
    )
    play.add_argument(
        "--bot",
        default=None,
        help="the bot in every other seat (default: ismcts with hidden information, else mcts)",
    )
    play.add_argument("--seat", type=integer(0), default=None, help="your seat (0 moves first)")
    play.add_argument("--seed", type=SEED, default=None, help="default: random")
    play.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="[BOT.]KEY=VALUE",
        help="a parameter of the opponents' bot; mcts.KEY (ismcts.KEY with hidden information) "
        "also sets up hints (repeatable)",
    )
    game_params(play)
    play.set_defaults(handler=cmd_play)
