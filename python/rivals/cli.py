"""The ``rivals`` command line: ``arena``, ``play``, ``rules``, ``replay``, ``bench`` and ``games``.

Every sub-command is a function ``(args, console) -> exit status``; ``main`` turns the user's
mistakes (a bad game parameter, a missing file, a corrupt replay) into one line on stderr and exit
status 2, the same status argparse uses for a bad command line.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import random
import re
import shlex
import shutil
import stat
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.measure import Measurement
from rich.pager import Pager
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table
from rich.text import Text

import rivals
from rivals import arena, files, rulebook, stats, viewer
from rivals import replay as replays
from rivals import tournament as tournaments
from rivals._core import MAX_THREADS, Bot, Game, State
from rivals.arena import BotSpec
from rivals.play import PLAY_HELP, PlaySession, printable
from rivals.render import (
    move_texts,
    params_text,
    player_label,
    render,
    result_text,
    rules_hint,
    seat_name,
    svg,
)

__all__ = ["CliError", "main"]


class CliError(Exception):
    """A mistake by the user: reported as one line on stderr, exit status 2."""


# --------------------------------------------------------------------------------------------
# Parsing helpers


def parse_value(text: str) -> Any:
    """``500`` -> 500, ``0.5`` -> 0.5, ``true`` -> True, ``[1, 2]`` -> list; anything else stays
    a string, so ``--param mcts.policy=uct`` needs no quotes."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text


def parse_assignments(items: Iterable[str], option: str) -> dict[str, Any]:
    """``["players=4", ...]`` -> ``{"players": 4, ...}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"{option} {item!r}: expected KEY=VALUE")
        out[key.strip()] = parse_value(value.strip())
    return out


def make_game(name: str, params: dict[str, Any]) -> Game:
    try:
        return rivals.make(name, **params)
    except ValueError as error:
        raise CliError(str(error)) from None


def parse_bots(
    values: Sequence[str], param_items: Sequence[str]
) -> tuple[list[BotSpec], dict[str, dict[str, Any]]]:
    """``--bots`` as argparse gives it, names separated by spaces, commas or both (``["mcts",
    "random"]``, ``["mcts,random"]``), plus ``["mcts.iterations=500", "mcts#2.time_s=1"]`` -> the
    listed bots with the parameters set by name, and the parameters set by label (``mcts#2``: the
    second copy, see ``rivals.arena.label_copies``), which win over the former. Every command
    that takes ``--bots`` reads it here."""
    names = [name.strip() for value in values for name in value.split(",")]
    if not names or any(not name for name in names):
        shown = " ".join(values)
        raise CliError(
            f"--bots {shown!r}: expected names separated by spaces or commas, e.g. mcts random"
        )
    try:
        arena.check_labels(None, names)
    except ValueError as error:
        raise CliError(f"--bots: {error}") from None
    by_name: dict[str, dict[str, Any]] = {}
    by_label: dict[str, dict[str, Any]] = {}
    for key, value in parse_assignments(param_items, "--param").items():
        target, dot, param = key.partition(".")
        if not dot or not param:
            raise CliError(f"--param {key}=...: expected BOT.KEY=VALUE, e.g. mcts.iterations=500")
        if target in names:
            by_name.setdefault(target, {})[param] = value
        elif "#" in target and target.partition("#")[0] in names:
            by_label.setdefault(target, {})[param] = value
        else:
            known = ", ".join(dict.fromkeys(names))
            raise CliError(f"--param {key}=...: no bot {target!r} in --bots (have: {known})")
    return [(name, dict(by_name.get(name, {}))) for name in names], by_label


def check_bot(game: Game, name: str, params: dict[str, Any], label: str) -> None:
    """Fails early, with the engine's message, on an unknown bot or parameter."""
    try:
        rivals.bots.make(name, game, 0, **params)
    except ValueError as error:
        raise CliError(f"bot {label}: {error}") from None


