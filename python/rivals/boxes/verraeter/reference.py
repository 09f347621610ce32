"""Pure-Python reference implementation of Verräter (Traitor).

One module on purpose, long as the rules are: it is read beside its rules page, step for step,
and split into parts it would be harder to check against the page.

This module is the oracle that the fast engine is checked against, so it is written for clarity:
plain lists, explicit loops, the whole state in a handful of fields. It implements exactly
``docs/rules/verraeter.md``; the comments cite that page.

Conventions (from the rules page):

* Landscape types 0-5 ``Ödnis Weide Fluss Wald Dorf Stadt``; houses 0 eagle, 1 rose; a landscape
  card is ``2 * type + starting house``.
* Action cards 0-5 ``Verraeter Diplomat2 Diplomat5 Baumeister Stratege Bauer``.
* Supply values get value ids in ascending order (shipped 2, 3, 4, 5, 6, 8 -> 0-5).
* Actions: 0-11 ``conflict i``, 12-23 ``build i``, 24-35 ``upgrade i``, 36-41 ``pick X``,
  42-47 ``play v``, 48 ``done``, 49-54 ``discard v``, 55 ``pass``. Chance outcomes are numbered
  from 0 at each chance node: 0-11 the landscape card laid, 0-5 the action card set aside, 0-5
  the value id of the supply card drawn.
* Seat ``s`` starts in house ``s % 2``; the player to the left of ``s`` is ``(s + 1) % n``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals.reference import _base
from rivals.reference._base import (
    CHANCE,
    TERMINAL,
    bad_param,
    choice_param,
    expected_return,
    is_int,
    with_defaults,
)
from rivals.reference._data import read_data
from rivals.reference._rng import Rng

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

NAME = "verraeter"


TYPES = ("Ödnis", "Weide", "Fluss", "Wald", "Dorf", "Stadt")
TYPE_ALIASES = {"Oednis": 0}
HOUSES = ("eagle", "rose")
EAGLE, ROSE = 0, 1
ACTION_CARDS = ("Verraeter", "Diplomat2", "Diplomat5", "Baumeister", "Stratege", "Bauer")
VERRAETER, DIPLOMAT2, DIPLOMAT5, BAUMEISTER, STRATEGE, BAUER = range(6)
NUM_ACTION_CARDS = 6

RING_SIZE = 12
HAND_LIMIT = 5
MAX_VALUES = 6  # distinct supply values the action space has room for
MAX_WINNERS = 4

CONFLICT = 0  # 0-11
BUILD = 12  # 12-23
UPGRADE = 24  # 24-35
PICK = 36  # 36-41
PLAY = 42  # 42-47
DONE = 48
DISCARD = 49  # 49-54
PASS = 55
NUM_DISTINCT_ACTIONS = 56
# Chance outcomes, from 0 at each chance node (the node says which kind).
LAND = 0  # 0-11: landscape card
ASIDE = 0  # 0-5: action card set aside
DRAW = 0  # 0-5: value id of the supply card drawn
MAX_CHANCE_OUTCOMES = 2 * len(TYPES)

PHASES = ("ring", "estates", "conflict", "draft", "supply", "builder", "draw", "discard", "end")
# Phases in which this round's action cards are face up (after the reveal, before phase 11).
REVEALED_PHASES = ("builder", "draw", "discard")

DEFAULT_PARAMS: dict[str, Any] = {"players": 4, "rounds": None, "cards": None}
PARAM_HELP = (
    "players (3 or 4, default 4), rounds (null for 2 * players, or an int 1..50), "
    "cards (null for the shipped card file, or a path)"
)
MAX_ROUNDS = 50

CARDS_FORMAT = "rivals-verraeter-cards"

# ---------------------------------------------------------------------------------------------
# Card file
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardSet:
    """The numbers of a ``rivals-verraeter-cards`` file, indexed by the ids of the rules page."""

    conflict: tuple[int, ...]  # per landscape type
    vp: tuple[tuple[int, ...], ...]  # per landscape type: points per winner for 1..4 winners
    values: tuple[int, ...]  # distinct supply values, ascending (index = value id)
    counts: tuple[int, ...]  # copies per value id
    start_hand: tuple[int, ...]  # values, ascending
    card_conflict: tuple[int, ...]  # per action card
    card_vp: tuple[int, ...]
    card_draws: tuple[int, ...]
    estates_per_player: int
    bonus_kontore_max: int
    bonus_cards_max: int

    @property
    def deck_size(self) -> int:
        return sum(self.counts)


def _card_error(source: str, problem: str) -> ValueError:
    return ValueError(f"{source}: {problem}")


def _int_in(value: Any, low: int, high: int) -> bool:
    return is_int(value) and low <= value <= high


def parse_cards(data: Any, source: str, players: int) -> CardSet:
    """Validate a ``rivals-verraeter-cards`` document (``docs/formats.md``)."""
    keys = {"format", "version", "landscapes", "supply", "start_hand", "action_cards", "estates"}
    if not isinstance(data, dict) or set(data) != keys:
        raise _card_error(source, f"a JSON object with exactly the keys {sorted(keys)} is expected")
    if data["format"] != CARDS_FORMAT:
        raise _card_error(source, f"format must be {CARDS_FORMAT!r}, not {data['format']!r}")
    if not is_int(data["version"]) or data["version"] != 1:
        raise _card_error(source, f"version must be 1, not {data['version']!r}")

    land_keys = {"type", "name_en", "side", "conflict", "vp", "provisional"}
    landscapes = data["landscapes"]
    if not isinstance(landscapes, list) or len(landscapes) != RING_SIZE:
        raise _card_error(source, "landscapes must be a list of twelve landscapes")
    conflict: dict[int, int] = {}
    vp: dict[int, tuple[int, ...]] = {}
    seen: set[tuple[int, str]] = set()
    for land in landscapes:
        if not isinstance(land, dict) or set(land) != land_keys:
            raise _card_error(source, f"each landscape needs exactly the keys {sorted(land_keys)}")
        if land["type"] not in TYPES:
            raise _card_error(source, f"landscape type must be one of {list(TYPES)}")
        t = TYPES.index(land["type"])
        if land["side"] not in HOUSES or (t, land["side"]) in seen:
            raise _card_error(
                source, "each type needs one landscape with side 'eagle' and one with 'rose'"
            )
        seen.add((t, land["side"]))
        if not isinstance(land["name_en"], str) or not isinstance(land["provisional"], bool):
            raise _card_error(
                source, f"{land['type']}: name_en must be a string, provisional a bool"
            )
        if not _int_in(land["conflict"], 0, 99):
            raise _card_error(source, f"{land['type']}: conflict must be an int 0-99")
        table = land["vp"]
        if (
            not isinstance(table, list)
            or len(table) != MAX_WINNERS
            or not all(_int_in(x, 0, 99) for x in table)
        ):
            raise _card_error(source, f"{land['type']}: vp must be a list of 4 ints 0-99")
        if t in conflict and (conflict[t] != land["conflict"] or vp[t] != tuple(table)):
            raise _card_error(source, f"the two {land['type']} landscapes must have equal numbers")
        conflict[t] = land["conflict"]
        vp[t] = tuple(table)

    supply = data["supply"]
    if not isinstance(supply, list) or not 1 <= len(supply) <= MAX_VALUES:
        raise _card_error(source, f"supply must be a list of 1-{MAX_VALUES} entries")
    deck: dict[int, int] = {}
    for entry in supply:
        if not isinstance(entry, dict) or set(entry) != {"value", "count"}:
            raise _card_error(source, "each supply entry needs exactly the keys count, value")
        if not _int_in(entry["value"], 0, 99) or entry["value"] in deck:
            raise _card_error(source, "supply values must be distinct ints 0-99")
        if not _int_in(entry["count"], 1, 99):
            raise _card_error(source, "supply counts must be ints 1-99")
        deck[entry["value"]] = entry["count"]
    if sum(deck.values()) > 99:
        raise _card_error(source, "the supply deck holds at most 99 cards")

    hand = data["start_hand"]
    if not isinstance(hand, list) or len(hand) > HAND_LIMIT or not all(is_int(v) for v in hand):
        raise _card_error(source, f"start_hand must be a list of at most {HAND_LIMIT} ints")
    for v in set(hand):
        if v not in deck or hand.count(v) * players > deck[v]:
            raise _card_error(
                source, f"start_hand value {v} needs {players} copies per occurrence in supply"
            )

    card_keys = {"name", "name_en", "conflict", "vp", "draws", "text"}
    cards = data["action_cards"]
    if not isinstance(cards, list) or len(cards) != NUM_ACTION_CARDS:
        raise _card_error(source, "action_cards must be a list of six cards")
    by_card: dict[int, dict[str, Any]] = {}
    for card in cards:
        if not isinstance(card, dict) or set(card) != card_keys:
            raise _card_error(
                source, f"each action card needs exactly the keys {sorted(card_keys)}"
            )
        if card["name"] not in ACTION_CARDS or ACTION_CARDS.index(card["name"]) in by_card:
            raise _card_error(source, f"action card names must be {list(ACTION_CARDS)}, each once")
        if not isinstance(card["name_en"], str) or not isinstance(card["text"], str):
            raise _card_error(source, f"{card['name']}: name_en and text must be strings")
        if not _int_in(card["conflict"], 0, 99) or not _int_in(card["vp"], 0, 99):
            raise _card_error(source, f"{card['name']}: conflict and vp must be ints 0-99")
        if not _int_in(card["draws"], 0, 5):
            raise _card_error(source, f"{card['name']}: draws must be an int 0-5")
        by_card[ACTION_CARDS.index(card["name"])] = card

    estates = data["estates"]
    estate_keys = {"per_player", "bonus_kontore_max", "bonus_cards_max"}
    if not isinstance(estates, dict) or set(estates) != estate_keys:
        raise _card_error(source, f"estates needs exactly the keys {sorted(estate_keys)}")
    if not _int_in(estates["per_player"], 1, 3):
        raise _card_error(source, "estates.per_player must be an int 1-3")
    if not _int_in(estates["bonus_kontore_max"], 0, 5) or not _int_in(
        estates["bonus_cards_max"], 0, 5
    ):
        raise _card_error(source, "estates bonus caps must be ints 0-5")

    values = tuple(sorted(deck))
    return CardSet(
        conflict=tuple(conflict[t] for t in range(len(TYPES))),
        vp=tuple(vp[t] for t in range(len(TYPES))),
        values=values,
        counts=tuple(deck[v] for v in values),
        start_hand=tuple(sorted(hand)),
        card_conflict=tuple(by_card[c]["conflict"] for c in range(NUM_ACTION_CARDS)),
        card_vp=tuple(by_card[c]["vp"] for c in range(NUM_ACTION_CARDS)),
        card_draws=tuple(by_card[c]["draws"] for c in range(NUM_ACTION_CARDS)),
        estates_per_player=estates["per_player"],
        bonus_kontore_max=estates["bonus_kontore_max"],
        bonus_cards_max=estates["bonus_cards_max"],
    )


def load_cards(value: Any, players: int) -> tuple[dict[str, Any], CardSet]:
    """The card document of the ``cards`` parameter and its cards."""
    document, source = read_data(NAME, "cards", value, NAME)
    return document, parse_cards(document, source, players)


# ---------------------------------------------------------------------------------------------
# Action strings
# ---------------------------------------------------------------------------------------------


def _value_id_name(value_id: int, values: tuple[int, ...]) -> str:
    if value_id >= len(values):
        raise ValueError(f"supply value id {value_id} does not exist (values: {list(values)})")
    return str(values[value_id])


def action_name(action: int, values: tuple[int, ...]) -> str:
    """String of a decision id; ``values`` are the card set's distinct supply values."""
    a = action
    if CONFLICT <= a < BUILD:
        return f"conflict {a - CONFLICT}"
    if BUILD <= a < UPGRADE:
        return f"build {a - BUILD}"
    if UPGRADE <= a < PICK:
        return f"upgrade {a - UPGRADE}"
    if PICK <= a < PLAY:
        return f"pick {ACTION_CARDS[a - PICK]}"
    if PLAY <= a < DONE:
        return "play " + _value_id_name(a - PLAY, values)
    if a == DONE:
        return "done"
    if DISCARD <= a < PASS:
        return "discard " + _value_id_name(a - DISCARD, values)
    if a == PASS:
        return "pass"
    raise ValueError(f"action {a} is out of range 0..{NUM_DISTINCT_ACTIONS - 1}")


