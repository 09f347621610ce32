"""What every sub-command of the ``rivals`` command line shares: its error, the readers of
its arguments (game and bot parameters, bots, seeds, paths) and its output helpers."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
from rich.table import Table

import rivals
from rivals import arena
from rivals._core import Game
from rivals.arena import BotSpec


class CliError(Exception):
    """A mistake by the user: reported as one line on stderr, exit status 2."""


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


SEED = integer(0, arena.MAX_SEED)


def game_params(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--game-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter, e.g. players=4 (repeatable)",
    )


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


def progress_bars(*columns: ProgressColumn) -> Progress:
    """Bars of work done on stderr, shown at a terminal only and gone when they end: each task's
    description, bar and count, then ``columns``."""
    errors = Console(stderr=True)
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *columns,
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    )


def write_out(document: str) -> None:
    """A document (Markdown, SVG) to standard output as UTF-8, whatever the console's encoding."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text stream put in its place (contextlib.redirect_stdout)
        sys.stdout.write(document)
        return
    sys.stdout.flush()
    buffer.write(document.encode("utf-8"))
    sys.stdout.flush()
