"""``rivals serve`` at the protocol level (Starlette's TestClient, no browser): the lobby's
requests, playing a table over its websocket, bad requests answered in words, and the bounds
(games held, message and upload sizes, idle time, connections)."""

from __future__ import annotations

import importlib.util
import json
import logging
import random
import re
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import rivals
from rivals import cli
from rivals import replay as replays
from rivals.render.svg import moves as svg_moves
from rivals.web import boards, command, lobby, views
from rivals.web.app import create_app
from rivals.web.server import Limits
from tests.web_client import (
    PERSON,
    RANDOM,
    WS,
    Seat,
    client,
    create,
    first_seat,
    seats,
    server_of,
    table_request,
    token_of,
)


def test_the_catalog_offers_every_game_with_its_bots_presets_and_their_settings() -> None:
    with client() as test_client:
        catalog = test_client.get("/api/catalog").json()
    by_name = {entry["name"]: entry for entry in catalog["games"]}
    assert sorted(by_name) == rivals.games()
    for name, entry in by_name.items():
        game = rivals.make(name)
        assert entry["player_counts"] == list(game.info.player_counts)
        assert entry["params"] == game.params
        bots = {bot["name"]: bot for bot in entry["bots"]}
        assert set(bots) == set(game.info.bots) | set(game.info.presets)
        best = game.info.presets["best"]
        assert bots["best"]["plays"] == best["bot"]
        assert bots["best"]["params"] == best["params"]
        # Every bot as the lobby proposes it is accepted as it stands.
        for bot in entry["bots"]:
            lobby.check_bot(game, bot["name"], bot["settings"])
        assert bots["mcts"]["params"]["iterations"] == 1000  # the defaults, shown


def test_a_person_plays_a_whole_game_against_a_bot_and_sees_the_end_by_name() -> None:
    with first_seat("rosenkoenig", [RANDOM]) as seat:
        assert seat.welcome["seat"] == 0
        last = seat.play_out(random.Random(3))
    state_steps = last["step"]
    assert last["over"] and last["menu"] is None
    result = last["result"]
    assert [entry["label"] for entry in result["scores"]] == ["Red", "White"]
    assert [entry["name"] for entry in result["scores"]] == ["person", "random"]
    assert result["text"]  # the renderers' words on how it ended
    # The move list reached the last move, told once each.
    told = [
        entry["n"]
        for view in seat.received
        if view["type"] == "view"
        for entry in view["log"]["entries"]
    ]
    assert told == list(range(1, state_steps + 1))


def test_a_move_is_an_action_its_text_or_its_menu_number() -> None:
    with first_seat("sekigahara", [RANDOM]) as seat:
        view = seat.view_to_play()
        first = view["menu"][0]["entries"][0]
        seat.send({"type": "move", "text": str(first["number"]), "step": view["step"]})
        after = seat.view_to_play()
        played = [entry for entry in after["log"]["entries"] if entry["player"] == 0]
        assert played[0]["text"].startswith(" ".join(first["label"].split(" ")[:2]))
        entry = after["menu"][0]["entries"][0]
        text = " ".join(entry["label"].split(" ")[:2])  # "place 4", typed in capitals
        seat.send({"type": "move", "text": text.upper(), "step": after["step"]})
        again = seat.moved(after["step"])
        played = [entry for entry in again["log"]["entries"] if entry["player"] == 0]
        assert played[0]["text"].startswith(text)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "move", "action": 999}, "action 999 is not legal here"),
        ({"type": "move", "action": "12"}, "a move is an action number"),
        ({"type": "move", "text": "fly away"}, "is not a move of sekigahara"),
        ({"type": "move", "text": "77"}, "the moves are numbered 1 to"),
        ({"type": "move", "text": "move 1->2"}, "is not legal here"),
        ({"type": "move", "action": 0, "step": 0}, "the position has changed"),
        ({"type": "dance"}, "unknown request 'dance'"),
    ],
)
def test_a_bad_move_or_request_is_answered_in_words(message: dict[str, Any], expected: str) -> None:
    with first_seat("sekigahara", [RANDOM]) as seat:
        view = seat.view_to_play()
        message = {"step": view["step"], **message}
        seat.send(message)
        error = seat.next("error")
        assert expected in error["message"], error
        assert "Traceback" not in error["message"]
        # The table goes on: the same position, still playable.
        legal = view["menu"][0]["entries"][0]["action"]
        seat.send({"type": "move", "action": legal, "step": view["step"]})
        assert seat.view_to_play()["step"] > view["step"]


