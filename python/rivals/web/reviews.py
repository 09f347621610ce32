"""Reviews: a finished game (from a table, a replay file or a replay log) stepped through in
the browser, with each position's legal moves analysed by a bot.

A review shows the seat views its owner may see: whoever holds a replay file holds every card
in it, and the seats of a finished table have played it out, so every seat's view (and the
spectators') can be chosen; a spectator of a table reviews the public view only. The analysis
of a position runs the chosen bot once and reads, from ``bot.stats()``, how often its search
tried each legal move and the mean return, for the player to move, of those tries; an exact
solver (``game.info.solvers``: Sekigahara's) gives instead the exact value of every move, the
position after it analysed to the end.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from typing import Any

import rivals
from rivals import replay as replays
from rivals._core import CHANCE, Bot, BudgetExceeded, Game, State
from rivals.render import result_text
from rivals.render.svg import moves
from rivals.web import views
from rivals.web.lobby import TIMED_DEFAULTS, check_bot

__all__ = ["Review", "Solvers", "analysable_bots", "analyse"]


class Review:
    """A finished game to step through; ``viewers`` are the seat views it may show (``None``:
    the spectators' public view)."""

    def __init__(
        self, final: State, viewers: list[int | None], names: list[str] | None = None
    ) -> None:
        self.id = secrets.token_urlsafe(12)
        self.final = final
        self.game = final.game
        self.history = final.history()
        self.moves = moves(final)
        self.viewers = viewers
        self.names = names
        # A position's legal moves show the mover's cards: only a review that may show every
        # seat analyses a game with hidden cards.
        self.analysis = final.game.info.information == "perfect" or viewers != [None]
        self.last_active = time.monotonic()

    def touch(self) -> None:
        self.last_active = time.monotonic()

    def summary(self) -> dict[str, Any]:
        game = self.game
        labels = views.seat_labels(self.final)
        return {
            "id": self.id,
            "game": game.name,
            "long_name": game.info.long_name,
            "params": views.params_shown(game),
            "steps": len(self.history),
            "seats": labels,
            "names": self.names,
            "viewers": self.viewers,
            "result": result_text(self.final),
            "hidden": game.info.information == "imperfect",
            "bots": analysable_bots(game) if self.analysis else [],
        }

    def viewer(self, value: Any) -> int | None:
        """The seat view asked for, if this review may show it; ``ValueError`` if not."""
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError("a view is a seat number or null (the spectators')")
        if value not in self.viewers:
            raise ValueError(f"this review does not show the view of seat {value}")
        return value

    def state_at(self, step: Any) -> State:
        """The position after ``step`` actions; ``ValueError`` for a step out of the game."""
        if (
            isinstance(step, bool)
            or not isinstance(step, int)
            or not 0 <= step <= len(self.history)
        ):
            raise ValueError(f"a step is a whole number from 0 to {len(self.history)}")
        return self.game.state_from_history(self.history[:step])

    def frame(self, step: Any, viewer: Any) -> dict[str, Any]:
        """The picture of step ``step`` as ``viewer`` sees it, and who is to move there."""
        seat = self.viewer(viewer)
        state = self.state_at(step)
        player = state.current_player()
        return {
            "step": step,
            "svg": views.picture(state, seat, self.moves[:step]),
            "to_move": player,
            "status": views.status_text(state, self.names or [""] * self.game.num_players),
        }

    def log(self, viewer: Any) -> list[dict[str, Any]]:
        """Every move of the game as ``viewer`` saw it."""
        return views.log_entries(self.final, self.viewer(viewer), 0)


def analysable_bots(game: Game) -> list[dict[str, Any]]:
    """The bots whose search tells each move's share (``mcts``, ``ismcts`` and the presets of
    them) and the game's exact solvers, with the settings the page proposes."""
    out = []
    for name in game.info.solvers:
        out.append({"name": name, "kind": "solver", "settings": dict(TIMED_DEFAULTS[name])})
    for name, preset in game.info.presets.items():
        if preset["bot"] in ("mcts", "ismcts"):
            out.append({"name": name, "kind": preset["bot"], "settings": {}})
    for name in ("ismcts", "mcts"):
        if name in game.info.bots:
            out.append({"name": name, "kind": name, "settings": {"time_s": 1.0}})
    return out


class Solvers:
    """Solvers kept between analyses, one per game and settings: a solver's table of solved
    positions makes the next position near one solved before quick. A solver has one user at
    a time; the oldest is let go past ``KEEP`` (a full table takes a gigabyte)."""

    KEEP = 1

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, tuple[Bot, threading.Lock]] = {}

    def get(self, game: Game, name: str, params: dict[str, Any]) -> tuple[Bot, threading.Lock]:
        key = json.dumps([game.name, game.params, name, params], sort_keys=True, default=str)
        with self._lock:
            found = self._made.pop(key, None)
            if found is None:
                found = (rivals.bots.make(name, game, 0, **params), threading.Lock())
            self._made[key] = found  # the most recent last
            while len(self._made) > self.KEEP:
                del self._made[next(iter(self._made))]
            return found


