"""Pure-Python reference implementation of Rheinländer.

One module on purpose, long as the rules are: it is read beside its rules page, step for step,
and split into parts it would be harder to check against the page.

This module is the oracle that the fast engine is checked against, so it is written for clarity:
per-space lists, domains found by breadth-first search over the map's adjacency, the turn's
consequences spelt out step by step. It implements exactly ``docs/rules/rheinlaender.md``; the
comments cite that page.

Conventions (from the rules page), with ``S`` spaces, ``T`` sites and numbers ``1..N``:

* Actions: ``(c - 1) * S + s`` play card ``c`` with a knight on space ``s``; ``N*S + s`` bastion
  on ``s``; ``N*S + S + (c - 1)`` discard ``c``; ``N*S + S + N + c`` chance: card ``c`` from the
  deck (0 = the reshuffle card); ``N*S + S + 2N + 1 + k`` chance: landmark chip ``k`` (0 castle,
  1 church, ``1 + v`` a city worth ``v``).
* Every domain's owner is stored on each of its spaces (``duke[s]``); the domains themselves are
  recomputed from the knights whenever they are needed.
"""

from __future__ import annotations

import copy
import math
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals.reference import _base
from rivals.reference._base import (
    CHANCE,
    TERMINAL,
    choice_param,
    expected_return,
    int_param,
    is_int,
    with_defaults,
)
from rivals.reference._data import read_data
from rivals.reference._rng import Rng

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

NAME = "rheinlaender"


KNIGHTS = {3: 25, 4: 20, 5: 17}  # knights per player, by number of players
BASTIONS = 3
HAND_SIZE = 5
FINAL_DUKE = 5  # a duke's worth at the end (1 during play)
ARCHBISHOP_BONUS = 5

MAX_TURNS_LIMIT = 100000
DEFAULT_PARAMS: dict[str, Any] = {"players": 3, "map": None, "max_turns": 1000}
PARAM_HELP = (
    "players (3, 4 or 5, default 3), map (null for the shipped map, a path or a map object), "
    f"max_turns (an int 1..{MAX_TURNS_LIMIT}, default 1000)"
)

MAP_FORMAT = "rivals-rheinlaender-map"
MAX_SPACES = 256
MAX_SITES = 64
MAX_NUMBER = 63
MAX_NEIGHBOURS = 8
MAX_CITY = 9
KEYWORDS = frozenset(
    {"bastion", "card", "castle", "church", "city", "discard", "reinforce", "reshuffle", "with"}
)
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_/-]{0,15}")

# Landmark chip kinds: chip outcome k at a landmark site is kind k.
CASTLE = 0
CHURCH = 1
NUM_CHIP_KINDS = 2 + MAX_CITY  # castle, church, city 1..9


def chip_kind(k: int) -> str:
    return "castle" if k == CASTLE else "church" if k == CHURCH else "city"


def chip_value(k: int) -> int:
    """Points of a chip: a city its number, a castle or church 1."""
    return 1 if k in (CASTLE, CHURCH) else k - 1


def chip_name(k: int) -> str:
    return chip_kind(k) if k in (CASTLE, CHURCH) else f"city {chip_value(k)}"


PHASES = ("landmarks", "deal", "play", "draw", "redraw", "terminal")