def log_path(text: str) -> str:
    """An argparse type: the file replays go to, which ``-`` or nothing cannot name."""
    if text == "-":
        raise argparse.ArgumentTypeError(
            "expected a file name for the replays, got '-': they are not written to standard "
            "output, where the table goes"
        )
    if not text:
        raise argparse.ArgumentTypeError("expected a file name for the replays, got ''")
    return text


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``, with a message that says so."""
    expected = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text}")
        return value

    return parse


class ArgumentParser(argparse.ArgumentParser):
    """argparse with its errors on one line (``rivals arena: error: ...``), like every other
    error of the command line, and the usage left to ``--help``."""

    commands: dict[str, argparse.ArgumentParser]  # the sub-commands' parsers, by name

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


# --------------------------------------------------------------------------------------------
# arena


def _lineup(args: argparse.Namespace, game: Game) -> arena.Lineup:
    listed, by_label = parse_bots(args.bots, args.param)
    try:
        return arena.Lineup.of(game, listed, by_label)
    except ValueError as error:
        raise CliError(str(error)) from None


def _backend(args: argparse.Namespace) -> arena.Backend:
    if args.backend == "ray":
        return arena.RayBackend(address=args.ray_address, threads_per_task=args.threads or 1)
    return arena.LocalBackend(args.threads)


def parse_sprt(args: argparse.Namespace) -> stats.Sprt | None:
    """``--sprt elo0,elo1`` with ``--alpha`` and ``--beta``, checked."""
    if args.sprt is None:
        if args.alpha is not None or args.beta is not None:
            raise CliError("--alpha and --beta are the error rates of --sprt; give --sprt")
        return None
    parts = args.sprt.split(",")
    try:
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise CliError(
            f"--sprt {args.sprt!r}: expected two Elo differences elo0,elo1, e.g. 0,10"
        ) from None
    try:
        return stats.Sprt(
            elo0,
            elo1,
            0.05 if args.alpha is None else args.alpha,
            0.05 if args.beta is None else args.beta,
        )
    except ValueError as error:
        raise CliError(f"--sprt: {error}") from None


def _open_arena(args: argparse.Namespace, lineup: arena.Lineup) -> arena.Arena:
    if args.resume and args.out is None:
        raise CliError("--resume continues the replays of --out FILE; give --out")
    if args.resume and args.force:
        raise CliError("--resume keeps the file and --force replaces it: give one of them")
    try:
        return arena.Arena(
            lineup,
            args.games,
            args.seed,
            args.out,
            resume=args.resume,
            force=args.force,
            backend=_backend(args),
            duplicate=not args.unpaired,
            sprt=parse_sprt(args),
        )
    except arena.ExistingLog as error:
        raise CliError(
            f"--out {args.out} already holds {error.contents}: add "
            "--resume to continue that arena, or --force to replace it"
        ) from None
    except arena.OtherArena as error:
        hint = ""
        if "plays duplicate" in str(error):
            hint = " (add --unpaired to continue an arena of unpaired games)"
        elif "plays unpaired" in str(error):
            hint = " (drop --unpaired to continue an arena of duplicate games)"
        raise CliError(f"{error}{hint}") from None
    except ValueError as error:
        raise CliError(str(error)) from None


class _BotProgress(ProgressColumn):
    """What long-thinking bots have done (the solver: contexts solved). rich redraws it from its
    own thread, which runs while the games run in C++ without the GIL."""

    def __init__(self, match: arena.Arena) -> None:
        super().__init__(table_column=Column(no_wrap=True))
        # rich keeps its display in a reference cycle, which may outlive the run: hold the arena
        # weakly, so that its engine objects go with it.
        self.match = weakref.ref(match)

    def render(self, task: Task) -> Text:
        del task
        match = self.match()
        stats = match.bot_stats() if match is not None else {}
        parts = [
            f"{label}: {values['contexts']:,} contexts solved"
            for label, values in stats.items()
            if "contexts" in values
        ]
        return Text(", ".join(parts), style="cyan")


def _warn_clock(game: Game, entries: Sequence[arena.Entry], command: str = "arena") -> None:
    limited = [e for e in entries if rivals.bots.clock_dependent(game, e.name, e.params)]
    if limited:
        settings = ", ".join(f"{e.label}.time_s={e.params['time_s']}" for e in limited)
        print(
            f"rivals {command}: warning: {settings} thinks by the clock, so the games depend on "
            "the machine's speed and load: the same --seed can give other games, and --resume does "
            "not repeat an uninterrupted run; budgets by iterations (or depth) are exact",
            file=sys.stderr,
        )


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    game = make_game(args.game, parse_assignments(args.game_param, "--game-param"))
    lineup = _lineup(args, game)
    _warn_clock(game, lineup.entries)
    with _open_arena(args, lineup) as match:
        started = time.perf_counter()
        status, failure = _play(match, args)
        elapsed = time.perf_counter() - started
        if status != 2 or match.standings.games > 0:
            _print_arena(console, match, args, elapsed)
    if status == 130:
        done = f"interrupted after {match.standings.games} of {args.games} games"
        console.print(Text(done, style="bold yellow"))
    if failure is not None:
        raise CliError(failure)
    return status


def _games_progress(*extra: ProgressColumn) -> Progress:
    """A bar of games played on stderr, shown at a terminal only and gone when it ends."""
    errors = Console(stderr=True)
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        *extra,
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    )


@contextlib.contextmanager
def _shown(progress: Progress) -> Iterator[None]:
    """Shows ``progress`` while the block runs."""
    progress.start()
    try:
        yield
    finally:
        # A Ctrl-C pressed while the games ran in C++ surfaces at the next Python line; if that
        # is in here, the display's thread would keep drawing for ever.
        with arena.interrupts_deferred():
            progress.stop()


def _play(match: arena.Arena, args: argparse.Namespace) -> tuple[int, str | None]:
    """Runs the arena under a progress display: (exit status, error line or None)."""
    progress = _games_progress(_BotProgress(match))
    labels = " vs ".join(entry.label for entry in match.lineup.entries)
    description = Text(f"{match.lineup.game.name}: {labels}").markup
    task = progress.add_task(description, total=args.games, completed=match.standings.games)

    def update(standings: arena.Standings) -> None:
        if match.sprt is not None:
            # The test's progress as it runs: stderr at a terminal only, like the bar.
            lower, upper = match.sprt.bounds
            text = f"{description}: LLR {match.llr():+.2f} ({lower:+.2f}, {upper:+.2f})"
            progress.update(task, completed=standings.games, description=text)
        else:
            progress.update(task, completed=standings.games)

    try:
        with _shown(progress):
            match.run(update)
    except KeyboardInterrupt:
        return 130, None
    except OSError as error:
        failure = f"--out {args.out}: {error.strerror or error}"
        if match.standings.games > match.recorded:
            failure += (
                f"; games {match.recorded}-{match.standings.games - 1} are counted in the table "
                "but are not in the file"
            )
        return 2, failure
    except rivals.BudgetExceeded as error:
        finished = match.standings.games - match.resumed
        kept = "the table" + (" and the file" if args.out else "")
        outcome = (
            f"the {finished} games finished are in {kept}" if finished else "no game was finished"
        )
        return 2, f"{error}; give the bot a larger budget (docs/bots.md): {outcome}"
    except ValueError as error:
        return 2, str(error)
    return 0, None


def _print_arena(
    console: Console, match: arena.Arena, args: argparse.Namespace, elapsed: float
) -> None:
    standings = match.standings
    played = standings.games - match.resumed
    lineup = standings.lineup
    game = lineup.game
    params = params_text(game.params)
    table = Table(
        # A Text title: parameter values such as [1, 2] must not be read as rich markup.
        title=Text(
            f"{game.name} {params}".strip() + f", {standings.games} games, seed {match.seed}"
        ),
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
    )
    longest = max(len(entry.label) for entry in lineup.entries)
    table.add_column("bot", style="bold", no_wrap=True, min_width=longest)
    # Short headings keep the table within 80 columns; docs/cli.md explains them.
    headings = ["games", "wins", "draws", "losses", "win rate (95% CI)", "return"]
    if standings.ranked:
        headings.append("rank")
    for heading in headings:
        table.add_column(heading, justify="right", no_wrap=True)
    for entry, record in zip(lineup.entries, standings.records):
        low, high = record.win_interval
        row: list[str | Text] = [
            Text(entry.label),
            str(record.games),
            str(record.wins),
            str(record.draws),
            str(record.losses),
            f"{100 * record.win_rate:.1f}% ({100 * low:.1f}-{100 * high:.1f})",
            f"{record.mean_return:+.3f}",
        ]
        if standings.ranked:
            row.append(f"{record.mean_rank:.2f}")
        table.add_row(*row)
    print_table(console, table)
    rate = played / elapsed if elapsed > 0 else 0.0
    shown_rate = f"{rate:,.1f}" if rate >= 1 or rate == 0 else f"{rate:.3f}"
    backend = match.backend
    workers = f"{backend.workers} {'thread' if backend.name == 'local' else 'Ray worker'}"
    console.print(
        Text(
            f"{shown_rate} games/s, mean length {standings.mean_length:.1f} actions, "
            f"{elapsed:.2f} s on {workers}{'s' if backend.workers != 1 else ''}"
        )
    )
    for label, progress_stats in match.bot_stats().items():
        if "contexts" in progress_stats:
            solved = f"{label}: {progress_stats['contexts']:,} contexts solved"
            console.print(Text(solved, style="dim"))
    if lineup.teams:
        seats = len(lineup.seat_entry) // len(lineup.entries)
        console.print(Text(f"each bot plays a team of {seats} seats", style="dim"))
    for entry in lineup.entries:
        defaults = game.make_bot(entry.name, {}, 0).params
        changed = {k: v for k, v in entry.params.items() if defaults.get(k) != v}
        if changed:
            settings = ", ".join(f"{key}={json.dumps(value)}" for key, value in changed.items())
            console.print(Text(f"{entry.label}: {entry.name} with {settings}", style="dim"))
    if standings.versus and standings.games:
        console.print(Text(_versus_line(standings, sequential=match.sprt is not None)))
    if match.sprt is not None:
        console.print(Text(_sprt_line(match)))
    if args.out is not None:
        console.print(Text(f"replays: {args.out}{_resumed_text(match.resumed, args)}", style="dim"))


def _versus_line(standings: arena.Standings, sequential: bool) -> str:
    """``random vs mcts: Elo -412 (-520 to -340) at 95%, 50 duplicate pairs 40-6-3-1-0 ...``;
    after an SPRT (``sequential``) the interval allows for where the test stopped."""
    first, second = (entry.label for entry in standings.lineup.entries)
    estimate = stats.elo_estimate(standings.counts(), sequential=sequential)
    if standings.paired:
        units = f"{estimate.units} duplicate pairs {'-'.join(map(str, standings.pentanomial))}"
        units += " (pentanomial LL..WW)"
        if standings.pending is not None:
            units += ", the last pair unfinished"
    else:
        units = f"{estimate.units} games {'-'.join(map(str, standings.trinomial))} (L-D-W)"
    if not estimate.bounded:
        elo = tournaments.elo_text(estimate, too_few="too few games for a 95% interval")
    else:
        after = " after the SPRT" if sequential else ""
        elo = f"{tournaments.elo_text(estimate)} at 95%{after}"
    return f"{first} vs {second}: Elo {elo}, {units}"


def _sprt_line(match: arena.Arena) -> str:
    sprt = match.sprt
    assert sprt is not None
    lower, upper = sprt.bounds
    second = match.lineup.entries[1].label
    head = (
        f"SPRT {second} at least {sprt.elo1:g} Elo stronger (H1) against {sprt.elo0:g} (H0), "
        f"alpha {sprt.alpha:g}, beta {sprt.beta:g}: LLR {match.llr():+.3f} in "
        f"({lower:+.3f}, {upper:+.3f})"
    )
    games = match.standings.games
    if match.decision == "H1":
        return f"{head}: H1 accepted after {games} games"
    if match.decision == "H0":
        return f"{head}: H0 accepted after {games} games"
    return f"{head}: undecided after {games} games"


# --------------------------------------------------------------------------------------------
# tournament


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


def _resumed_text(resumed: int, args: argparse.Namespace) -> str:
    """After the replays' file name: how many games were resumed, and a word when --resume found
    none (a misspelt name starts a new record)."""
    if resumed:
        return f" ({resumed} resumed)"
    return " (--resume found no games: a new record)" if args.resume else ""


# --------------------------------------------------------------------------------------------
# play


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


class _CommandPager(Pager):
    """The reader's ``$PAGER`` (or ``less``, told to keep colours and to leave a page that fits
    the screen at once): a rules page runs to hundreds of lines."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.command = command
        self.env = env

    def show(self, content: str) -> None:
        process = subprocess.Popen(self.command, stdin=subprocess.PIPE, text=True, env=self.env)
        assert process.stdin is not None
        # Ctrl-C belongs to the pager while it runs: killed, it would leave the terminal in its
        # modes. Only the pager's own end (quit, or its stdin gone) ends the wait.
        with contextlib.suppress(KeyboardInterrupt, BrokenPipeError), process.stdin as pipe:
            pipe.write(content)
        while True:
            try:
                process.wait()
                return
            except KeyboardInterrupt:
                continue