def outcome_name(outcome: int, phase: str, values: tuple[int, ...]) -> str:
    """String of a chance outcome of a node in ``phase`` (``ring``, ``draft`` or ``draw``)."""
    a = outcome
    if phase == "ring":
        if not 0 <= a - LAND < 2 * len(TYPES):
            raise ValueError(f"chance outcome {a} is out of range 0..11 (landscape cards)")
        card = a - LAND
        return f"{TYPES[card // 2]} {HOUSES[card % 2]}"
    if phase == "draft":
        if not 0 <= a - ASIDE < NUM_ACTION_CARDS:
            raise ValueError(f"chance outcome {a} is out of range 0..5 (action cards)")
        return f"aside {ACTION_CARDS[a - ASIDE]}"
    if not 0 <= a - DRAW < MAX_VALUES:
        raise ValueError(f"chance outcome {a} is out of range 0..5 (supply value ids)")
    return "draw " + _value_id_name(a - DRAW, values)


def parse_action(text: str, values: tuple[int, ...]) -> int:
    """Inverse of :func:`action_name`."""
    if not isinstance(text, str):
        raise ValueError(f"action string expected, got {text!r}")
    words = text.split(" ")
    if words == ["done"]:
        return DONE
    if words == ["pass"]:
        return PASS
    if len(words) == 2:
        word, arg = words
        positions = [str(i) for i in range(RING_SIZE)]
        value_names = [str(v) for v in values]
        if word == "conflict" and arg in positions:
            return CONFLICT + int(arg)
        if word == "build" and arg in positions:
            return BUILD + int(arg)
        if word == "upgrade" and arg in positions:
            return UPGRADE + int(arg)
        if word == "pick" and arg in ACTION_CARDS:
            return PICK + ACTION_CARDS.index(arg)
        if word in ("play", "discard") and arg in value_names:
            return (PLAY if word == "play" else DISCARD) + value_names.index(arg)
    raise ValueError(
        f"unknown Verräter action {text!r}; accepted here: 'conflict 3', 'build 7', "
        f"'upgrade 7', 'pick Diplomat5', 'play v', 'done', 'discard v', 'pass' "
        f"(v one of {list(values)})"
    )


