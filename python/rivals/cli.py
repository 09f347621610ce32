"""The ``rivals`` command line: ``arena``, ``play``, ``rules``, ``replay``, ``bench`` and ``games``.

Every sub-command is a function ``(args, console) -> exit status``; ``main`` turns the user's
mistakes (a bad game parameter, a missing file, a corrupt replay) into one line on stderr and exit
status 2, the same status argparse uses for a bad command line.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

import numpy as np
import numpy.typing as npt
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import rivals
from rivals import _facts, arena, rulebook, viewer
from rivals import replay as replays
from rivals._core import Bot, Game
from rivals.play import PLAY_HELP, PlaySession
from rivals.render import params_text, player_label, render, result_text, rules_hint, seat_name, svg

__all__ = ["CliError", "main"]

DESCRIPTIONS = {
    "battlecards": "World War II card battles on the Western European front",
    "rheinlaender": "knights, bastions and bishops carve domains out of the Rhine valley",
    "rosenkoenig": "the Wars of the Roses: lay rose stones with the crown; big armies score",
    "sekigahara": "1600: win the daimyō over with influence before the battle begins",
    "verraeter": "the houses of the eagle and the rose fight over twelve landscapes; switch sides",
}
WILSON_Z = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


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


@dataclass
class BotEntry:
    """One distinct bot of an arena: ``label`` tells apart two bots of the same ``name``."""

    label: str
    name: str
    params: dict[str, Any] = field(default_factory=dict)


def parse_bots(text: str, param_items: Sequence[str]) -> list[BotEntry]:
    """``"mcts,random"`` plus ``["mcts.iterations=500"]`` -> the distinct bots with their params.

    A second bot of the same name is labelled ``mcts#2``; ``mcts.KEY=V`` sets KEY for every bot
    named mcts and ``mcts#2.KEY=V`` for that one only (and wins over the former).
    """
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise CliError(f"--bots {text!r}: expected names separated by commas, e.g. mcts,random")
    entries: list[BotEntry] = []
    for name in names:
        count = sum(entry.name == name for entry in entries) + 1
        entries.append(BotEntry(name if count == 1 else f"{name}#{count}", name))
    by_name: dict[str, dict[str, Any]] = {}
    by_label: dict[str, dict[str, Any]] = {}
    for key, value in parse_assignments(param_items, "--param").items():
        target, dot, param = key.partition(".")
        if not dot or not param:
            raise CliError(f"--param {key}=...: expected BOT.KEY=VALUE, e.g. mcts.iterations=500")
        if any(entry.name == target for entry in entries):
            by_name.setdefault(target, {})[param] = value
        elif any(entry.label == target for entry in entries):
            by_label.setdefault(target, {})[param] = value
        else:
            known = ", ".join(dict.fromkeys([e.name for e in entries] + [e.label for e in entries]))
            raise CliError(f"--param {key}=...: no bot {target!r} in --bots (have: {known})")
    for entry in entries:
        entry.params = {**by_name.get(entry.name, {}), **by_label.get(entry.label, {})}
    return entries


def check_bot(game: Game, name: str, params: dict[str, Any], label: str) -> None:
    """Fails early, with the engine's message, on an unknown bot or parameter."""
    try:
        rivals.bots.make(name, game, 0, **params)
    except ValueError as error:
        raise CliError(f"bot {label}: {error}") from None


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text}")
    return value


# --------------------------------------------------------------------------------------------
# arena


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    return_sum: float = 0.0
    both_sides: int = 0  # games in which this bot sat on the winning and the losing side


