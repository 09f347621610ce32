"""``rivals serve``: its options, and the server started with them. Importing this module needs
none of the web packages; they are imported when the server starts, with a clear message when
they are missing."""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import logging
import socket
from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["add_parser", "run"]

WEB_PACKAGES = ("starlette", "uvicorn", "websockets")


def _count(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, got {text!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected an integer from {low} to {high}, got {text}"
            )
        return value

    return parse


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """The ``serve`` sub-command's parser, added to ``commands`` (argparse's sub-parsers)."""
    serve: argparse.ArgumentParser = commands.add_parser(
        "serve",
        help="play, watch and analyse in the browser (pip install 'rivals[web]')",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (127.0.0.1: this machine only; 0.0.0.0: the network too)",
    )
    serve.add_argument("--port", type=_count(1, 65535), default=8000, help="the port (8000)")
    serve.add_argument(
        "--max-games", type=_count(1, 10_000), default=32, help="games held at once (32)"
    )
    serve.add_argument(
        "--idle-minutes",
        type=_count(1, 7 * 24 * 60),
        default=60,
        help="a game without a move or a message this long is closed (60)",
    )
    serve.add_argument(
        "--threads", type=_count(1, 256), default=None, help="threads the bots think in (the cores)"
    )
    serve.add_argument(
        "--watch",
        action="append",
        default=[],
        metavar="FILE.jsonl",
        help="the replay log of a running rivals arena or tournament to follow (repeatable)",
    )
    return serve


def _addresses(host: str, port: int) -> list[str]:
    """Where a browser finds the lobby: this machine's name for a loopback address, its
    addresses on the network for one that listens everywhere."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return [f"http://{host}:{port}/"]
    if address.is_loopback:
        return [f"http://{'localhost' if address.version == 4 else '[::1]'}:{port}/"]
    if not address.is_unspecified:
        shown = f"[{host}]" if address.version == 6 else host
        return [f"http://{shown}:{port}/"]
    found = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    found.discard("127.0.0.1")
    return [f"http://{ip}:{port}/" for ip in sorted(found)] or [f"http://<this machine>:{port}/"]


def run(args: argparse.Namespace, console: Console) -> int:
    missing = [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        console.print(
            Text(
                f"rivals serve needs {', '.join(missing)}: pip install 'rivals[web]'",
                style="bold red",
            )
        )
        return 2
    import uvicorn

    from rivals.web.app import create_app
    from rivals.web.server import Limits

    limits = Limits(tables=args.max_games, idle_s=args.idle_minutes * 60.0)
    app = create_app(limits, threads=args.threads, host=args.host, watch=args.watch)
    for url in _addresses(args.host, args.port):
        console.print(Text(f"rivals serve: the lobby is at {url}", style="bold"))
    console.print(Text("Ctrl-C stops the server and ends its games", style="dim"))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=limits.message_bytes,
        log_level="info",
    )
    return 0
