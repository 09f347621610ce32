"""What the lobby offers and what it accepts: the games with their parameters, the bots and
presets of each game with the settings they play with, and the checks on a table the lobby asks
for (a game made without reading any file, bots whose every move is bounded in time).
"""

from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import dataclass
from functools import cache
from typing import Any

import rivals
from rivals import replay as replays
from rivals._core import Game, shipped_data_names
from rivals.render import seat_label

__all__ = [
    "MAX_ITERATIONS",
    "MAX_THINK_S",
    "SeatSpec",
    "catalog",
    "check_bot",
    "default_seat",
    "hint_bot",
    "make_game",
    "seat_specs",
]

# A bot's move is bounded in time on the server: by the clock (time_s, at most MAX_THINK_S) or
# by an iteration budget small enough to take seconds even in the slowest game (Battlecards,
# about 20,000 iterations a second). A fixed alphabeta depth and an unlimited solver are not.
MAX_THINK_S = 10.0
MAX_ITERATIONS = 100_000
# Most trees and tables a bot may ask for: each costs memory on the server. A solver's context
# takes about 5 KB (docs/bots.md), and Sekigahara's opening needs about 140,000.
MAX_NODES = 4_000_000
MAX_TABLE_MB = 256
MAX_CONTEXTS = 200_000
# The settings the lobby proposes for the bots whose defaults are unbounded in time or memory.
TIMED_DEFAULTS: dict[str, dict[str, Any]] = {
    "alphabeta": {"time_s": 1.0},
    "solver": {"time_s": 10.0, "max_contexts": MAX_CONTEXTS},
}


@dataclass(frozen=True)
class SeatSpec:
    """Who holds a seat: a person, or a bot (a name of ``game.info.bots`` or a preset) with the
    parameters given over its own."""

    person: bool
    bot: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.params)

    def describe(self, game: Game) -> str:
        """``"person"``, ``"best: ismcts time_s=0.1 rollout_depth=12"``: who sits there and,
        for a bot, the bot that plays with every setting it was given."""
        if self.person:
            return "person"
        plays, params = rivals.bots.resolve(game, self.bot, self.settings)
        settings = " ".join(f"{key}={json.dumps(value)}" for key, value in params.items())
        head = self.bot if plays == self.bot else f"{self.bot}: {plays}"
        return f"{head} {settings}".strip()


def make_game(name: Any, params: Any) -> Game:
    """The game the lobby asks for. Its data parameters are null, shipped names or documents:
    the server reads no file a browser names. ``ValueError`` says what is wrong."""
    if not isinstance(name, str) or name not in rivals.games():
        raise ValueError(
            f"unknown game {replays.shown(name)}; choose from {', '.join(rivals.games())}"
        )
    if not isinstance(params, dict):
        raise ValueError(f"the parameters must be an object of KEY: VALUE, got {_kind(params)}")
    shipped = set(shipped_data_names())
    for key in sorted(_data_params(name) & params.keys()):
        values = params[key] if isinstance(params[key], list) else [params[key]]
        for value in values:
            if isinstance(value, str) and value not in shipped:
                raise ValueError(
                    f"{key}: {replays.shown(value)} is not a shipped data name; the server reads "
                    f"no files (shipped: {', '.join(sorted(shipped))})"
                )
    return rivals.make(name, **params)


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


@cache
def _data_params(name: str) -> frozenset[str]:
    return frozenset(rivals.make(name).data)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return float(value)


