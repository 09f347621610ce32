"""``rivals bench``: the engine's benchmark tables (``rivals.bench``)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from rich.console import Console

import rivals
from rivals.cli._common import CliError


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    # Imported here: the benchmarks pull in more than the other sub-commands need.
    bench = importlib.import_module("rivals.bench")
    known = bench.games()
    unknown = [name for name in args.games if name not in known]
    if unknown:
        raise CliError(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(known)}")
    status = bench.main(list(args.games) or rivals.games(), args.quick, markdown_page=args.markdown)
    return status if isinstance(status, int) else 0


def add_parser(commands: Any) -> None:
    bench = commands.add_parser("bench", help="engine benchmarks")
    bench.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="games, scale (VectorEnv and search over every game), learning (VectorEnv's "
        "encodings, bots inside step() and playouts) or threads (two threads against one); "
        "default: every game",
    )
    bench.add_argument("--quick", action="store_true", help="a short run")
    bench.add_argument(
        "--markdown",
        action="store_true",
        help="print one Markdown page of every table, with the run's date, machine and load "
        "(docs/benchmarks.md is written so)",
    )
    bench.set_defaults(handler=cmd_bench)
