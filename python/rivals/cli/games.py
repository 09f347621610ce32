"""``rivals games``: the games and what each declares."""

from __future__ import annotations

import argparse
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import rivals
from rivals.cli._common import print_table


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


def add_parser(commands: Any) -> None:
    games = commands.add_parser("games", help="list the games")
    games.set_defaults(handler=cmd_games)
