"""Pure-Python reference implementation of Battlecards: Western European Theater.

One module on purpose, long as the rules are: it is read beside its rules page, step for step,
and split into parts it would be harder to check against the page.

This module is the oracle that the fast engine is checked against, so it is written for clarity:
sets of card indices, a phase string and one method per step of the Flow procedure of
``docs/rules/battlecards.md``, whose names it follows (``start_turn``, ``run_effects``,
``next_shooter``, ``battle_won``, ...).

Conventions (from the rules page):

* Seat 0 is Germany and moves first, seat 1 is Britain.
* Cards are referred to by their index in the merged card set: ``slot`` is the index inside one
  side's arsenal, the global arsenal index is ``a = 128 * seat + slot``; conflict cards have the
  conflict index ``k``.
* Actions: 0 ``pass``, 1 ``fight``, 2 ``decline``, 3 + a ``deploy``, 259 + a ``fire``,
  515 + a ``withdraw``, 771 + k ``play``; chance outcomes 899 + a (arsenal card) and
  1155 + k (conflict card).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals.reference import _base
from rivals.reference._base import (
    CHANCE,
    TERMINAL,
    bad_param,
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

NAME = "battlecards"


GERMANY = 0
BRITAIN = 1
SIDES = ("germany", "britain")  # by seat
SIDE_KEYS = ("german", "british")  # card-set keys, by seat

TYPES = ("ground", "air", "sea")

MAX_ARSENAL = 128
MAX_CONFLICT = 128
MAX_EXPANSIONS = 64  # expansion packs one game may merge
MAX_EFFECTS = 16  # effects of one build-up or immediate card
SETUP_DRAW = 6
SETUP_DEPLOY = 3
MAX_ROUNDS = 4
NUM_PHASES = 4

# The evaluation's weights (rules page, "Evaluation (for search bots)"): VP per point of strength
# on the stacks and in reserve, per kept card, and how far the VP difference may still move.
STACK_WORTH = 0.15
RESERVE_WORTH = 0.05
KEPT_WORTH = 0.5
EVALUATION_SPREAD = 2.5

PASS = 0
FIGHT = 1
DECLINE = 2
DEPLOY = 3
FIRE = DEPLOY + 2 * MAX_ARSENAL  # 259
WITHDRAW = FIRE + 2 * MAX_ARSENAL  # 515
PLAY = WITHDRAW + 2 * MAX_ARSENAL  # 771
NUM_DISTINCT_ACTIONS = PLAY + MAX_CONFLICT  # 899
# Chance outcomes are numbered from 0 and read by the node: the slot of the card in the subject's
# arsenal, or the conflict index at conflict_draw and flip.
MAX_CHANCE_OUTCOMES = MAX_ARSENAL
CONFLICT_CHANCE_PHASES = ("conflict_draw", "flip")

PHASES = (
    "deal",
    "setup_deploy",
    "turn_deploy",
    "conflict_draw",
    "effect_draw",
    "effect_deploy",
    "effect_discard",
    "effect_destroy",
    "choice",
    "window",
    "reinforce",
    "fire",
    "flip",
    "withdraw",
    "terminal",
)
CHANCE_PHASES = {"deal", "conflict_draw", "effect_draw", "effect_discard", "effect_destroy", "flip"}

MAX_TURNS_LIMIT = 100000
DEFAULT_PARAMS: dict[str, Any] = {"cards": None, "expansions": [], "max_turns": 1000}
PARAM_HELP = (
    "cards (null for the shipped card set, a path or a card-set object), "
    "expansions (list of paths or expansion objects, default []), "
    f"max_turns (int 1..{MAX_TURNS_LIMIT}, default 1000)"
)

SET_FORMAT = "rivals-battlecards-set"
EXPANSION_FORMAT = "rivals-battlecards-expansion"

WHO = ("drawer", "opponent", "german", "british")
IMMEDIATE_EFFECTS = (
    "draw",
    "deploy",
    "discard_reserve",
    "reveal",
    "destroy_stack",
    "victory_points",
)
KEPT_EFFECTS = ("combat_bonus", "reinforce")
WON_BY = ("aggressor", "defender", "either")
KINDS = ("battle", "build_up", "immediate", "kept")

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,16}$")

OBS_GLOBALS = 66


# ---------------------------------------------------------------------------------------------
# Card set
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Support:
    types: tuple[str, ...]
    attack: int
    defence: int


@dataclass(frozen=True)
class ArsenalCard:
    id: str
    name: str
    type: str
    attack: dict[str, int]
    defence: int
    phase: int
    support: Support | None
    leader: bool


@dataclass(frozen=True)
class Effect:
    type: str
    who: str | None = None  # None for kept-card effects (always the holder)
    count: int = 0
    types: tuple[str, ...] = ()
    stack: str | None = None
    attack: int = 0
    defence: int = 0


@dataclass(frozen=True)
class Prerequisite:
    battle: str
    won_by: str


@dataclass(frozen=True)
class ConflictCard:
    id: str
    name: str
    action: int
    kind: str
    # battle
    aggressor: int = -1  # seat
    types: tuple[str, ...] = ()
    decisive: tuple[str, ...] = ()
    vp: int = 0
    prerequisites: tuple[Prerequisite, ...] = ()
    homeland: bool = False
    loser_destroyed: tuple[str, ...] = ()
    # build_up / immediate: effects; kept: one effect
    effects: tuple[Effect, ...] = ()


@dataclass
class CardSet:
    """A validated, merged card set."""

    name: str
    battle_list_id: str
    battle_list_name: str
    arsenals: tuple[list[ArsenalCard], list[ArsenalCard]]  # by seat
    conflict: list[ConflictCard]

    def __post_init__(self) -> None:
        self.battles: list[int] = [k for k, c in enumerate(self.conflict) if c.kind == "battle"]
        self.conflict_index: dict[str, int] = {c.id: k for k, c in enumerate(self.conflict)}
        self.arsenal_index: dict[str, int] = {}
        for seat in (0, 1):
            for slot, card in enumerate(self.arsenals[seat]):
                self.arsenal_index[card.id] = MAX_ARSENAL * seat + slot

    def arsenal(self, a: int) -> ArsenalCard:
        return self.arsenals[a // MAX_ARSENAL][a % MAX_ARSENAL]


class CardError(ValueError):
    pass


class _Checker:
    """Validation with messages ``<source>: card 'X': key 'k': ...``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, problem: str, card: str | None = None, key: str | None = None) -> CardError:
        where = ""
        if card is not None:
            where += f"card {card!r}: "
        if key is not None:
            where += f"key {key!r}: "
        return CardError(f"{self.source}: {where}{problem}")

    def keys(
        self, obj: Any, required: set[str], optional: set[str], card: str | None, what: str
    ) -> dict[str, Any]:
        if not isinstance(obj, dict):
            raise self.fail(f"{what} must be a JSON object", card)
        for key in obj:
            if key not in required and key not in optional:
                accepted = ", ".join(sorted(required | optional))
                raise self.fail(f"unknown key in {what} (accepted: {accepted})", card, key)
        for key in sorted(required):
            if key not in obj:
                raise self.fail(f"missing in {what}", card, key)
        return obj

    def int_range(self, obj: dict[str, Any], key: str, lo: int, hi: int, card: str | None) -> int:
        value = obj[key]
        if not is_int(value) or not lo <= value <= hi:
            raise self.fail(f"must be an int {lo}-{hi}, not {value!r}", card, key)
        return int(value)

    def string(self, obj: dict[str, Any], key: str, card: str | None) -> str:
        value = obj[key]
        if not isinstance(value, str) or not value:
            raise self.fail(f"must be a non-empty string, not {value!r}", card, key)
        return value

    def boolean(self, obj: dict[str, Any], key: str, card: str | None) -> bool:
        value = obj.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"must be true or false, not {value!r}", card, key)
        return value

    def types(
        self, obj: dict[str, Any], key: str, card: str | None, allow_empty: bool = False
    ) -> tuple[str, ...]:
        value = obj[key]
        if (
            not isinstance(value, list)
            or (not value and not allow_empty)
            or any(t not in TYPES for t in value)
            or len(set(value)) != len(value)
        ):
            empty = "a" if allow_empty else "a non-empty"
            raise self.fail(
                f"must be {empty} list of distinct types from {list(TYPES)}, not {value!r}",
                card,
                key,
            )
        return tuple(value)

    def card_id(self, obj: Any, what: str) -> str:
        if not isinstance(obj, dict):
            raise self.fail(f"each {what} must be a JSON object, not {obj!r}")
        value = obj.get("id")
        if (
            not isinstance(value, str)
            or not ID_PATTERN.match(value)
            or not any(ch.isdigit() for ch in value)
        ):
            raise self.fail(
                f"a {what} needs an id of 1-16 letters, digits, '_' or '-' with at least one "
                f"digit, not {value!r}",
                key="id",
            )
        return value