def _pager() -> Pager | None:
    """A pager for a reader at a terminal, or None (no pager, or not a reader's terminal)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    env = dict(os.environ)
    chosen = env.get("PAGER", "").strip()
    if chosen:
        try:
            command = shlex.split(chosen)
        except ValueError:
            return None
        return _CommandPager(command, env) if command and shutil.which(command[0]) else None
    if shutil.which("less") is None:
        return None
    env.setdefault("LESS", "-FRX")
    return _CommandPager(["less"], env)


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    try:
        text = rulebook.page(args.game) if args.full else rulebook.rules(args.game)
    except ValueError as error:
        raise CliError(str(error)) from None
    if not args.full:
        text += (
            f"\nThe engine's encoding of {args.game} (actions, snapshot, observation): "
            f"`rivals rules {args.game} --full`.\n"
        )
    if console.is_terminal and not args.plain:
        pager = _pager()
        if pager is None:
            console.print(Markdown(text))
        else:
            with console.pager(pager, styles=True):
                console.print(Markdown(text))
    else:
        write_out(text)
    return 0


# --------------------------------------------------------------------------------------------
# replay


def _load_replay_data(path: Path, index: int | None) -> tuple[Any, str]:
    """The replay dict picked from a .json or .jsonl file, and a name for it in messages."""
    try:
        if path.suffix != ".jsonl":
            with replays.open_file(path) as handle:
                data = handle.read(replays.MAX_BYTES + 1)  # more is refused as too large
            try:
                return _one_replay(replays.decode(data), path, index), str(path)
            except ValueError as error:
                # An arena file under another name: one JSON object per line.
                if data.count(b"\n") < 2 or not data.lstrip().startswith(b"{"):
                    raise CliError(f"{path}: {error}") from None
        return _replay_line(path, index)
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except OSError as error:
        raise CliError(f"{path}: {error.strerror}") from None
    except ValueError as error:  # not a regular file
        raise CliError(str(error)) from None


def _one_replay(data: Any, path: Path, index: int | None) -> Any:
    if index not in (None, 0):
        raise CliError(f"{path} holds one replay; --index {index} is out of range")
    return data


def _replay_line(path: Path, index: int | None) -> tuple[Any, str]:
    """Game ``index`` (counting non-empty lines) of a replay log, read by the arena's reader."""
    chosen = 0 if index is None else index
    count = 0
    for line in arena.read_log(path):  # a ValueError names a line too long to be a replay
        if not line.data.strip():
            continue
        if count == chosen:
            where = f"{path} line {line.number}"
            try:
                return line.decode(), where
            except ValueError as error:
                raise CliError(f"{where}: {error}") from None
        count += 1
    if count == 0:
        raise CliError(f"{path}: no replays in the file")
    raise CliError(f"{path} holds {count} replays; --index {chosen} is out of range")