def test_a_message_that_is_not_json_too_large_or_out_of_turn_is_refused() -> None:
    with client(Limits(message_bytes=1024)) as test_client:
        created = create(test_client, table_request("rosenkoenig", [PERSON, PERSON]))
        with seats(test_client, token_of(created, 0), token_of(created, 1)) as (red, white):
            view = white.next("view")
            assert view["menu"] is None  # Red moves first
            white.send({"type": "move", "action": 0, "step": view["step"]})
            assert "not your turn" in white.next("error")["message"]
            white.socket.send_text("{not json")
            assert white.next("error")["message"] == "a message must be JSON"
            white.socket.send_text(json.dumps({"type": "move", "text": "x" * 2000}))
            assert "1,024 bytes at most" in white.next("error")["message"]
            white.socket.send_text("[1, 2]")
            assert "JSON object" in white.next("error")["message"]
            assert red.view_to_play()["menu"]


def test_spectators_see_the_public_view_and_cannot_play() -> None:
    with client() as test_client:
        created = create(test_client, table_request("rheinlaender", [PERSON, RANDOM, RANDOM]))
        with test_client.websocket_connect(WS) as socket:
            watcher = Seat(socket, created["spectate"])
            assert watcher.welcome["seat"] is None
            view = watcher.next("view")
            assert view["menu"] is None and view["targets"] == []
            # The public picture: no seat's hand.
            assert 'class="hand"' not in view["svg"]
            watcher.send({"type": "move", "action": 0})
            assert "spectators watch" in watcher.next("error")["message"]
            watcher.send({"type": "save"})
            assert "spectators watch" in watcher.next("error")["message"]


def test_a_link_that_opens_nothing_is_refused() -> None:
    with client() as test_client, test_client.websocket_connect(WS) as socket:
        socket.send_json({"type": "hello", "token": "not-a-token"})
        closed = socket.receive_json()
        assert closed == {
            "type": "closed",
            "message": "this link does not open a game here (any more)",
        }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (table_request("chess", [PERSON]), "unknown game 'chess'"),
        (table_request("rosenkoenig", [PERSON]), "has 2 seats"),
        (table_request("rosenkoenig", [RANDOM, RANDOM]), "no seat is a person's"),
        (table_request("rosenkoenig", [PERSON, {"bot": "deep blue"}]), "unknown bot 'deep blue'"),
        (
            table_request("rosenkoenig", [PERSON, {"bot": "alphabeta"}]),
            "alphabeta without time_s is not bounded in time",
        ),
        (
            table_request(
                "rosenkoenig", [PERSON, {"bot": "mcts", "params": {"iterations": 10**7}}]
            ),
            "more than the 100,000 a move may take here",
        ),
        (
            table_request("rosenkoenig", [PERSON, {"bot": "mcts", "params": {"time_s": 60}}]),
            "more than the 10 s a move may take here",
        ),
        (
            table_request("rosenkoenig", [PERSON, {"bot": "mcts", "params": {"depth": 2}}]),
            "unknown parameter 'depth'",
        ),
        (table_request("rosenkoenig", [PERSON, RANDOM], players=3), "players must be"),
        (
            table_request("battlecards", [PERSON, RANDOM], cards="/etc/passwd"),
            "the server reads no files",
        ),
        (
            table_request("battlecards", [PERSON, RANDOM], expansions=["../secret.json"]),
            "the server reads no files",
        ),
    ],
)
def test_the_lobby_refuses_a_game_it_cannot_hold_and_says_why(
    body: dict[str, Any], expected: str
) -> None:
    with client() as test_client:
        response = test_client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert expected in response.json()["error"], response.json()


def test_requests_from_another_site_or_host_are_refused() -> None:
    body = table_request("rosenkoenig", [PERSON, RANDOM])
    with client() as test_client:
        foreign = test_client.post(
            "/api/tables", json=body, headers={"origin": "http://evil.example"}
        )
        assert foreign.status_code == 403
        assert (
            test_client.post(
                "/api/tables", json=body, headers={"origin": "http://127.0.0.1"}
            ).status_code
            == 200
        )
        # A page of another name reaching a server bound to this machine (DNS rebinding).
        assert test_client.get("/api/catalog", headers={"host": "evil.example"}).status_code == 400
        with (
            pytest.raises(WebSocketDisconnect),
            test_client.websocket_connect(WS, headers={"origin": "http://evil.example"}) as socket,
        ):
            socket.receive_json()


