"""Who plays an arena: ``Lineup``, its entries (a bot spec each, defaults filled in by the
engine, copies of one bot labelled apart) and which seat each entry holds game by game."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rivals import replay as replays
from rivals._core import Game
from rivals.bots import clock_dependent

BotSpec = tuple[str, dict[str, Any]]

# Game indices are 32-bit in the engine; a billion games is years of play for any real bot, and
# the totals stay exact in float64.
MAX_GAMES = 10**9
MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class Entry:
    """One participant of an arena: a bot in one seat, or in every seat of one team."""

    label: str
    name: str
    params: dict[str, Any]  # every parameter, defaults filled in by the engine

    @property
    def spec(self) -> dict[str, Any]:
        """As recorded in a replay's ``"bots"`` list."""
        return {"name": self.name, "params": self.params}


def label_copies(names: Sequence[str]) -> list[str]:
    """``["mcts", "random", "mcts"]`` -> ``["mcts", "random", "mcts#2"]``."""
    labels = []
    for index, name in enumerate(names):
        count = sum(other == name for other in names[:index]) + 1
        labels.append(name if count == 1 else f"{name}#{count}")
    return labels


def check_labels(labels: Sequence[Any] | None, names: Sequence[Any]) -> None:
    """Raises ``ValueError`` naming the first of ``labels`` (or, without labels, of the bots'
    ``names``, which then label them) that cannot label a bot (``rivals.replay.is_label``): before
    anything is played, as a label goes into every replay line and every table."""
    for k, label in enumerate(labels if labels is not None else names):
        if not replays.is_label(label):
            field = f"labels[{k}]" if labels is not None else f"the name of bots[{k}]"
            raise ValueError(f"{field} must be {replays.LABEL_RULE}, got {replays.shown(label)}")


def seat_plan(game: Game, listed: int) -> tuple[list[int], list[int]]:
    """For ``listed`` bots: which listed bot each entry plays, and which entry holds each seat.

    Where the game has teams (Rosenkönig with four players) an entry is a team when as many bots
    as teams are listed (fewer repeat round-robin), or one seat when one bot per seat is listed.
    Otherwise every seat is an entry of its own, the listed bots repeating round-robin over the
    seats, so no bot ever plays against itself as one entry.
    """
    players = game.num_players
    teams = game.info.teams.get(players)
    if listed < 1:
        raise ValueError("an arena needs at least one bot")
    if teams is not None and listed < players:
        if listed > len(teams):
            size = len(teams[0])
            raise ValueError(
                f"{game.name} with {players} players has {len(teams)} teams of {size} seats: "
                f"list at most {len(teams)} bots (one per team) or {players} (one per seat), "
                f"not {listed}"
            )
        team_of = {seat: index for index, team in enumerate(teams) for seat in team}
        return [team % listed for team in range(len(teams))], [team_of[s] for s in range(players)]
    if listed > players:
        raise ValueError(
            f"{listed} bots for {players} seats of {game.name}; list at most {players}"
        )
    return [seat % listed for seat in range(players)], list(range(players))


