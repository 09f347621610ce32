"""``rivals rules``: a game's rules page, through a pager at a terminal."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.pager import Pager

from rivals import rulebook
from rivals.cli._common import CliError, write_out


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


def add_parser(commands: Any) -> None:
    rules = commands.add_parser("rules", help="print the rules of a game")
    rules.add_argument("game", help="a game name (see rivals games)")
    rules.add_argument("--plain", action="store_true", help="the Markdown text even at a terminal")
    rules.add_argument(
        "--full", action="store_true", help="the engine's encoding too (actions, snapshot)"
    )
    rules.set_defaults(handler=cmd_rules)