def _parse_arsenal_card(check: _Checker, obj: Any) -> ArsenalCard:
    cid = check.card_id(obj, "arsenal card")
    check.keys(
        obj,
        {"id", "name", "type", "attack", "defence", "phase"},
        {"support", "leader"},
        cid,
        "an arsenal card",
    )
    name = check.string(obj, "name", cid)
    if obj["type"] not in TYPES:
        raise check.fail(f"must be one of {list(TYPES)}, not {obj['type']!r}", cid, "type")
    attack_obj = obj["attack"]
    if not isinstance(attack_obj, dict) or set(attack_obj) != set(TYPES):
        raise check.fail("must be an object with exactly the keys ground, air, sea", cid, "attack")
    attack = {}
    for t in TYPES:
        value = attack_obj[t]
        if not is_int(value) or not 0 <= value <= 20:
            raise check.fail(
                f"attack against {t} must be an int 0-20, not {value!r}", cid, "attack"
            )
        attack[t] = int(value)
    defence = check.int_range(obj, "defence", 0, 20, cid)
    phase = check.int_range(obj, "phase", 1, NUM_PHASES, cid)
    support = None
    if "support" in obj:
        sup = check.keys(obj["support"], {"types", "attack", "defence"}, set(), cid, "a support")
        s_types = check.types(sup, "types", cid)
        s_att = check.int_range(sup, "attack", 0, 10, cid)
        s_def = check.int_range(sup, "defence", 0, 10, cid)
        if s_att == 0 and s_def == 0:
            raise check.fail("a support needs attack or defence above 0", cid, "support")
        support = Support(s_types, s_att, s_def)
    leader = check.boolean(obj, "leader", cid)
    return ArsenalCard(cid, name, obj["type"], attack, defence, phase, support, leader)


def _parse_effect(check: _Checker, obj: Any, cid: str, kept: bool) -> Effect:
    key = "effect" if kept else "effects"
    if not isinstance(obj, dict) or "type" not in obj:
        raise check.fail("an effect must be an object with a 'type'", cid, key)
    kind = obj["type"]
    allowed = KEPT_EFFECTS if kept else IMMEDIATE_EFFECTS
    if kind not in allowed:
        raise check.fail(f"effect type must be one of {list(allowed)}, not {kind!r}", cid, key)
    params = {
        "draw": {"count"},
        "deploy": {"count"},
        "discard_reserve": {"count"},
        "reveal": {"types"},
        "destroy_stack": {"stack"},
        "victory_points": {"count"},
        "combat_bonus": {"types", "attack", "defence"},
        "reinforce": {"count"},
    }[kind]
    required = {"type"} | params | (set() if kept else {"who"})
    check.keys(obj, required, set(), cid, f"a {kind} effect")
    who = None
    if not kept:
        who = obj["who"]
        if who not in WHO:
            raise check.fail(f"who must be one of {list(WHO)}, not {who!r}", cid, "who")
    count = check.int_range(obj, "count", 1, 10, cid) if "count" in params else 0
    types = check.types(obj, "types", cid) if "types" in params else ()
    stack = None
    if "stack" in params:
        stack = obj["stack"]
        if stack not in TYPES:
            raise check.fail(f"must be one of {list(TYPES)}, not {stack!r}", cid, "stack")
    attack = defence = 0
    if kind == "combat_bonus":
        attack = check.int_range(obj, "attack", 0, 10, cid)
        defence = check.int_range(obj, "defence", 0, 10, cid)
        if attack == 0 and defence == 0:
            raise check.fail("a combat_bonus needs attack or defence above 0", cid, "effect")
    return Effect(kind, who, count, types, stack, attack, defence)


def _parse_conflict_card(check: _Checker, obj: Any) -> ConflictCard:
    cid = check.card_id(obj, "conflict card")
    if not isinstance(obj.get("kind"), str) or obj["kind"] not in KINDS:
        raise check.fail(f"must be one of {list(KINDS)}, not {obj.get('kind')!r}", cid, "kind")
    kind = obj["kind"]
    base = {"id", "name", "action", "kind"}
    if kind == "battle":
        check.keys(
            obj,
            base | {"aggressor", "types", "vp"},
            {"decisive", "prerequisites", "homeland", "loser_destroyed"},
            cid,
            "a battle card",
        )
    elif kind == "kept":
        check.keys(obj, base | {"effect"}, set(), cid, "a kept card")
    else:
        check.keys(obj, base | {"effects"}, set(), cid, f"a {kind} card")
    name = check.string(obj, "name", cid)
    action = check.int_range(obj, "action", 1, 20, cid)
    if kind == "battle":
        aggressor = obj["aggressor"]
        if aggressor not in SIDE_KEYS:
            raise check.fail(f"must be 'german' or 'british', not {aggressor!r}", cid, "aggressor")
        types = check.types(obj, "types", cid)
        decisive = check.types(obj, "decisive", cid) if "decisive" in obj else types
        if not set(decisive) <= set(types):
            raise check.fail("must be a subset of the battle's types", cid, "decisive")
        lost = (
            check.types(obj, "loser_destroyed", cid, allow_empty=True)
            if ("loser_destroyed" in obj)
            else ()
        )
        if not set(lost) <= set(types):
            raise check.fail("must be a subset of the battle's types", cid, "loser_destroyed")
        prereqs = obj.get("prerequisites", [])
        if not isinstance(prereqs, list):
            raise check.fail("must be a list", cid, "prerequisites")
        parsed = []
        for pre in prereqs:
            check.keys(pre, {"battle", "won_by"}, set(), cid, "a prerequisite")
            if not isinstance(pre["battle"], str):
                raise check.fail("a prerequisite's battle must be a card id", cid, "prerequisites")
            if pre["won_by"] not in WON_BY:
                raise check.fail(
                    f"won_by must be one of {list(WON_BY)}, not {pre['won_by']!r}",
                    cid,
                    "prerequisites",
                )
            parsed.append(Prerequisite(pre["battle"], pre["won_by"]))
        return ConflictCard(
            cid,
            name,
            action,
            kind,
            aggressor=SIDE_KEYS.index(aggressor),
            types=tuple(t for t in TYPES if t in types),
            decisive=tuple(t for t in TYPES if t in decisive),
            vp=check.int_range(obj, "vp", 0, 20, cid),
            prerequisites=tuple(parsed),
            homeland=check.boolean(obj, "homeland", cid),
            loser_destroyed=tuple(t for t in TYPES if t in lost),
        )
    if kind == "kept":
        return ConflictCard(
            cid, name, action, kind, effects=(_parse_effect(check, obj["effect"], cid, True),)
        )
    effects = obj["effects"]
    if not isinstance(effects, list) or not 1 <= len(effects) <= MAX_EFFECTS:
        raise check.fail(f"must be a list of 1-{MAX_EFFECTS} effects", cid, "effects")
    parsed_effects = tuple(_parse_effect(check, e, cid, False) for e in effects)
    if kind == "build_up" and any(e.type != "draw" for e in parsed_effects):
        raise check.fail("a build_up card has only draw effects", cid, "effects")
    return ConflictCard(cid, name, action, kind, effects=parsed_effects)


def _parse_battle_list(check: _Checker, obj: Any) -> tuple[str, str, list[str]]:
    cid = check.card_id(obj, "battle list")
    check.keys(obj, {"id", "name", "battles"}, set(), cid, "the battle list")
    name = check.string(obj, "name", cid)
    battles = obj["battles"]
    if not isinstance(battles, list) or not all(isinstance(b, str) for b in battles):
        raise check.fail("must be a list of battle card ids", cid, "battles")
    return cid, name, list(battles)


def _check_header(
    check: _Checker, data: Any, fmt: str, required: set[str], optional: set[str]
) -> None:
    if not isinstance(data, dict):
        raise check.fail("a JSON object is expected")
    for key in data:
        if key not in required | optional:
            raise check.fail(
                f"unknown top-level key (accepted: {', '.join(sorted(required | optional))})",
                key=key,
            )
    for key in sorted(required):
        if key not in data:
            raise check.fail("missing top-level key", key=key)
    if data["format"] != fmt:
        raise check.fail(f"format must be {fmt!r}, not {data['format']!r}", key="format")
    if not is_int(data["version"]) or data["version"] != 1:
        raise check.fail(f"version must be 1, not {data['version']!r}", key="version")
    if not isinstance(data["name"], str):
        raise check.fail("must be a string", key="name")
    for key in ("conflict", "german", "british"):
        if key in data and not isinstance(data[key], list):
            raise check.fail("must be a list of cards", key=key)


Document = tuple[Any, str]  # a data document and how messages name it


def read_documents(cards: Any, expansions: Any) -> tuple[Document, list[Document]]:
    """The documents of the ``cards`` and ``expansions`` parameters."""
    if isinstance(expansions, (str, dict)) or not isinstance(expansions, (list, tuple)):
        raise CardError(
            f"bad value expansions={expansions!r}: a list of paths or objects is expected"
        )
    if len(expansions) > MAX_EXPANSIONS or any(e is None for e in expansions):
        raise CardError(
            f"bad value expansions: a list of at most {MAX_EXPANSIONS} shipped names, paths or "
            "expansion objects is expected"
        )
    packs = [
        read_data(NAME, f"expansions[{index}]", pack, "battlecards_commanders")
        for index, pack in enumerate(expansions)
    ]
    return read_data(NAME, "cards", cards, NAME), packs


def load_card_set(cards: Any = None, expansions: Any = ()) -> CardSet:
    """Read, merge and validate a card set (see ``docs/formats.md``)."""
    card_set, packs = read_documents(cards, expansions)
    return merge_card_set(card_set, packs)


