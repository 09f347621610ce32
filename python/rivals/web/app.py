"""The web application: the pages, the lobby's requests and the tables' websocket.

Links never carry a secret in what a server logs: a seat's token travels in the page address's
fragment (``/play#seat=TOKEN``, which a browser never sends) and then in the websocket's first
message. Every request is checked before it is acted on; a mistake gets a message saying what
was wrong, an unexpected failure a bare "internal error" (the details go to the server's log).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from string import Template
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import rivals
from rivals import replay as replays
from rivals import rulebook
from rivals.render import seat_label
from rivals.render.svg import escape
from rivals.web import lobby, reviews, views
from rivals.web.server import Limits, Server
from rivals.web.tables import Client, Table, TableError
from rivals.web.watch import Watch

__all__ = ["create_app"]

log = logging.getLogger("rivals.web")
STATIC = resources.files("rivals.web").joinpath("static")
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
# A browser's first message names its link; it has this long to send it.
HELLO_S = 10.0
# Messages a connection may send in a burst, and per second over time: a faster one is read
# more slowly, so that one connection cannot keep the server from the others.
BURST = 100
RATE = 50.0
REAP_EVERY_S = 30.0
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class SecurityHeaders:
    """Every page: scripts and connections from this server only, never framed, no referrer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def _same_origin(headers: Any) -> bool:
    """A browser's request comes from a page of this server (its Origin names the Host), or
    from no page at all (a script, which no other site can make a browser send)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return str(origin) in (f"http://{host}", f"https://{host}")


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON, read up to ``limit`` bytes."""
    if not _same_origin(request.headers):
        raise ApiError(403, "requests come from this server's own pages")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"the request is larger than the {limit:,} bytes allowed")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise ApiError(413, f"the request is larger than the {limit:,} bytes allowed")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ApiError(400, "the request is not JSON") from None


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ApiError(400, f"{what} must be a JSON object")
    return value


def _page(name: str, title: str, body_class: str) -> Callable[[Request], Awaitable[Response]]:
    """The page `name`: static/page.html, the head every page shares, around static/<name>.html,
    the body's content, with static/<name>.js as its script."""

    async def endpoint(request: Request) -> Response:
        del request
        frame = Template(STATIC.joinpath("page.html").read_text(encoding="utf-8"))
        content = STATIC.joinpath(f"{name}.html").read_text(encoding="utf-8")
        return HTMLResponse(
            frame.substitute(name=name, title=title, body_class=body_class, content=content)
        )

    return endpoint


def _rules_html(game: str) -> str:
    """A game's rules page as HTML: the rules first, the engine's encoding folded away."""
    text = rulebook.page(game)
    rules, marker, encoding = text.partition("\n## Engine encoding")
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = renderer.render(rules)
    if marker:
        body += (
            "<details><summary>Engine encoding (actions, snapshot, observations)</summary>"
            + renderer.render("## Engine encoding" + encoding)
            + "</details>"
        )
    long_name = rivals.make(game).info.long_name
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(long_name)}: rules</title>"
        "<link rel='stylesheet' href='/static/style.css'></head>"
        f"<body class='rules'><nav class='top'><a href='/'>rivals</a> · rules of "
        f"{escape(long_name)}</nav><main class='rules-text'>{body}</main></body></html>"
    )


def _replay_from(text: Any, index: Any) -> tuple[Any, int]:
    """A replay's dict from a file's text: a replay, or game ``index`` of a replay log (one
    JSON object a line). Returns it and how many games the text holds."""
    if not isinstance(text, str):
        raise ApiError(400, "replay must be the text of a replay file")
    try:
        return replays.decode(text), 1
    except ValueError as error:
        lines = [line for line in text.split("\n") if line.strip()]
        if len(lines) < 2:
            raise ApiError(400, str(error)) from None
    chosen = 0 if index is None else index
    if isinstance(chosen, bool) or not isinstance(chosen, int) or not 0 <= chosen < len(lines):
        raise ApiError(
            400, f"the log holds {len(lines)} games; choose one from 0 to {len(lines) - 1}"
        )
    try:
        return replays.decode(lines[chosen]), len(lines)
    except ValueError as error:
        raise ApiError(400, f"game {chosen} of the log: {error}") from None