def parse_outcome(text: str, phase: str, values: tuple[int, ...]) -> int:
    """Inverse of :func:`outcome_name`."""
    if not isinstance(text, str):
        raise ValueError(f"action string expected, got {text!r}")
    words = text.split(" ")
    if len(words) == 2:
        word, arg = words
        if phase == "ring":
            t = TYPES.index(word) if word in TYPES else TYPE_ALIASES.get(word)
            if t is not None and arg in HOUSES:
                return LAND + 2 * t + HOUSES.index(arg)
        elif phase == "draft":
            if word == "aside" and arg in ACTION_CARDS:
                return ASIDE + ACTION_CARDS.index(arg)
        elif word == "draw" and arg in [str(v) for v in values]:
            return DRAW + [str(v) for v in values].index(arg)
    accepted = {"ring": "a landscape card such as 'Stadt eagle'", "draft": "'aside Bauer'"}
    raise ValueError(
        f"unknown Verräter chance outcome {text!r}; accepted here: "
        f"{accepted.get(phase, f'draw v (v one of {list(values)})')}"
    )


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def _check_params(params: dict[str, Any]) -> dict[str, Any]:
    full = with_defaults(NAME, DEFAULT_PARAMS, params, PARAM_HELP)
    players = choice_param(NAME, full, "players", (3, 4))
    rounds = full["rounds"]
    if rounds is None:
        full["rounds"] = 2 * players  # each player is start player twice
    elif not _int_in(rounds, 1, MAX_ROUNDS):
        raise bad_param(NAME, "rounds", f"null (2 * players) or an int 1-{MAX_ROUNDS}", rounds)
    return full


class Game(_base.Game["State"]):
    """Verräter; parameters ``players``, ``rounds``, ``cards``."""

    def __init__(self, **params: Any) -> None:
        super().__init__(NAME, _check_params(params))
        self.rounds: int = self.params["rounds"]
        document, self.cards = load_cards(self.params["cards"], self.num_players)
        # The documents of the data parameters, as the engine's ``game.data``.
        self.data: dict[str, Any] = {"cards": document}
        self.num_distinct_actions: int = NUM_DISTINCT_ACTIONS
        self.max_chance_outcomes: int = MAX_CHANCE_OUTCOMES
        n = self.num_players
        draws = self.cards.estates_per_player * n + sum(self.cards.card_draws)
        # Ring and estates; per round: conflict, set-aside, builder, n picks, at most 5 plays and
        # a done per seat, the draws and at most as many discards.
        self.max_game_length: int = RING_SIZE + n + self.rounds * (3 + 7 * n + 2 * draws)
        self.ring_stride: int = 10 + n
        self.seat_base: int = RING_SIZE * self.ring_stride
        self.own_base: int = self.seat_base + 20 * n
        self.observation_shape: tuple[int, ...] = (self.own_base + 29,)
        self.compact_observation_shape: dict[str, tuple[int, ...]] = {
            "board": (self.ring_stride, RING_SIZE),
            "features": (20 * n + 29,),
        }

    def new_initial_state(self) -> State:
        return State(self)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


@dataclass
class Landscape:
    type: int
    house: int
    estate_owner: int | None = None
    kontor: bool = False


