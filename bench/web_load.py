"""Load on ``rivals serve``: scripted browsers, each a person at a table of its own against a
bot, on a server this script starts on 127.0.0.1 in a process of its own (it never reaches
another machine).

    python bench/web_load.py                  # 32 tables for 30 s, Rosenkönig against random
    python bench/web_load.py --clients 128 --think 2 --game sekigahara --bot mcts
    python bench/web_load.py --think 0        # as fast as the server answers: its throughput

Each client asks the lobby for a table, opens its websocket and plays random legal moves from its
menu, each after thinking ``--think`` seconds (0.5 to 1.5 times it; 0: as fast as the server
answers), and starts a new game when one ends, until the time is up. Reported: the games held at
once (the server's count of games in play, sampled each second), the moves played, and two
latencies per move: from sending it to the view that shows it (the server's own work: checking
the move, drawing the seat's picture, telling every connection) and to the view where the client
is to move again (the bot's reply included). Bounded: at most 256 clients and 600 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

from rivals.bench._common import run_script
from rivals.cli import integer

MAX_CLIENTS = 256
MAX_SECONDS = 600


@dataclass
class Tally:
    shown: list[float] = field(default_factory=list)  # move sent -> the view showing it
    turn: list[float] = field(default_factory=list)  # move sent -> this client to move again
    games: int = 0
    errors: list[str] = field(default_factory=list)


def create_table(address: str, game: str, bot: dict[str, Any]) -> str:
    players = 3 if game == "rheinlaender" else 2
    body = {"game": game, "params": {}, "seats": [{"person": True}] + [bot] * (players - 1)}
    request = urllib.request.Request(
        f"{address}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        created = json.load(response)
    token = created["seats"][0]["token"]
    assert isinstance(token, str)
    return token


async def client(
    address: str,
    game: str,
    bot: dict[str, Any],
    until: float,
    tally: Tally,
    seed: int,
    think: float,
) -> None:
    """Games one after another until ``until``: a random legal move whenever it is to move."""
    rng = random.Random(seed)
    socket_address = address.replace("http://", "ws://") + "/ws"
    while time.monotonic() < until:
        token = await asyncio.to_thread(create_table, address, game, bot)
        async with websockets.connect(socket_address, max_size=2**24) as socket:
            await socket.send(json.dumps({"type": "hello", "token": token}))
            await play(socket, rng, until, tally, think)


async def play(socket: Any, rng: random.Random, until: float, tally: Tally, think: float) -> None:
    sent_at = 0.0
    sent_step = -1
    shown = True  # whether the last move sent has been seen in a view
    while time.monotonic() < until:
        message = json.loads(await socket.recv())
        if message["type"] == "error":
            tally.errors.append(message["message"])
            continue
        if message["type"] != "view":
            continue
        now = time.monotonic()
        if not shown and message["step"] > sent_step:
            tally.shown.append(now - sent_at)
            shown = True
        if message["over"]:
            tally.games += 1
            return
        if not message["menu"] or message["step"] == sent_step:
            continue
        if sent_step >= 0:
            tally.turn.append(now - sent_at)
        entries = [entry for group in message["menu"] for entry in group["entries"]]
        if think > 0:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        sent_step = message["step"]
        sent_at = time.monotonic()
        shown = False
        move = {"type": "move", "action": rng.choice(entries)["action"], "step": sent_step}
        await socket.send(json.dumps(move))


def sample_status(address: str, until: float, counts: list[int]) -> None:
    """The server's games in play, each second."""
    while time.monotonic() < until:
        with urllib.request.urlopen(f"{address}/api/status", timeout=30) as response:
            counts.append(int(json.load(response)["games_in_play"]))
        time.sleep(1.0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def percentiles(values: list[float]) -> str:
    if not values:
        return "no moves"
    ordered = sorted(values)

    def at(share: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    return (
        f"median {1000 * statistics.median(ordered):.1f} ms, 90% {at(0.9):.1f} ms, "
        f"99% {at(0.99):.1f} ms, max {1000 * ordered[-1]:.1f} ms"
    )


async def run(args: argparse.Namespace, address: str) -> Tally:
    tally = Tally()
    bot: dict[str, Any] = {"bot": args.bot}
    if args.bot in ("mcts", "ismcts"):
        bot["params"] = {"iterations": args.iterations}
    until = time.monotonic() + args.seconds
    counts: list[int] = []
    sampler = threading.Thread(target=sample_status, args=(address, until, counts), daemon=True)
    sampler.start()
    await asyncio.gather(
        *(
            client(address, args.game, bot, until, tally, seed, args.think)
            for seed in range(args.clients)
        )
    )
    sampler.join()
    held = max(counts) if counts else 0
    print(
        f"{args.clients} clients, {args.game} against {args.bot}, {args.seconds} s on "
        f"{os.cpu_count()} cores: the server held up to {held} games in play at once "
        f"(median {statistics.median(counts) if counts else 0:g})"
    )
    rate = len(tally.turn) / args.seconds
    print(
        f"each client thinking {args.think:g} s a move: games finished {tally.games}, moves "
        f"played {len(tally.turn)} ({rate:.1f} a second), errors {len(tally.errors)}"
    )
    print(f"a move to the view that shows it: {percentiles(tally.shown)}")
    print(f"a move to the client's next turn (the bot's reply included): {percentiles(tally.turn)}")
    for error in sorted(set(tally.errors))[:5]:
        print(f"  error: {error}")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=integer(1, MAX_CLIENTS), default=32)
    parser.add_argument("--seconds", type=integer(1, MAX_SECONDS), default=30)
    parser.add_argument("--game", default="rosenkoenig")
    parser.add_argument("--bot", default="random", help="the bot in the other seats (random)")
    parser.add_argument("--iterations", type=integer(1, 100_000), default=200, help="for mcts")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a client waits before each move (1)"
    )
    args = parser.parse_args()
    if not 0 <= args.think <= 60:
        parser.error(f"--think {args.think}: expected 0 to 60 seconds")
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    # The server in a process of its own, as rivals serve runs, so that the clients here do not
    # share its interpreter.
    server = subprocess.Popen(
        [sys.executable, "-m", "rivals.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--max-games", str(args.clients + 8)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{address}/api/status", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 2
                time.sleep(0.2)
        tally = asyncio.run(run(args, address))
    finally:
        server.terminate()
        server.wait(30)
    return 1 if tally.errors else 0


if __name__ == "__main__":
    run_script(main)