# ---------------------------------------------------------------------------------------------
# The map
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A validated map, by index: spaces ``0..S-1`` and sites ``0..T-1`` in file order."""

    ids: list[str]
    index: dict[str, int]
    land: list[bool]
    numbers: list[list[int]]
    neighbours: list[list[int]]
    site_ids: list[str]
    touches: list[tuple[int, int]]
    chips: list[int]  # chips per kind k
    max_number: int
    land_of: dict[int, list[int]]  # number -> its land spaces
    river_of: dict[int, int]  # number -> its river space (if any)
    sites_at: list[list[int]]  # space -> the sites touching it

    @property
    def num_spaces(self) -> int:
        return len(self.ids)

    @property
    def num_sites(self) -> int:
        return len(self.site_ids)


def _map_error(source: str, key: str, problem: str) -> ValueError:
    return ValueError(f"{source}: {key}: {problem}")


def _check_id(value: Any, source: str, key: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value) or value in KEYWORDS:
        raise _map_error(
            source,
            key,
            f"{value!r} is not a valid id (1-16 characters from A-Z a-z 0-9 _ / -, starting with "
            "a letter or digit, not one of " + ", ".join(sorted(KEYWORDS)) + ")",
        )
    return value


def parse_map(data: Any, source: str) -> Board:
    """Validate a ``rivals-rheinlaender-map`` document (docs/formats.md) and index it."""
    if not isinstance(data, dict):
        raise _map_error(source, "(top level)", "a JSON object is expected")
    expected = {"format", "version", "spaces", "sites", "landmarks"}
    if set(data) != expected:
        raise _map_error(
            source, "(top level)", "the keys must be exactly " + ", ".join(sorted(expected))
        )
    if data["format"] != MAP_FORMAT:
        raise _map_error(source, "format", f"must be {MAP_FORMAT!r}, not {data['format']!r}")
    if not is_int(data["version"]) or data["version"] != 1:
        raise _map_error(source, "version", f"must be 1, not {data['version']!r}")

    spaces = data["spaces"]
    if not isinstance(spaces, list) or not 1 <= len(spaces) <= MAX_SPACES:
        raise _map_error(source, "spaces", f"must be a list of 1-{MAX_SPACES} spaces")
    ids: list[str] = []
    index: dict[str, int] = {}
    land: list[bool] = []
    numbers: list[list[int]] = []
    for i, space in enumerate(spaces):
        key = f"spaces[{i}]"
        if not isinstance(space, dict) or set(space) != {"id", "kind", "numbers", "neighbours"}:
            raise _map_error(source, key, "needs exactly the keys id, kind, numbers, neighbours")
        sid = _check_id(space["id"], source, key + ".id")
        if sid in index:
            raise _map_error(source, key + ".id", f"{sid!r} is used twice")
        if space["kind"] not in ("land", "river"):
            raise _map_error(
                source, key + ".kind", f"must be 'land' or 'river', not {space['kind']!r}"
            )
        is_land = space["kind"] == "land"
        nums = space["numbers"]
        allowed = (1, 2) if is_land else (1,)
        if (
            not isinstance(nums, list)
            or len(nums) not in allowed
            or not all(is_int(n) and 1 <= n <= MAX_NUMBER for n in nums)
            or nums != sorted(set(nums))
        ):
            what = "one or two" if is_land else "exactly one"
            raise _map_error(
                source,
                key + ".numbers",
                f"a {space['kind']} space needs {what} distinct ascending numbers 1-{MAX_NUMBER}",
            )
        index[sid] = i
        ids.append(sid)
        land.append(is_land)
        numbers.append(list(nums))

    neighbours: list[list[int]] = []
    for i, space in enumerate(spaces):
        key = f"spaces[{i}].neighbours"
        adjacent = space["neighbours"]
        if not isinstance(adjacent, list) or len(adjacent) > MAX_NEIGHBOURS:
            raise _map_error(source, key, f"must be a list of at most {MAX_NEIGHBOURS} space ids")
        row: list[int] = []
        for other in adjacent:
            if not isinstance(other, str) or other not in index:
                raise _map_error(source, key, f"{other!r} is not a space id")
            j = index[other]
            if j == i:
                raise _map_error(source, key, f"{ids[i]!r} lists itself")
            if j in row:
                raise _map_error(source, key, f"{other!r} is listed twice")
            row.append(j)
        neighbours.append(row)
    for i, row in enumerate(neighbours):
        for j in row:
            if i not in neighbours[j]:
                raise _map_error(
                    source,
                    f"spaces[{j}].neighbours",
                    f"adjacency must be symmetric: {ids[i]!r} lists {ids[j]!r} but not back",
                )

    max_number = max(n for nums in numbers for n in nums)
    land_of: dict[int, list[int]] = {n: [] for n in range(1, max_number + 1)}
    river_of: dict[int, int] = {}
    for i in range(len(ids)):
        for n in numbers[i]:
            if land[i]:
                land_of[n].append(i)
            elif n in river_of:
                raise _map_error(
                    source,
                    f"spaces[{i}].numbers",
                    f"number {n} has two river spaces ({ids[river_of[n]]!r} and {ids[i]!r})",
                )
            else:
                river_of[n] = i
    for n in range(1, max_number + 1):
        if not land_of[n]:
            raise _map_error(
                source,
                "spaces",
                f"number {n} is on no land space (numbers must run 1..{max_number} without a gap, "
                "each reachable on land)",
            )

    sites = data["sites"]
    if not isinstance(sites, list) or len(sites) > MAX_SITES:
        raise _map_error(source, "sites", f"must be a list of at most {MAX_SITES} sites")
    site_ids: list[str] = []
    touches: list[tuple[int, int]] = []
    for t, site in enumerate(sites):
        key = f"sites[{t}]"
        if not isinstance(site, dict) or set(site) != {"id", "touches"}:
            raise _map_error(source, key, "needs exactly the keys id, touches")
        tid = _check_id(site["id"], source, key + ".id")
        if tid in index or tid in site_ids:
            raise _map_error(source, key + ".id", f"{tid!r} is used twice")
        pair = site["touches"]
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, str) and x in index for x in pair)
        ):
            raise _map_error(source, key + ".touches", "must list exactly two space ids")
        a, b = index[pair[0]], index[pair[1]]
        if a == b or not land[a] or not land[b] or b not in neighbours[a]:
            raise _map_error(
                source,
                key + ".touches",
                f"{pair[0]!r} and {pair[1]!r} must be two land spaces that are neighbours",
            )
        site_ids.append(tid)
        touches.append((a, b))

    marks = data["landmarks"]
    if not isinstance(marks, dict) or set(marks) != {"city", "castle", "church"}:
        raise _map_error(source, "landmarks", "needs exactly the keys city, castle, church")
    cities = marks["city"]
    if not isinstance(cities, list) or not all(is_int(v) and 1 <= v <= MAX_CITY for v in cities):
        raise _map_error(source, "landmarks.city", f"must be a list of city values 1-{MAX_CITY}")
    for kind in ("castle", "church"):
        if not is_int(marks[kind]) or marks[kind] < 0:
            raise _map_error(source, f"landmarks.{kind}", "must be an int >= 0")
    chips = [0] * NUM_CHIP_KINDS
    chips[CASTLE] = marks["castle"]
    chips[CHURCH] = marks["church"]
    for v in cities:
        chips[1 + v] += 1
    if sum(chips) != len(site_ids):
        raise _map_error(
            source,
            "landmarks",
            f"{sum(chips)} chips for {len(site_ids)} sites (one chip per site is needed)",
        )

    sites_at: list[list[int]] = [[] for _ in ids]
    for t, (a, b) in enumerate(touches):
        sites_at[a].append(t)
        sites_at[b].append(t)
    return Board(
        ids=ids,
        index=index,
        land=land,
        numbers=numbers,
        neighbours=neighbours,
        site_ids=site_ids,
        touches=touches,
        chips=chips,
        max_number=max_number,
        land_of=land_of,
        river_of=river_of,
        sites_at=sites_at,
    )


def load_map(value: Any) -> tuple[dict[str, Any], Board]:
    """The map document of the ``map`` parameter and its board."""
    document, source = read_data(NAME, "map", value, NAME)
    return copy.deepcopy(document), parse_map(document, source)


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def _check_params(params: dict[str, Any]) -> dict[str, Any]:
    full = with_defaults(NAME, DEFAULT_PARAMS, params, PARAM_HELP)
    choice_param(NAME, full, "players", sorted(KNIGHTS))
    int_param(NAME, full, "max_turns", 1, MAX_TURNS_LIMIT)
    return full


class Game(_base.Game["State"]):
    """Rheinländer; parameters ``players``, ``map``, ``max_turns``."""

    def __init__(self, **params: Any) -> None:
        super().__init__(NAME, _check_params(params))
        self.max_turns: int = self.params["max_turns"]
        self.map: dict[str, Any]
        self.board: Board
        self.map, self.board = load_map(self.params["map"])
        # The documents of the data parameters, as the engine's ``game.data``.
        self.data: dict[str, Any] = {"map": self.map}
        n = self.num_players
        board = self.board
        if board.max_number < HAND_SIZE * n:
            raise ValueError(
                f"{NAME}: parameter map has {board.max_number} numbers; "
                f"players={n} needs at least {HAND_SIZE * n}"
            )
        self.knights_per_player: int = KNIGHTS[n]
        S, T, N = board.num_spaces, board.num_sites, board.max_number
        self.bastion_base: int = N * S
        self.discard_base: int = N * S + S
        self.num_distinct_actions: int = N * S + S + N
        # Chance outcomes are numbered apart from decisions: card c (0 the reshuffle card) at a
        # deal or draw, chip kind k at a landmark site.
        self.max_chance_outcomes: int = max(N + 1, NUM_CHIP_KINDS)
        # Setup chance nodes, then at most bastion, card, draw and redraw per turn.
        self.max_game_length: int = T + HAND_SIZE * n + 4 * self.max_turns
        self.observation_shape: tuple[int, ...] = (
            2 * n * S + 2 * S + 4 * T + n * T + 2 * N + 8 * n + 9,
        )
        self.compact_observation_shape: dict[str, tuple[int, ...]] = {
            "board": (2 * n + 2, S),
            "features": (4 * T + n * T + 2 * N + 8 * n + 9,),
        }
        self._names: list[str] | None = None
        self._parse: dict[str, int] | None = None

    # -- action strings --------------------------------------------------------------------------

    def action_name(self, action: int) -> str:
        """The string of decision ``action``."""
        board = self.board
        S = board.num_spaces
        if not 0 <= action < self.num_distinct_actions:
            raise ValueError(f"action {action} is out of range 0..{self.num_distinct_actions - 1}")
        if action < self.bastion_base:
            card, s = action // S + 1, action % S
            sid = board.ids[s]
            if card in board.numbers[s]:
                return sid if len(board.numbers[s]) == 1 else f"{sid} with {card}"
            return f"reinforce {sid} with {card}"
        if action < self.discard_base:
            return "bastion " + board.ids[action - self.bastion_base]
        return f"discard {action - self.discard_base + 1}"

    def card_outcome_name(self, card: int) -> str:
        """The string of chance outcome ``card`` at a deal or draw."""
        if not 0 <= card <= self.board.max_number:
            raise ValueError(
                f"chance outcome {card} is out of range 0..{self.board.max_number} (cards)"
            )
        return "reshuffle" if card == 0 else f"card {card}"

    def chip_outcome_name(self, kind: int) -> str:
        """The string of chance outcome ``kind`` at a landmark site."""
        if not 0 <= kind < NUM_CHIP_KINDS:
            raise ValueError(
                f"chance outcome {kind} is out of range 0..{NUM_CHIP_KINDS - 1} (landmark chips)"
            )
        return chip_name(kind)

    def parse_action(self, text: str) -> int:
        """Inverse of :meth:`action_name`."""
        if self._parse is None:
            self._parse = {self.action_name(a): a for a in range(self.num_distinct_actions)}
        if isinstance(text, str) and text in self._parse:
            return self._parse[text]
        raise ValueError(
            f"unknown Rheinländer action {text!r}; accepted: a space id such as '12L' or '12W' "
            "(card of that number), '10-11 with 10' (an island), 'reinforce 12L with 40', "
            "'bastion 12L', 'discard 12'"
        )

    def parse_card_outcome(self, text: str) -> int:
        """Inverse of :meth:`card_outcome_name`."""
        for card in range(self.board.max_number + 1):
            if text == self.card_outcome_name(card):
                return card
        raise ValueError(
            f"unknown Rheinländer chance outcome {text!r}; accepted here: 'card 12', 'reshuffle'"
        )

    def parse_chip_outcome(self, text: str) -> int:
        """Inverse of :meth:`chip_outcome_name`."""
        for kind in range(NUM_CHIP_KINDS):
            if text == chip_name(kind):
                return kind
        raise ValueError(
            f"unknown Rheinländer chance outcome {text!r}; accepted here: 'castle', 'church', "
            "'city 3'"
        )

    def new_initial_state(self) -> State:
        return State(self)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


# Proposals of the resampling's chain per hidden card (rules page, "Resampling").
STEPS_PER_SLOT = 16
NEVER = 2**31 - 1  # the end of a card's life that never shows up again


@dataclass(frozen=True)
class _Life:
    """A card's time away from the player's eyes: in the deck from ``start`` until a hand took
    it, shown again when ``seat`` played or discarded it at ``end`` (or never: ``seat`` None)."""

    start: int
    end: int
    seat: int | None
    card: int


class State(_base.State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        board = game.board
        n = game.num_players
        self.knights: list[int | None] = [None] * board.num_spaces
        self.bastion: list[bool] = [False] * board.num_spaces
        # The owner of the domain each space belongs to (None: no domain or no duke).
        self.duke: list[int | None] = [None] * board.num_spaces
        self.chip: list[int | None] = [None] * board.num_sites
        self.castle_knight: list[int | None] = [None] * board.num_sites
        self.chips_left: list[int] = list(board.chips)
        self.points: list[int] = [0] * n
        self.knights_left: list[int] = [game.knights_per_player] * n
        self.bastions_left: list[int] = [BASTIONS] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[int] = []
        self.deck: list[int] = list(range(board.max_number + 1))  # card 0: the reshuffle card
        self.phase: str = "landmarks" if board.num_sites else "deal"
        self.player: int = CHANCE
        self.receiving: int | None = None if board.num_sites else 0
        self.bastion_placed: bool = False
        self.turn: int = 0
        self.end_reason: str | None = None
        self.last_knight_taken: bool = False
        # Per history entry: the seat that received a number card at a chance node, else None
        # (what each seat may see of the history).
        self._receivers: list[int | None] = []

    # -- domains ---------------------------------------------------------------------------------

    def component(self, start: int) -> list[int]:
        """The spaces holding knights connected to ``start`` (which holds one), in map order."""
        seen = {start}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            for t in self.game.board.neighbours[s]:
                if t not in seen and self.knights[t] is not None:
                    seen.add(t)
                    queue.append(t)
        return sorted(seen)

    def domains(self) -> list[list[int]]:
        """Every domain (2+ connected knights), ordered by its first space."""
        seen: set[int] = set()
        result = []
        for s in range(self.game.board.num_spaces):
            if self.knights[s] is not None and s not in seen:
                comp = self.component(s)
                seen.update(comp)
                if len(comp) >= 2:
                    result.append(comp)
        return result

    def touching_sites(self, spaces: Iterable[int]) -> list[int]:
        """The sites touching any of ``spaces``, ascending."""
        board = self.game.board
        return sorted({t for s in spaces for t in board.sites_at[s]})

    def landmark_value(self, spaces: Iterable[int]) -> int:
        return sum(
            chip_value(k) for t in self.touching_sites(spaces) if (k := self.chip[t]) is not None
        )

    def value(self, spaces: list[int], owner: int | None) -> int:
        """In-play value: 1 for the duke (if any) plus the landmarks touching the domain."""
        return (1 if owner is not None else 0) + self.landmark_value(spaces)

    def castle_sites(self, spaces: list[int]) -> list[int]:
        """The manned castle sites of the domain made of ``spaces``."""
        inside = set(spaces)
        return [
            t
            for t, (a, b) in enumerate(self.game.board.touches)
            if self.castle_knight[t] is not None and a in inside and b in inside
        ]

    def counts(self, spaces: list[int]) -> list[int]:
        """Knights per seat in the domain: on its spaces and on its castle sites."""
        result = [0] * self.num_players
        for s in spaces:
            seat = self.knights[s]
            assert seat is not None
            result[seat] += 1
        for t in self.castle_sites(spaces):
            seat = self.castle_knight[t]
            assert seat is not None
            result[seat] += 1
        return result

    @staticmethod
    def majority(counts: list[int]) -> int | None:
        """The seat with at least 2 knights and strictly more than every other seat."""
        best = max(counts)
        if best >= 2 and counts.count(best) == 1:
            return counts.index(best)
        return None

    def touches_church(self, spaces: list[int]) -> bool:
        return any(self.chip[t] == CHURCH for t in self.touching_sites(spaces))

    def bishops(self) -> list[int]:
        """One bishop per owned domain touching at least one church."""
        result = [0] * self.num_players
        for dom in self.domains():
            owner = self.duke[dom[0]]
            if owner is not None and self.touches_church(dom):
                result[owner] += 1
        return result

    def archbishop(self) -> int | None:
        """The seat with strictly the most bishops (at least one), else None."""
        counts = self.bishops()
        best = max(counts)
        if best >= 1 and counts.count(best) == 1:
            return counts.index(best)
        return None

    # -- legal actions ---------------------------------------------------------------------------

    def _free(self, s: int) -> bool:
        return self.knights[s] is None and not self.bastion[s]

    def _reinforcement_spaces(self, seat: int) -> list[int]:
        board = self.game.board
        result = []
        for s in range(board.num_spaces):
            if not board.land[s] or not self._free(s):
                continue
            near = [self.knights[t] for t in board.neighbours[s] if self.knights[t] is not None]
            if seat in near and all(k == seat for k in near):
                result.append(s)
        return result

    def _targets(self, seat: int, card: int, reinforce: list[int], archbishop: bool) -> set[int]:
        """The spaces where ``seat`` could put a knight with ``card``."""
        board = self.game.board
        targets = set(reinforce)
        lands = board.land_of[card]
        for s in lands:
            if self._free(s):
                targets.add(s)
            elif archbishop and self.knights[s] is not None and self.knights[s] != seat:
                targets.add(s)  # displacement
        river = board.river_of.get(card)
        if (
            river is not None
            and self.knights[river] is None
            and not any(self._free(s) for s in lands)
        ):
            targets.add(river)
        return targets

    def _card_plays(self, seat: int) -> list[int]:
        S = self.game.board.num_spaces
        reinforce = self._reinforcement_spaces(seat)
        archbishop = self.archbishop() == seat
        actions: set[int] = set()
        for card in self.hands[seat]:
            targets = self._targets(seat, card, reinforce, archbishop)
            actions.update((card - 1) * S + s for s in targets)
        return sorted(actions)

    def placeable_cards(self, seat: int) -> set[int]:
        """The cards with which ``seat`` could put a knight now, held or not (public)."""
        reinforce = self._reinforcement_spaces(seat)
        archbishop = self.archbishop() == seat
        return {
            card
            for card in range(1, self.game.board.max_number + 1)
            if self._targets(seat, card, reinforce, archbishop)
        }

    def _play_actions(self) -> list[int]:
        seat = self.player
        game = self.game
        board = game.board
        actions = self._card_plays(seat)
        if not actions:
            actions = [game.discard_base + card - 1 for card in self.hands[seat]]
        if self.bastions_left[seat] > 0 and not self.bastion_placed:
            actions += [
                game.bastion_base + s
                for s in range(board.num_spaces)
                if board.land[s] and self._free(s)
            ]
        return sorted(actions)

    def legal_actions(self) -> list[int]:
        if self.phase == "terminal":
            return []
        if self.phase == "play":
            return self._play_actions()
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "landmarks":
            total = sum(self.chips_left)
            return [(k, count / total) for k, count in enumerate(self.chips_left) if count > 0]
        if self.phase == "draw":
            return [(c, 1.0 / len(self.deck)) for c in self.deck]
        if self.phase in ("deal", "redraw"):
            # A dealt reshuffle card is redealt at once, and after a reshuffle the redraw cannot
            # usefully be the reshuffle card again: both draw among the number cards only.
            numbers = [c for c in self.deck if c != 0]
            return [(c, 1.0 / len(numbers)) for c in numbers]
        return []

    # -- applying actions ------------------------------------------------------------------------

    def _apply_chance(self, outcome: int) -> None:
        # Who received a number card is recorded beside the history: what each seat may see.
        receiver = None
        if self.phase == "landmarks":
            self._lay_chip(outcome)
        else:
            receiver = None if outcome == 0 else self.receiving
            self._receive(outcome)
        self._receivers.append(receiver)

    def _apply_decision(self, action: int) -> None:
        self._decide(action)
        self._receivers.append(None)

    def _lay_chip(self, kind: int) -> None:
        site = self.chip.index(None)
        self.chip[site] = kind
        self.chips_left[kind] -= 1
        if None not in self.chip:
            self.phase = "deal"
            self.receiving = 0

    def _receive(self, card: int) -> None:
        seat = self.receiving
        assert seat is not None
        if card == 0:
            # The reshuffle card goes back into the deck together with the whole discard pile.
            self.deck = sorted(self.deck + self.discard)
            self.discard = []
            self.phase = "redraw"
            return
        self.deck.remove(card)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        if self.phase == "deal":
            if len(self.hands[seat]) == HAND_SIZE:
                if seat + 1 < self.num_players:
                    self.receiving = seat + 1
                else:
                    self.receiving = None
                    self.phase = "play"
                    self.player = 0
            return
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.turn += 1
        self.receiving = None
        self.bastion_placed = False
        if self.turn >= self.game.max_turns:
            self._end("max_turns")
            return
        self.phase = "play"
        self.player = (seat + 1) % self.num_players

    def _end(self, reason: str) -> None:
        self.phase = "terminal"
        self.player = TERMINAL
        self.receiving = None
        self.bastion_placed = False
        self.end_reason = reason

    def _decide(self, action: int) -> None:
        game = self.game
        seat = self.player
        if game.bastion_base <= action < game.discard_base:
            self.bastion[action - game.bastion_base] = True
            self.bastions_left[seat] -= 1
            self.bastion_placed = True
            return
        self.bastion_placed = False
        if action >= game.discard_base:
            self._play_card(seat, action - game.discard_base + 1)
        else:
            S = game.board.num_spaces
            card, space = action // S + 1, action % S
            self._play_card(seat, card)
            if self.knights[space] is None:
                self._place(seat, space)
            else:
                self._displace(seat, space)
        if self.last_knight_taken:
            # The game ends at once; the draw could change nothing.
            self.turn += 1
            self._end("knights")
            return
        self.phase = "draw"
        self.player = CHANCE
        self.receiving = seat

    def _play_card(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.discard.sort()

    def _take_knight(self, seat: int) -> None:
        """Take a knight from the supply; an empty supply gives an extra knight instead."""
        if self.knights_left[seat] > 0:
            self.knights_left[seat] -= 1
            if self.knights_left[seat] == 0:
                self.last_knight_taken = True

    def _set_owner(self, spaces: list[int], owner: int | None) -> None:
        for s in spaces:
            self.duke[s] = owner

    def _place(self, seat: int, space: int) -> None:
        """A knight on a free space, then the consequences (rules: steps 1-5)."""
        board = self.game.board
        # Step 1: the old domains next to the space, with their old owners and old values.
        old: list[tuple[list[int], int | None, int]] = []
        seen: set[int] = set()
        for t in board.neighbours[space]:
            if self.knights[t] is not None and t not in seen:
                comp = self.component(t)
                seen.update(comp)
                if len(comp) >= 2:
                    old_owner = self.duke[t]
                    old.append((comp, old_owner, self.value(comp, old_owner)))
        self.knights[space] = seat
        self._take_knight(seat)
        domain = self.component(space)
        if len(domain) < 2:
            return
        # Step 2: ownership, counting the castle knights already in the domain.
        leader = self.majority(self.counts(domain))
        owner: int | None
        if len(old) >= 2:
            kept = [v for _, o, v in old if o is not None and o == leader]
            for _, o, v in old:
                if o is not None and o != leader:
                    self.points[o] += v
            if leader is not None and kept:
                # The leader keeps the duke of their most valuable old domain, banks the others.
                self.points[leader] += sum(kept) - max(kept)
            owner = leader
        else:
            previous = old[0][1] if old else None
            if previous is not None and leader is not None and leader != previous:
                self.points[previous] += old[0][2]
                owner = leader
            elif previous is not None:
                owner = previous  # equal counts never oust an owner
            else:
                owner = leader
        self._set_owner(domain, owner)
        # Step 3: castles completed by this knight.
        completed = [
            t
            for t in board.sites_at[space]
            if self.chip[t] == CASTLE
            and self.castle_knight[t] is None
            and all(self.knights[x] is not None for x in board.touches[t])
        ]
        for t in completed:
            holder = owner if owner is not None else seat
            self.castle_knight[t] = holder
            self._take_knight(holder)
        if completed and owner is None:
            owner = self.majority(self.counts(domain))
            self._set_owner(domain, owner)
        # Step 4 (step 5, bishops and the archbishop, is derived from the domains on demand).
        self._castles_follow_owner(domain, owner)

    def _displace(self, seat: int, space: int) -> None:
        """The archbishop's displacement of another player's knight on ``space``."""
        ousted = self.knights[space]
        assert ousted is not None
        self.knights_left[ousted] += 1
        self.knights[space] = seat
        self._take_knight(seat)
        domain = self.component(space)
        if len(domain) < 2:
            return
        previous = self.duke[space]
        leader = self.majority(self.counts(domain))
        owner = previous
        if previous is None:
            owner = leader
        elif leader is not None and leader != previous:
            self.points[previous] += self.value(domain, previous)
            owner = leader
        self._set_owner(domain, owner)
        self._castles_follow_owner(domain, owner)

    def _castles_follow_owner(self, domain: list[int], owner: int | None) -> None:
        if owner is None:
            return
        for t in self.castle_sites(domain):
            previous = self.castle_knight[t]
            assert previous is not None
            if previous != owner:
                self.knights_left[previous] += 1
                self.castle_knight[t] = owner
                self._take_knight(owner)

    # -- strings ---------------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.phase == "landmarks":
            return self.game.chip_outcome_name(action)
        if self.player == CHANCE:
            return self.game.card_outcome_name(action)
        return self.game.action_name(action)

    def _text_action(self, text: str) -> int:
        if self.phase == "landmarks":
            return self.game.parse_chip_outcome(text)
        if self.player == CHANCE:
            return self.game.parse_card_outcome(text)
        return self.game.parse_action(text)

    # -- results ---------------------------------------------------------------------------------

    def final_scoring(self) -> list[int]:
        """Points of the final scoring: 5 per owned domain plus its landmarks; archbishop 5."""
        result = [0] * self.num_players
        for dom in self.domains():
            owner = self.duke[dom[0]]
            if owner is not None:
                result[owner] += FINAL_DUKE + self.landmark_value(dom)
        holder = self.archbishop()
        if holder is not None:
            result[holder] += ARCHBISHOP_BONUS
        return result

    def int_scores(self) -> list[int]:
        if self.phase != "terminal":
            return list(self.points)
        final = self.final_scoring()
        return [self.points[s] + final[s] for s in range(self.num_players)]

    def scores(self) -> list[float]:
        return [float(v) for v in self.int_scores()]

    def returns(self) -> list[float]:
        n = self.num_players
        if self.end_reason != "knights":
            return [0.0] * n
        totals = self.int_scores()
        best = max(totals)
        winners = totals.count(best)
        if winners == n:
            return [0.0] * n
        return [1.0 / winners if v == best else -1.0 / (n - winners) for v in totals]

    def _evaluate(self, player: int) -> float:
        """docs/rules/rheinlaender.md, "Evaluation (for search bots)"."""
        final = self.final_scoring()
        projected = [self.points[s] + final[s] for s in range(self.num_players)]
        spread = 3 + 1.5 * math.sqrt(min(self.knights_left))
        return expected_return(projected, player, spread)

    # -- snapshots -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        board = self.game.board
        domains = []
        for dom in self.domains():
            owner = self.duke[dom[0]]
            domains.append(
                {
                    "spaces": [board.ids[s] for s in dom],
                    "owner": owner,
                    "duke": owner is not None,
                    "bishop": owner is not None and self.touches_church(dom),
                    "value": self.value(dom, owner),
                }
            )
        return {
            "knights": {
                board.ids[s]: seat for s, seat in enumerate(self.knights) if seat is not None
            },
            "bastions": [board.ids[s] for s in range(board.num_spaces) if self.bastion[s]],
            "landmarks": {
                board.site_ids[t]: {"kind": chip_kind(k), "value": chip_value(k)}
                for t, k in enumerate(self.chip)
                if k is not None
            },
            "castle_knights": {
                board.site_ids[t]: seat
                for t, seat in enumerate(self.castle_knight)
                if seat is not None
            },
            "domains": domains,
            "bishops": self.bishops(),
            "archbishop": self.archbishop(),
            "points": list(self.points),
            "knights_left": list(self.knights_left),
            "bastions_left": list(self.bastions_left),
            "hands": [list(hand) for hand in self.hands],
            "discard": list(self.discard),
            "deck_size": len(self.deck),
            "current_player": self.player,
            "phase": self.phase,
            "receiving": self.receiving,
            "bastion_placed": self.bastion_placed,
            "turn": self.turn,
            "end_reason": self.end_reason,
            "scores": self.int_scores(),
        }

    def _compact(self, planes: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The compact observation: the planes' entries rearranged (docs/rules/rheinlaender.md,
        "Compact observation")."""
        rows, spaces = self.game.compact_observation_shape["board"]
        return {
            "board": planes[: rows * spaces].reshape(rows, spaces).astype(np.uint8),
            "features": planes[rows * spaces :].copy(),
        }

    def _planes(self, player: int) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        game = self.game
        board = game.board
        n = self.num_players
        S, T, N = board.num_spaces, board.num_sites, board.max_number
        a1 = n * S
        a2 = a1 + S
        a3 = a2 + n * S
        a4 = a3 + S
        a5 = a4 + 4 * T
        a6 = a5 + n * T
        a7 = a6 + N
        a8 = a7 + N
        a9 = a8 + 8 * n
        obs = np.zeros(game.observation_shape, dtype=np.float32)
        for s in range(S):
            seat = self.knights[s]
            if seat is not None:
                obs[((seat - p) % n) * S + s] = 1.0
            if self.bastion[s]:
                obs[a1 + s] = 1.0
        domains = self.domains()
        owned = [0] * n
        for dom in domains:
            owner = self.duke[dom[0]]
            if owner is not None:
                owned[owner] += 1
            for s in dom:
                obs[a3 + s] = 1.0
                if owner is not None:
                    obs[a2 + ((owner - p) % n) * S + s] = 1.0
        for t in range(T):
            k = self.chip[t]
            if k is not None:
                obs[a4 + 4 * t + min(k, 2)] = 1.0
                obs[a4 + 4 * t + 3] = chip_value(k) / 4
            seat = self.castle_knight[t]
            if seat is not None:
                obs[a5 + ((seat - p) % n) * T + t] = 1.0
        for card in self.hands[p]:
            obs[a6 + card - 1] = 1.0
        for card in self.discard:
            obs[a7 + card - 1] = 1.0
        bishops = self.bishops()
        holder = self.archbishop()
        for seat in range(n):
            base = a8 + 8 * ((seat - p) % n)
            obs[base + 0] = self.knights_left[seat] / game.knights_per_player
            obs[base + 1] = self.bastions_left[seat] / BASTIONS
            obs[base + 2] = owned[seat] / 10
            obs[base + 3] = bishops[seat] / 7
            obs[base + 4] = self.points[seat] / 100
            obs[base + 5] = float(holder == seat)
            obs[base + 6] = float(self.player == seat)
            obs[base + 7] = float(self.player == CHANCE and self.receiving == seat)
        obs[a9 + 0] = len(self.deck) / (N + 1)
        obs[a9 + 1] = float(self.bastion_placed)
        obs[a9 + 2 + PHASES.index(self.phase)] = 1.0
        obs[a9 + 8] = self.turn / game.max_turns
        return obs

    def _board_lines(self) -> list[str]:
        board = self.game.board

        def cell(s: int) -> str:
            seat = self.knights[s]
            return str(seat) if seat is not None else "#" if self.bastion[s] else "."

        lines = ["spaces: seat number = knight, # bastion, . free; sites: chip [castle knight]"]
        for s in range(board.num_spaces):
            extra = []
            for t in board.sites_at[s]:
                if board.touches[t][0] != s:
                    continue
                k = self.chip[t]
                text = f"{board.site_ids[t]} {chip_name(k) if k is not None else '?'}"
                if self.castle_knight[t] is not None:
                    text += f" [{self.castle_knight[t]}]"
                extra.append(text)
            lines.append(
                f"  {board.ids[s]:>6} {cell(s)}" + ("  " + ", ".join(extra) if extra else "")
            )
        for dom in self.domains():
            owner = self.duke[dom[0]]
            who = f"seat {owner}" if owner is not None else "nobody"
            names = " ".join(board.ids[s] for s in dom)
            lines.append(f"domain of {who}, value {self.value(dom, owner)}: {names}")
        return lines

    def _status_lines(self) -> list[str]:
        lines = []
        bishops = self.bishops()
        for seat in range(self.num_players):
            lines.append(
                f"seat {seat}: knights {self.knights_left[seat]}, bastions "
                f"{self.bastions_left[seat]}, bishops {bishops[seat]}, points {self.points[seat]}"
            )
        holder = self.archbishop()
        lines.append(f"archbishop: {'nobody' if holder is None else f'seat {holder}'}")
        lines.append(f"discard: {' '.join(map(str, self.discard)) or '-'}; deck {len(self.deck)}")
        lines.append(f"turn {self.turn}, phase {self.phase}")
        if self.phase == "terminal":
            lines.append(f"game over ({self.end_reason}): scores {self.int_scores()}")
        elif self.player == CHANCE:
            target = "" if self.receiving is None else f" for seat {self.receiving}"
            lines.append(f"chance: {self.phase}{target}")
        else:
            lines.append(
                f"seat {self.player} to move" + (" (bastion placed)" if self.bastion_placed else "")
            )
        return lines

    def observation_string(self, player: int) -> str:
        p = self._check_seat(player)
        hands = [
            f"seat {seat} hand: "
            + (
                " ".join(map(str, self.hands[seat]))
                if seat == p
                else f"{len(self.hands[seat])} cards"
            )
            for seat in range(self.num_players)
        ]
        return "\n".join([f"view of seat {p}", *self._board_lines(), *self._status_lines(), *hands])

    def information_state_string(self, player: int) -> str:
        p = self._check_seat(player)
        return " ".join(
            "?" if seat is not None and seat != p else str(a)
            for a, seat in zip(self._history, self._receivers)
        )

    def resample_from_infostate(self, player: int, seed: int) -> State:
        """A state ``player`` cannot tell apart from this one, drawn from what the player has seen
        alone (rules page, "Resampling"); the same as the engine's for the same seed."""
        p = self._check_seat(player)
        slots, lives, discards = self._view(p)

        def fits(slot: tuple[int, int], life: _Life) -> bool:
            index, seat = slot
            if not life.start < index < life.end or life.seat not in (None, seat):
                return False
            return all(
                life.card in blocked for at, blocked in discards[seat] if index < at < life.end
            )

        # Step 1: each hidden card takes the played card of its seat that fits with the earliest
        # play; the rest take cards never seen again, by augmenting paths in card order.
        life_of: list[int | None] = [None] * len(slots)
        owner: list[int | None] = [None] * len(lives)
        for k, slot in enumerate(slots):
            for n, life in enumerate(lives):
                if life.seat is not None and owner[n] is None and fits(slot, life):
                    life_of[k], owner[n] = n, k
                    break

        def augment(k: int, visited: set[int]) -> bool:
            for n, life in enumerate(lives):
                if life.seat is None and n not in visited and fits(slots[k], life):
                    visited.add(n)
                    held = owner[n]
                    if held is None or augment(held, visited):
                        owner[n], life_of[k] = k, n
                        return True
            return False

        for k in range(len(slots)):
            if life_of[k] is None:
                augment(k, set())
        # Step 2: swaps of two hidden cards, or a hidden card for one never seen again.
        rng = Rng(int(seed))
        choices = len(slots) + len(lives)
        for _ in range(STEPS_PER_SLOT * len(slots)):
            a = rng.below(len(slots))
            pick = rng.below(choices)
            la = life_of[a]
            if la is None:
                continue
            if pick < len(slots):
                lb = life_of[pick]
                if (
                    pick == a
                    or lb is None
                    or not fits(slots[a], lives[lb])
                    or not fits(slots[pick], lives[la])
                ):
                    continue
                life_of[a], life_of[pick] = lb, la
                owner[lb], owner[la] = a, pick
            else:
                n = pick - len(slots)
                if (
                    owner[n] is not None
                    or lives[la].seat is not None
                    or lives[n].seat is not None
                    or not fits(slots[a], lives[n])
                ):
                    continue
                owner[la], owner[n], life_of[a] = None, a, n
        history = list(self._history)
        for (at, _), held in zip(slots, life_of):
            if held is not None:
                history[at] = lives[held].card
        state = self.game.new_initial_state()
        for a in history:
            state.apply_action(a)
        return state

    def _view(
        self, p: int
    ) -> tuple[list[tuple[int, int]], list[_Life], dict[int, list[tuple[int, set[int]]]]]:
        """What ``p`` knows (rules page, "Resampling"): the hidden cards dealt or drawn as
        (history index, seat); the lives of the cards ``p`` did not follow, played ones first (in
        history order) and then the cards never seen again (in card order); and per seat its
        discards as (history index, the cards that could not place then)."""
        game = self.game
        S = game.board.num_spaces
        slots: list[tuple[int, int]] = []
        played: list[_Life] = []
        discards: dict[int, list[tuple[int, set[int]]]] = {s: [] for s in range(self.num_players)}
        since = {card: -1 for card in range(1, game.board.max_number + 1)}
        away: set[int] = set()  # held by p or in the discard pile
        replay = game.new_initial_state()
        for index, a in enumerate(self._history):
            if replay.player == CHANCE and replay.phase != "landmarks":
                if a == 0:  # the reshuffle card: the discard pile goes back into the deck
                    for card in replay.discard:
                        since[card] = index
                        away.discard(card)
                elif replay.receiving == p:
                    away.add(a)
                else:
                    assert replay.receiving is not None
                    slots.append((index, replay.receiving))
            elif replay.player >= 0:
                seat = replay.player
                shown: int | None = a // S + 1 if a < game.bastion_base else None
                if a >= game.discard_base:
                    shown = a - game.discard_base + 1
                if shown is not None and seat != p:
                    played.append(_Life(since[shown], index, seat, shown))
                    if a >= game.discard_base:
                        blocked = set(range(1, game.board.max_number + 1))
                        discards[seat].append((index, blocked - replay.placeable_cards(seat)))
                if shown is not None:
                    away.add(shown)
            replay.apply_action(a)
        never = [_Life(since[c], NEVER, None, c) for c in sorted(since) if c not in away]
        return slots, played + never, discards

    def __str__(self) -> str:
        hands = [
            f"seat {seat} hand: {' '.join(map(str, self.hands[seat])) or '-'}"
            for seat in range(self.num_players)
        ]
        return "\n".join([*self._board_lines(), *self._status_lines(), *hands])
