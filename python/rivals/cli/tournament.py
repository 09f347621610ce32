"""``rivals tournament``: every pairing of several bots, rated by Elo from one log."""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import rivals
from rivals import _ray, arena, files
from rivals import tournament as tournaments
from rivals._core import MAX_THREADS, Game
from rivals.cli._common import (
    SEED,
    CliError,
    game_params,
    integer,
    log_path,
    make_game,
    parse_assignments,
    parse_bots,
    print_table,
)
from rivals.cli.arena import _backend, _games_progress, _resumed_text, _shown, _warn_clock
from rivals.render import params_text


def _open_tournament(args: argparse.Namespace, game: Game) -> tournaments.Tournament:
    if args.resume and args.out is None:
        raise CliError("--resume continues the replays of --out FILE; give --out")
    if args.resume and args.force:
        raise CliError("--resume keeps the file and --force replaces it: give one of them")
    if args.html is not None and args.out is not None and files.same_file(args.html, args.out):
        raise CliError(f"--html {args.html} is --out, the replays: give the report another name")
    if args.html is not None:  # before the games, not after them
        try:
            files.check_new(args.html, force=args.force or args.resume)
            _check_report_replaced(args)
        except ValueError as error:
            raise CliError(f"--html: {error}") from None
    listed, by_label = parse_bots(args.bots, args.param)
    labels = arena.label_copies([name for name, _ in listed])
    for label, params in by_label.items():
        if label not in labels:
            raise CliError(f"--param {label}.*: no bot {label!r} (have: {', '.join(labels)})")
        position = labels.index(label)
        listed[position] = (listed[position][0], {**listed[position][1], **params})
    try:
        return tournaments.Tournament(
            game,
            listed,
            args.games,
            args.seed,
            args.out,
            mode=args.mode,
            labels=labels,
            resume=args.resume,
            force=args.force,
            backend=_backend(args),
            duplicate=not args.unpaired,
        )
    except arena.ExistingLog as error:
        raise CliError(
            f"--out {args.out} already holds {error.contents}: add "
            "--resume to continue that tournament, or --force to replace it"
        ) from None
    except ValueError as error:
        raise CliError(str(error)) from None


def _check_report_replaced(args: argparse.Namespace) -> None:
    """--resume replaces only a page that is a tournament's report, not any file that happens
    to bear the name (a record above all)."""
    try:
        replaced = (
            args.resume and os.path.isfile(args.html) and not tournaments.is_report(args.html)
        )
    except OSError as error:
        raise ValueError(f"{args.html}: {error.strerror or error}") from None
    if replaced:
        raise ValueError(
            f"{args.html} is not a tournament's report, so --resume does not replace it; "
            "give the report another name"
        )


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    game = make_game(args.game, parse_assignments(args.game_param, "--game-param"))
    with _open_tournament(args, game) as event:
        _warn_clock(game, event.entries, "tournament")
        started = time.perf_counter()
        status, failure = _play_tournament(event, args)
        elapsed = time.perf_counter() - started
        if event.played > 0:
            _print_tournament(console, event, args, elapsed)
            if args.html is not None:
                try:
                    # A resumed tournament's report replaces the one its first run wrote.
                    _check_report_replaced(args)
                    files.write_new(
                        args.html,
                        tournaments.report_html(event),
                        force=args.force or args.resume,
                    )
                except ValueError as error:
                    raise CliError(f"--html: {error}") from None
                console.print(Text(f"report: {args.html}", style="dim"))
    if status == 130:
        done = f"interrupted after {event.played} of {event.total_games} games"
        console.print(Text(done, style="bold yellow"))
    if failure is not None:
        raise CliError(failure)
    return status


def _play_tournament(
    event: tournaments.Tournament, args: argparse.Namespace
) -> tuple[int, str | None]:
    progress = _games_progress()
    task = progress.add_task(
        f"{event.game.name} {event.mode}", total=event.total_games, completed=event.played
    )
    try:
        with _shown(progress):
            event.run(lambda e: progress.update(task, completed=e.played))
    except KeyboardInterrupt:
        return 130, None
    except OSError as error:
        failure = f"--out {args.out}: {error.strerror or error}"
        if event.played > event.recorded:
            failure += (
                f"; {event.played - event.recorded} games are counted in the table but are not "
                "in the file"
            )
        return 2, failure
    except rivals.BudgetExceeded as error:
        return 2, f"{error}; give the bot a larger budget (docs/bots.md)"
    except ValueError as error:
        return 2, str(error)
    return 0, None