def _check_player(player: int | None, game: Game) -> None:
    if player is not None and not 0 <= player < game.num_players:
        raise CliError(f"--player {player}: {game.name} has seats 0 to {game.num_players - 1}")


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    data, where = _load_replay_data(Path(args.file), args.index)
    try:
        final = replays.from_dict(data)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    game = final.game
    _check_player(args.player, game)
    if args.spectator and args.player is not None:
        raise CliError("--spectator and --player: choose one view")
    if args.html is not None:
        _refuse_overwriting_input(args.file, args.html, "--html")
        # The whole record's reader may switch to every seat's view; --player gives one seat's
        # page, --spectator the public one, to pass on without the hidden cards.
        every_seat = args.player is None and not args.spectator
        try:
            viewer.write_html(
                data, args.html, player=args.player, force=args.force, seats=every_seat
            )
        except ValueError as error:
            raise CliError(f"--html: {error}") from None
        hidden = every_seat and game.info.information == "imperfect"
        shown = ": every seat's view, hidden cards included" if hidden else ""
        console.print(Text(f"wrote {args.html}: {len(final.history())} moves{shown}"))
        return 0
    params = params_text(game.params)
    console.print(Text(f"{game.name} {params}".strip(), style="bold"))
    arena_info = data.get("arena") if isinstance(data, dict) else None
    bots = arena_info.get("labels") if isinstance(arena_info, dict) else None
    if isinstance(bots, list) and len(bots) == game.num_players:
        seats = ", ".join(f"{player_label(final, seat)}: {name}" for seat, name in enumerate(bots))
        console.print(Text(seats))
    seat = args.player
    if seat is not None:
        console.print(Text(f"as {seat_name(final, seat)} sees it", style="dim"))
    # A seat sees its own moves and what the rules reveal; without --player, the whole record.
    texts = move_texts(final, seat) if seat is not None else None
    walker = game.new_initial_state()
    for number, action in enumerate(final.history(), start=1):
        player = walker.current_player()
        line = Text(f"{number:>4}  ")
        line.append(f"{player_label(walker, player):<12}", "dim" if player < 0 else "bold")
        line.append(f" {walker.action_to_string(action) if texts is None else texts[number - 1]}")
        console.print(line)
        walker.apply_action(action)
        if args.boards:
            console.print(render(walker, player=seat))
    console.print()
    # The picture's own first line says what the position is: "final position" or who is to move.
    console.print(render(final, player=seat))
    console.print(Text(f"result: {result_text(final)}", style="bold"))
    return 0


