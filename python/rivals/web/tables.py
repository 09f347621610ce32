"""A table: one game on the server, its seats (people and bots) and everyone watching it.

The table holds the true state. What it tells each connection is that connection's seat view
(``views``): the picture, the move list and, to the seat to move, its menu and the places to
click; a spectator gets the public view. Chance is resolved on the server with a seeded random
stream; bots think in the server's thread pool on a copy of the state, so the event loop stays
free, and a move found for a position that has changed since (an undo, a resignation) is
dropped.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import rivals
from rivals import replay as replays
from rivals._core import CHANCE, Bot, BudgetExceeded, Game, State
from rivals.play import reveals
from rivals.render import result_text
from rivals.render.svg import Move, moves
from rivals.web import views
from rivals.web.boards import targets
from rivals.web.lobby import SeatSpec, hint_bot

__all__ = ["Client", "Table", "TableError"]

log = logging.getLogger("rivals.web")

# A bot thinking longer than this is shown thinking.
SHOW_THINKING_S = 0.15
# Messages waiting for a slow connection before it is dropped: each view is a whole picture,
# so a connection this far behind is better reconnected (it gets the position afresh).
QUEUE = 64


class TableError(Exception):
    """A request the table refuses; its message is told to the person who asked."""


class Client:
    """One browser connection to a table: a seat, or ``None`` for a spectator. Messages go out
    through a bounded queue that the connection's writer drains."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE)
        self.logged = 0  # entries of the move list this connection has been told
        self.busy = False  # a hint or an analysis under way
        self.dropped = False

    def send(self, message: dict[str, Any]) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Ends the connection once what is queued is sent (at once when the queue is full:
        a connection that far behind gets the position afresh when it comes back)."""
        if not self.dropped:
            self.dropped = True
            if self.queue.full():
                while not self.queue.empty():
                    self.queue.get_nowait()
            self.queue.put_nowait(None)


class Table:
    """A game in play. ``seats`` says who holds each seat; ``state`` (a replay's position, or
    None for a new game) is where it starts."""

    def __init__(
        self,
        number: int,
        game: Game,
        seats: list[SeatSpec],
        executor: Executor,
        state: State | None = None,
        chance: Callable[[State], int] | None = None,
    ) -> None:
        self.number = number
        self.game = game
        self.seats = seats
        self.executor = executor
        self.hidden = game.info.information == "imperfect"
        self.id = secrets.token_urlsafe(12)  # the spectators' link
        self.tokens = {
            secrets.token_urlsafe(18): seat for seat, spec in enumerate(seats) if spec.person
        }
        # From 2**63 values: the seed decides every deal, so a small range could be searched.
        self.seed = random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        # Who resolves a chance node: the seeded stream, or a caller's choice (a test replaying
        # a history).
        self.chance = chance or self._draw
        self.bots: dict[int, Bot] = {
            seat: rivals.bots.make(spec.bot, game, (self.seed + seat) % 2**64, **spec.settings)
            for seat, spec in enumerate(seats)
            if not spec.person
        }
        self.state = state.clone() if state is not None else game.new_initial_state()
        self.moves: list[Move] = moves(self.state)
        # History lengths at each person's decisions: what their undo returns to.
        self.decisions: dict[int, list[int]] = {seat: [] for seat in self.tokens.values()}
        self.resigned: str | None = None
        self.saved_hidden = False
        self.thinking: int | None = None
        self.clients: set[Client] = set()
        self.last_active = time.monotonic()
        # Counts the undos: a bot's move found before one is for a position gone since.
        self.version = 0
        self._runner: asyncio.Task[None] | None = None
        self._pictures: dict[int | None, tuple[int, str]] = {}

    # ----------------------------------------------------------------------------------------
    # Who is who

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.state.is_terminal()

    def names(self) -> list[str]:
        return ["person" if spec.person else spec.bot for spec in self.seats]

    def seat_info(self) -> list[dict[str, Any]]:
        labels = views.seat_labels(self.state)
        connected = {client.seat for client in self.clients}
        return [
            {
                "seat": seat,
                "label": labels[seat],
                "person": spec.person,
                "name": "person" if spec.person else spec.bot,
                "settings": spec.describe(self.game),
                "connected": seat in connected,
            }
            for seat, spec in enumerate(self.seats)
        ]

    def touch(self) -> None:
        self.last_active = time.monotonic()

    # ----------------------------------------------------------------------------------------
    # Connections

    def join(self, client: Client) -> None:
        self.clients.add(client)
        self.touch()
        client.send(self.welcome(client))
        self.broadcast()
        self.run()

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        if self.clients:
            self.broadcast()

    def close(self, reason: str) -> None:
        for client in list(self.clients):
            client.send({"type": "closed", "message": reason})
            client.drop()
        self.clients.clear()
        if self._runner is not None:
            self._runner.cancel()

    def welcome(self, client: Client) -> dict[str, Any]:
        info = self.game.info
        return {
            "type": "welcome",
            "game": self.game.name,
            "long_name": info.long_name,
            "params": views.params_shown(self.game),
            "seat": client.seat,
            "hidden": self.hidden,
            "spectate": self.id,
        }

    def broadcast(self) -> None:
        for client in list(self.clients):
            client.send(self.view(client))

    def notice(self, message: str, only: Client | None = None) -> None:
        for client in [only] if only is not None else list(self.clients):
            client.send({"type": "notice", "message": message})

    # ----------------------------------------------------------------------------------------
    # What a connection sees

    def _picture(self, viewer: int | None) -> str:
        step = len(self.moves)
        cached = self._pictures.get(viewer)
        if cached is None or cached[0] != step:
            cached = (step, views.picture(self.state, viewer, self.moves))
            self._pictures[viewer] = cached
        return cached[1]

    def view(self, client: Client) -> dict[str, Any]:
        """Everything ``client`` is shown now, from its seat's view: the move list from where
        its last view left off (from the start again after an undo)."""
        state = self.state
        seat = client.seat
        length = len(self.moves)
        start = min(client.logged, length)
        entries = views.log_entries(state, seat, start)
        client.logged = length
        to_move = state.current_player()
        mine = seat is not None and seat == to_move and not self.over
        names = self.names()
        message: dict[str, Any] = {
            "type": "view",
            "step": length,
            "to_move": to_move,
            "thinking": self.thinking,
            "status": self._status(names),
            "svg": self._picture(seat),
            "log": {"from": start, "entries": entries},
            "seats": self.seat_info(),
            "scores": [float(score) for score in state.scores()],
            "over": self.over,
            "result": self._result(names) if self.over else None,
            "menu": views.menu_payload(state) if mine else None,
            "targets": targets(state) if mine else [],
        }
        return message

    def _status(self, names: list[str]) -> str:
        if self.resigned is not None:
            return self.resigned
        if self.thinking is not None:
            label = views.seat_labels(self.state)[self.thinking]
            return f"{label} ({names[self.thinking]}) is thinking…"
        return views.status_text(self.state, names)

    def _result(self, names: list[str]) -> dict[str, Any]:
        labels = views.seat_labels(self.state)
        scores = self.state.scores()
        reason = self.resigned if self.resigned is not None else result_text(self.state)
        return {
            "text": reason,
            "scores": [
                {"seat": seat, "label": labels[seat], "name": names[seat], "score": float(score)}
                for seat, score in enumerate(scores)
            ],
            "returns": [float(value) for value in self.state.returns()],
        }

    # ----------------------------------------------------------------------------------------
    # Playing

    def _apply(self, action: int) -> None:
        state = self.state
        player = state.current_player()
        self.moves.append(Move(len(self.moves), player, action, state.action_to_string(action)))
        state.apply_action(action)
        self.touch()

    def run(self) -> None:
        """Plays chance and the bots until a person is to move or the game is over (in the
        background; at most one runner per table)."""
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._advance())

    async def _advance(self) -> None:
        loop = asyncio.get_running_loop()
        start = (self.version, len(self.moves))
        while not self.over:
            state = self.state
            player = state.current_player()
            if player == CHANCE:
                self._apply(self.chance(state))
                continue
            bot = self.bots.get(player)
            if bot is None:
                break
            position = state.clone()
            version = self.version
            try:
                thought = loop.run_in_executor(self.executor, bot.step, position)
                # A bot that answers at once is not shown thinking: one view fewer a move.
                done, _ = await asyncio.wait({thought}, timeout=SHOW_THINKING_S)
                if not done:
                    self.thinking = player
                    self.broadcast()
                action = await thought
            except BudgetExceeded as error:
                action = await self._fallback(player, position, str(error))
            except Exception as error:  # a bot must not take the server down with it
                log.exception("table %d: the bot in seat %d failed", self.number, player)
                self.thinking = None
                self.resigned = f"the game stopped: the bot in seat {player} failed ({error})"
                break
            finally:
                self.thinking = None
            if self.version != version or self.over:
                continue  # the position changed while it thought (an undo): think again
            self._apply(action)
        if (self.version, len(self.moves)) != start or self.over:
            self.broadcast()

    def _draw(self, state: State) -> int:
        outcomes, weights = zip(*state.chance_outcomes())
        return int(self.rng.choices(outcomes, weights=weights)[0])

    async def _fallback(self, player: int, position: State, why: str) -> int:
        """A move for a seat whose bot ran out of its budget (an exact solver far from the
        end): the hint bot's, told to everyone."""
        name, params = hint_bot(self.game)
        self.notice(
            f"seat {player}'s {self.seats[player].bot} ran out of its budget ({why}); "
            f"it plays {name}'s move this turn"
        )
        bot = rivals.bots.make(name, self.game, (self.seed + player) % 2**64, **params)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, bot.step, position)

    def play(self, client: Client, message: dict[str, Any]) -> None:
        """A person's move: ``{"action": id}`` or ``{"text": "..."}``, with the ``step`` their
        page showed (a click on a position that has changed since is refused)."""
        seat = self._seat_of(client)
        state = self.state
        if self.over:
            raise TableError("the game is over")
        if state.current_player() != seat:
            raise TableError("it is not your turn")
        step = message.get("step")
        if step is not None and step != len(self.moves):
            raise TableError("the position has changed since; choose again")
        if "action" in message:
            action = message["action"]
            if isinstance(action, bool) or not isinstance(action, int):
                raise TableError(f"a move is an action number, got {replays.shown(action)}")
            if action not in state.legal_actions():
                raise TableError(
                    f"action {action} is not legal here; choose one of the moves listed"
                )
        else:
            text = message.get("text")
            if not isinstance(text, str) or not text.strip():
                raise TableError("type a move as it is listed, or its number")
            found = views.parse_typed(state, text)
            if found is None:
                raise TableError(views.rejection(state, text))
            action = found
        self.decisions[seat].append(len(self.moves))
        self._apply(action)
        self.broadcast()
        self.run()

    def _seat_of(self, client: Client) -> int:
        if client.seat is None:
            raise TableError("spectators watch; only a seat's own link plays it")
        return client.seat

    # ----------------------------------------------------------------------------------------
    # Undo, resign, save

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move, or None. Nothing learned since may be
        taken back: a card drawn or dealt, another seat's move where cards are hidden (it shows
        something of a hand), cards turned over by the seat's own moves, a saved file that shows
        every card; nor another person's move."""
        own = self.decisions.get(seat, [])
        if not own:
            return "nothing to undo: you have not moved yet"
        if self.resigned is not None:
            return "the game was resigned"
        if self.saved_hidden:
            return "the saved game shows every hidden card"
        keep = own[-1]
        history = self.state.history()
        walker = self.game.state_from_history(history[:keep])
        for action in history[keep:]:
            player = walker.current_player()
            if player == CHANCE:
                return "chance has been resolved since your move (a card drawn or dealt)"
            if player != seat and self.seats[player].person:
                return "another person has moved since"
            if self.hidden and player != seat:
                return "another seat has moved since your move"
            walker.apply_action(action)
        if self.hidden and reveals(self.game, seat, history[:keep], history[keep:]):
            return "cards have been revealed to you since your move"
        return None

    def undo(self, client: Client) -> None:
        seat = self._seat_of(client)
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise TableError(f"cannot undo: {refusal}")
        keep = self.decisions[seat].pop()
        self.version += 1
        self.state = self.game.state_from_history(self.state.history()[:keep])
        del self.moves[keep:]
        self.thinking = None
        self._pictures.clear()
        for person, lengths in self.decisions.items():
            self.decisions[person] = [length for length in lengths if length < keep]
        for other in self.clients:
            other.logged = min(other.logged, keep)
        self.touch()
        self.notice(f"{views.seat_labels(self.state)[seat]} took back a move")
        self.broadcast()
        self.run()

    def resign(self, client: Client) -> None:
        seat = self._seat_of(client)
        if self.over:
            raise TableError("the game is over")
        label = views.seat_labels(self.state)[seat]
        self.resigned = f"{label} (seat {seat}) resigned after {len(self.moves)} moves"
        self.thinking = None
        self.touch()
        self.broadcast()

    def save(self, client: Client) -> dict[str, Any]:
        """The replay of the game so far. Where cards are hidden and the game goes on, the file
        shows every one of them: refused while another person plays, and undo ends there."""
        seat = self._seat_of(client)
        in_play = not self.over
        if (
            self.hidden
            and in_play
            and any(spec.person and other != seat for other, spec in enumerate(self.seats))
        ):
            raise TableError(
                "cannot save while other people play: the file holds every hidden card, theirs too"
            )
        if self.hidden and in_play:
            self.saved_hidden = True
        self.touch()
        return {
            "type": "saved",
            "name": f"{self.game.name}-{len(self.moves)}.json",
            "replay": replays.dumps(self.state, indent=1) + "\n",
            "hidden": self.hidden,
        }

    # ----------------------------------------------------------------------------------------
    # Help

    async def hint(self, client: Client) -> None:
        """The hint bot's move for the asking seat's own turn, told to that seat alone. The
        hint bot decides from what the seat may see (``lobby.hint_bot``)."""
        seat = self._seat_of(client)
        if self.over:
            raise TableError("the game is over")
        if self.state.current_player() != seat:
            raise TableError("a hint is for your own turn")
        if client.busy:
            raise TableError("a hint is on its way")
        name, params = hint_bot(self.game)
        bot = rivals.bots.make(
            name, self.game, (self.seed + self.game.num_players) % 2**64, **params
        )
        position = self.state.clone()
        step = len(self.moves)
        client.busy = True
        try:
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self.executor, bot.step, position)
        finally:
            client.busy = False
        client.send(
            {
                "type": "hint",
                "step": step,
                "action": action,
                "text": position.action_to_string(action),
                "bot": name,
            }
        )