def test_the_server_holds_at_most_its_games_and_closes_idle_ones() -> None:
    body = table_request("rosenkoenig", [PERSON, RANDOM])
    with client(Limits(tables=2, idle_s=60)) as test_client:
        first = create(test_client, body)
        create(test_client, body)
        full = test_client.post("/api/tables", json=body)
        assert full.status_code == 503
        assert "holds 2 games already" in full.json()["error"]
        server = server_of(test_client)
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(first, 0))
            seat.next("view")
            assert server.reap(time.monotonic() + 30) == 0
            assert server.reap(time.monotonic() + 61) == 2
            closed = seat.next("closed")
            assert "without a move" in closed["message"]
        assert test_client.post("/api/tables", json=body).status_code == 200


def test_uploads_and_connections_are_bounded() -> None:
    with client(Limits(upload_bytes=1000, connections=1, watchers=1)) as test_client:
        big = {"replay": "x" * 2000}
        response = test_client.post("/api/replays", json=big)
        assert response.status_code == 413
        assert "1,000 bytes" in response.json()["error"]
        created = create(test_client, table_request("rosenkoenig", [PERSON, RANDOM]))
        with test_client.websocket_connect(WS) as socket:
            Seat(socket, token_of(created, 0)).next("view")
            with test_client.websocket_connect(WS) as second:
                assert second.receive_json() == {
                    "type": "closed",
                    "message": "the server is full; try later",
                }


def test_a_bot_thinks_without_holding_up_the_server() -> None:
    # A ping sent while the bot thinks for a second is answered before the bot's move arrives.
    slow = {"bot": "mcts", "params": {"time_s": 1.0}}
    with first_seat("rosenkoenig", [slow]) as seat:
        view = seat.view_to_play()
        seat.play_first(view)
        thinking = seat.next("view")
        while thinking["thinking"] != 1:
            thinking = seat.next("view")
        seat.send({"type": "ping"})
        seat.next("pong")
        kinds = [message["type"] for message in seat.received]
        assert kinds[-1] == "pong"
        moved = seat.view_to_play()
        assert moved["step"] > thinking["step"]


def test_undo_takes_back_what_revealed_nothing_and_refuses_the_rest() -> None:
    with first_seat("sekigahara", [RANDOM]) as seat:
        view = seat.view_to_play()
        seat.send({"type": "undo"})
        assert (
            seat.next("error")["message"] == "cannot undo: nothing to undo: you have not moved yet"
        )
        place = next(
            e for g in view["menu"] for e in g["entries"] if e["label"].startswith("place")
        )
        seat.send({"type": "move", "action": place["action"], "step": view["step"]})
        after = seat.view_to_play()
        seat.send({"type": "undo"})
        back = seat.view_to_play()
        assert back["step"] == view["step"]
        assert back["log"]["from"] == view["step"] and back["log"]["entries"] == []
        del after
    with first_seat("rheinlaender", [RANDOM, RANDOM]) as seat:
        view = seat.view_to_play()
        seat.play_first(view)
        seat.view_to_play()
        seat.send({"type": "undo"})
        refusal = seat.next("error")["message"]
        assert refusal.startswith("cannot undo: ")
        assert "chance has been resolved" in refusal or "another seat has moved" in refusal


def test_save_gives_the_replay_and_says_it_holds_the_hidden_cards() -> None:
    with client() as test_client:
        created = create(
            test_client, table_request("verraeter", [PERSON, RANDOM, RANDOM], players=3)
        )
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(created, 0))
            view = seat.view_to_play()
            seat.send({"type": "save"})
            saved = seat.next("saved")
            assert saved["hidden"] is True
            state = replays.loads(saved["replay"])
            assert len(state.history()) == view["step"]
            # Saved mid-game, the file showed every card: no undo from here on.
            seat.play_first(view)
            seat.send({"type": "undo"})
            assert "the saved game shows every hidden card" in seat.next("error")["message"]
    with client() as test_client:
        created = create(
            test_client, table_request("verraeter", [PERSON, PERSON, RANDOM], players=3)
        )
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(created, 0))
            seat.send({"type": "save"})
            assert "cannot save while other people play" in seat.next("error")["message"]