def _refuse_overwriting_input(source: str, output: str, option: str) -> None:
    # --force replaces an old output, never the saved game being read.
    if files.same_file(source, output):
        raise CliError(f"{option} {output} is the replay file being read: give another name")


def cmd_render(args: argparse.Namespace, console: Console) -> int:
    data, where = _load_replay_data(Path(args.file), args.index)
    try:
        state = viewer.state_at(data, args.step)
        _check_player(args.player, state.game)
        picture = svg.to_svg(state, args.player)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    if args.out is None:
        write_out(picture)
        return 0
    _refuse_overwriting_input(args.file, args.out, "--out")
    try:
        files.write_new(args.out, picture, force=args.force)
    except ValueError as error:
        raise CliError(f"--out: {error}") from None
    console.print(Text(f"wrote {args.out}: step {args.step} of {where}"))
    return 0


# --------------------------------------------------------------------------------------------
# bench, games


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    # Imported here: the benchmarks pull in more than the other sub-commands need.
    bench = importlib.import_module("rivals.bench")
    known = bench.games()
    unknown = [name for name in args.games if name not in known]
    if unknown:
        raise CliError(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(known)}")
    status = bench.main(list(args.games) or rivals.games(), args.quick)
    return status if isinstance(status, int) else 0


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    del args
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("game", style="bold")
    table.add_column("players", justify="right")
    table.add_column("description")
    for name in rivals.games():
        info = rivals.make(name).info
        counts = ", ".join(str(count) for count in info.player_counts)
        table.add_row(
            name, counts, Text.assemble((info.long_name, "italic"), ": ", info.description)
        )
    print_table(console, table)
    return 0