def analyse(review: Review, step: Any, name: Any, params: Any, solvers: Solvers) -> dict[str, Any]:
    """Every legal move of step ``step`` with bot ``name``'s assessment (see the module). Runs
    in a worker thread; ``ValueError`` for a request it cannot answer."""
    if not review.analysis:
        raise ValueError("the spectators' review of a game with hidden cards has no analysis")
    state = review.state_at(step)
    if state.is_terminal():
        raise ValueError("the game is over here: there is no move to analyse")
    if state.current_player() == CHANCE:
        raise ValueError("chance moves here (a card is dealt or drawn): step on to a decision")
    game = review.game
    known = {entry["name"]: entry for entry in analysable_bots(game)}
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"analyse with one of {', '.join(known)}")
    settings = check_bot(game, name, params)
    player = state.current_player()
    legal = state.legal_actions()
    texts = {action: state.action_to_string(action) for action in legal}
    played = review.history[step] if step < len(review.history) else None
    started = time.perf_counter()
    if known[name]["kind"] == "solver":
        rows = _solved(state, player, legal, game, name, settings, solvers)
    else:
        rows = _searched(state, legal, game, name, settings, step)
    for row in rows:
        row["text"] = texts[row["action"]]
        row["played"] = row["action"] == played
    return {
        "step": step,
        "bot": name,
        "player": player,
        "moves": rows,
        "seconds": round(time.perf_counter() - started, 3),
    }


def _searched(
    state: State, legal: list[int], game: Game, name: str, settings: dict[str, Any], step: int
) -> list[dict[str, Any]]:
    bot = rivals.bots.make(name, game, step, **settings)
    chosen = bot.step(state)
    found = {int(move["action"]): move for move in bot.stats().get("moves", [])}
    rows = []
    for action in legal:
        move = found.get(action)
        rows.append(
            {
                "action": action,
                "visits": int(move["visits"]) if move else None,
                "value": float(move["value"]) if move and move["visits"] else None,
                "best": action == chosen,
            }
        )
    rows.sort(key=lambda row: -(row["visits"] or 0))
    return rows


def _solved(
    state: State,
    player: int,
    legal: list[int],
    game: Game,
    name: str,
    settings: dict[str, Any],
    solvers: Solvers,
) -> list[dict[str, Any]]:
    bot, lock = solvers.get(game, name, settings)
    values: dict[int, float] = {}
    with lock:
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                value = float(child.returns()[player])
            else:
                try:
                    value = float(bot.analyse(child)["returns"][player])
                except BudgetExceeded as error:
                    raise ValueError(
                        f"the solver could not value this position within its budget ({error}); "
                        "positions with fewer cards left solve faster"
                    ) from None
            values[action] = value
    best = max(values.values())
    order = sorted(legal, key=lambda action: -values[action])
    return [
        {"action": a, "value": values[a], "visits": None, "best": values[a] == best} for a in order
    ]


def from_replay(data: Any) -> Review:
    """A review of a replay dict (a file's): its owner holds every card, so every view."""
    final = replays.from_dict(data)
    players = final.game.num_players
    arena = data.get("arena") if isinstance(data, dict) else None
    labels = arena.get("labels") if isinstance(arena, dict) else None
    names = (
        [str(label) for label in labels]
        if isinstance(labels, list) and len(labels) == players
        else None
    )
    return Review(final, [*range(players), None], names)