def test_a_saved_game_resumes_from_the_lobby_where_it_stood() -> None:
    game = rivals.make("rosenkoenig")
    state = game.new_initial_state()
    rng = random.Random(4)
    while len(state.history()) < 30 or state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    text = replays.dumps(state)
    with client() as test_client:
        summary = test_client.post("/api/replays", json={"replay": text}).json()
        assert summary["game"] == "rosenkoenig" and summary["steps"] == len(state.history())
        assert not summary["terminal"]
        created = create(test_client, {"replay": text, "seats": [PERSON, PERSON]})
        seat_to_move = state.current_player()
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(created, seat_to_move))
            view = seat.view_to_play()
            assert view["step"] == len(state.history())
            assert [entry["n"] for entry in view["log"]["entries"]] == list(
                range(1, view["step"] + 1)
            )
        bad = test_client.post("/api/tables", json={"replay": text[:-5], "seats": [PERSON, PERSON]})
        assert bad.status_code == 400 and "bad replay" in bad.json()["error"]


def test_resign_ends_the_game_and_a_rematch_sends_each_person_a_new_link() -> None:
    with client() as test_client:
        created = create(test_client, table_request("rosenkoenig", [PERSON, PERSON]))
        with seats(test_client, token_of(created, 0), token_of(created, 1)) as (red, white):
            red.send({"type": "rematch"})
            assert "a rematch follows a finished game" in red.next("error")["message"]
            white.send({"type": "resign"})
            over = white.next("view")
            while not over["over"]:
                over = white.next("view")
            assert over["result"]["text"].startswith("White (seat 1) resigned")
            red.send({"type": "rematch"})
            new_red = red.next("rematch")["seat"]
            new_white = white.next("rematch")["seat"]
            assert new_red != new_white
            assert token_of(created, 0) not in (new_red, new_white)
        with test_client.websocket_connect(WS) as socket:
            assert Seat(socket, new_white).welcome["seat"] == 1


def test_a_hint_is_for_the_seat_to_move_and_names_a_legal_move() -> None:
    with first_seat("battlecards", [RANDOM]) as seat:
        view = seat.view_to_play()
        seat.send({"type": "hint"})
        hint = seat.next("hint")
        legal = {entry["action"] for group in view["menu"] for entry in group["entries"]}
        assert hint["action"] in legal and hint["step"] == view["step"]
        assert hint["bot"] == "best"


def test_no_link_appears_in_the_server_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with client() as test_client:
        created = create(test_client, table_request("rosenkoenig", [PERSON, PERSON]))
        with test_client.websocket_connect(WS) as socket:
            Seat(socket, token_of(created, 0)).send({"type": "move", "action": -1})
        secrets = [created["spectate"], token_of(created, 0), token_of(created, 1)]
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "table 1: rosenkoenig" in logged
    for secret in secrets:
        assert secret not in logged


def test_the_rules_are_served_as_a_page() -> None:
    with client() as test_client:
        page = test_client.get("/rules/sekigahara")
        assert page.status_code == 200
        assert "<h1>Sekigahara</h1>" in page.text
        assert "<summary>Engine encoding" in page.text
        assert page.headers["content-security-policy"].startswith("default-src 'self'")
        assert test_client.get("/rules/chess").status_code == 404


@pytest.mark.parametrize(
    ("path", "script", "title", "body", "landmark"),
    [
        ("/", "lobby", "play, watch and analyse", "lobby", 'id="new-game"'),
        ("/play", "play", "a game", "play", 'id="typed-move"'),
        ("/review", "review", "review", "play review", 'id="analysis"'),
        ("/watch", "watch", "watching", "watch", 'id="recent"'),
    ],
)
def test_each_page_is_a_whole_document_with_its_own_script(
    path: str, script: str, title: str, body: str, landmark: str
) -> None:
    with client() as test_client:
        page = test_client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    assert text.startswith("<!doctype html>")
    assert text.rstrip().endswith("</body>\n</html>")
    assert f"<title>rivals: {title}</title>" in text
    common = text.index('<script src="/static/common.js" defer></script>')
    # Deferred scripts run in order: the page's own needs common.js first.
    assert text.index(f'<script src="/static/{script}.js" defer></script>') > common
    assert f'<body class="{body}">' in text
    assert landmark in text
    assert "$" not in text.split("<body", 1)[0]