@dataclass(frozen=True)
class Lineup:
    """The entries of an arena and the entry in each seat of game 0.

    Game ``i`` rotates the seats: seat ``s`` holds the entry of seat ``(s + i) % players`` of
    game 0, so with a multiple of ``players`` games every entry plays every seat equally often.
    """

    game: Game
    entries: tuple[Entry, ...]
    seat_entry: tuple[int, ...]

    def __post_init__(self) -> None:
        # What every replay line of the arena records about its bots, checked before a game is
        # played: a line that cannot be written would lose the games played for it.
        for index, entry in enumerate(self.entries):
            if not replays.is_label(entry.label):
                raise ValueError(
                    f"entries[{index}].label must be {replays.LABEL_RULE}, "
                    f"got {replays.shown(entry.label)}"
                )
            try:
                json.dumps(entry.spec, ensure_ascii=False, allow_nan=False).encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"entries[{index}] ({entry.label}): its name or params hold a lone "
                    "surrogate: text must be valid Unicode"
                ) from None
            except (TypeError, ValueError) as error:
                raise ValueError(
                    f"entries[{index}] ({entry.label}): its name and params must be JSON: {error}"
                ) from None

    @classmethod
    def of(
        cls,
        game: Game,
        bots: Sequence[str | BotSpec],
        overrides: Mapping[str, Mapping[str, Any]] | None = None,
        labels: Sequence[str] | None = None,
    ) -> Lineup:
        """The lineup of ``bots`` (names or ``(name, params)``), filled over the seats as
        ``seat_plan`` says; ``overrides`` adds parameters for one label (``{"mcts#2": {...}}``).
        ``labels`` names the listed bots (default: their names, copies numbered); entries that
        repeat a listed bot over more seats get its label numbered.

        Raises ``ValueError`` for an unknown bot or parameter, or a count that fits no seating.
        """
        listed = [(bot, {}) if isinstance(bot, str) else (bot[0], dict(bot[1])) for bot in bots]
        entry_listed, seat_entry = seat_plan(game, len(listed))
        if labels is not None and len(labels) != len(listed):
            raise ValueError(f"{len(labels)} labels for {len(listed)} bots")
        check_labels(labels, [name for name, _ in listed])
        names = [(labels or [name for name, _ in listed])[k] for k in entry_listed]
        entry_labels = label_copies(names)
        extra = dict(overrides or {})
        unknown = [label for label in extra if label not in entry_labels]
        if unknown:
            raise ValueError(
                f"no bot {unknown[0]!r} in this arena (have: {', '.join(entry_labels)})"
            )
        entries = []
        for label, k in zip(entry_labels, entry_listed):
            name, params = listed[k]
            entries.append(_entry(game, label, name, {**params, **extra.get(label, {})}))
        return cls(game, tuple(entries), tuple(seat_entry))

    @property
    def players(self) -> int:
        return len(self.seat_entry)

    @property
    def teams(self) -> bool:
        """Whether some entry holds several seats (a team)."""
        return len(self.entries) < self.players

    def seat_specs(self) -> list[BotSpec]:
        """One spec per seat of game 0, for ``play_match``."""
        return [(self.entries[k].name, self.entries[k].params) for k in self.seat_entry]

    def entry_at(self, index: int, seat: int) -> Entry:
        """The entry in ``seat`` of game ``index``."""
        return self.entries[self.seat_entry[(seat + index) % self.players]]

    def seat_labels(self, index: int) -> list[str]:
        return [self.entry_at(index, seat).label for seat in range(self.players)]

    def seat_bots(self, index: int) -> list[dict[str, Any]]:
        return [self.entry_at(index, seat).spec for seat in range(self.players)]

    @property
    def duplicate_group(self) -> int:
        """The games of one duplicate group: every distinct seat rotation once, all with the same
        chance outcomes (2 for two entries, teams included; the seat count otherwise)."""
        players = self.players
        for period in range(1, players + 1):
            if players % period == 0 and all(
                self.seat_entry[(seat + period) % players] == self.seat_entry[seat]
                for seat in range(players)
            ):
                return period
        return players

    def clock_limited(self) -> list[Entry]:
        """Entries that think by the clock (``time_s`` > 0): their games depend on the machine's
        speed, so the same seed can give other games."""
        return [e for e in self.entries if clock_dependent(self.game, e.name, e.params)]

    @classmethod
    def from_record(cls, record: Any) -> Lineup:
        """The lineup that wrote an arena replay line (its ``"bots"`` and ``"arena"`` keys)."""
        if not isinstance(record, dict):
            raise ValueError("not a JSON object")
        info = record.get("arena")
        bots = record.get("bots")
        if not isinstance(info, dict) or not isinstance(bots, list):
            raise ValueError("not an arena replay (no 'arena' and 'bots' entries)")
        index, labels = _as_index(info.get("index")), info.get("labels")
        name, params = record.get("game"), record.get("params")
        if not isinstance(name, str) or not isinstance(params, dict):
            raise ValueError("no 'game' name and 'params' object")
        game = replays.game_of_record(name, params)
        players = game.num_players
        if index is None or not isinstance(labels, list) or len(labels) != players:
            raise ValueError("'arena' needs an 'index' and one label per seat")
        if len(bots) != players:
            raise ValueError(f"'bots' needs one entry per seat ({players}), got {len(bots)}")
        order: list[str] = []
        specs: dict[str, tuple[str, dict[str, Any]]] = {}
        seat_labels = [labels[(position - index) % players] for position in range(players)]
        for position, label in enumerate(seat_labels):
            spec = bots[(position - index) % players]
            if not isinstance(label, str) or not isinstance(spec, dict):
                raise ValueError("'arena.labels' must be strings and 'bots' objects")
            if not isinstance(spec.get("name"), str) or not isinstance(spec.get("params"), dict):
                raise ValueError("each of 'bots' needs a 'name' and its 'params'")
            if label not in specs:
                order.append(label)
                specs[label] = (spec["name"], spec["params"])
        entries = tuple(_entry(game, label, *specs[label]) for label in order)
        return cls(game, entries, tuple(order.index(label) for label in seat_labels))


def _entry(game: Game, label: str, name: str, params: dict[str, Any]) -> Entry:
    try:
        bot = game.make_bot(name, params, 0)
    except ValueError as error:
        raise ValueError(f"bot {label}: {error}") from None
    # A preset is recorded as the bot it plays with every parameter, so a replay line says
    # exactly what played and stays valid when the preset is tuned anew.
    return Entry(label, bot.name, dict(bot.params))


def _as_index(value: Any) -> int | None:
    """``value`` if it is an int >= 0 (not a bool), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None
