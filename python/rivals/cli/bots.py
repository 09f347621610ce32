"""``rivals bots``: each game's bots, evaluations, presets and default settings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

import rivals
from rivals.cli._common import CliError, print_table


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


def add_parser(commands: Any) -> None:
    bots_cmd = commands.add_parser(
        "bots",
        help="list each game's bots, evaluations, presets (what 'best' plays) and each bot's "
        "default settings",
    )
    bots_cmd.add_argument("games", nargs="*", metavar="GAME", help="games to list (default: all)")
    bots_cmd.set_defaults(handler=cmd_bots)
