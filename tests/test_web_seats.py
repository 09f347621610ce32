"""What the server sends each browser depends only on what its seat may know.

A whole game with hidden cards is played through the server by one scripted browser per seat,
plus a spectator, and every message each of them is sent is kept. The same game is then played
again with the cards another seat holds dealt otherwise (a history the seat cannot tell from the
first: the engine's resample from that seat's information state): the seat, and the spectator,
must be sent exactly the same messages, byte for byte. A hidden card of another seat that reached
a browser anywhere (the picture, the move list, the menu, a score) would make the two differ.
Battlecards' reserve hands are also looked for by name: the cards that stayed in a side's reserve
to the end appear in no message to the other side.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import rivals
from rivals._core import State
from rivals.web.lobby import SeatSpec
from tests.random_play import play_randomly
from tests.web_client import WS, Seat, client, server_of

GAMES = [
    ("rheinlaender", {"max_turns": 15}),
    ("verraeter", {"players": 3, "rounds": 2}),
    ("battlecards", {"max_turns": 12}),
]
# Keys of a welcome that differ from one table to the next: its spectators' link.
PER_TABLE = ("spectate",)


def random_history(name: str, params: dict[str, Any], seed: int) -> State:
    state: State = play_randomly(
        rivals.make(name, **params).new_initial_state(), random.Random(seed)
    )
    return state


def replayed(history: list[int]) -> Callable[[State], int]:
    """Chance as ``history`` had it."""
    return lambda state: history[len(state.history())]


def messages_of(name: str, params: dict[str, Any], history: list[int]) -> list[list[str]]:
    """Every message each seat (in seat order), then a spectator, is sent while ``history`` is
    played through the server by a browser per seat, as JSON text."""
    game = rivals.make(name, **params)
    players = game.num_players
    with client() as test_client:
        server = server_of(test_client)
        table = server.create_table(
            game, [SeatSpec(person=True)] * players, chance=replayed(history)
        )
        tokens = {seat: token for token, seat in table.tokens.items()}
        sockets = [test_client.websocket_connect(WS) for _ in range(players + 1)]
        try:
            seats = []
            for seat, socket in enumerate(sockets[:players]):
                seats.append(Seat(socket.__enter__(), tokens[seat]))
            watcher = Seat(sockets[players].__enter__(), table.id)
            walker = game.new_initial_state()
            for step, action in enumerate(history):
                if walker.is_chance_node():
                    walker.apply_action(action)
                    continue
                mover = seats[walker.current_player()]
                view = mover.view_to_play()
                while view["step"] != step:  # an earlier view of this seat's turn
                    view = mover.view_to_play()
                mover.send({"type": "move", "action": action, "step": step})
                walker.apply_action(action)
            for seat in [*seats, watcher]:
                while not seat.next("view")["over"]:
                    pass
        finally:
            for socket in sockets:
                socket.__exit__(None, None, None)
    out = []
    for seat in [*seats, watcher]:
        texts = []
        for message in seat.received:
            kept = {key: value for key, value in message.items() if key not in PER_TABLE}
            texts.append(json.dumps(kept, sort_keys=True, ensure_ascii=False))
        out.append(texts)
    return out


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[name for name, _ in GAMES])
def test_no_browser_is_sent_what_its_seat_may_not_see(name: str, params: dict[str, Any]) -> None:
    final = random_history(name, params, seed=11)
    history = final.history()
    players = final.game.num_players
    truth = messages_of(name, params, history)
    assert all(len(texts) > 10 for texts in truth)
    for seat in range(players):
        twin = final.resample_from_infostate(seat, 3).history()
        assert twin != history, "the twin must deal the hidden cards otherwise"
        assert twin[: len(history)] != history
        other = messages_of(name, params, twin)
        assert other[seat] == truth[seat], f"seat {seat} was sent something it may not see"
        assert other[players] == truth[players], "the spectator was sent something hidden"
        # And the messages are those of two different games: some other seat saw the change.
        assert any(other[k] != truth[k] for k in range(players) if k != seat)
    if name == "battlecards":
        snapshot = final.to_dict()
        for seat in range(players):
            unseen = set(snapshot["reserve"][1 - seat])
            assert unseen, "a reserve hand to look for"
            document = final.game.data["cards"]
            cards = {
                card["id"]: card["name"]
                for side in ("german", "british")
                for card in document[side]
            }
            sent = "\n".join(truth[seat])
            for card_id in unseen:
                assert f'"{card_id}' not in sent and f" {card_id}" not in sent, card_id
                assert cards[card_id] not in sent, cards[card_id]
