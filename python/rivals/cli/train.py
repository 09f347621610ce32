"""``rivals train``: self-play training of a value network (``rivals.train``)."""

from __future__ import annotations

import argparse

from rich.console import Console

from rivals.cli._common import CliError, parse_assignments


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