def check_bot(game: Game, name: Any, params: Any) -> dict[str, Any]:
    """The parameters bot (or preset) ``name`` plays with in ``game``, checked by the engine and
    for the server's bounds: every move within ``MAX_THINK_S`` seconds or ``MAX_ITERATIONS``
    iterations, memory and threads within reach. ``ValueError`` says what is wrong."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a bot's name must be a string, got {_kind(name)}")
    if not isinstance(params, dict):
        raise ValueError(f"{name}: its settings must be an object of KEY: VALUE")
    known = (*game.info.bots, *game.info.presets)
    if name not in known:
        raise ValueError(f"unknown bot {replays.shown(name)}; {game.name} has {', '.join(known)}")
    plays = rivals.bots.resolve(game, name, params)[0]
    full = game.make_bot(name, params, 0).params  # the engine's own checks and messages
    time_s = _number(full.get("time_s")) or 0.0
    if time_s > MAX_THINK_S:
        raise ValueError(
            f"{name}: time_s {time_s:g} is more than the {MAX_THINK_S:g} s a move may take here"
        )
    if "time_s" in full and time_s <= 0:  # a bot that searches (random does not)
        iterations = _number(full.get("iterations"))
        if iterations is None:
            raise ValueError(
                f"{name}: {plays} without time_s is not bounded in time; give time_s (at most "
                f"{MAX_THINK_S:g} s)"
            )
        per_deal = _number(full.get("simulations_per_deal")) or 1
        if iterations * per_deal > MAX_ITERATIONS:
            raise ValueError(
                f"{name}: {iterations:g} iterations is more than the {MAX_ITERATIONS:,} a move may "
                f"take here; give time_s (at most {MAX_THINK_S:g} s) instead"
            )
    threads = _number(full.get("threads")) or 1
    cores = os.cpu_count() or 1
    if threads > cores:
        raise ValueError(f"{name}: threads {threads:g} is more than the {cores} cores here")
    for key, limit in (
        ("max_nodes", MAX_NODES),
        ("table_mb", MAX_TABLE_MB),
        ("max_contexts", MAX_CONTEXTS),
    ):
        value = _number(full.get(key))
        if value is not None and value > limit:
            raise ValueError(f"{name}: {key} {value:g} is more than the {limit:,} allowed here")
    return dict(params)


def default_seat(game: Game, seat: int) -> SeatSpec:
    """Seat 0 a person, the others the game's strongest preset."""
    return SeatSpec(person=True) if seat == 0 else SeatSpec(person=False, bot="best")


def hint_bot(game: Game) -> tuple[str, dict[str, Any]]:
    """The bot that gives hints: ``best`` when it plays from what its seat may see, else the
    first fair bot's default (``ismcts``)."""
    best = game.info.presets.get("best")
    if best is not None and best["bot"] in game.info.fair_bots:
        return "best", {}
    fair = [name for name in ("ismcts", "mcts") if name in game.info.fair_bots]
    return fair[0], {}


def seat_specs(game: Game, seats: Any) -> list[SeatSpec]:
    """The lobby's list of seats, one entry per seat: ``{"person": true}`` or ``{"bot": NAME,
    "params": {...}}``; ``ValueError`` names the seat that is wrong."""
    players = game.num_players
    if not isinstance(seats, list) or len(seats) != players:
        raise ValueError(
            f"{game.name} with these parameters has {players} seats: give one entry each"
        )
    out = []
    for index, entry in enumerate(seats):
        label = f"seat {index} ({seat_label(game.name, players, index)})"
        if not isinstance(entry, dict):
            raise ValueError(f"{label}: expected a person or a bot")
        if entry.get("person") is True:
            out.append(SeatSpec(person=True))
            continue
        try:
            params = check_bot(game, entry.get("bot"), entry.get("params", {}))
        except ValueError as error:
            raise ValueError(f"{label}: {error}") from None
        out.append(SeatSpec(person=False, bot=str(entry["bot"]), params=tuple(params.items())))
    return out


def _portable(value: Any) -> Any:
    """A parameter's value as JSON can carry it (the lobby shows and sends it back)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def catalog() -> dict[str, Any]:
    """Everything the lobby shows, per game: names, player counts and seat labels, the
    parameters with their defaults (data parameters with the shipped names they take), the bots
    and presets with the settings they play with, and whether the game hides cards."""
    shipped = sorted(shipped_data_names())
    games = []
    for name in rivals.games():
        game = rivals.make(name)
        info = game.info
        counts = list(info.player_counts)
        bots = []
        for bot in info.bots:
            defaults = TIMED_DEFAULTS.get(bot, {})
            params = game.make_bot(bot, defaults, 0).params
            bots.append(
                {
                    "name": bot,
                    "settings": dict(defaults),
                    "plays": bot,
                    "params": {key: _portable(value) for key, value in params.items()},
                    "fair": bot in info.fair_bots,
                    "description": "",
                }
            )
        for preset, spec in info.presets.items():
            bots.append(
                {
                    "name": preset,
                    "settings": {},
                    "plays": spec["bot"],
                    "params": dict(spec["params"]),
                    "fair": spec["bot"] in info.fair_bots,
                    "description": spec["description"],
                }
            )
        data = _data_params(name)
        games.append(
            {
                "name": name,
                "long_name": info.long_name,
                "description": info.description,
                "information": info.information,
                "player_counts": counts,
                "default_players": info.default_players,
                "seat_labels": {
                    str(count): [seat_label(name, count, seat) for seat in range(count)]
                    for count in counts
                },
                "params": {key: _portable(value) for key, value in game.params.items()},
                "data_params": {
                    key: [known for known in shipped if known.startswith(name)]
                    for key in sorted(data)
                },
                "bots": bots,
                "default_bot": "best",
            }
        )
    return {"games": games, "max_think_s": MAX_THINK_S, "max_iterations": MAX_ITERATIONS}