def wilson(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (sound at 0 and at 100%)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def tally(
    returns: npt.NDArray[np.float64],
    seating: npt.NDArray[np.int32],
    seat_entry: Sequence[int],
    num_entries: int,
) -> list[Tally]:
    """Wins, draws and losses per distinct bot; a bot in several seats of one game counts once,
    and wins that game if any of its seats has a positive return."""
    tallies = [Tally() for _ in range(num_entries)]
    if len(returns) == 0:
        return tallies
    entry_at = np.asarray(seat_entry, dtype=np.int64)[seating]
    for index, result in enumerate(tallies):
        mask = entry_at == index
        present = mask.any(axis=1)
        best = np.where(mask, returns, -np.inf).max(axis=1)
        worst = np.where(mask, returns, np.inf).min(axis=1)
        won = present & (best > 0)
        lost = present & ~won & (worst < 0)
        seats = mask.sum(axis=1)
        own = np.where(mask, returns, 0.0).sum(axis=1)
        result.games = int(present.sum())
        result.wins = int(won.sum())
        result.losses = int(lost.sum())
        result.draws = result.games - result.wins - result.losses
        result.return_sum = float((own[present] / seats[present]).sum())
        result.both_sides = int((present & (best > 0) & (worst < 0)).sum())
    return tallies


def _write_chunk(
    handle: IO[str],
    game: Game,
    histories: Sequence[Sequence[int]],
    seating: npt.NDArray[np.int32],
    first_game: int,
    seed: int,
    seat_labels: Sequence[str],
) -> None:
    lines = []
    for offset, history in enumerate(histories):
        state = game.state_from_history(list(history))
        data = replays.to_dict(state)
        data["arena"] = {
            "index": first_game + offset,
            "seed": seed,
            "labels": [seat_labels[int(j)] for j in seating[offset]],
        }
        lines.append(json.dumps(data, ensure_ascii=False) + "\n")
    # One write per chunk then fsync: a crash or Ctrl-C between chunks leaves only whole lines.
    handle.write("".join(lines))
    handle.flush()
    os.fsync(handle.fileno())


def _backend(args: argparse.Namespace) -> arena.Backend:
    if args.backend == "ray":
        return arena.RayBackend(address=args.ray_address, threads_per_task=args.threads or 1)
    return arena.LocalBackend(args.threads)


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    game = make_game(args.game, parse_assignments(args.game_param, "--game-param"))
    entries = parse_bots(args.bots, args.param)
    players = game.num_players
    if len(entries) > players:
        raise CliError(
            f"{len(entries)} bots for {players} seats of {game.name}; list at most {players}"
        )
    for entry in entries:
        check_bot(game, entry.name, entry.params, entry.label)
    # Round-robin in seat order, so "a,b" at four seats is a,b,a,b: one team each.
    seat_entry = [seat % len(entries) for seat in range(players)]
    specs = [(entries[k].name, entries[k].params) for k in seat_entry]
    seat_labels = [entries[k].label for k in seat_entry]
    total = args.games
    if args.resume and args.out is None:
        raise CliError("--resume continues the replays of --out FILE; give --out")

    previous: arena.Resume | None = None
    if args.resume and Path(args.out).exists():
        try:
            previous = arena.resume_point(Path(args.out), game, args.seed, seat_labels)
        except ValueError as error:
            raise CliError(f"--resume: {error}") from None
        if previous.done > total:
            raise CliError(f"--resume: {args.out} already holds {previous.done} games")
    done = previous.done if previous else 0
    try:
        backend = _backend(args)
    except ValueError as error:
        raise CliError(str(error)) from None

    parts: list[arena.Chunk] = []
    interrupted = False
    out: IO[str] | None = None
    started = time.perf_counter()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    try:
        if args.out is not None:
            try:
                if previous is not None:
                    # Cut off a line whose write was interrupted, then append after the rest.
                    os.truncate(args.out, previous.valid_bytes)
                out = open(args.out, "a" if previous else "w", encoding="utf-8")  # noqa: SIM115
            except OSError as error:
                raise CliError(f"--out {args.out}: {error.strerror}") from None
        with progress:
            task = progress.add_task(
                f"{game.name}: {' vs '.join(seat_labels)}", total=total, completed=done
            )
            for chunk in backend.run(game, specs, args.seed, done, total - done, out is not None):
                if out is not None:
                    _write_chunk(
                        out,
                        game,
                        chunk.histories or [],
                        chunk.seating,
                        chunk.first_game,
                        args.seed,
                        seat_labels,
                    )
                parts.append(chunk)
                progress.advance(task, chunk.size)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if out is not None:
            out.close()
    elapsed = time.perf_counter() - started
    played = sum(part.size for part in parts)

    players_shape = (0, players)
    earlier = [previous.returns] if previous else [np.zeros(players_shape)]
    returns = np.concatenate(earlier + [p.returns for p in parts])
    seating = np.concatenate(
        ([previous.seating] if previous else [np.zeros(players_shape, np.int32)])
        + [p.seating for p in parts]
    )
    lengths = np.concatenate(
        ([previous.lengths] if previous else [np.zeros(0, np.int32)]) + [p.lengths for p in parts]
    )
    tallies = tally(returns, seating, seat_entry, len(entries))
    _print_arena(
        console, game, entries, tallies, args, done + played, elapsed, played, lengths, backend
    )
    if interrupted:
        console.print(
            Text(f"interrupted after {done + played} of {total} games", style="bold yellow")
        )
        return 130
    return 0


def _print_arena(
    console: Console,
    game: Game,
    entries: Sequence[BotEntry],
    tallies: Sequence[Tally],
    args: argparse.Namespace,
    games: int,
    elapsed: float,
    played: int,
    lengths: npt.NDArray[np.int32],
    backend: arena.Backend,
) -> None:
    params = params_text(game.params)
    table = Table(
        # A Text title: parameter values such as [1, 2] must not be read as rich markup.
        title=Text(f"{game.name} {params}".strip() + f", {games} games, seed {args.seed}"),
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("bot", style="bold")
    for heading in ("games", "wins", "draws", "losses", "win rate (95% CI)", "mean return"):
        table.add_column(heading, justify="right", no_wrap=True)
    for entry, result in zip(entries, tallies):
        low, high = wilson(result.wins, result.games)
        rate = result.wins / result.games if result.games else 0.0
        mean = result.return_sum / result.games if result.games else 0.0
        table.add_row(
            Text(entry.label),
            str(result.games),
            str(result.wins),
            str(result.draws),
            str(result.losses),
            f"{100 * rate:.1f}% ({100 * low:.1f}-{100 * high:.1f})",
            f"{mean:+.3f}",
        )
    console.print(table)
    rate = played / elapsed if elapsed > 0 else 0.0
    mean_length = float(lengths.mean()) if len(lengths) else 0.0
    workers = f"{backend.workers} {'thread' if backend.name == 'local' else 'Ray worker'}"
    console.print(
        Text(
            f"{rate:,.1f} games/s, mean length {mean_length:.1f} actions, "
            f"{elapsed:.2f} s on {workers}{'s' if backend.workers != 1 else ''}"
        )
    )
    for entry in entries:
        if entry.params:
            settings = ", ".join(f"{key}={value!r}" for key, value in entry.params.items())
            console.print(Text(f"{entry.label}: {entry.name} with {settings}", style="dim"))
    for entry, result in zip(entries, tallies):
        if result.both_sides:
            console.print(
                Text(
                    f"note: {entry.label} sat on both sides in {result.both_sides} games "
                    "(counted as wins); list as many bots as there are teams",
                    style="yellow",
                )
            )
    if args.out is not None:
        console.print(Text(f"replays: {args.out}", style="dim"))


# --------------------------------------------------------------------------------------------
# play


# Bots that decide from the information state of the seat they play, never from hidden cards
# (docs/bots.md); any other bot given the true state of a game with hidden information peeks.
FAIR_BOTS = ("ismcts", "random")


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


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    game = make_game(args.game, parse_assignments(args.game_param, "--game-param"))
    players = game.num_players
    if not 0 <= args.seat < players:
        raise CliError(f"--seat {args.seat}: {game.name} has seats 0 to {players - 1}")
    hidden = not _facts.perfect_information(game.name)
    # With hidden information the default opponent and the hints search the information set,
    # so neither sees a card the person's seat may not.
    bot_name = args.bot or ("ismcts" if hidden else "mcts")
    hint_name = "ismcts" if hidden else "mcts"
    opponent_params, hint_params = _bot_params(args.param, bot_name, hint_name)
    check_bot(game, bot_name, opponent_params, bot_name)
    check_bot(game, hint_name, hint_params, f"{hint_name} (hints)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    opponents = {
        seat: rivals.bots.make(bot_name, game, seed + seat, **opponent_params)
        for seat in range(players)
        if seat != args.seat
    }
    names = ["you" if seat == args.seat else bot_name for seat in range(players)]

    def hint_bot() -> Bot:
        return rivals.bots.make(hint_name, game, seed + players, **hint_params)

    state = game.new_initial_state()
    console.print(
        Text(f"{game.name}: you are {seat_name(state, args.seat)} against {bot_name}; seed {seed}")
    )
    if hidden and bot_name not in FAIR_BOTS:
        console.print(
            Text(
                f"note: {bot_name} searches the true state, so it sees your hidden cards; "
                "ismcts plays on what its seat may see",
                style="yellow",
            )
        )
    console.print(Text(f"{PLAY_HELP}; {rules_hint(game.name)}", style="dim"))
    session = PlaySession(
        console, game, args.seat, opponents, names, hint_bot, seed, sys.stdin, hint_name
    )
    return session.run()


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    try:
        text = rulebook.page(args.game)
    except ValueError as error:
        raise CliError(str(error)) from None
    if console.is_terminal and not args.plain:
        console.print(Markdown(text))
    else:
        sys.stdout.write(text)
    return 0


# --------------------------------------------------------------------------------------------
# replay


def _load_replay_data(path: Path, index: int | None) -> tuple[Any, str]:
    """The replay dict picked from a .json or .jsonl file, and a name for it in messages."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except OSError as error:
        raise CliError(f"{path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: bad replay: not UTF-8 text") from None

    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    as_lines = path.suffix == ".jsonl"
    if not as_lines:
        try:
            data = replays.decode(text)
        except ValueError as error:
            # An arena file under another name: several lines, each a JSON object.
            if len(lines) > 1 and lines[0][1].lstrip().startswith("{"):
                as_lines = True
            else:
                raise CliError(f"{path}: {error}") from None
        else:
            if index not in (None, 0):
                raise CliError(f"{path} holds one replay; --index {index} is out of range")
            return data, str(path)
    chosen = 0 if index is None else index
    if not 0 <= chosen < len(lines):
        raise CliError(
            f"{path} holds {len(lines)} replays; --index {chosen} is out of range"
            if lines
            else f"{path}: no replays in the file"
        )
    number, line = lines[chosen]
    where = f"{path} line {number}"
    try:
        return replays.decode(line), where
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    data, where = _load_replay_data(Path(args.file), args.index)
    try:
        final = replays.from_dict(data)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    game = final.game
    if args.html is not None:
        try:
            viewer.write_html(data, args.html, player=args.player)
        except OSError as error:
            raise CliError(f"--html {args.html}: {error.strerror}") from None
        console.print(Text(f"wrote {args.html}: {len(final.history())} moves"))
        return 0
    params = params_text(game.params)
    console.print(Text(f"{game.name} {params}".strip(), style="bold"))
    arena_info = data.get("arena") if isinstance(data, dict) else None
    bots = arena_info.get("labels") if isinstance(arena_info, dict) else None
    if isinstance(bots, list) and len(bots) == game.num_players:
        seats = ", ".join(f"{player_label(final, seat)}: {name}" for seat, name in enumerate(bots))
        console.print(Text(seats))
    walker = game.new_initial_state()
    for number, action in enumerate(final.history(), start=1):
        player = walker.current_player()
        line = Text(f"{number:>4}  ")
        line.append(f"{player_label(walker, player):<12}", "dim" if player < 0 else "bold")
        line.append(f" {walker.action_to_string(action)}")
        console.print(line)
        walker.apply_action(action)
        if args.boards:
            console.print(render(walker))
    console.print()
    console.print(Text("final position", style="bold"))
    console.print(render(final))
    console.print(Text(f"result: {result_text(final)}", style="bold"))
    return 0


def cmd_render(args: argparse.Namespace, console: Console) -> int:
    data, where = _load_replay_data(Path(args.file), args.index)
    try:
        state = viewer.state_at(data, args.step)
        picture = svg.to_svg(state, args.player)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    if args.out is None:
        sys.stdout.write(picture)
        return 0
    try:
        Path(args.out).write_text(picture, encoding="utf-8")
    except OSError as error:
        raise CliError(f"--out {args.out}: {error.strerror}") from None
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


def _seat_counts(name: str) -> str:
    """The player counts a game accepts, found by asking the engine (e.g. ``"2, 4"``)."""
    default = rivals.make(name).num_players
    counts = []
    for players in range(1, 9):
        try:
            rivals.make(name, players=players)
        except ValueError:
            continue
        counts.append(players)
    return ", ".join(str(n) for n in counts) if counts else str(default)


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    del args
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("game", style="bold")
    table.add_column("players", justify="right")
    table.add_column("description")
    for name in rivals.games():
        table.add_row(name, _seat_counts(name), DESCRIPTIONS.get(name, ""))
    console.print(table)
    return 0


# --------------------------------------------------------------------------------------------
# main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rivals", description="Fast engines for historical strategy games."
    )
    parser.add_argument("--version", action="version", version=f"rivals {rivals.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    arena_cmd.add_argument("--bots", default="mcts,random", help="distinct bots, e.g. mcts,random")
    arena_cmd.add_argument("--games", type=_positive, default=100, help="games to play (100)")
    arena_cmd.add_argument("--seed", type=_non_negative, default=0, help="the match seed (0)")
    arena_cmd.add_argument("--threads", type=_positive, default=None, help="default: all cores")
    arena_cmd.add_argument("--out", default=None, metavar="FILE.jsonl", help="write every replay")
    arena_cmd.add_argument(
        "--resume",
        action="store_true",
        help="continue the arena whose replays are in --out, skipping the games it holds",
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
        "--param",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot parameter, e.g. mcts.iterations=500 (repeatable)",
    )
    game_params(arena_cmd)
    arena_cmd.set_defaults(handler=cmd_arena)

    play = commands.add_parser("play", help="play against bots at the terminal")
    play.add_argument("game", help="a game name (see rivals games)")
    play.add_argument(
        "--bot",
        default=None,
        help="the bot in every other seat (default: ismcts with hidden information, else mcts)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (0 moves first)")
    play.add_argument("--seed", type=_non_negative, default=None, help="default: random")
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
    rules.set_defaults(handler=cmd_rules)

    replay = commands.add_parser("replay", help="print a saved game move by move")
    replay.add_argument("file", help="a replay .json or an arena .jsonl")
    replay.add_argument("--index", type=_non_negative, default=None, help="game in a .jsonl")
    replay.add_argument("--boards", action="store_true", help="show the board after each move")
    replay.add_argument(
        "--html", default=None, metavar="OUT.html", help="write a page that steps through the game"
    )
    replay.add_argument(
        "--player", type=int, default=None, help="with --html: show what this seat sees"
    )
    replay.set_defaults(handler=cmd_replay)

    render_cmd = commands.add_parser("render", help="a position of a saved game as SVG")
    render_cmd.add_argument("file", help="a replay .json or an arena .jsonl")
    render_cmd.add_argument(
        "--step", type=int, default=-1, help="actions applied (default -1: the final position)"
    )
    render_cmd.add_argument("--index", type=_non_negative, default=None, help="game in a .jsonl")
    render_cmd.add_argument("--player", type=int, default=None, help="show what this seat sees")
    render_cmd.add_argument("--out", default=None, metavar="FILE.svg", help="default: stdout")
    render_cmd.set_defaults(handler=cmd_render)

    bench = commands.add_parser("bench", help="engine benchmarks")
    bench.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="games, or scale (VectorEnv and search); default: every game",
    )
    bench.add_argument("--quick", action="store_true", help="a short run")
    bench.set_defaults(handler=cmd_bench)

    games = commands.add_parser("games", help="list the games")
    games.set_defaults(handler=cmd_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    handler = cast("Callable[[argparse.Namespace, Console], int]", args.handler)
    try:
        return handler(args, Console(highlight=False))
    except CliError as error:
        # One line, unwrapped and uncoloured, so scripts can grep it.
        message = " ".join(str(error).split())
        print(f"rivals {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