def merge_card_set(card_set: Document, packs: list[Document]) -> CardSet:
    """Validate a card set and its expansion packs and merge them."""
    data, source = card_set
    check = _Checker(source)
    _check_header(
        check,
        data,
        SET_FORMAT,
        {"format", "version", "name", "battle_list", "conflict", "german", "british"},
        set(),
    )
    list_id, list_name, list_battles = _parse_battle_list(check, data["battle_list"])
    conflict = [_parse_conflict_card(check, c) for c in data["conflict"]]
    arsenals = (
        [_parse_arsenal_card(check, c) for c in data["german"]],
        [_parse_arsenal_card(check, c) for c in data["british"]],
    )
    seen_ids: set[str] = {list_id}
    all_ids = [c.id for c in conflict] + [c.id for side in arsenals for c in side]
    for cid in all_ids:
        if cid in seen_ids:
            raise check.fail("the id is used twice", cid, "id")
        seen_ids.add(cid)
    for seat in (0, 1):
        leaders: set[str] = set()
        for card in arsenals[seat]:
            if card.leader:
                if card.name in leaders:
                    raise check.fail(
                        f"leader {card.name!r} is twice in the {SIDE_KEYS[seat]} arsenal",
                        card.id,
                        "leader",
                    )
                leaders.add(card.name)
    battle_ids = [c.id for c in conflict if c.kind == "battle"]
    if sorted(list_battles) != sorted(battle_ids) or len(set(list_battles)) != len(list_battles):
        raise check.fail("must list every battle card of the set exactly once", list_id, "battles")
    for edata, esource in packs:
        echeck = _Checker(esource)
        _check_header(
            echeck,
            edata,
            EXPANSION_FORMAT,
            {"format", "version", "name"},
            {"conflict", "german", "british"},
        )
        for obj in edata.get("conflict", []):
            new_conflict = _parse_conflict_card(echeck, obj)
            if new_conflict.id in seen_ids:
                raise echeck.fail("the id is already in the card set", new_conflict.id, "id")
            seen_ids.add(new_conflict.id)
            conflict.append(new_conflict)
        for seat, key in enumerate(SIDE_KEYS):
            names = {c.name for c in arsenals[seat] if c.leader}
            for obj in edata.get(key, []):
                card = _parse_arsenal_card(echeck, obj)
                if card.leader and card.name in names:
                    continue  # each leader at most once per arsenal
                if card.id in seen_ids:
                    raise echeck.fail("the id is already in the card set", card.id, "id")
                seen_ids.add(card.id)
                if card.leader:
                    names.add(card.name)
                arsenals[seat].append(card)
    _check_whole(check, conflict, arsenals)
    return CardSet(data["name"], list_id, list_name, arsenals, conflict)


def _check_whole(
    check: _Checker, conflict: list[ConflictCard], arsenals: tuple[list[ArsenalCard], ...]
) -> None:
    for seat, key in enumerate(SIDE_KEYS):
        if not SETUP_DRAW <= len(arsenals[seat]) <= MAX_ARSENAL:
            raise check.fail(
                f"the {key} arsenal must hold {SETUP_DRAW}-{MAX_ARSENAL} cards, "
                f"not {len(arsenals[seat])}",
                key=key,
            )
    if not 1 <= len(conflict) <= MAX_CONFLICT:
        raise check.fail(
            f"the conflict deck must hold 1-{MAX_CONFLICT} cards, not {len(conflict)}",
            key="conflict",
        )
    battles = {c.id: c for c in conflict if c.kind == "battle"}
    if not battles:
        raise check.fail("the conflict deck needs at least one battle", key="conflict")
    if not any(c.kind in ("build_up", "immediate") for c in conflict):
        raise check.fail(
            "the conflict deck needs a card that is neither a battle nor a kept card",
            key="conflict",
        )
    for card in battles.values():
        for pre in card.prerequisites:
            if pre.battle not in battles or pre.battle == card.id:
                raise check.fail(
                    f"prerequisite {pre.battle!r} is not another battle of the set",
                    card.id,
                    "prerequisites",
                )
    # Prerequisites must not form a cycle (depth-first search, three colours).
    state: dict[str, int] = {}

    def visit(cid: str) -> None:
        state[cid] = 1
        for pre in battles[cid].prerequisites:
            if state.get(pre.battle) == 1:
                raise check.fail("the prerequisites form a cycle", cid, "prerequisites")
            if pre.battle not in state:
                visit(pre.battle)
        state[cid] = 2

    for cid in battles:
        if cid not in state:
            visit(cid)


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------


def _action_card_kind(phase: str, subject: int | None, action: int) -> tuple[str, int] | None:
    """(verb, index) of a card-naming action id played in ``phase`` (with its ``subject``), or
    ``None`` for pass/fight/decline; ``index`` is the global arsenal or the conflict index."""
    if phase in CONFLICT_CHANCE_PHASES:
        return "conflict", action
    if phase in CHANCE_PHASES:
        assert subject is not None
        return "arsenal", MAX_ARSENAL * subject + action
    for verb, base, size in (
        ("deploy", DEPLOY, 2 * MAX_ARSENAL),
        ("fire", FIRE, 2 * MAX_ARSENAL),
        ("withdraw", WITHDRAW, 2 * MAX_ARSENAL),
        ("play", PLAY, MAX_CONFLICT),
    ):
        if base <= action < base + size:
            return verb, action - base
    return None


def _with_card(phase: str, subject: int | None, action: int, index: int) -> int:
    """The action of the same verb as ``action`` naming card ``index`` instead."""
    kind = _action_card_kind(phase, subject, action)
    assert kind is not None
    return action - kind[1] + index


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def _check_params(params: dict[str, Any]) -> dict[str, Any]:
    full = with_defaults(NAME, DEFAULT_PARAMS, params, PARAM_HELP)
    int_param(NAME, full, "max_turns", 1, MAX_TURNS_LIMIT)
    expansions = full["expansions"]
    if not isinstance(expansions, (list, tuple)) or not all(
        isinstance(e, (str, dict)) for e in expansions
    ):
        raise bad_param(NAME, "expansions", "a list of paths or expansion objects", expansions)
    full["expansions"] = list(expansions)
    return full


class Game(_base.Game["State"]):
    """Battlecards with a card set (shipped or given), expansions and ``max_turns``."""

    def __init__(self, **params: Any) -> None:
        super().__init__(NAME, _check_params(params))
        card_set, packs = read_documents(self.params["cards"], self.params["expansions"])
        self.card_set: CardSet = merge_card_set(card_set, packs)
        # The documents of the data parameters, as the engine's ``game.data``.
        self.data: dict[str, Any] = {
            "cards": card_set[0],
            "expansions": [document for document, _ in packs],
        }
        cs = self.card_set
        self.num_distinct_actions: int = NUM_DISTINCT_ACTIONS
        self.max_chance_outcomes: int = MAX_CHANCE_OUTCOMES
        n_arsenal = len(cs.arsenals[0]) + len(cs.arsenals[1])
        n_conflict = len(cs.conflict)
        # The derivation is on the rules page ("max_game_length").
        window = 2
        effects = 0
        battles = 0
        for card in cs.conflict:
            if card.kind == "battle":
                battles += 1
            elif card.kind == "kept":
                e = card.effects[0]
                window += 1 + (e.count if e.type == "reinforce" else 0)
            else:
                cost = 0
                for e in card.effects:
                    if e.type in ("draw", "deploy", "discard_reserve"):
                        cost += e.count
                    elif e.type == "destroy_stack":
                        cost += 1
                effects = max(effects, cost)
        combat = window + (2 * MAX_ROUNDS + 1) * n_arsenal + 2 * MAX_ROUNDS
        per_turn = 2 + max(effects, 1)
        self.max_game_length: int = (
            2 * SETUP_DRAW
            + 2 * SETUP_DEPLOY
            + self.params["max_turns"] * per_turn
            + battles * combat
        )
        self.observation_shape: tuple[int, ...] = (9 * n_arsenal + 6 * n_conflict + OBS_GLOBALS,)
        self.compact_observation_shape: dict[str, tuple[int, ...]] = {
            "board": (9, n_arsenal),
            "features": (6 * n_conflict + OBS_GLOBALS,),
        }

    def new_initial_state(self) -> State:
        return State(self)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


@dataclass
class Battle:
    aggressor: int
    round: int = 0
    firing_phase: int = 0
    firing_side: int | None = None
    unit: int | None = None
    target: int | None = None
    window: int | None = None
    withdrawing: int | None = None
    taking_part: list[set[int]] = field(default_factory=lambda: [set(), set()])
    withdrawn: list[set[int]] = field(default_factory=lambda: [set(), set()])
    # bonus[seat][type] = [attack, defence] from played combat_bonus cards
    bonus: list[dict[str, list[int]]] = field(
        default_factory=lambda: [{t: [0, 0] for t in TYPES} for _ in range(2)]
    )


@dataclass
class _LogEntry:
    """What the information state needs to know about one applied action."""

    player: int  # the seat that decided, or CHANCE
    phase: str
    subject: int | None
    drawing: int | None
    action: int
    turned: tuple[int, ...]  # face-down stack cards the action turned face up


# Proposals of the resampling's chain per hidden action (rules page, "Resampling").
STEPS_PER_SLOT = 16
NEVER = 2**31 - 1


@dataclass
class _Life:
    """A stretch of one of the opponent's cards (arsenal, or kept conflict card) from entering
    its deck to its first sighting; ``seen`` is "not", "reserve", "stack" (for a kept card:
    played) or "gone" (a kept card seen leaving the deck). Times: action i at 2i, the automatic
    steps after it at 2i + 1."""

    start: int
    epoch: int
    card: int  # slot of the opponent's arsenal, or the conflict index
    seen: str = "not"
    seen_at: int = NEVER
    draw: int | None = None  # the hidden draw that took it
    deploy: int | None = None  # the hidden deploy that put it face down


@dataclass
class _Slot:
    """A hidden action: a draw (``group`` its epoch), a face-down deploy (``group`` the type
    index) or a kept card drawn (``group`` the conflict epoch)."""

    time: int
    index: int
    group: int
    life: int | None = None


