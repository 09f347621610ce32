"""The ``rivals`` command line: ``arena``, ``play``, ``rules``, ``replay``, ``bench`` and ``games``.

One module per sub-command (``rivals.cli.arena``, ``rivals.cli.play``, ...), each with its
``add_parser(commands)`` and its ``cmd_<name>(args, console) -> exit status``; what they share is
``rivals.cli._common``. ``main`` turns the user's mistakes (a bad game parameter, a missing file,
a corrupt replay) into one line on stderr and exit status 2, the same status argparse uses for a
bad command line.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from typing import TextIO, cast

from rich.console import Console

import rivals
from rivals.cli import arena, bench, bots, games, play, render, replay, rules, tournament, train
from rivals.cli._common import (
    SEED,
    ArgumentParser,
    CliError,
    game_params,
    integer,
    parse_assignments,
)

__all__ = ["CliError", "build_parser", "main", "parse_assignments"]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="rivals", description="Fast engines for historical strategy games."
    )
    parser.add_argument("--version", action="version", version=f"rivals {rivals.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (arena, tournament, play, rules, replay, render, bench, games, bots):
        command.add_parser(commands)
    # The browser's server is an optional extra: its packages load only when it starts.
    from rivals.web import command as web_command

    web_command.add_parser(commands).set_defaults(handler=web_command.run)

    from rivals.train import command as train_command

    train_command.add_parser(commands, train.cmd_train, SEED, integer, game_params)
    parser.commands = dict(commands.choices)
    return parser


def _joined_sprt(argv: Sequence[str]) -> list[str]:
    """``--sprt -1.75,0.25`` as ``--sprt=-1.75,0.25``: argparse takes a value that starts with a
    minus for an option, and the usual lower bounds are negative."""
    out = list(argv)
    for at in range(len(out) - 1):
        if out[at] == "--sprt" and re.fullmatch(r"-[\d.]+,[-\d.]+", out[at + 1]):
            out[at : at + 2] = [f"--sprt={out[at + 1]}"]
            break
    return out


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