def cmd_bots(args: argparse.Namespace, console: Console) -> int:
    names = list(args.games) or rivals.games()
    unknown = [name for name in names if name not in rivals.games()]
    if unknown:
        raise CliError(f"unknown game {unknown[0]!r}; choose from {', '.join(rivals.games())}")
    infos = [rivals.make(name).info for name in names]
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("game", style="bold")
    table.add_column("bots")
    table.add_column("evaluations")
    for info in infos:
        table.add_row(info.name, ", ".join(info.bots), ", ".join(info.evaluations) or "-")
    print_table(console, table)
    presets = Table(box=box.SIMPLE_HEAD, title="presets: rivals.bots.make(NAME, game), --bots NAME")
    presets.add_column("game", style="bold", no_wrap=True)
    presets.add_column("preset", style="bold", no_wrap=True)
    presets.add_column("plays")
    presets.add_column("what it is", style="dim")
    for info in infos:
        for preset, spec in info.presets.items():
            settings = " ".join(
                f"{key}={json.dumps(value)}" for key, value in spec["params"].items()
            )
            presets.add_row(info.name, preset, f"{spec['bot']} {settings}", spec["description"])
    print_table(console, presets)
    defaults = Table(
        box=box.SIMPLE_HEAD, title="defaults: what each bot plays with unless --param says else"
    )
    defaults.add_column("game", style="bold", no_wrap=True)
    defaults.add_column("bot", style="bold", no_wrap=True)
    defaults.add_column("settings")
    for name, info in zip(names, infos):
        game = rivals.make(name)
        for bot in info.bots:
            played = rivals.bots.make(bot, game).params
            settings = " ".join(f"{key}={json.dumps(value)}" for key, value in played.items())
            defaults.add_row(info.name, bot, settings or Text("no settings", style="dim"))
    print_table(console, defaults)
    return 0


def cmd_train(args: argparse.Namespace, console: Console) -> int:
    from rivals.train import command

    try:
        return command.run(
            args,
            console,
            parse_assignments(args.game_param, "--game-param"),
            parse_assignments(args.bot_param, "--bot-param"),
            parse_assignments(args.net_param, "--net-param"),
        )
    except (ValueError, ImportError) as error:
        raise CliError(str(error)) from None


