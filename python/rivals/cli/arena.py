"""``rivals arena``: two or more bots play a match; a table of results, with the Elo
difference and its interval, and the replays in a log that can be resumed."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import weakref
from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import (
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
from rivals import _ray, arena, stats
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
    progress_bars,
)
from rivals.render import params_text


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
    return progress_bars(TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn(), *extra)


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


def add_parser(commands: Any) -> None:
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
    arena_cmd.add_argument("--seed", type=SEED, default=0, help="the match seed (0)")
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
    _ray.add_options(arena_cmd, "the games")
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


def _resumed_text(resumed: int, args: argparse.Namespace) -> str:
    """After the replays' file name: how many games were resumed, and a word when --resume found
    none (a misspelt name starts a new record)."""
    if resumed:
        return f" ({resumed} resumed)"
    return " (--resume found no games: a new record)" if args.resume else ""