# The evaluation's weights (rules page, "Evaluation (for search bots)"): victory points per point
# of supply card in hand, per Gutshof that draws and round to come, and the conflict lead that
# decides a conflict.
HAND_WORTH = 0.2
GUTSHOF_WORTH = 0.5
CONFLICT_MARGIN = 10

# Proposals of the resampling's swap chain per hidden slot (rules page, "Resampling").
SWAPS_PER_SLOT = 16


@dataclass
class _Slot:
    """A supply card drawn (or still in the draw pile, ``index`` and ``seat`` None)."""

    index: int | None
    epoch: int
    seat: int | None
    value: int | None  # value id, None while hidden from the player


@dataclass
class _View:
    """What one player knows of the supply cards drawn over the history."""

    slots: list[_Slot] = field(default_factory=list)
    # Per seat, in history order: (history index, slot number) for a draw, or
    # (history index, -1 - value id) for a card played or discarded.
    events: dict[int, list[tuple[int, int]]] = field(
        default_factory=lambda: {s: [] for s in range(4)}
    )
    unknown: list[Counter[int]] = field(default_factory=list)  # per epoch: hidden values
    hidden: list[int] = field(default_factory=list)  # slot numbers
    aside_index: int | None = None
    picks: list[int] = field(default_factory=list)


