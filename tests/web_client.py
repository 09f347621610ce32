"""Scripted browsers for the web server's tests: the lobby's requests and a table's websocket,
through Starlette's TestClient (no network), and a real server on 127.0.0.1 for the browser
tests."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from starlette.testclient import TestClient, WebSocketTestSession

from rivals.web.app import create_app
from rivals.web.server import Limits, Server

BASE = "http://127.0.0.1"
WS = "ws://127.0.0.1/ws"


@contextlib.contextmanager
def client(
    limits: Limits | None = None, threads: int = 2, watch: Sequence[Path] = ()
) -> Iterator[TestClient]:
    """A TestClient of a new server (its lifespan run: the reaper and the pool end with it)."""
    app = create_app(limits, threads=threads, watch=watch)
    with TestClient(app, base_url=BASE) as test_client:
        yield test_client


def server_of(test_client: TestClient) -> Server:
    server = test_client.app.state.server  # type: ignore[attr-defined]
    assert isinstance(server, Server)
    return server


def table_request(game: str, seats: list[dict[str, Any]], **params: Any) -> dict[str, Any]:
    return {"game": game, "params": params, "seats": seats}


PERSON: dict[str, Any] = {"person": True}
RANDOM: dict[str, Any] = {"bot": "random"}


def create(test_client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = test_client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    created = response.json()
    assert isinstance(created, dict)
    return created


def token_of(created: dict[str, Any], seat: int) -> str:
    token = created["seats"][seat]["token"]
    assert isinstance(token, str)
    return token


class Seat:
    """One websocket to a table, with every message it was sent kept in ``received``."""

    def __init__(self, socket: WebSocketTestSession, token: str) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        socket.send_json({"type": "hello", "token": token})
        self.welcome = self.next("welcome")

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind`` (those before it are kept, not acted on)."""
        while True:
            message = self.socket.receive_json()
            assert isinstance(message, dict)
            self.received.append(message)
            if message["type"] == kind:
                return message
            assert message["type"] != "closed", message

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send_json(message)

    def view_to_play(self) -> dict[str, Any]:
        """The next view in which this seat is to move or the game is over."""
        while True:
            view = self.next("view")
            if view["menu"] or view["over"]:
                return view

    def play_first(self, view: dict[str, Any]) -> None:
        """Plays the first move of ``view``'s menu, as of its step."""
        action = view["menu"][0]["entries"][0]["action"]
        self.send({"type": "move", "action": action, "step": view["step"]})

    def moved(self, step: int) -> dict[str, Any]:
        """The next view of a position past ``step``."""
        while True:
            view = self.next("view")
            if view["step"] > step:
                return view

    def play_out(self, rng: random.Random, limit: int = 5000) -> dict[str, Any]:
        """Random legal moves from the menu until the game ends; the last view."""
        acted = -1
        for _ in range(limit):
            view = self.view_to_play()
            if view["over"]:
                return view
            if view["step"] == acted:
                continue  # a second view of the position already answered
            acted = view["step"]
            entries = [entry for group in view["menu"] for entry in group["entries"]]
            self.send(
                {"type": "move", "action": rng.choice(entries)["action"], "step": view["step"]}
            )
        raise AssertionError("the game did not end")


@contextlib.contextmanager
def seats(test_client: TestClient, *tokens: str) -> Iterator[list[Seat]]:
    """A websocket for each of ``tokens`` (seats' links or the spectators'), each said hello."""
    with contextlib.ExitStack() as stack:
        yield [Seat(stack.enter_context(test_client.websocket_connect(WS)), t) for t in tokens]


@contextlib.contextmanager
def first_seat(game: str, others: list[dict[str, Any]]) -> Iterator[Seat]:
    """A person at seat 0 of a new ``game`` table, whose other seats are ``others``."""
    with client() as test_client:
        created = create(test_client, table_request(game, [PERSON, *others]))
        with seats(test_client, token_of(created, 0)) as (seat,):
            yield seat


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def live_server(
    limits: Limits | None = None, threads: int = 2, watch: Sequence[Path] = ()
) -> Iterator[str]:
    """A real server on 127.0.0.1 at a free port, stopped when the block ends; its address."""
    port = free_port()
    config = uvicorn.Config(
        create_app(limits, threads=threads, watch=watch),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=(limits or Limits()).message_bytes,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        assert thread.is_alive(), "the server stopped at start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