# --------------------------------------------------------------------------------------------
# main


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="rivals", description="Fast engines for historical strategy games."
    )
    parser.add_argument("--version", action="version", version=f"rivals {rivals.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    seed = integer(0, arena.MAX_SEED)

    def game_params(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--game-param",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a game parameter, e.g. players=4 (repeatable)",
        )

    arena_cmd = commands.add_parser("arena", help="bots play each other; prints win rates")
    arena_cmd.add_argument("game", help="a game name (see rivals games)")
    arena_cmd.add_argument(
        "--bots",
        nargs="+",
        default=["mcts", "random"],
        metavar="BOT",
        help="bots, separated by spaces or commas: mcts random (default)",
    )
    arena_cmd.add_argument(
        "--games",
        type=integer(1, arena.MAX_GAMES),
        default=100,
        help=f"games to play (100; at most {arena.MAX_GAMES:,})",
    )
    arena_cmd.add_argument("--seed", type=seed, default=0, help="the match seed (0)")
    arena_cmd.add_argument(
        "--threads", type=integer(1, MAX_THREADS), default=None, help="default: all cores"
    )
    arena_cmd.add_argument(
        "--out", type=log_path, default=None, metavar="FILE.jsonl", help="write every replay"
    )
    arena_cmd.add_argument(
        "--resume",
        action="store_true",
        help="continue the arena whose replays are in --out, re-checking the games it holds",
    )
    arena_cmd.add_argument(
        "--force", action="store_true", help="replace a non-empty --out instead of refusing it"
    )
    arena_cmd.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="local threads (default) or a Ray cluster (pip install ray)",
    )
    arena_cmd.add_argument(
        "--ray-address", default=None, help="a Ray cluster's address (default: start Ray here)"
    )
    arena_cmd.add_argument(
        "--unpaired",
        action="store_true",
        help="every game its own deals (default: duplicate groups with the same deals)",
    )
    arena_cmd.add_argument(
        "--sprt",
        default=None,
        metavar="ELO0,ELO1",
        help="stop when the sequential test of the second bot being ELO1 (not ELO0) Elo "
        "stronger is decided; --games is then the most games",
    )
    arena_cmd.add_argument(
        "--alpha", type=float, default=None, help="with --sprt: false positive rate (0.05)"
    )
    arena_cmd.add_argument(
        "--beta", type=float, default=None, help="with --sprt: false negative rate (0.05)"
    )
    arena_cmd.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot parameter, e.g. mcts.iterations=500 (repeatable)",
    )
    game_params(arena_cmd)
    arena_cmd.set_defaults(handler=cmd_arena)

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
    tour.add_argument("--seed", type=seed, default=0, help="the seed of every pairing (0)")
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
    tour.add_argument("--backend", choices=["local", "ray"], default="local")
    tour.add_argument("--ray-address", default=None, help="a Ray cluster's address")
    tour.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot parameter; mcts#2.iterations=400 sets the second mcts (repeatable)",
    )
    game_params(tour)
    tour.set_defaults(handler=cmd_tournament)

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
    play.add_argument("--seed", type=seed, default=None, help="default: random")
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

    rules = commands.add_parser("rules", help="print the rules of a game")
    rules.add_argument("game", help="a game name (see rivals games)")
    rules.add_argument("--plain", action="store_true", help="the Markdown text even at a terminal")
    rules.add_argument(
        "--full", action="store_true", help="the engine's encoding too (actions, snapshot)"
    )
    rules.set_defaults(handler=cmd_rules)

    replay = commands.add_parser("replay", help="print a saved game move by move")
    replay.add_argument("file", help="a replay .json or an arena .jsonl")
    replay.add_argument("--index", type=integer(0), default=None, help="game in a .jsonl")
    replay.add_argument("--boards", action="store_true", help="show the board after each move")
    replay.add_argument(
        "--html", default=None, metavar="OUT.html", help="write a page that steps through the game"
    )
    replay.add_argument(
        "--player",
        type=integer(0),
        default=None,
        help="show only what this seat sees (moves, boards, --html); default: the whole record",
    )
    replay.add_argument(
        "--spectator",
        action="store_true",
        help="--html shows only what every seat sees (default: a switch between every seat's view)",
    )
    replay.add_argument("--force", action="store_true", help="replace an existing --html")
    replay.set_defaults(handler=cmd_replay)

    render_cmd = commands.add_parser("render", help="a position of a saved game as SVG")
    render_cmd.add_argument("file", help="a replay .json or an arena .jsonl")
    render_cmd.add_argument(
        "--step",
        type=integer(-(2**31), 2**31 - 1),
        default=-1,
        help="actions applied (default -1: the final position)",
    )
    render_cmd.add_argument("--index", type=integer(0), default=None, help="game in a .jsonl")
    render_cmd.add_argument(
        "--player", type=integer(0), default=None, help="show what this seat sees"
    )
    render_cmd.add_argument("--out", default=None, metavar="FILE.svg", help="default: stdout")
    render_cmd.add_argument("--force", action="store_true", help="replace an existing --out")
    render_cmd.set_defaults(handler=cmd_render)

    bench = commands.add_parser("bench", help="engine benchmarks")
    bench.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="games, scale (VectorEnv and search over every game) or learning (VectorEnv's "
        "encodings, bots inside step() and playouts); default: every game",
    )
    bench.add_argument("--quick", action="store_true", help="a short run")
    bench.set_defaults(handler=cmd_bench)

    games = commands.add_parser("games", help="list the games")
    games.set_defaults(handler=cmd_games)

    bots_cmd = commands.add_parser(
        "bots",
        help="list each game's bots, evaluations, presets (what 'best' plays) and each bot's "
        "default settings",
    )
    bots_cmd.add_argument("games", nargs="*", metavar="GAME", help="games to list (default: all)")
    bots_cmd.set_defaults(handler=cmd_bots)

    # The browser's server is an optional extra: its packages load only when it starts.
    from rivals.web import command as web_command

    web_command.add_parser(commands).set_defaults(handler=web_command.run)

    from rivals.train import command as train_command

    train_command.add_parser(commands, cmd_train, seed, integer, game_params)
    parser.commands = dict(commands.choices)
    return parser