def _state_of(data: Any) -> Any:
    try:
        return replays.from_dict(data)
    except ValueError as error:
        raise ApiError(400, str(error)) from None


def create_app(
    limits: Limits | None = None,
    threads: int | None = None,
    host: str = "127.0.0.1",
    watch: Sequence[str | os.PathLike[str]] = (),
) -> Starlette:
    """The application, serving on ``host``: bound to this machine (the default), it answers
    only requests addressed to it by a loopback name, which keeps other sites' pages (DNS
    rebinding) out. ``watch`` are the replay logs of arenas and tournaments it follows."""
    server = Server(limits, threads, watch)
    # Analyses at once: each holds a thread for as long as its bot thinks. Made in the server's
    # event loop (an asyncio primitive belongs to the loop it is first used in).
    analysing: list[asyncio.Semaphore] = []

    async def catalog(request: Request) -> Response:
        del request
        return JSONResponse(lobby.catalog())

    async def status(request: Request) -> Response:
        del request
        return JSONResponse(
            {
                "games_in_play": sum(not table.over for table in server.tables.values()),
                "games": len(server.tables),
                "connections": server.connections,
                "reviews": len(server.reviews),
            }
        )

    async def inspect(request: Request) -> Response:
        body = _object(await _body(request, server.limits.upload_bytes), "the request")
        data, count = _replay_from(body.get("replay"), body.get("index"))
        state = _state_of(data)
        game = state.game
        players = game.num_players
        return JSONResponse(
            {
                "game": game.name,
                "long_name": game.info.long_name,
                "params": views.params_shown(game),
                "players": players,
                "seat_labels": [seat_label(game.name, players, seat) for seat in range(players)],
                "steps": len(state.history()),
                "terminal": state.is_terminal(),
                "games": count,
            }
        )

    async def create_table(request: Request) -> Response:
        body = _object(await _body(request, server.limits.upload_bytes), "the request")
        state = None
        try:
            if body.get("replay") is not None:
                data, _ = _replay_from(body["replay"], body.get("index"))
                state = _state_of(data)
                if state.is_terminal():
                    raise ApiError(
                        400, "this game is over: open it in the review to step through it"
                    )
                game = state.game
            else:
                game = lobby.make_game(body.get("game"), body.get("params", {}))
            seats = lobby.seat_specs(game, body.get("seats"))
        except ValueError as error:
            raise ApiError(400, str(error)) from None
        if not any(spec.person for spec in seats):
            raise ApiError(400, "no seat is a person's: give at least one seat to a person")
        try:
            table = server.create_table(game, seats, state)
        except TableError as error:
            raise ApiError(503, str(error)) from None
        table.run()
        links = {seat: token for token, seat in table.tokens.items()}
        labels = [seat_label(game.name, game.num_players, seat) for seat in range(game.num_players)]
        return JSONResponse(
            {
                "spectate": table.id,
                "seats": [
                    {"seat": seat, "label": labels[seat], "token": links.get(seat)}
                    for seat in range(game.num_players)
                ],
            }
        )

    async def create_review(request: Request) -> Response:
        body = _object(await _body(request, server.limits.upload_bytes), "the request")
        data, _ = _replay_from(body.get("replay"), body.get("index"))
        try:
            review = reviews.from_replay(data)
        except ValueError as error:
            raise ApiError(400, str(error)) from None
        try:
            server.add_review(review)
        except TableError as error:
            raise ApiError(503, str(error)) from None
        return JSONResponse({"id": review.id})

    async def review_request(request: Request) -> tuple[reviews.Review, dict[str, Any]]:
        """The review a request names and the request. A review's id travels in the body, never
        in an address a log keeps: it shows every card of its game."""
        body = _object(await _body(request, server.limits.message_bytes), "the request")
        name = body.get("id")
        review = server.reviews.get(name) if isinstance(name, str) else None
        if review is None:
            raise ApiError(404, "this review is not (or no longer) on the server")
        review.touch()
        return review, body

    async def review_summary(request: Request) -> Response:
        review, _ = await review_request(request)
        return JSONResponse(review.summary())

    async def review_log(request: Request) -> Response:
        review, body = await review_request(request)
        try:
            return JSONResponse({"entries": review.log(body.get("seat"))})
        except ValueError as error:
            raise ApiError(400, str(error)) from None

    async def review_frame(request: Request) -> Response:
        review, body = await review_request(request)
        try:
            return JSONResponse(review.frame(body.get("step"), body.get("seat")))
        except ValueError as error:
            raise ApiError(400, str(error)) from None

    async def review_analyse(request: Request) -> Response:
        review, body = await review_request(request)
        loop = asyncio.get_running_loop()
        if not analysing:
            analysing.append(asyncio.Semaphore(server.limits.analyses))
        async with analysing[0]:
            try:
                answer = await loop.run_in_executor(
                    server.executor,
                    reviews.analyse,
                    review,
                    body.get("step"),
                    body.get("bot"),
                    body.get("params", {}),
                    server.solvers,
                )
            except ValueError as error:
                raise ApiError(400, str(error)) from None
        return JSONResponse(answer)

    async def watched(request: Request) -> Response:
        del request
        return JSONResponse([{"number": w.number, "name": w.name} for w in server.watches])

    def watch_of(request: Request) -> Watch:
        number = request.path_params["log"]
        if (
            not number.isascii()
            or not number.isdigit()
            or not 1 <= int(number) <= len(server.watches)
        ):
            raise ApiError(404, "no such log: the logs are those given to rivals serve --watch")
        return server.watches[int(number) - 1]

    async def watch_snapshot(request: Request) -> Response:
        watch = watch_of(request)
        loop = asyncio.get_running_loop()
        return JSONResponse(await loop.run_in_executor(server.executor, watch.snapshot))

    async def watch_review(request: Request) -> Response:
        watch = watch_of(request)
        body = _object(await _body(request, server.limits.message_bytes), "the request")
        line = body.get("line")
        if isinstance(line, bool) or not isinstance(line, int) or line < 1:
            raise ApiError(400, "line must be a line number of the log")
        loop = asyncio.get_running_loop()
        try:
            data = await loop.run_in_executor(server.executor, watch.game, line)
            review = server.add_review(reviews.from_replay(data))
        except ValueError as error:
            raise ApiError(400, str(error)) from None
        except TableError as error:
            raise ApiError(503, str(error)) from None
        return JSONResponse({"id": review.id})

    async def rules(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in rivals.games():
            return HTMLResponse("no such game", status_code=404)
        return HTMLResponse(_rules_html(game))

    async def socket(websocket: WebSocket) -> None:
        await _serve_socket(server, websocket)

    async def handle_api_error(request: Request, error: Exception) -> Response:
        del request
        assert isinstance(error, ApiError)
        return JSONResponse({"error": str(error)}, status_code=error.status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        del app

        async def reap() -> None:
            while True:
                await asyncio.sleep(REAP_EVERY_S)
                server.reap()

        reaper = asyncio.get_running_loop().create_task(reap())
        try:
            yield
        finally:
            reaper.cancel()
            server.close()

    middleware = [Middleware(SecurityHeaders)]
    if host in LOOPBACK:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(LOOPBACK)))
    app = Starlette(
        routes=[
            Route("/", _page("lobby", "play, watch and analyse", "lobby")),
            Route("/play", _page("play", "a game", "play")),
            Route("/review", _page("review", "review", "play review")),
            Route("/watch", _page("watch", "watching", "watch")),
            Route("/rules/{game}", rules),
            Route("/api/catalog", catalog),
            Route("/api/status", status),
            Route("/api/replays", inspect, methods=["POST"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/reviews", create_review, methods=["POST"]),
            Route("/api/review/summary", review_summary, methods=["POST"]),
            Route("/api/review/log", review_log, methods=["POST"]),
            Route("/api/review/frame", review_frame, methods=["POST"]),
            Route("/api/review/analyse", review_analyse, methods=["POST"]),
            Route("/api/watch", watched),
            Route("/api/watch/{log}", watch_snapshot),
            Route("/api/watch/{log}/review", watch_review, methods=["POST"]),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ],
        middleware=middleware,
        exception_handlers={ApiError: handle_api_error},
        lifespan=lifespan,
    )
    app.state.server = server
    return app


class _Bucket:
    """Messages a connection may send: ``BURST`` at once, ``RATE`` a second over time."""

    def __init__(self) -> None:
        self.tokens = float(BURST)
        self.at = time.monotonic()

    def wait(self) -> float:
        """Takes a message's share: how long to wait before reading it (0 within the rate)."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.at) * RATE) - 1
        self.at = now
        return 0.0 if self.tokens >= 0 else -self.tokens / RATE


def _message(raw: str, limit: int) -> dict[str, Any]:
    if len(raw.encode("utf-8", "surrogatepass")) > limit:
        raise TableError(f"a message may hold {limit:,} bytes at most")
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise TableError("a message must be JSON") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise TableError('a message must be a JSON object with a "type"')
    return value


async def _writer(websocket: WebSocket, client: Client) -> None:
    while True:
        message = await client.queue.get()
        if message is None:
            break
        await websocket.send_text(json.dumps(message, ensure_ascii=False))
    with contextlib.suppress(Exception):  # already closed by the other side
        await websocket.close()


async def _serve_socket(server: Server, websocket: WebSocket) -> None:
    limits = server.limits
    if not _same_origin(websocket.headers):
        await websocket.close(code=1008)
        return
    if server.connections >= limits.connections:
        await websocket.accept()
        await websocket.send_json({"type": "closed", "message": "the server is full; try later"})
        await websocket.close(code=1013)
        return
    server.connections += 1
    try:
        await websocket.accept()
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_S)
            hello = _message(raw, limits.message_bytes)
        except (asyncio.TimeoutError, TableError, WebSocketDisconnect, KeyError):
            await _refuse(websocket, "expected the page's link first")
            return
        token = hello.get("token")
        found = server.lookup(token) if isinstance(token, str) else None
        if found is None:
            await _refuse(websocket, "this link does not open a game here (any more)")
            return
        table, seat = found
        if sum(1 for other in table.clients) >= limits.watchers:
            await _refuse(websocket, f"this game has {limits.watchers} connections already")
            return
        client = Client(seat)
        table.join(client)
        writer = asyncio.get_running_loop().create_task(_writer(websocket, client))
        try:
            await _read(server, table, client, websocket)
        finally:
            table.leave(client)
            client.drop()
            with contextlib.suppress(Exception):
                await writer
    finally:
        server.connections -= 1


async def _refuse(websocket: WebSocket, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "closed", "message": message})
        await websocket.close(code=1008)


async def _read(server: Server, table: Table, client: Client, websocket: WebSocket) -> None:
    bucket = _Bucket()
    while not client.dropped:
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), server.limits.idle_s)
        except (asyncio.TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            return
        delay = bucket.wait()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            await _handle(server, table, client, _message(raw, server.limits.message_bytes))
        except TableError as error:
            client.send({"type": "error", "message": str(error)})
        except Exception:  # never a stack trace to the browser; the log has it
            log.exception("table %d: a request failed", table.number)
            client.send({"type": "error", "message": "internal error (see the server's log)"})


async def _handle(server: Server, table: Table, client: Client, message: dict[str, Any]) -> None:
    kind = message["type"]
    table.touch()
    if kind == "move":
        table.play(client, message)
    elif kind == "undo":
        table.undo(client)
    elif kind == "resign":
        table.resign(client)
    elif kind == "save":
        client.send(table.save(client))
    elif kind == "rematch":
        server.rematch(table, client)
    elif kind == "review":
        client.send({"type": "review", "id": server.review_of(table, client).id})
    elif kind == "hint":
        await table.hint(client)
    elif kind == "ping":
        client.send({"type": "pong"})
    else:
        raise TableError(f"unknown request {replays.shown(kind)}")