class State(_base.State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.cards = game.cards
        n = game.num_players
        self.ring: list[Landscape] = []
        self.houses: list[int] = [s % 2 for s in range(n)]
        self.vp: list[int] = [0] * n
        self.round = 0
        self.start_player = 0
        self.strategist = 1  # the player to the left of the first start player
        # Hands, played cards and piles hold supply values, kept ascending.
        self.hands: list[list[int]] = [list(self.cards.start_hand) for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.actions: list[int | None] = [None] * n
        self.phase = "ring"
        self.player = CHANCE
        self.conflict: int | None = None
        # This round's conflict totals (eagle, rose), from the reveal to phase 11.
        self.totals: list[int] | None = None
        self.aside: int | None = None
        self.pool: list[int] = []
        self.draw_queue: list[int] = []
        self.draw_pile: list[int] = []
        for value, count in zip(self.cards.values, self.cards.counts):
            self.draw_pile += [value] * (count - n * self.cards.start_hand.count(value))
        self.discard: list[int] = []

    def order(self) -> list[int]:
        """Seats in order from the start player, clockwise."""
        n = self.num_players
        return [(self.start_player + j) % n for j in range(n)]

    def owner(self, card: int) -> int | None:
        """The seat that drafted action card ``card`` this round, if any."""
        for seat, drafted in enumerate(self.actions):
            if drafted == card:
                return seat
        return None

    def estates_of(self, seat: int) -> int:
        return sum(1 for land in self.ring if land.estate_owner == seat)

    def revealed(self) -> bool:
        return self.phase in REVEALED_PHASES

    def received_pool(self, seat: int) -> list[int] | None:
        """The action cards passed to ``seat`` in this round's draft, once it has received them."""
        if self.aside is None:
            return None
        order = self.order()
        before = order[: order.index(seat)]
        taken = [self.actions[s] for s in before]
        if any(card is None for card in taken):
            return None
        return [c for c in range(NUM_ACTION_CARDS) if c != self.aside and c not in taken]

    def _value_id(self, value: int) -> int:
        return self.cards.values.index(value)

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        if self.player == TERMINAL:
            return []
        if self.player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        seat = self.player
        free = [i for i, land in enumerate(self.ring) if land.estate_owner is None]
        if self.phase == "estates":
            return [BUILD + i for i in free]
        if self.phase == "conflict":
            return [
                CONFLICT + i
                for i in range(RING_SIZE)
                if self.ring[i].house != self.ring[(i + 1) % RING_SIZE].house
            ]
        if self.phase == "draft":
            return [PICK + c for c in self.pool]
        if self.phase == "supply":
            return [PLAY + self._value_id(v) for v in sorted(set(self.hands[seat]))] + [DONE]
        if self.phase == "builder":
            actions = []
            if self.estates_of(seat) < self.cards.estates_per_player:
                actions += [BUILD + i for i in free]
            actions += [
                UPGRADE + i
                for i, land in enumerate(self.ring)
                if land.estate_owner == seat and not land.kontor
            ]
            return [*actions, PASS]
        assert self.phase == "discard"
        return [DISCARD + self._value_id(v) for v in sorted(set(self.hands[seat]))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.player != CHANCE:
            return []
        if self.phase == "ring":
            laid = {2 * land.type + land.house for land in self.ring}
            remaining = [c for c in range(2 * len(TYPES)) if c not in laid]
            return [(LAND + c, 1.0 / len(remaining)) for c in remaining]
        if self.phase == "draft":
            return [(ASIDE + c, 1.0 / NUM_ACTION_CARDS) for c in range(NUM_ACTION_CARDS)]
        assert self.phase == "draw"
        size = len(self.draw_pile)
        return [
            (DRAW + self._value_id(v), self.draw_pile.count(v) / size)
            for v in sorted(set(self.draw_pile))
        ]

    # -- applying actions -----------------------------------------------------------------------

    def _apply_chance(self, a: int) -> None:
        if self.phase == "ring":
            card = a - LAND
            self.ring.append(Landscape(card // 2, card % 2))
            if len(self.ring) == RING_SIZE:
                # Setup 2: estates, from the start player (seat 0) in seat order.
                self.phase = "estates"
                self.player = 0
        elif self.phase == "draft":
            self.aside = a - ASIDE
            self.pool = [c for c in range(NUM_ACTION_CARDS) if c != self.aside]
            self.player = self.start_player
        else:
            value = self.cards.values[a - DRAW]
            self.draw_pile.remove(value)
            seat = self.draw_queue.pop(0)
            self.hands[seat].append(value)
            self.hands[seat].sort()
            self._next_draw()

    def _apply_decision(self, a: int) -> None:
        seat = self.player
        if self.phase == "estates":
            self.ring[a - BUILD].estate_owner = seat
            if seat + 1 < self.num_players:
                self.player = seat + 1
            else:
                self._begin_round()
        elif self.phase == "conflict":
            self.conflict = a - CONFLICT
            self.phase = "draft"
            self.player = CHANCE
        elif self.phase == "draft":
            card = a - PICK
            self.actions[seat] = card
            self.pool.remove(card)
            if all(drafted is not None for drafted in self.actions):
                self.pool = []  # the cards left over go back face down
                self.phase = "supply"
                self.player = self.start_player
            else:
                self.player = (seat + 1) % self.num_players
        elif self.phase == "supply":
            if a == DONE:
                following = (seat + 1) % self.num_players
                if following == self.start_player:
                    self._resolve()
                else:
                    self.player = following
            else:
                value = self.cards.values[a - PLAY]
                self.hands[seat].remove(value)
                self.played[seat].append(value)
                self.played[seat].sort()
        elif self.phase == "builder":
            if BUILD <= a < UPGRADE:
                self.ring[a - BUILD].estate_owner = seat
            elif UPGRADE <= a < PICK:
                self.ring[a - UPGRADE].kontor = True
            self._after_builder()
        else:
            value = self.cards.values[a - DISCARD]
            self.hands[seat].remove(value)
            self.discard.append(value)
            self.discard.sort()
            self._next_discard()

    # -- the phases of a round ------------------------------------------------------------------

    def _begin_round(self) -> None:
        # Phase 1: the holder of the strategist card picks the conflict site.
        self.phase = "conflict"
        self.player = self.strategist

    def conflict_totals(self) -> list[int]:
        """Phase 5: the conflict total of each house (eagle, rose), houses after the reveal."""
        assert self.conflict is not None
        totals = [0, 0]
        for i in (self.conflict, (self.conflict + 1) % RING_SIZE):
            land = self.ring[i]
            totals[land.house] += self.cards.conflict[land.type]
        for seat in range(self.num_players):
            totals[self.houses[seat]] += sum(self.played[seat])
            card = self.actions[seat]
            if card is not None:
                totals[self.houses[seat]] += self.cards.card_conflict[card]
        return totals

    def _resolve(self) -> None:
        """Phases 4-7 after the last player is done playing supply cards."""
        # Phase 4: the traitor changes house.
        traitor = self.owner(VERRAETER)
        if traitor is not None:
            self.houses[traitor] = 1 - self.houses[traitor]
        # Phases 5-6.
        assert self.conflict is not None
        totals = self.conflict_totals()
        self.totals = totals
        if totals[EAGLE] != totals[ROSE]:
            winner = EAGLE if totals[EAGLE] > totals[ROSE] else ROSE
            pair = (self.ring[self.conflict], self.ring[(self.conflict + 1) % RING_SIZE])
            loser = pair[0] if pair[0].house != winner else pair[1]
            winners = [s for s in range(self.num_players) if self.houses[s] == winner]
            if winners:
                points = self.cards.vp[loser.type][len(winners) - 1]
                for seat in winners:
                    self.vp[seat] += points
            loser.house = winner  # flips even when the winning house has no player
        for seat in range(self.num_players):
            card = self.actions[seat]
            if card is not None:
                self.vp[seat] += self.cards.card_vp[card]
        # Phase 7.
        builder = self.owner(BAUMEISTER)
        if builder is not None:
            self.phase = "builder"
            self.player = builder
        else:
            self._after_builder()

    def _after_builder(self) -> None:
        """Phases 8-10 (the draws and the hand limit are resolved step by step)."""
        strategist = self.owner(STRATEGE)
        if strategist is not None:
            self.strategist = strategist
        for seat in range(self.num_players):
            self.discard += self.played[seat]
            self.played[seat] = []
        self.discard.sort()
        queue: list[int] = []
        farmer = self.owner(BAUER)
        if farmer is not None:
            queue += [farmer] * self.cards.card_draws[BAUER]
        for seat in self.order():
            if seat == farmer:
                continue
            for land in self.ring:
                if (
                    land.estate_owner == seat
                    and not land.kontor
                    and land.house == self.houses[seat]
                ):
                    queue.append(seat)
        for card in range(NUM_ACTION_CARDS):
            holder = self.owner(card)
            if card != BAUER and holder is not None:
                queue += [holder] * self.cards.card_draws[card]
        self.draw_queue = queue
        self._next_draw()

    def _next_draw(self) -> None:
        if self.draw_queue and not self.draw_pile:
            self.draw_pile = self.discard
            self.discard = []
        if self.draw_queue and not self.draw_pile:
            self.draw_queue = []  # nothing left to draw: the remaining draws are skipped
        if self.draw_queue:
            self.phase = "draw"
            self.player = CHANCE
        else:
            self._next_discard()

    def _next_discard(self) -> None:
        for seat in self.order():
            if len(self.hands[seat]) > HAND_LIMIT:
                self.phase = "discard"
                self.player = seat
                return
        self._end_round()

    def _end_round(self) -> None:
        """Phases 11-13."""
        self.actions = [None] * self.num_players
        self.aside = None
        self.conflict = None
        self.totals = None
        self.start_player = (self.start_player + 1) % self.num_players
        self.round += 1
        one_house = len({land.house for land in self.ring}) == 1
        if self.round >= self.game.rounds or one_house:
            for seat in range(self.num_players):
                self.vp[seat] += self.final_bonus(seat)
            self.phase = "end"
            self.player = TERMINAL
        else:
            self._begin_round()

    def final_bonus(self, seat: int) -> int:
        """min(Kontore, 2) x min(supply cards in hand, 3) with the shipped caps."""
        kontore = sum(1 for land in self.ring if land.estate_owner == seat and land.kontor)
        return min(kontore, self.cards.bonus_kontore_max) * min(
            len(self.hands[seat]), self.cards.bonus_cards_max
        )

    # -- strings --------------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.player == CHANCE:
            return outcome_name(action, self.phase, self.cards.values)
        return action_name(action, self.cards.values)

    def _text_action(self, text: str) -> int:
        if self.player == CHANCE:
            return parse_outcome(text, self.phase, self.cards.values)
        return parse_action(text, self.cards.values)

    # -- results --------------------------------------------------------------------------------

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def returns(self) -> list[float]:
        n = self.num_players
        if self.player != TERMINAL:
            return [0.0] * n
        best = max(self.vp)
        leaders = [s for s in range(n) if self.vp[s] == best]
        k = len(leaders)
        if k == n:
            return [0.0] * n
        return [1.0 / k if s in leaders else -1.0 / (n - k) for s in range(n)]

    def _evaluate(self, player: int) -> float:
        """docs/rules/verraeter.md, "Evaluation (for search bots)"."""
        n = self.num_players
        rounds_left = self.game.rounds - self.round
        projected = []
        for seat in range(n):
            drawing = sum(
                1
                for land in self.ring
                if land.estate_owner == seat and not land.kontor and land.house == self.houses[seat]
            )
            projected.append(
                self.vp[seat]
                + self.final_bonus(seat)
                + HAND_WORTH * sum(self.hands[seat])
                + GUTSHOF_WORTH * rounds_left * drawing
            )
        if self.conflict is not None and self.phase in ("draft", "supply"):
            # The conflict as it stands: houses after the traitor's reveal, every card counted.
            houses = [
                1 - self.houses[seat] if self.actions[seat] == VERRAETER else self.houses[seat]
                for seat in range(n)
            ]
            totals = [0, 0]
            showing = [0, 0]
            for i in (self.conflict, (self.conflict + 1) % RING_SIZE):
                land = self.ring[i]
                showing[land.house] = land.type
                totals[land.house] += self.cards.conflict[land.type]
            for seat in range(n):
                totals[houses[seat]] += sum(self.played[seat])
                card = self.actions[seat]
                if card is not None:
                    totals[houses[seat]] += self.cards.card_conflict[card]
            for seat in range(n):
                house = houses[seat]
                members = houses.count(house)
                lead = min(
                    max(0.5 + (totals[house] - totals[1 - house]) / CONFLICT_MARGIN, 0.0), 1.0
                )
                projected[seat] += lead * self.cards.vp[showing[1 - house]][members - 1]
                card = self.actions[seat]
                if card is not None:
                    projected[seat] += self.cards.card_vp[card]
        return expected_return(projected, player, 2 + 2 * math.sqrt(rounds_left))

    # -- snapshots ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "houses": [HOUSES[h] for h in self.houses],
            "ring": [
                {
                    "type": TYPES[land.type],
                    "house": HOUSES[land.house],
                    "estate": None
                    if land.estate_owner is None
                    else {"owner": land.estate_owner, "kontor": land.kontor},
                }
                for land in self.ring
            ],
            "conflict": self.conflict,
            "conflict_totals": None
            if self.totals is None
            else {"eagle": self.totals[EAGLE], "rose": self.totals[ROSE]},
            "vp": list(self.vp),
            "round": self.round,
            "start_player": self.start_player,
            "strategist": self.strategist,
            "hands": [list(h) for h in self.hands],
            "played": [list(p) for p in self.played],
            "actions": [None if c is None else ACTION_CARDS[c] for c in self.actions],
            "phase": self.phase,
            "current_player": self.player,
            "aside": None if self.aside is None else ACTION_CARDS[self.aside],
            "pool": [ACTION_CARDS[c] for c in self.pool],
            "draw_queue": list(self.draw_queue),
            "draw_pile": list(self.draw_pile),
            "discard": list(self.discard),
        }

    def visible_action(self, seat: int, viewer: int) -> int | None:
        """The action card of ``seat`` as ``viewer`` sees it: None if absent or hidden."""
        card = self.actions[seat]
        if card is None or (seat != viewer and not self.revealed()):
            return None
        return card

    def _compact(self, planes: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The compact observation: the planes' entries rearranged (docs/rules/verraeter.md,
        "Compact observation")."""
        ring = planes[: self.game.seat_base].reshape(RING_SIZE, self.game.ring_stride)
        return {
            "board": ring.T.astype(np.uint8),
            "features": planes[self.game.seat_base :].copy(),
        }

    def _planes(self, player: int) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        n = self.num_players
        g = self.game
        obs = np.zeros(g.observation_shape, dtype=np.float32)
        for i, land in enumerate(self.ring):
            base = i * g.ring_stride
            obs[base + land.type] = 1.0
            obs[base + 6 + land.house] = 1.0
            if land.estate_owner is not None:
                obs[base + 8 + (land.estate_owner - p) % n] = 1.0
                obs[base + 8 + n] = 1.0 if land.kontor else 0.0
            if self.conflict == i:
                obs[base + 9 + n] = 1.0
        for seat in range(n):
            base = g.seat_base + 20 * ((seat - p) % n)
            obs[base + self.houses[seat]] = 1.0
            obs[base + 2] = self.vp[seat] / 32
            obs[base + 3] = len(self.hands[seat]) / 5
            for value in set(self.played[seat]):
                obs[base + 4 + self._value_id(value)] = self.played[seat].count(value) / 5
            obs[base + 10] = 1.0 if seat == self.start_player else 0.0
            obs[base + 11] = 1.0 if seat == self.strategist else 0.0
            card = self.visible_action(seat, p)
            if card is not None:
                obs[base + 12 + card] = 1.0
            obs[base + 18] = 1.0 if seat == self.player else 0.0
            receiving = self.phase == "draw" and self.player == CHANCE and self.draw_queue
            obs[base + 19] = 1.0 if receiving and self.draw_queue[0] == seat else 0.0
        base = g.own_base
        for value in set(self.hands[p]):
            obs[base + self._value_id(value)] = self.hands[p].count(value) / 5
        for card in self.received_pool(p) or []:
            obs[base + 6 + card] = 1.0
        for value in set(self.discard):
            obs[base + 12 + self._value_id(value)] = self.discard.count(value) / 5
        obs[base + 18] = len(self.draw_pile) / self.cards.deck_size
        obs[base + 19] = self.round / g.rounds
        obs[base + 20 + PHASES.index(self.phase)] = 1.0
        return obs

    def _to_move(self) -> str:
        if self.player == TERMINAL:
            return "nobody"
        if self.player == CHANCE:
            return "chance"
        return f"seat {self.player}"

    def _ring_line(self) -> str:
        parts = []
        for i, land in enumerate(self.ring):
            text = f"{i} {TYPES[land.type]} {HOUSES[land.house]}"
            if land.estate_owner is not None:
                text += f" {'K' if land.kontor else 'G'}{land.estate_owner}"
            parts.append(text)
        return "ring: " + (" | ".join(parts) if parts else "-")

    def _table_lines(self) -> list[str]:
        """The public lines every picture of the table begins with: the phase, the ring and
        the conflict."""
        return [
            f"phase {self.phase}; rounds completed {self.round}/{self.game.rounds}; "
            f"start player {self.start_player}; strategist {self.strategist}; "
            f"to move {self._to_move()}",
            self._ring_line(),
            "conflict: " + ("none" if self.conflict is None else str(self.conflict)),
        ]

    def observation_string(self, player: int) -> str:
        p = self._check_seat(player)
        lines = [f"verraeter view of seat {p}", *self._table_lines()]
        for seat in range(self.num_players):
            if seat == p:
                hand = " ".join(str(v) for v in self.hands[seat]) or "-"
            else:
                hand = f"{len(self.hands[seat])} cards"
            played = " ".join(str(v) for v in self.played[seat]) or "-"
            card = self.visible_action(seat, p)
            if card is not None:
                action = ACTION_CARDS[card]
            else:
                action = "-" if self.actions[seat] is None else "?"
            lines.append(
                f"seat {seat} {HOUSES[self.houses[seat]]} vp {self.vp[seat]}: hand {hand}; "
                f"played {played}; action {action}"
            )
        pool = self.received_pool(p)
        lines.append("pool: " + (" ".join(ACTION_CARDS[c] for c in pool) if pool else "-"))
        discard = " ".join(str(v) for v in self.discard) or "-"
        queue = " ".join(str(s) for s in self.draw_queue) or "-"
        lines.append(
            f"discard: {discard}; draw pile {len(self.draw_pile)} cards; draw queue {queue}"
        )
        return "\n".join(lines)

    def information_state_string(self, player: int) -> str:
        p = self._check_seat(player)
        values = self.cards.values
        replay = State(self.game)
        lines = [f"seat {p}"]
        for a in self._history:
            before_phase = replay.phase
            if replay.player == CHANCE:
                if replay.phase == "ring":
                    lines.append("chance " + outcome_name(a, "ring", values))
                elif replay.phase == "draft":
                    lines.append("chance aside ?")
                else:
                    seat = replay.draw_queue[0]
                    shown = _value_id_name(a - DRAW, values) if seat == p else "?"
                    lines.append(f"chance draw {shown} to seat {seat}")
            else:
                seat = replay.player
                if replay.phase == "draft" and seat != p:
                    lines.append(f"seat {seat} pick ?")
                else:
                    lines.append(f"seat {seat} {action_name(a, values)}")
            drafted = list(replay.actions)
            replay.apply_action(a)
            if replay.phase == "draft" and replay.player == p:
                pool = " ".join(ACTION_CARDS[c] for c in replay.pool)
                lines.append(f"seat {p} receives {pool}")
            if before_phase == "supply" and replay.phase != "supply":
                lines.append(
                    "reveal " + " ".join(ACTION_CARDS[c] for c in drafted if c is not None)
                )
        return "\n".join(lines)

    # -- hidden information ---------------------------------------------------------------------

    def resample_from_infostate(self, player: int, seed: int = 0) -> State:
        """A state ``player`` cannot tell apart from this one, drawn from what the player has seen
        alone (rules page, "Resampling"); the same as the engine's for the same seed."""
        p = self._check_seat(player)
        rng = Rng(int(seed))
        view = self._view(p)
        history = list(self._history)
        if view.aside_index is not None:
            self._resample_draft(p, view, history, rng)
        values = self._canonical_values(p, view)
        # Step 3: swaps between hidden slots of one epoch, kept when every hand stays valid.
        hidden = view.hidden
        for _ in range(SWAPS_PER_SLOT * len(hidden)):
            a = hidden[rng.below(len(hidden))]
            b = hidden[rng.below(len(hidden))]
            if view.slots[a].epoch != view.slots[b].epoch or values[a] == values[b]:
                continue
            values[a], values[b] = values[b], values[a]
            seats = (view.slots[a].seat, values[b]), (view.slots[b].seat, values[a])
            if not all(self._hand_valid(view, values, seat, v) for seat, v in seats):
                values[a], values[b] = values[b], values[a]
        for slot, value in zip(view.slots, values):
            if slot.index is not None:
                history[slot.index] = DRAW + value
        return self.game.state_from_history(history)

    def _view(self, p: int) -> _View:
        """What ``p`` knows of the supply cards drawn so far (rules page, "Resampling")."""
        replay = State(self.game)
        view = _View()
        ids = self.cards.values.index
        view.unknown.append(Counter(ids(v) for v in replay.draw_pile))
        # A draw pile that is not exactly one card smaller than after the last draw is a new
        # epoch: the discard pile, whose contents everybody saw.
        left = len(replay.draw_pile)
        for index, a in enumerate(self._history):
            if replay.player == CHANCE and replay.phase == "draw":
                if len(replay.draw_pile) != left:
                    view.unknown.append(Counter(ids(v) for v in replay.draw_pile))
                epoch = len(view.unknown) - 1
                seat = replay.draw_queue[0]
                own = seat == p
                view.events[seat].append((index, len(view.slots)))
                view.slots.append(_Slot(index, epoch, seat, a - DRAW if own else None))
                if own:
                    view.unknown[epoch][a - DRAW] -= 1
                left = len(replay.draw_pile) - 1
            elif replay.player == CHANCE and replay.phase == "draft":
                view.aside_index = index
                view.picks = []
            elif replay.phase == "draft":
                view.picks.append(index)
            elif replay.player >= 0 and (PLAY <= a < DONE or DISCARD <= a < PASS):
                v = a - (PLAY if a < DONE else DISCARD)
                view.events[replay.player].append((index, -1 - v))
            replay.apply_action(a)
        if len(replay.draw_pile) != left:
            view.unknown.append(Counter(ids(v) for v in replay.draw_pile))
        for _ in replay.draw_pile:
            view.slots.append(_Slot(None, len(view.unknown) - 1, None, None))
        view.hidden = [k for k, slot in enumerate(view.slots) if slot.seat != p]
        if replay.phase not in ("draft", "supply") or replay.aside is None:
            view.aside_index = None
        return view

    def _hand_valid(self, view: _View, values: list[int], seat: int | None, v: int) -> bool:
        """Whether ``seat`` never holds a negative number of value id ``v``."""
        if seat is None:
            return True
        count = self.cards.start_hand.count(self.cards.values[v])
        for _, code in view.events[seat]:
            if code >= 0:
                count += values[code] == v
            elif -1 - code == v:
                count -= 1
                if count < 0:
                    return False
        return True

    def _resample_draft(self, p: int, view: _View, history: list[int], rng: Rng) -> None:
        """Step 1: the set-aside card and hidden picks of the current round, before its reveal."""
        assert view.aside_index is not None
        picks = view.picks
        k = self.order().index(p)
        if len(picks) >= k:
            received = self.received_pool(p)
            assert received is not None
            before = [c for c in range(NUM_ACTION_CARDS) if c not in received]
            for i in range(len(before) - 1, 0, -1):  # Fisher-Yates, as the engine
                j = rng.below(i + 1)
                before[i], before[j] = before[j], before[i]
            history[view.aside_index] = ASIDE + before[0]
            for j in range(k):
                history[picks[j]] = PICK + before[j + 1]
            pool = list(received)
            if k < len(picks):
                pool.remove(history[picks[k]] - PICK)  # p's own pick is fact
            later = picks[k + 1 :]
        else:
            card = rng.below(NUM_ACTION_CARDS)
            history[view.aside_index] = ASIDE + card
            pool = [c for c in range(NUM_ACTION_CARDS) if c != card]
            later = picks
        for index in later:
            card = rng.pick(pool)
            history[index] = PICK + card
            pool.remove(card)

    def _canonical_values(self, p: int, view: _View) -> list[int]:
        """Step 2: values for the hidden slots that keep every hand valid, from the view alone.

        A use of value v by seat s beyond the v cards of its starting hand is a demand: one of
        s's earlier draws is a v. The demands, in history order, each take an epoch (latest
        first) with a v left and a draw of s before the demand not taken by an earlier demand of
        that epoch; a dead end backtracks.
        """
        values: list[int] = [-1 if slot.value is None else slot.value for slot in view.slots]
        epochs = len(view.unknown)
        start = [self.cards.start_hand.count(v) for v in self.cards.values]
        demands: list[tuple[int, int, int]] = []  # (history index, seat, value id)
        draws: dict[tuple[int, int], list[int]] = {}  # (seat, epoch) -> slot numbers
        for seat in range(self.num_players):
            if seat == p:
                continue
            used = [0] * len(self.cards.values)
            for index, code in view.events[seat]:
                if code >= 0:
                    draws.setdefault((seat, view.slots[code].epoch), []).append(code)
                else:
                    v = -1 - code
                    used[v] += 1
                    if used[v] > start[v]:
                        demands.append((index, seat, v))
        demands.sort()

        def draws_before(seat: int, epoch: int, index: int) -> int:
            before = 0
            for code in draws.get((seat, epoch), []):
                at = view.slots[code].index
                before += at is not None and at < index
            return before

        left = [Counter(counts) for counts in view.unknown]
        taken: Counter[tuple[int, int]] = Counter()
        chosen = [epochs] * len(demands)
        d = 0
        while 0 <= d < len(demands):
            index, seat, v = demands[d]
            e = chosen[d]
            if e < epochs:  # back after a dead end: return the epoch, try an earlier one
                left[e][v] += 1
                taken[(seat, e)] -= 1
            e -= 1
            while e >= 0 and not (
                left[e][v] > 0 and taken[(seat, e)] < draws_before(seat, e, index)
            ):
                e -= 1
            if e >= 0:
                chosen[d] = e
                left[e][v] -= 1
                taken[(seat, e)] += 1
                d += 1
            else:
                chosen[d] = epochs
                d -= 1
        given: Counter[tuple[int, int]] = Counter()
        for (_, seat, v), e in zip(demands, chosen):
            if e == epochs:
                continue
            code = draws[(seat, e)][given[(seat, e)]]
            given[(seat, e)] += 1
            values[code] = v
        for code in view.hidden:
            if values[code] < 0:
                counts = left[view.slots[code].epoch]
                v = min(v for v in counts if counts[v] > 0)
                counts[v] -= 1
                values[code] = v
        return values

    def __str__(self) -> str:
        lines = self._table_lines()
        for seat in range(self.num_players):
            hand = " ".join(str(v) for v in self.hands[seat]) or "-"
            played = " ".join(str(v) for v in self.played[seat]) or "-"
            card = self.actions[seat]
            action = "-" if card is None else ACTION_CARDS[card]
            lines.append(
                f"seat {seat} {HOUSES[self.houses[seat]]} vp {self.vp[seat]}: hand {hand}; "
                f"played {played}; action {action}"
            )
        aside = "-" if self.aside is None else ACTION_CARDS[self.aside]
        pool = " ".join(ACTION_CARDS[c] for c in self.pool) or "-"
        lines.append(f"aside {aside}; pool {pool}")
        draw = " ".join(str(v) for v in self.draw_pile) or "-"
        discard = " ".join(str(v) for v in self.discard) or "-"
        queue = " ".join(str(s) for s in self.draw_queue) or "-"
        lines.append(f"draw pile {draw}; discard {discard}; draw queue {queue}")
        if self.player == TERMINAL:
            lines.append("game over: returns " + " ".join(f"{r:+.3f}" for r in self.returns()))
        return "\n".join(lines)