def print_table(console: Console, table: Table) -> None:
    """A table whole, however narrow the terminal (or ``COLUMNS``): cut to fit, its numbers
    would lose their last digits without a sign; lines that overflow wrap instead."""
    unbounded = console.options.update_width(1 << 16)  # measurements are capped at the width
    for column in table.columns:
        if column.no_wrap:  # rich would still cut such a column short; it keeps its widest cell
            cells = [column.header, *column.cells]
            widest = max(Measurement.get(console, unbounded, cell).maximum for cell in cells)
            column.min_width = max(column.min_width or 0, widest)
    needed = Measurement.get(console, unbounded, table).minimum
    if needed <= console.width:
        console.print(table)
        return
    width = console.width
    console.width = needed  # print() never renders wider than the console
    try:
        console.print(table, crop=False)
    finally:
        console.width = width


def _joined_sprt(argv: Sequence[str]) -> list[str]:
    """``--sprt -1.75,0.25`` as ``--sprt=-1.75,0.25``: argparse takes a value that starts with a
    minus for an option, and the usual lower bounds are negative."""
    out = list(argv)
    for at in range(len(out) - 1):
        if out[at] == "--sprt" and re.fullmatch(r"-[\d.]+,[-\d.]+", out[at + 1]):
            out[at : at + 2] = [f"--sprt={out[at + 1]}"]
            break
    return out


def write_out(document: str) -> None:
    """A document (Markdown, SVG) to standard output as UTF-8, whatever the console's encoding."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text stream put in its place (contextlib.redirect_stdout)
        sys.stdout.write(document)
        return
    sys.stdout.flush()
    buffer.write(document.encode("utf-8"))
    sys.stdout.flush()


def _error_stream(args: argparse.Namespace) -> TextIO | None:
    """Where an error is told: standard error, unless that goes into the record --out names
    (``2>> games.jsonl``, refused for it), where a line would spoil the record; then standard
    output, and nowhere when that goes there too (the exit status still tells)."""
    out = getattr(args, "out", None)
    try:
        record = os.stat(out) if isinstance(out, (str, os.PathLike)) and out else None
    except (OSError, ValueError):
        record = None
    if record is None or not stat.S_ISREG(record.st_mode):
        return sys.stderr
    for stream in (sys.stderr, sys.stdout):
        try:
            target = os.fstat(stream.fileno())
        except (OSError, ValueError, AttributeError):  # closed, or a stream in its place
            return stream
        if (target.st_dev, target.st_ino) != (record.st_dev, record.st_ino):
            return stream
    return None


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:  # started with standard output closed: what it would show is lost
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    # A console that cannot show a character (a Latin-1 terminal) shows its escape instead.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args, extra = parser.parse_known_args(_joined_sprt(sys.argv[1:] if argv is None else argv))
    if extra:
        # Said by the sub-command's parser, so the message names it like every other error.
        (parser.commands[args.command] if args.command else parser).error(
            f"unrecognized arguments: {' '.join(extra)}"
        )
    if args.command is None:
        parser.print_help()
        return 2
    handler = cast("Callable[[argparse.Namespace, Console], int]", args.handler)
    try:
        return handler(args, Console(highlight=False))
    except CliError as error:
        # One line, unwrapped and uncoloured, so scripts can grep it.
        message = " ".join(str(error).split())
        stream = _error_stream(args)
        if stream is not None:
            print(f"rivals {args.command}: error: {message}", file=stream)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`rivals rules GAME --plain | head`): stop quietly, as Unix tools
        # do; stdout goes to /dev/null so that Python's flush at exit does not report it again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:  # writing to standard output: a full disk, a device error
        where = f"{error.filename}: " if error.filename else ""
        print(f"rivals {args.command}: error: {where}{error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