@pytest.mark.parametrize("name", rivals.games())
def test_every_place_to_click_is_on_the_picture_and_offers_legal_moves(name: str) -> None:
    rng = random.Random(name)
    game = rivals.make(name)
    checked = 0
    while checked < 25:
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 120)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        picture = views.picture(state, player, svg_moves(state))
        legal = set(state.legal_actions())
        for target in boards.targets(state):
            assert set(target["actions"]) <= legal, target
            if "select" in target:
                for attribute in re.findall(r'\[(data-[a-z-]+="[^"]*")\]', target["select"]):
                    assert attribute in picture, (target, attribute)
                if "text" in target:
                    assert f">{target['text']}<" in picture, target
            else:
                x, y = (target.get("circle") or target["rect"])[:2]
                width, height = (
                    float(v) for v in re.findall(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', picture)[0]
                )
                assert 0 <= x <= width and 0 <= y <= height, target
        checked += 1


def test_a_server_for_the_network_answers_any_host_name_but_still_only_its_own_pages() -> None:
    app = create_app(host="0.0.0.0")
    lan = "http://192.168.1.20:8000"
    with TestClient(app, base_url=lan) as test_client:
        assert test_client.get("/api/catalog").status_code == 200
        body = table_request("rosenkoenig", [PERSON, PERSON])
        created = test_client.post("/api/tables", json=body, headers={"origin": lan})
        assert created.status_code == 200
        foreign = test_client.post(
            "/api/tables", json=body, headers={"origin": "http://evil.example"}
        )
        assert foreign.status_code == 403
        with test_client.websocket_connect(
            "ws://192.168.1.20:8000/ws", headers={"origin": lan}
        ) as socket:
            seat = Seat(socket, created.json()["seats"][1]["token"])
            assert seat.welcome["seat"] == 1


def test_serve_is_a_sub_command_whose_options_are_checked() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve", "--host", "0.0.0.0", "--port", "8123", "--max-games", "4"])
    assert (args.host, args.port, args.max_games, args.idle_minutes) == ("0.0.0.0", 8123, 4, 60)
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--port", "70000"])
    assert command.run is args.handler


def test_a_finished_game_that_everyone_left_makes_room_for_a_new_one() -> None:
    body = table_request("rosenkoenig", [PERSON, RANDOM])
    with client(Limits(tables=1)) as test_client:
        first = create(test_client, body)
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(first, 0))
            seat.send({"type": "resign"})
            seat.next("view")
            # Someone is still at the finished table: it is kept.
            assert test_client.post("/api/tables", json=body).status_code == 503
        create(test_client, body)
        with test_client.websocket_connect(WS) as socket:
            socket.send_json({"type": "hello", "token": token_of(first, 0)})
            assert "does not open a game here" in socket.receive_json()["message"]


def test_the_status_counts_games_in_play_and_connections() -> None:
    with client() as test_client:
        assert test_client.get("/api/status").json() == {
            "games_in_play": 0,
            "games": 0,
            "connections": 0,
            "reviews": 0,
        }
        created = create(test_client, table_request("rosenkoenig", [PERSON, RANDOM]))
        create(test_client, table_request("sekigahara", [PERSON, RANDOM]))
        with test_client.websocket_connect(WS) as socket:
            seat = Seat(socket, token_of(created, 0))
            seat.send({"type": "resign"})
            seat.next("view")
            status = test_client.get("/api/status").json()
        assert status == {"games_in_play": 1, "games": 2, "connections": 1, "reviews": 0}


def test_serve_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "uvicorn" else found(name, *rest),
    )
    assert cli.main(["serve", "--port", "8123"]) == 2
    assert "rivals serve needs uvicorn: pip install 'rivals[web]'" in capsys.readouterr().out


def test_no_address_of_the_server_carries_a_secret() -> None:
    """A seat's token, a table's id and a review's id travel in request bodies and websocket
    messages; an address, which servers and proxies log, names only pages, games and logs."""
    app = create_app()
    parameters = {name for route in app.routes for name in getattr(route, "param_convertors", {})}
    assert parameters == {"game", "log", "path"}  # path: a static file's


COUNTS = [
    (name, count) for name in rivals.games() for count in rivals.make(name).info.player_counts
]


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=[f"{n}-{c}" for n, c in COUNTS])
def test_every_game_and_player_count_is_played_to_its_end(name: str, players: int) -> None:
    params: dict[str, Any] = (
        {"players": players} if len(rivals.make(name).info.player_counts) > 1 else {}
    )
    if name == "battlecards":
        params["max_turns"] = 12
    if name == "verraeter":
        params["rounds"] = 2
    with client() as test_client:
        created = create(
            test_client, table_request(name, [PERSON] + [RANDOM] * (players - 1), **params)
        )
        with test_client.websocket_connect(WS) as socket:
            last = Seat(socket, token_of(created, 0)).play_out(random.Random(players))
    assert last["over"] and len(last["result"]["scores"]) == players
    assert [entry["name"] for entry in last["result"]["scores"]] == ["person"] + ["random"] * (
        players - 1
    )