@dataclass
class _View:
    lives: list[_Life] = field(default_factory=list)
    kept: list[_Life] = field(default_factory=list)
    draws: list[_Slot] = field(default_factory=list)
    deploys: list[_Slot] = field(default_factory=list)
    takes: list[_Slot] = field(default_factory=list)
    epochs: int = 1
    conflict_epochs: int = 1
    types: list[int] = field(default_factory=list)

    def draw_deadline(self, life: _Life) -> int:
        if life.deploy is not None:
            return self.deploys[life.deploy].time
        return life.seen_at if life.seen == "reserve" else NEVER

    def needs_draw(self, life: _Life) -> bool:
        return life.seen != "not" or life.deploy is not None or life.epoch < self.epochs - 1

    def deploy_fits(self, life: _Life, y: _Slot) -> bool:
        return (
            life.draw is not None
            and self.draws[life.draw].time < y.time
            and (life.seen != "stack" or y.time < life.seen_at)
        )

    def draws_suffice(self, epoch: int) -> bool:
        """Hall's condition for the epoch's draws: the k-th earliest deadline has k draws of the
        epoch before it (a card seen in a stack and not yet deployed: the time it was seen)."""
        deadlines = sorted(
            life.seen_at
            if life.seen == "stack" and life.deploy is None
            else self.draw_deadline(life)
            for life in self.lives
            if life.epoch == epoch and self.needs_draw(life)
        )
        times = [d.time for d in self.draws if d.group == epoch]
        return all(
            sum(1 for t in times if t < deadline) > k for k, deadline in enumerate(deadlines)
        )


def _canonical(view: _View) -> None:
    """Step 1 of the rules page's "Resampling": a consistent assignment from the view alone."""
    lives = view.lives
    candidates: list[list[int]] = []
    for y in view.deploys:
        fitting = [
            n
            for n, life in enumerate(lives)
            if view.types[n] == y.group
            and life.start < y.time
            and life.seen != "reserve"
            and not (life.seen == "stack" and life.seen_at <= y.time)
        ]
        candidates.append(sorted(fitting, key=lambda n: (lives[n].seen_at, lives[n].epoch)))
    next_time = [NEVER] * len(view.deploys)
    later = [NEVER] * len(TYPES)
    for j in range(len(view.deploys) - 1, -1, -1):
        next_time[j] = later[view.deploys[j].group]
        later[view.deploys[j].group] = view.deploys[j].time

    def stack_lives_covered(j: int) -> bool:
        return not any(
            life.seen == "stack"
            and life.deploy is None
            and view.types[n] == view.deploys[j].group
            and life.seen_at <= next_time[j]
            for n, life in enumerate(lives)
        )

    tried = [0] * len(view.deploys)
    j = 0
    while 0 <= j < len(view.deploys):
        y = view.deploys[j]
        if y.life is not None:  # back after a dead end: free the life, try the next candidate
            lives[y.life].deploy = None
            y.life = None
        placed = False
        while tried[j] < len(candidates[j]) and not placed:
            n = candidates[j][tried[j]]
            tried[j] += 1
            life = lives[n]
            if life.deploy is not None:
                continue
            life.deploy, y.life = j, n
            placed = view.draws_suffice(life.epoch) and stack_lives_covered(j)
            if not placed:
                life.deploy, y.life = None, None
        if placed:
            j += 1
            if j < len(view.deploys):
                tried[j] = 0
        else:
            j -= 1
    last = view.epochs - 1
    needed = sum(1 for life in lives if life.epoch == last and view.needs_draw(life))
    current_draws = sum(1 for d in view.draws if d.group == last)
    in_reserve = [False] * len(lives)
    for n, life in enumerate(lives):
        if needed >= current_draws:
            break
        if life.epoch == last and not view.needs_draw(life):
            in_reserve[n] = True
            needed += 1
    for s, d in enumerate(view.draws):
        best: int | None = None
        for n, life in enumerate(lives):
            if life.epoch != d.group or life.draw is not None:
                continue
            if not (view.needs_draw(life) or in_reserve[n]):
                continue
            if best is None or view.draw_deadline(life) < view.draw_deadline(lives[best]):
                best = n
        if best is not None:
            d.life = best
            lives[best].draw = s
    for s, k in enumerate(view.takes):
        best = None
        for n, life in enumerate(view.kept):
            if life.epoch != k.group or life.draw is not None or life.seen == "gone":
                continue
            if life.seen_at <= k.time:
                continue
            if best is None or life.seen_at < view.kept[best].seen_at:
                best = n
        if best is not None:
            k.life = best
            view.kept[best].draw = s


