"""``rivals render``: a position of a saved game as SVG."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rivals import files, viewer
from rivals.cli._common import CliError, integer, write_out
from rivals.cli.replay import _check_player, _load_replay_data, _refuse_overwriting_input
from rivals.render import svg


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


def add_parser(commands: Any) -> None:
    render_cmd = commands.add_parser("render", help="a position of a saved game as SVG")
    render_cmd.add_argument("file", help="a replay .json or an arena's .jsonl or .rec (.gz, .zst)")
    render_cmd.add_argument(
        "--step",
        type=integer(-(2**31), 2**31 - 1),
        default=-1,
        help="actions applied (default -1: the final position)",
    )
    render_cmd.add_argument(
        "--index", type=integer(0), default=None, help="game in an arena's file"
    )
    render_cmd.add_argument(
        "--player", type=integer(0), default=None, help="show what this seat sees"
    )
    render_cmd.add_argument("--out", default=None, metavar="FILE.svg", help="default: stdout")
    render_cmd.add_argument("--force", action="store_true", help="replace an existing --out")
    render_cmd.set_defaults(handler=cmd_render)