def _print_tournament(
    console: Console, event: tournaments.Tournament, args: argparse.Namespace, elapsed: float
) -> None:
    ratings = event.ratings()
    game = event.game
    pairing_mode = "duplicate pairs" if event.group == 2 else "unpaired games"
    # A line of its own, not the table's title: a title wraps at the table's width, however wide
    # the terminal.
    console.print(
        Text(
            f"{game.name} {params_text(game.params)}".strip()
            + f", {event.mode}, {event.played} games ({pairing_mode}), seed {event.seed}"
        )
    )
    table = Table(box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    for heading in ("rank", "bot", "Elo", "95% CI", "games", "score"):
        table.add_column(heading, justify="left" if heading == "bot" else "right", no_wrap=True)
    played = {label: 0 for label in event.labels}
    points = {label: 0.0 for label in event.labels}
    rows = tournaments.pairing_rows(event)
    for row in rows:
        played[row["first"]] += row["games"]
        played[row["second"]] += row["games"]
        points[row["first"]] += row["wins"] + row["draws"] / 2
        points[row["second"]] += row["losses"] + row["draws"] / 2
    for rank, index in enumerate(ratings.order(), 1):
        label = event.labels[index]
        interval = tournaments.rating_interval_text(ratings, index)
        share = points[label] / played[label] if played[label] else 0.0
        table.add_row(
            str(rank),
            Text(label, style="bold"),
            tournaments.rating_text(ratings, index),
            interval,
            str(played[label]),
            f"{100 * share:.1f}%",
        )
    print_table(console, table)
    pairs = Table(box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False)
    for heading in ("pairing", "games", "W-D-L", "score", "Elo (95% CI)"):
        numbers = heading != "pairing"
        pairs.add_column(heading, justify="right" if numbers else "left", no_wrap=numbers)
    if event.group == 2:
        pairs.add_column("pairs LL..WW", justify="right", no_wrap=True)
    for row in rows:
        estimate = row["elo"]
        cells: list[str | Text] = [
            Text(f"{row['first']} vs {row['second']}"),
            str(row["games"]),
            f"{row['wins']}-{row['draws']}-{row['losses']}",
            tournaments.score_text(row),
            tournaments.elo_text(estimate),
        ]
        if event.group == 2:
            cells.append("-".join(map(str, row["pentanomial"])))
        pairs.add_row(*cells)
    print_table(console, pairs)
    fresh = event.played - event.resumed
    rate = f"{fresh / elapsed:,.1f} games/s, {elapsed:.2f} s; " if fresh and elapsed > 0 else ""
    console.print(Text(f"{rate}Elo relative to {event.labels[0]}, ratings by maximum likelihood"))
    for entry in event.entries:
        changed = tournaments._changed(game, entry)
        if changed:
            settings = ", ".join(f"{key}={json.dumps(value)}" for key, value in changed.items())
            console.print(Text(f"{entry.label}: {entry.name} with {settings}", style="dim"))
    if event.log is not None:
        resumed = _resumed_text(event.resumed, args)
        console.print(Text(f"replays: {event.log.path}{resumed}", style="dim"))


def add_parser(commands: Any) -> None:
    tour = commands.add_parser(
        "tournament", help="bots in every pairing; Elo ratings, a table and a report"
    )
    tour.add_argument("game", help="a game name (see rivals games)")
    tour.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help="two or more bots, separated by spaces or commas: mcts random ...",
    )
    tour.add_argument(
        "--mode",
        choices=list(tournaments.MODES),
        default="round-robin",
        help="every pairing (round-robin, default) or the first bot against each other (gauntlet)",
    )
    tour.add_argument(
        "--games",
        type=integer(1, arena.MAX_GAMES),
        default=100,
        help="games per pairing (100; even for duplicate pairs)",
    )
    tour.add_argument("--seed", type=SEED, default=0, help="the seed of every pairing (0)")
    tour.add_argument(
        "--threads", type=integer(1, MAX_THREADS), default=None, help="default: all cores"
    )
    tour.add_argument(
        "--out", type=log_path, default=None, metavar="FILE.jsonl", help="write every replay"
    )
    tour.add_argument("--resume", action="store_true", help="continue the tournament in --out")
    tour.add_argument("--force", action="store_true", help="replace a non-empty --out (and --html)")
    tour.add_argument(
        "--html",
        default=None,
        metavar="OUT.html",
        help="write a report page (with --resume it replaces the one the first run wrote)",
    )
    tour.add_argument(
        "--unpaired",
        action="store_true",
        help="every game its own deals (default: duplicate pairs with the same deals)",
    )
    _ray.add_options(tour, "the games")
    tour.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot parameter; mcts#2.iterations=400 sets the second mcts (repeatable)",
    )
    game_params(tour)
    tour.set_defaults(handler=cmd_tournament)