class State(_base.State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.cs = game.card_set
        cs = self.cs
        self.arsenal_deck: list[set[int]] = [
            {MAX_ARSENAL * seat + i for i in range(len(cs.arsenals[seat]))} for seat in (0, 1)
        ]
        self.arsenal_discard: list[set[int]] = [set(), set()]
        self.reserve: list[set[int]] = [set(), set()]
        self.stacks: list[dict[str, set[int]]] = [{t: set() for t in TYPES} for _ in (0, 1)]
        self.face_up: set[int] = set()
        self.kept: list[set[int]] = [set(), set()]
        self.won: list[set[int]] = [set(), set()]
        self.conflict_deck: set[int] = set(range(len(cs.conflict)))
        self.conflict_discard: set[int] = set()
        self.cancelled: set[int] = set()
        self.card: int | None = None
        self.effect_index: int | None = None
        self.subject: int | None = GERMANY
        self.left: int = SETUP_DRAW
        self.battle: Battle | None = None
        self.vp: list[int] = [0, 0]
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.turn: int = 0
        self.drawing: int | None = None
        self.phase: str = "deal"
        self._log: list[_LogEntry] = []

    # -- card helpers -----------------------------------------------------------------------------

    def unit(self, a: int) -> ArsenalCard:
        return self.cs.arsenal(a)

    def conflict(self, k: int) -> ConflictCard:
        return self.cs.conflict[k]

    def stack_cards(self, seat: int) -> set[int]:
        return set().union(*self.stacks[seat].values())

    # -- basic queries --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "terminal":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase in ("setup_deploy", "effect_deploy"):
            assert self.subject is not None
            return self.subject
        if self.phase == "turn_deploy":
            assert self.drawing is not None
            return self.drawing
        battle = self.battle
        assert battle is not None
        seat = {
            "choice": battle.aggressor,
            "window": battle.window,
            "reinforce": battle.window,
            "fire": battle.firing_side,
            "withdraw": battle.withdrawing,
        }[self.phase]
        assert seat is not None
        return seat

    # -- combat numbers (Firing) ----------------------------------------------------------------

    def _support(self, a: int) -> tuple[int, int]:
        """(attack, defence) that the other units of ``a``'s side taking part give ``a``."""
        battle = self.battle
        assert battle is not None
        seat = a // MAX_ARSENAL
        kind = self.unit(a).type
        attack = defence = 0
        for other in battle.taking_part[seat]:
            support = self.unit(other).support
            if other != a and support is not None and kind in support.types:
                attack += support.attack
                defence += support.defence
        bonus = battle.bonus[seat][kind]
        return attack + bonus[0], defence + bonus[1]

    def attack_score(self, a: int, kind: str) -> int:
        base = self.unit(a).attack[kind]
        return base + self._support(a)[0] if base > 0 else 0

    def defence_score(self, a: int) -> int:
        return self.unit(a).defence + self._support(a)[1]

    def eligible_targets(self, a: int) -> list[int]:
        battle = self.battle
        assert battle is not None
        enemy = 1 - a // MAX_ARSENAL
        return sorted(
            t
            for t in battle.taking_part[enemy]
            if self.attack_score(a, self.unit(t).type) > self.defence_score(t)
        )

    def _has_decisive(self, seat: int) -> bool:
        battle = self.battle
        assert battle is not None and self.card is not None
        decisive = self.conflict(self.card).decisive
        return any(self.unit(a).type in decisive for a in battle.taking_part[seat])

    # -- legal actions --------------------------------------------------------------------------

    def _chance_cards(self) -> list[int]:
        """The outcomes at a chance node, as card indices (arsenal ``a`` or conflict ``k``)."""
        if self.phase in ("conflict_draw", "flip"):
            return sorted(self.conflict_deck)
        assert self.subject is not None
        if self.phase in ("deal", "effect_draw"):
            return sorted(self.arsenal_deck[self.subject])
        if self.phase == "effect_discard":
            return sorted(self.reserve[self.subject])
        assert self.card is not None and self.effect_index is not None
        stack = self.conflict(self.card).effects[self.effect_index].stack
        assert stack is not None
        return sorted(self.stacks[self.subject][stack])

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == "terminal":
            return []
        if self.is_chance_node():
            if phase in CONFLICT_CHANCE_PHASES:
                return self._chance_cards()
            assert self.subject is not None
            return [a - MAX_ARSENAL * self.subject for a in self._chance_cards()]
        seat = self.current_player()
        battle = self.battle
        if phase == "setup_deploy":
            return [DEPLOY + a for a in sorted(self.reserve[seat])]
        if phase in ("turn_deploy", "effect_deploy"):
            return [PASS] + [DEPLOY + a for a in sorted(self.reserve[seat])]
        if phase == "choice":
            return [FIGHT, DECLINE]
        assert battle is not None and self.card is not None
        if phase == "window":
            plays = []
            for k in sorted(self.kept[seat]):
                effect = self.conflict(k).effects[0]
                if effect.type == "combat_bonus" or self.reserve[seat]:
                    plays.append(PLAY + k)
            return [PASS, *plays]
        if phase == "reinforce":
            types = self.conflict(self.card).types
            return [PASS] + [
                DEPLOY + a for a in sorted(self.reserve[seat]) if self.unit(a).type in types
            ]
        if phase == "fire":
            assert battle.unit is not None
            return [FIRE + t for t in self.eligible_targets(battle.unit)]
        assert phase == "withdraw"
        return [PASS] + [WITHDRAW + a for a in sorted(battle.taking_part[seat])]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        actions = self.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]

    # -- applying actions -----------------------------------------------------------------------

    def _move(self, action: Any) -> None:
        # The information state needs each action with the node it was played at.
        node = (self.current_player(), self.phase, self.subject, self.drawing)
        face_up, stacks = set(self.face_up), self.stack_cards(0) | self.stack_cards(1)
        super()._move(action)
        # Turned face up: the cards not face up before that are face up now (flipped, revealed,
        # also one this action deployed face down) or left a stack (a battle turned them face up
        # and destroyed them within this action, when nothing was left to decide); not a card the
        # action names itself (a reinforcement, a destroy_stack outcome). Both seats' cards: the
        # information state shows each seat the other's.
        shown = self.face_up | (stacks - self.stack_cards(0) - self.stack_cards(1))
        turned = shown - face_up - self._named(node, self._history[-1])
        self._log.append(_LogEntry(*node, self._history[-1], tuple(sorted(turned))))

    def _named(self, node: tuple[int, str, int | None, int | None], action: int) -> set[int]:
        """The arsenal card an action played at `node` names by its text: a chance outcome of a
        seat's arsenal, or a card deployed face up as a reinforcement."""
        player, phase, subject, _ = node
        if player == CHANCE:
            if phase in CONFLICT_CHANCE_PHASES:
                return set()
            assert subject is not None
            return {MAX_ARSENAL * subject + action}
        return {action - DEPLOY} if phase == "reinforce" and DEPLOY <= action < FIRE else set()

    def _apply_chance(self, action: int) -> None:
        phase = self.phase
        if phase in CONFLICT_CHANCE_PHASES:
            k = action
            self.conflict_deck.remove(k)
            if phase == "conflict_draw":
                self._conflict_drawn(k)
            else:
                self._flipped(k)
            return
        s = self.subject
        assert s is not None
        x = MAX_ARSENAL * s + action
        if phase == "deal":
            self.arsenal_deck[s].remove(x)
            self.reserve[s].add(x)
            self.left -= 1
            if self.left > 0:
                return
            if s == GERMANY:
                self.subject, self.left = BRITAIN, SETUP_DRAW
            else:
                self.subject, self.left, self.phase = GERMANY, SETUP_DEPLOY, "setup_deploy"
            return
        if phase == "effect_draw":
            self.arsenal_deck[s].remove(x)
            self.reserve[s].add(x)
        elif phase == "effect_discard":
            self.reserve[s].remove(x)
            self.arsenal_discard[s].add(x)
        else:
            self._destroy(x)
        self.left -= 1
        self._run_effects()

    def _apply_decision(self, action: int) -> None:
        phase = self.phase
        seat = self.current_player()
        if phase == "setup_deploy":
            self._deploy(action - DEPLOY, face_up=False)
            self.left -= 1
            if self.left > 0:
                return
            if seat == GERMANY:
                self.subject, self.left = BRITAIN, SETUP_DEPLOY
            else:
                self.subject, self.left = None, 0
                self.drawing, self.turn = GERMANY, 0
                self._start_turn()
            return
        if phase == "turn_deploy":
            if action != PASS:
                self._deploy(action - DEPLOY, face_up=False)
            self._begin_conflict_draw()
            return
        if phase == "effect_deploy":
            if action == PASS:
                self.left = 0
            else:
                self._deploy(action - DEPLOY, face_up=False)
                self.left -= 1
            self._run_effects()
            return
        if phase == "choice":
            if action == DECLINE:
                self._discard_card()
                self._end_turn()
            else:
                self._fight()
            return
        battle = self.battle
        assert battle is not None
        if phase == "window":
            if action == PASS:
                if seat == battle.aggressor:
                    self._open_window(1 - battle.aggressor)
                else:
                    battle.window = None
                    self._begin_round()
                return
            self._play(seat, action - PLAY)
            return
        if phase == "reinforce":
            if action == PASS:
                self.left = 0
                self._open_window(seat)
                return
            a = action - DEPLOY
            self._deploy(a, face_up=True)
            battle.taking_part[seat].add(a)
            self.left -= 1
            if not (self.left > 0 and self.reserve[seat]):
                self.left = 0
                self._open_window(seat)
            return
        if phase == "fire":
            battle.target = action - FIRE
            self._refill_conflict()
            self.phase = "flip"
            return
        assert phase == "withdraw"
        if action == PASS:
            self._end_withdrawal(seat)
            return
        a = action - WITHDRAW
        battle.taking_part[seat].remove(a)
        battle.withdrawn[seat].add(a)
        if not battle.taking_part[seat]:
            self._end_withdrawal(seat)

    # -- Flow: cards moving ---------------------------------------------------------------------

    def _deploy(self, a: int, face_up: bool) -> None:
        seat = a // MAX_ARSENAL
        self.reserve[seat].remove(a)
        self.stacks[seat][self.unit(a).type].add(a)
        if face_up:
            self.face_up.add(a)

    def _destroy(self, a: int) -> None:
        """A unit leaves its stack (and the battle) for its owner's arsenal discard pile."""
        seat = a // MAX_ARSENAL
        self.stacks[seat][self.unit(a).type].remove(a)
        self.face_up.discard(a)
        if self.battle is not None:
            self.battle.taking_part[seat].discard(a)
            self.battle.withdrawn[seat].discard(a)
        self.arsenal_discard[seat].add(a)

    def _refill_arsenal(self, seat: int) -> None:
        if not self.arsenal_deck[seat]:
            self.arsenal_deck[seat] = self.arsenal_discard[seat]
            self.arsenal_discard[seat] = set()

    def _refill_conflict(self) -> None:
        if not self.conflict_deck:
            self.conflict_deck = self.conflict_discard
            self.conflict_discard = set()

    def _discard_card(self) -> None:
        assert self.card is not None
        self.conflict_discard.add(self.card)
        self.card = None
        self.battle = None

    # -- Flow: turns ----------------------------------------------------------------------------

    def _start_turn(self) -> None:
        assert self.drawing is not None
        if self.reserve[self.drawing]:
            self.phase = "turn_deploy"
        else:
            self._begin_conflict_draw()

    def _begin_conflict_draw(self) -> None:
        self._refill_conflict()
        self.phase = "conflict_draw"

    def _conflict_drawn(self, k: int) -> None:
        assert self.drawing is not None
        card = self.conflict(k)
        if card.kind == "kept":
            self.kept[self.drawing].add(k)
            self._end_turn()
            return
        self.card = k
        if card.kind == "battle":
            self._start_battle()
            return
        self.effect_index = 0
        self._enter_effect()
        self._run_effects()

    def _end_turn(self) -> None:
        assert self.drawing is not None
        self.turn += 1
        if self.turn == self.game.params["max_turns"]:
            self._end("max_turns", None)
            return
        self.drawing = 1 - self.drawing
        self._start_turn()

    def _end(self, reason: str, winner: int | None) -> None:
        self.phase = "terminal"
        self.end_reason = reason
        self.winner = winner
        self.card = None
        self.battle = None
        self.effect_index = None
        self.subject = None
        self.left = 0

    # -- Flow: effects --------------------------------------------------------------------------

    def _effect_seat(self, who: str | None) -> int:
        assert self.drawing is not None
        return {
            "drawer": self.drawing,
            "opponent": 1 - self.drawing,
            "german": GERMANY,
            "british": BRITAIN,
        }[str(who)]

    def _current_effect(self) -> Effect:
        assert self.card is not None and self.effect_index is not None
        return self.conflict(self.card).effects[self.effect_index]

    def _enter_effect(self) -> None:
        e = self._current_effect()
        s = self._effect_seat(e.who)
        self.subject = s
        if e.type in ("draw", "deploy", "discard_reserve"):
            self.left = e.count
        elif e.type == "destroy_stack":
            self.left = 1
        elif e.type == "reveal":
            for t in e.types:
                self.face_up |= self.stacks[s][t]
            self.left = 0
        else:  # victory_points
            self.vp[s] += e.count
            self.left = 0

    def _run_effects(self) -> None:
        while True:
            e = self._current_effect()
            s = self.subject
            assert s is not None and self.card is not None and self.effect_index is not None
            if self.left > 0:
                if e.type == "draw":
                    self._refill_arsenal(s)
                    if self.arsenal_deck[s]:
                        self.phase = "effect_draw"
                        return
                elif e.type in ("deploy", "discard_reserve"):
                    if self.reserve[s]:
                        self.phase = "effect_deploy" if e.type == "deploy" else "effect_discard"
                        return
                elif e.type == "destroy_stack":
                    assert e.stack is not None
                    if self.stacks[s][e.stack]:
                        self.phase = "effect_destroy"
                        return
            self.effect_index += 1
            self.left = 0
            if self.effect_index == len(self.conflict(self.card).effects):
                self._discard_card()
                self.effect_index = None
                self.subject = None
                self._end_turn()
                return
            self._enter_effect()

    # -- Flow: battles --------------------------------------------------------------------------

    def _prerequisite_met(self, card: ConflictCard, pre: Prerequisite) -> bool:
        k = self.cs.conflict_index[pre.battle]
        if pre.won_by == "aggressor":
            return k in self.won[card.aggressor]
        if pre.won_by == "defender":
            return k in self.won[1 - card.aggressor]
        return k in self.won[0] or k in self.won[1]

    def _prerequisite_dead(self, card: ConflictCard, pre: Prerequisite) -> bool:
        k = self.cs.conflict_index[pre.battle]
        if k in self.cancelled:
            return True
        if pre.won_by == "aggressor":
            return k in self.won[1 - card.aggressor]
        if pre.won_by == "defender":
            return k in self.won[card.aggressor]
        return False

    def _start_battle(self) -> None:
        assert self.card is not None
        card = self.conflict(self.card)
        if not all(self._prerequisite_met(card, pre) for pre in card.prerequisites):
            self._discard_card()
            self._end_turn()
            return
        self.battle = Battle(aggressor=card.aggressor)
        self.phase = "choice"

    def _has_field(self, seat: int) -> bool:
        assert self.card is not None
        return any(self.stacks[seat][t] for t in self.conflict(self.card).decisive)

    def _fight(self) -> None:
        battle = self.battle
        assert battle is not None and self.card is not None
        card = self.conflict(self.card)
        fields = [self._has_field(0), self._has_field(1)]
        if not fields[0] and not fields[1]:
            self._discard_card()  # shelved
            self._end_turn()
            return
        if fields[0] != fields[1]:
            self._battle_won(0 if fields[0] else 1)
            return
        for seat in (0, 1):
            for t in card.types:
                self.face_up |= self.stacks[seat][t]
                battle.taking_part[seat] |= self.stacks[seat][t]
        self._open_window(battle.aggressor)

    def _open_window(self, seat: int) -> None:
        battle = self.battle
        assert battle is not None
        battle.window = seat
        if self.kept[seat]:
            self.phase = "window"
        elif seat == battle.aggressor:
            self._open_window(1 - seat)
        else:
            battle.window = None
            self._begin_round()

    def _play(self, seat: int, k: int) -> None:
        battle = self.battle
        assert battle is not None
        self.kept[seat].remove(k)
        self.conflict_discard.add(k)
        effect = self.conflict(k).effects[0]
        if effect.type == "combat_bonus":
            for t in effect.types:
                battle.bonus[seat][t][0] += effect.attack
                battle.bonus[seat][t][1] += effect.defence
            self._open_window(seat)
        else:
            self.left = effect.count
            self.phase = "reinforce"

    def _begin_round(self) -> None:
        battle = self.battle
        assert battle is not None
        battle.round += 1
        units = battle.taking_part[0] | battle.taking_part[1]
        if not any(self.eligible_targets(a) for a in units):
            self._battle_won(1 - battle.aggressor)  # stalemate
            return
        battle.firing_phase, battle.firing_side, battle.unit = 1, battle.aggressor, None
        self._next_shooter()

    def _next_shooter(self) -> None:
        battle = self.battle
        assert battle is not None
        while True:
            side = battle.firing_side
            assert side is not None
            after = -1 if battle.unit is None else battle.unit
            candidates = sorted(
                a
                for a in battle.taking_part[side]
                if self.unit(a).phase == battle.firing_phase and a > after
            )
            if candidates:
                battle.unit = candidates[0]
                if self.eligible_targets(battle.unit):
                    self.phase = "fire"
                    return
            elif side == battle.aggressor:
                battle.firing_side, battle.unit = 1 - side, None
            elif battle.firing_phase < NUM_PHASES:
                battle.firing_phase += 1
                battle.firing_side, battle.unit = battle.aggressor, None
            else:
                battle.firing_phase, battle.firing_side, battle.unit = 0, None, None
                self._open_withdrawal(battle.aggressor)
                return

    def _flipped(self, k: int) -> None:
        battle = self.battle
        assert battle is not None and battle.unit is not None and battle.target is not None
        self.conflict_discard.add(k)
        target = battle.target
        number = self.conflict(k).action
        if (
            self.defence_score(target)
            < number
            <= self.attack_score(battle.unit, self.unit(target).type)
        ):
            self._destroy(target)
        battle.target = None
        side = battle.firing_side
        assert side is not None
        if not self._has_decisive(1 - side):
            self._battle_won(side)
        else:
            self._next_shooter()

    def _open_withdrawal(self, seat: int) -> None:
        battle = self.battle
        assert battle is not None
        battle.withdrawing = seat
        if battle.taking_part[seat]:
            self.phase = "withdraw"
        else:
            self._end_withdrawal(seat)

    def _end_withdrawal(self, seat: int) -> None:
        battle = self.battle
        assert battle is not None
        battle.withdrawing = None
        if not self._has_decisive(seat):
            self._battle_won(1 - seat)
        elif seat == battle.aggressor:
            self._open_withdrawal(1 - seat)
        elif battle.round == MAX_ROUNDS:
            self._battle_won(1 - battle.aggressor)  # the offensive stalls
        else:
            self._begin_round()

    def _battle_won(self, winner: int) -> None:
        battle = self.battle
        assert battle is not None and self.card is not None
        card = self.conflict(self.card)
        loser = 1 - winner
        for a in sorted(battle.taking_part[loser] | battle.withdrawn[loser]):
            if self.unit(a).type in card.loser_destroyed:
                self._destroy(a)
        self.battle = None
        self.won[winner].add(self.card)
        self.vp[winner] += card.vp
        self.card = None
        if card.homeland and winner == card.aggressor:
            self._end("homeland", winner)
            return
        self._cancel_dead_battles()
        if all(
            k in self.won[0] or k in self.won[1] or k in self.cancelled for k in self.cs.battles
        ):
            if self.vp[0] == self.vp[1]:
                self._end("battles", None)
            else:
                self._end("battles", 0 if self.vp[0] > self.vp[1] else 1)
            return
        self._end_turn()

    def _cancel_dead_battles(self) -> None:
        changed = True
        while changed:
            changed = False
            for k in self.cs.battles:
                if k in self.won[0] or k in self.won[1] or k in self.cancelled:
                    continue
                card = self.conflict(k)
                if any(self._prerequisite_dead(card, pre) for pre in card.prerequisites):
                    self.cancelled.add(k)
                    self.conflict_deck.discard(k)
                    self.conflict_discard.discard(k)
                    changed = True

    # -- strings --------------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        return self._text_at(self.phase, self.subject, action)

    def _text_at(self, phase: str, subject: int | None, a: int) -> str:
        """The string of action ``a`` played in ``phase`` (with its ``subject``)."""
        if phase in CHANCE_PHASES:
            if phase in CONFLICT_CHANCE_PHASES:
                ids = [card.id for card in self.cs.conflict]
                what = "conflict cards"
            else:
                assert subject is not None
                ids = [card.id for card in self.cs.arsenals[subject]]
                what = f"{SIDES[subject]}'s arsenal"
            if not 0 <= a < len(ids):
                raise ValueError(f"chance outcome {a} is out of range 0..{len(ids) - 1} ({what})")
            return ids[a]
        if a == PASS:
            return "pass"
        if a == FIGHT:
            return "fight"
        if a == DECLINE:
            return "decline"
        kind = _action_card_kind(phase, subject, a)
        if kind is None:
            raise ValueError(f"action {a} is out of range 0..{NUM_DISTINCT_ACTIONS - 1}")
        verb, index = kind
        if verb == "play":
            if index >= len(self.cs.conflict):
                raise ValueError(f"action {a} names conflict card {index}, which the set lacks")
            text = self.cs.conflict[index].id
        else:
            seat, slot = divmod(index, MAX_ARSENAL)
            if slot >= len(self.cs.arsenals[seat]):
                raise ValueError(f"action {a} names arsenal card {index}, which the set lacks")
            text = self.cs.arsenals[seat][slot].id
        return f"{verb} {text}"

    def _text_action(self, text: str) -> int:
        if self.is_chance_node():
            if self.phase in CONFLICT_CHANCE_PHASES:
                if text in self.cs.conflict_index:
                    return self.cs.conflict_index[text]
                raise ValueError(
                    f"unknown Battlecards chance outcome {text!r}; accepted here: the id of a "
                    "conflict card such as 'C33'"
                )
            subject = self.subject
            assert subject is not None
            index = self.cs.arsenal_index.get(text)
            if index is not None and index // MAX_ARSENAL == subject:
                return index % MAX_ARSENAL
            raise ValueError(
                f"unknown Battlecards chance outcome {text!r}; accepted here: the id of a card of "
                f"{SIDES[subject]}'s arsenal such as {self.cs.arsenals[subject][0].id!r}"
            )
        fixed = {"pass": PASS, "fight": FIGHT, "decline": DECLINE}
        if text in fixed:
            return fixed[text]
        words = text.split(" ")
        if len(words) == 2:
            verb, cid = words
            if verb == "play" and cid in self.cs.conflict_index:
                return PLAY + self.cs.conflict_index[cid]
            bases = {"deploy": DEPLOY, "fire": FIRE, "withdraw": WITHDRAW}
            if verb in bases and cid in self.cs.arsenal_index:
                return bases[verb] + self.cs.arsenal_index[cid]
        raise ValueError(
            f"unknown Battlecards action {text!r}; accepted: 'pass', 'fight', 'decline', "
            "'deploy G07', 'fire B12', 'withdraw G03', 'play C21'"
        )

    # -- results --------------------------------------------------------------------------------

    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def returns(self) -> list[float]:
        if self.phase != "terminal" or self.winner is None:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else -1.0 for seat in (0, 1)]

    def _strength(self, cards: set[int]) -> int:
        """Best attack plus defence, summed over the units."""
        return sum(max(self.unit(a).attack.values()) + self.unit(a).defence for a in cards)

    def _evaluate(self, player: int) -> float:
        """docs/rules/battlecards.md, "Evaluation (for search bots)"."""
        projected = [
            self.vp[seat]
            + STACK_WORTH * self._strength(self.stack_cards(seat))
            + RESERVE_WORTH * self._strength(self.reserve[seat])
            + KEPT_WORTH * len(self.kept[seat])
            for seat in (0, 1)
        ]
        return expected_return(projected, player, EVALUATION_SPREAD)

    # -- snapshots ------------------------------------------------------------------------------

    def _ids(self, cards: set[int] | list[int]) -> list[str]:
        return [self.unit(a).id for a in sorted(cards)]

    def _conflict_ids(self, cards: set[int]) -> list[str]:
        return [self.conflict(k).id for k in sorted(cards)]

    def to_dict(self) -> dict[str, Any]:
        battle = None
        b = self.battle
        if b is not None:
            battle = {
                "aggressor": b.aggressor,
                "round": b.round,
                "firing_phase": b.firing_phase,
                "firing_side": b.firing_side,
                "unit": None if b.unit is None else self.unit(b.unit).id,
                "target": None if b.target is None else self.unit(b.target).id,
                "window": b.window,
                "withdrawing": b.withdrawing,
                "taking_part": [self._ids(b.taking_part[s]) for s in (0, 1)],
                "withdrawn": [self._ids(b.withdrawn[s]) for s in (0, 1)],
                "bonus": [
                    {
                        "attack": {t: b.bonus[s][t][0] for t in TYPES},
                        "defence": {t: b.bonus[s][t][1] for t in TYPES},
                    }
                    for s in (0, 1)
                ],
            }
        return {
            "phase": self.phase,
            "current_player": self.current_player(),
            "turn": self.turn,
            "drawing_player": self.drawing,
            "sides": list(SIDES),
            "reserve": [self._ids(self.reserve[s]) for s in (0, 1)],
            "stacks": [
                {
                    t: [
                        {"id": self.unit(a).id, "face_up": a in self.face_up}
                        for a in sorted(self.stacks[s][t])
                    ]
                    for t in TYPES
                }
                for s in (0, 1)
            ],
            "kept": [self._conflict_ids(self.kept[s]) for s in (0, 1)],
            "won": [self._conflict_ids(self.won[s]) for s in (0, 1)],
            "arsenal_deck": [self._ids(self.arsenal_deck[s]) for s in (0, 1)],
            "arsenal_discard": [self._ids(self.arsenal_discard[s]) for s in (0, 1)],
            "conflict_deck": self._conflict_ids(self.conflict_deck),
            "conflict_discard": self._conflict_ids(self.conflict_discard),
            "cancelled": self._conflict_ids(self.cancelled),
            "card": None if self.card is None else self.conflict(self.card).id,
            "effect_index": self.effect_index,
            "subject": self.subject,
            "left": self.left,
            "battle": battle,
            "vp": list(self.vp),
            "end_reason": self.end_reason,
            "winner": self.winner,
            "scores": list(self.vp),
        }

    def _compact(self, planes: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The compact observation: the planes' entries rearranged (docs/rules/battlecards.md,
        "Compact observation")."""
        cards = self.game.compact_observation_shape["board"][1]
        return {
            "board": planes[: 9 * cards].reshape(cards, 9).T.astype(np.uint8),
            "features": planes[9 * cards :].copy(),
        }

    def _planes(self, player: int) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)
        b = self.battle
        offset = 0
        for r in (0, 1):
            seat = (p + r) % 2
            for slot in range(len(self.cs.arsenals[seat])):
                a = MAX_ARSENAL * seat + slot
                in_stack = a in self.stack_cards(seat)
                flags = [
                    r == 0 and a in self.arsenal_deck[seat],
                    r == 0 and a in self.reserve[seat],
                    r == 0 and in_stack and a not in self.face_up,
                    in_stack and a in self.face_up,
                    b is not None and a in b.taking_part[seat],
                    b is not None and a in b.withdrawn[seat],
                    a in self.arsenal_discard[seat],
                    b is not None and b.unit == a,
                    b is not None and b.target == a,
                ]
                obs[offset : offset + 9] = flags
                offset += 9
        for k in range(len(self.cs.conflict)):
            obs[offset : offset + 6] = [
                k in self.kept[p],
                k in self.conflict_discard,
                k in self.won[p],
                k in self.won[1 - p],
                k in self.cancelled,
                self.card == k,
            ]
            offset += 6
        o = offset
        for r in (0, 1):
            seat = (p + r) % 2
            face_down = [len(self.stacks[seat][t] - self.face_up) for t in TYPES]
            obs[o + 9 * r : o + 9 * r + 9] = [
                len(self.arsenal_deck[seat]),
                len(self.arsenal_discard[seat]),
                len(self.reserve[seat]),
                *face_down,
                len(self.kept[seat]),
                self.vp[seat],
                len(self.won[seat]),
            ]
        obs[o + 18] = len(self.conflict_deck)
        obs[o + 19] = p == GERMANY
        obs[o + 20] = self.turn
        obs[o + 21 + PHASES.index(self.phase)] = 1.0
        mover = self.current_player()
        if mover >= 0:
            obs[o + 36 + (mover - p) % 2] = 1.0
        if b is not None:
            obs[o + 38] = 1.0
            obs[o + 39 + (b.aggressor - p) % 2] = 1.0
            obs[o + 41] = b.round
            obs[o + 42] = b.firing_phase
            for base, seat_or_none in ((43, b.firing_side), (45, b.window), (47, b.withdrawing)):
                if seat_or_none is not None:
                    obs[o + base + (seat_or_none - p) % 2] = 1.0
            for r in (0, 1):
                seat = (p + r) % 2
                for t, kind in enumerate(TYPES):
                    obs[o + 49 + 6 * r + 2 * t] = b.bonus[seat][kind][0]
                    obs[o + 50 + 6 * r + 2 * t] = b.bonus[seat][kind][1]
        if self.subject is not None:
            obs[o + 61 + (self.subject - p) % 2] = 1.0
        obs[o + 63] = self.left
        obs[o + 64] = 0 if self.effect_index is None else self.effect_index + 1
        obs[o + 65] = self.drawing == p
        return obs

    def observation_string(self, player: int) -> str:
        p = self._check_seat(player)
        return f"view of seat {p} ({SIDES[p]})\n" + self._picture(p)

    # -- hidden information ---------------------------------------------------------------------

    def _line(self, entry: _LogEntry, p: int) -> str:
        """``{who} {text}`` of one history entry as seat ``p`` sees it, with the opponent's
        face-down cards it turned face up."""
        o = 1 - p
        turned = [self.unit(a).id for a in entry.turned if a // MAX_ARSENAL == o]
        text = self._seen_text(entry, p)
        return f"{text}; turned face up: {' '.join(turned)}" if turned else text

    def _seen_text(self, entry: _LogEntry, p: int) -> str:
        who = "chance" if entry.player == CHANCE else SIDES[entry.player]
        a = entry.action
        if entry.player == CHANCE:
            if entry.phase in ("deal", "effect_draw") and entry.subject != p:
                return f"{who} ?"
            kept_draw = entry.phase == "conflict_draw" and self.conflict(a).kind == "kept"
            if kept_draw and entry.drawing != p:
                return f"{who} ?"
        elif (
            entry.player != p
            and entry.phase in ("setup_deploy", "turn_deploy", "effect_deploy")
            and a != PASS
        ):
            return f"{who} deploy ? ({self.unit(a - DEPLOY).type})"
        return f"{who} {self._text_at(entry.phase, entry.subject, a)}"

    def information_state_string(self, player: int) -> str:
        p = self._check_seat(player)
        lines = [f"seat {p} {SIDES[p]}"]
        lines += [self._line(entry, p) for entry in self._log]
        return "\n".join(lines)

    def _hidden_from(self, action: int, p: int) -> bool:
        """Whether ``p`` does not see which card ``action``, applied now, names (rules page)."""
        phase = self.phase
        if self.is_chance_node():
            if phase in ("deal", "effect_draw"):
                return self.subject != p
            if phase == "conflict_draw" and self.drawing != p:
                return self.conflict(action).kind == "kept"
            return False
        return (
            self.current_player() != p
            and phase in ("setup_deploy", "turn_deploy", "effect_deploy")
            and action != PASS
        )

    def _view(self, p: int) -> _View:
        """What ``p`` knows of the opponent's cards (rules page, "Resampling")."""
        o = 1 - p
        cs = self.cs
        view = _View()
        current: dict[int, int] = {}  # arsenal slot -> its life
        current_kept: dict[int, int] = {}  # conflict index -> its life
        for c in range(len(cs.arsenals[o])):
            current[c] = len(view.lives)
            view.lives.append(_Life(-1, 0, c))
        for k in range(len(cs.conflict)):
            if self.conflict(k).kind == "kept":
                current_kept[k] = len(view.kept)
                view.kept.append(_Life(-1, 0, k))

        def sight(life: _Life, time: int, where: str) -> None:
            if life.seen == "not":
                life.seen, life.seen_at = where, time

        replay = State(self.game)
        for i, action in enumerate(self._history):
            phase = replay.phase
            deck = set(replay.arsenal_deck[o])
            conflict_deck = set(replay.conflict_deck)
            hidden = replay._hidden_from(action, p)
            # A conflict card drawn or turned over in sight may come straight back with a refill
            # of the deck during the same action: it counts among the refilled cards.
            if not hidden and phase in CONFLICT_CHANCE_PHASES:
                conflict_deck.discard(action)
            if hidden:
                if phase == "conflict_draw":
                    view.takes.append(_Slot(2 * i, i, view.conflict_epochs - 1))
                elif replay.is_chance_node():
                    view.draws.append(_Slot(2 * i, i, view.epochs - 1))
                else:
                    view.deploys.append(
                        _Slot(2 * i, i, TYPES.index(self.unit(action - DEPLOY).type))
                    )
            elif replay.is_chance_node():
                if phase in CONFLICT_CHANCE_PHASES:
                    if action in current_kept:  # drawn by p, or turned over
                        sight(view.kept[current_kept[action]], 2 * i, "gone")
                elif replay.subject == o:  # discarded from the reserve, or destroyed in a stack
                    where = "reserve" if phase == "effect_discard" else "stack"
                    sight(view.lives[current[action]], 2 * i, where)
            elif action >= PLAY:
                if replay.current_player() == o:
                    sight(view.kept[current_kept[action - PLAY]], 2 * i, "stack")
            elif action >= DEPLOY:
                a = (action - DEPLOY) % (2 * MAX_ARSENAL)
                where = "reserve" if action < FIRE else "stack"  # reinforce; fire, withdraw
                if a // MAX_ARSENAL == o:
                    sight(view.lives[current[a % MAX_ARSENAL]], 2 * i, where)
            replay.apply_action(action)
            # The cards it turned face up were seen in their stacks, also those it destroyed at
            # once (face up after no action). A card turns face up in no other way: a
            # reinforcement is named, and seen in the reserve.
            for a in replay._log[-1].turned:
                if a // MAX_ARSENAL == o:
                    sight(view.lives[current[a % MAX_ARSENAL]], 2 * i + 1, "stack")
            # A refill brings the discard pile, which everybody saw, back into the deck.
            refilled = sorted(replay.arsenal_deck[o] - deck)
            if refilled:
                view.epochs += 1
                for a in refilled:
                    current[a % MAX_ARSENAL] = len(view.lives)
                    view.lives.append(_Life(2 * i + 1, view.epochs - 1, a % MAX_ARSENAL))
            conflict_refilled = sorted(replay.conflict_deck - conflict_deck)
            if conflict_refilled:
                view.conflict_epochs += 1
                for k in conflict_refilled:
                    if k in current_kept:
                        current_kept[k] = len(view.kept)
                        view.kept.append(_Life(2 * i + 1, view.conflict_epochs - 1, k))
        view.types = [
            TYPES.index(self.unit(MAX_ARSENAL * o + life.card).type) for life in view.lives
        ]
        return view

    def resample_from_infostate(self, player: int, seed: int = 0) -> State:
        """A state ``player`` cannot tell apart from this one, drawn from what the player has seen
        alone (rules page, "Resampling"); the same as the engine's for the same seed."""
        p = self._check_seat(player)
        o = 1 - p
        view = self._view(p)
        _canonical(view)
        lives, kept = view.lives, view.kept
        draws, deploys, takes = view.draws, view.deploys, view.takes
        last, last_conflict = view.epochs - 1, view.conflict_epochs - 1
        unseen = [n for n, life in enumerate(lives) if life.seen == "not"]
        unseen_kept = [n for n, life in enumerate(kept) if life.seen == "not"]
        rng = Rng(int(seed))
        for _ in range(
            STEPS_PER_SLOT
            * (len(draws) + len(deploys) + len(takes) + len(unseen) + len(unseen_kept))
        ):
            move = rng.below(6)
            if move == 0 and draws:  # two draws of one epoch swap their cards
                a, b = draws[rng.below(len(draws))], draws[rng.below(len(draws))]
                if a.group != b.group or a.life is None or b.life is None:
                    continue
                x, z = lives[a.life], lives[b.life]
                if b.time >= view.draw_deadline(x) or a.time >= view.draw_deadline(z):
                    continue
                x.draw, z.draw = z.draw, x.draw
                a.life, b.life = b.life, a.life
            elif move == 1 and deploys:  # two deploys of one type swap their cards
                a, b = deploys[rng.below(len(deploys))], deploys[rng.below(len(deploys))]
                if a.group != b.group or a.life is None or b.life is None:
                    continue
                x, z = lives[a.life], lives[b.life]
                if not (view.deploy_fits(x, b) and view.deploy_fits(z, a)):
                    continue
                x.deploy, z.deploy = z.deploy, x.deploy
                a.life, b.life = b.life, a.life
            elif move == 2 and unseen:  # a card in the reserve and one in the deck trade
                nx, nz = unseen[rng.below(len(unseen))], unseen[rng.below(len(unseen))]
                if lives[nx].draw is not None:
                    nx, nz = nz, nx
                x, z = lives[nx], lives[nz]
                if (
                    x.draw is not None
                    or z.draw is None
                    or z.deploy is not None
                    or x.epoch != last
                    or z.epoch != last
                ):
                    continue
                draws[z.draw].life = nx
                x.draw, z.draw = z.draw, None
            elif move == 3 and unseen:  # a face-down card and one in the reserve trade
                nx, nz = unseen[rng.below(len(unseen))], unseen[rng.below(len(unseen))]
                if lives[nx].deploy is None:
                    nx, nz = nz, nx
                x, z = lives[nx], lives[nz]
                if (
                    x.deploy is None
                    or z.deploy is not None
                    or z.draw is None
                    or view.types[nx] != view.types[nz]
                    or draws[z.draw].time >= deploys[x.deploy].time
                ):
                    continue
                deploys[x.deploy].life = nz
                z.deploy, x.deploy = x.deploy, None
            elif move == 4 and takes:  # two kept draws of one epoch swap their cards
                a, b = takes[rng.below(len(takes))], takes[rng.below(len(takes))]
                if a.group != b.group or a.life is None or b.life is None:
                    continue
                x, z = kept[a.life], kept[b.life]
                if b.time >= x.seen_at or a.time >= z.seen_at:
                    continue
                x.draw, z.draw = z.draw, x.draw
                a.life, b.life = b.life, a.life
            elif move == 5 and unseen_kept:  # a kept card held and one in the deck trade
                nx = unseen_kept[rng.below(len(unseen_kept))]
                nz = unseen_kept[rng.below(len(unseen_kept))]
                if kept[nx].draw is not None:
                    nx, nz = nz, nx
                x, z = kept[nx], kept[nz]
                if (
                    x.draw is not None
                    or z.draw is None
                    or x.epoch != last_conflict
                    or z.epoch != last_conflict
                ):
                    continue
                takes[z.draw].life = nx
                x.draw, z.draw = z.draw, None
        history = list(self._history)
        for d in draws:
            if d.life is not None:
                history[d.index] = lives[d.life].card
        for y in deploys:
            if y.life is not None:
                history[y.index] = DEPLOY + MAX_ARSENAL * o + lives[y.life].card
        for k in takes:
            if k.life is not None:
                history[k.index] = kept[k.life].card
        state = State(self.game)
        for action in history:
            state.apply_action(action)
        return state

    # -- pictures -------------------------------------------------------------------------------

    def _picture(self, viewer: int | None) -> str:
        """The table as text; ``viewer`` sees only their own hidden cards (None: everything)."""

        def unit_text(a: int) -> str:
            u = self.unit(a)
            att = "/".join(str(u.attack[t]) for t in TYPES)
            return f"{u.id} {u.name} [{att} d{u.defence} p{u.phase}]"

        lines = [f"turn {self.turn}, phase {self.phase}"]
        for seat in (0, 1):
            sees = viewer is None or viewer == seat
            lines.append(f"{SIDES[seat]} (seat {seat}): {self.vp[seat]} VP")
            for t in TYPES:
                cards = sorted(self.stacks[seat][t])
                shown = [
                    unit_text(a) + ("" if a in self.face_up else " (face down)")
                    for a in cards
                    if sees or a in self.face_up
                ]
                hidden = sum(1 for a in cards if not sees and a not in self.face_up)
                if hidden:
                    shown.append(f"{hidden} face down")
                lines.append(f"  {t}: " + ("; ".join(shown) or "-"))
            if sees:
                lines.append("  reserve: " + (", ".join(self._ids(self.reserve[seat])) or "-"))
                lines.append("  kept: " + (", ".join(self._conflict_ids(self.kept[seat])) or "-"))
            else:
                lines.append(
                    f"  reserve: {len(self.reserve[seat])} cards; "
                    f"kept: {len(self.kept[seat])} cards"
                )
            lines.append("  won: " + (", ".join(self._conflict_ids(self.won[seat])) or "-"))
            lines.append(
                f"  arsenal deck {len(self.arsenal_deck[seat])}, discard "
                + (", ".join(self._ids(self.arsenal_discard[seat])) or "-")
            )
        lines.append(
            f"conflict deck {len(self.conflict_deck)}, discard {len(self.conflict_discard)}"
        )
        if self.card is not None:
            lines.append(f"card: {self.conflict(self.card).id} {self.conflict(self.card).name}")
        b = self.battle
        if b is not None:
            lines.append(
                f"battle: aggressor {SIDES[b.aggressor]}, round {b.round}, phase {b.firing_phase}"
            )
            for seat in (0, 1):
                lines.append(
                    f"  {SIDES[seat]} taking part: "
                    + (", ".join(self._ids(b.taking_part[seat])) or "-")
                )
        if self.phase == "terminal":
            result = "draw" if self.winner is None else f"{SIDES[self.winner]} wins"
            lines.append(f"game over ({self.end_reason}): {result}")
        else:
            lines.append(f"to move: {self.current_player()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self._picture(None)

    def __repr__(self) -> str:
        return f"<battlecards State phase={self.phase} turn={self.turn}>"
