"""Valid data documents drawn from the whole range that docs/formats.md allows: hypothesis
strategies for Battlecards card sets (with expansion packs), Rheinländer maps and the card files of
Verräter and Sekigahara, each with the other parameters of its game.

Every document drawn here must be accepted by both readers (the engine's and the reference's);
the tests that use them make both games, so a strategy that strays outside the format fails
there. Numbers are drawn over their whole documented ranges, with their edges and the values that
change play the most (an attack of 0, a count of 1, an empty list) drawn more often than a
uniform draw would, since those are where a rule that holds for the shipped data can break.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from hypothesis import strategies as st

TYPES = ("ground", "air", "sea")
WHO = ("drawer", "opponent", "german", "british")
SIDES = ("german", "british")
# Arsenal and conflict cards in a merged Battlecards set (docs/formats.md).
MIN_ARSENAL, MAX_ARSENAL, MAX_CONFLICT, MAX_EXPANSIONS = 6, 128, 128, 64

# Text shown to people: any character a data document may hold (no control, direction control
# or noncharacter U+FFFE/U+FFFF; no lone surrogate, which is not UTF-8).
TEXT_CHARACTERS = st.characters(
    exclude_categories=("Cc", "Cs"),
    exclude_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufffe\uffff",
)
ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
# The whole range of the turn limits (`max_turns`) and of Verräter's `rounds` (null: the default).
ANY_TURNS = st.integers(1, 100_000)
ANY_ROUNDS = st.none() | st.integers(1, 50)


@functools.cache
def texts(min_size: int = 0) -> st.SearchStrategy[str]:
    """A name or a text: at most 1,000 bytes in UTF-8, as every string of a document."""
    return st.text(TEXT_CHARACTERS, min_size=min_size, max_size=250)


# The numbers are drawn with sampled_from, one draw each, and every strategy is made once: a card
# set holds thousands of numbers, and making a strategy costs more than drawing from it.


@functools.cache
def edged(low: int, high: int) -> st.SearchStrategy[int]:
    """An int in [low, high], each edge drawn about as often as all the values between."""
    return st.sampled_from((low, high) * max(1, (high - low) // 2) + tuple(range(low, high + 1)))


@functools.cache
def small(low: int, high: int) -> st.SearchStrategy[int]:
    """An int in [low, high], half the time one of the three lowest: counts whose large values
    only lengthen a game."""
    near = tuple(range(low, min(high, low + 2) + 1))
    return st.sampled_from(
        near * max(1, (high - low + 1) // len(near)) + tuple(range(low, high + 1))
    )


@functools.cache
def type_list(min_size: int = 1, within: tuple[str, ...] = TYPES) -> st.SearchStrategy[list[str]]:
    """Distinct types in any order."""
    return st.lists(st.sampled_from(within), min_size=min_size, max_size=len(within), unique=True)


@functools.cache
def id_prefixes(letters: str, max_size: int) -> st.SearchStrategy[str]:
    return st.text(letters, max_size=max_size)


def unique_id(draw: st.DrawFn, number: int) -> str:
    """A Battlecards id (at most 16 characters, a digit among them), unique through the `number`
    after its last '-'."""
    return draw(id_prefixes(ID_LETTERS + "_", 16 - len(str(number)) - 1)) + f"-{number}"


# -- Battlecards ------------------------------------------------------------------------------

# A support's or a combat bonus's attack and defence, 0-10 and not both 0.
BONUS = st.tuples(edged(0, 10), edged(0, 10)).filter(lambda pair: pair != (0, 0))
PHASE = st.integers(1, 4)
IMMEDIATE = ("draw", "deploy", "discard_reserve", "reveal", "destroy_stack", "victory_points")
EFFECTS = {
    "build_up": st.lists(st.just("draw"), min_size=1, max_size=16),
    "immediate": st.lists(st.sampled_from(IMMEDIATE), min_size=1, max_size=16),
}
WON_BY = st.sampled_from(("aggressor", "defender", "either"))


def arsenal_card(
    draw: st.DrawFn, number: int, leader_name: str | None, attack_ceiling: int = 20
) -> dict[str, Any]:
    """A unit whose attack values are at most `attack_ceiling` (one for a whole arsenal)."""
    card: dict[str, Any] = {
        "id": unique_id(draw, number),
        "name": leader_name if leader_name is not None else draw(texts(min_size=1)),
        "type": draw(st.sampled_from(TYPES)),
        # Mostly low, 0 (it cannot attack that type) among them.
        "attack": {t: draw(small(0, attack_ceiling)) for t in TYPES},
        "defence": draw(edged(0, 20)),
        "phase": draw(PHASE),
    }
    if draw(st.booleans()):
        attack, defence = draw(BONUS)
        card["support"] = {"types": draw(type_list()), "attack": attack, "defence": defence}
    if leader_name is not None:
        card["leader"] = True
    elif draw(st.booleans()):
        card["leader"] = False
    return card


def draw_effect(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    effect: dict[str, Any] = {"type": kind, "who": draw(st.sampled_from(WHO))}
    if kind in ("draw", "deploy", "discard_reserve", "victory_points"):
        effect["count"] = draw(small(1, 10))
    elif kind == "reveal":
        effect["types"] = draw(type_list())
    elif kind == "destroy_stack":
        effect["stack"] = draw(st.sampled_from(TYPES))
    return effect


def conflict_card(
    draw: st.DrawFn, kind: str, number: int, earlier_battles: list[str]
) -> dict[str, Any]:
    """A conflict card of `kind`; a battle's prerequisites name only `earlier_battles`, so that
    they never form a cycle."""
    card: dict[str, Any] = {
        "id": unique_id(draw, number),
        "name": draw(texts(min_size=1)),
        "action": draw(edged(1, 20)),
        "kind": kind,
    }
    if kind == "battle":
        types = draw(type_list())
        card.update(aggressor=draw(st.sampled_from(SIDES)), types=types, vp=draw(edged(0, 20)))
        if draw(st.booleans()):
            card["decisive"] = draw(type_list(within=tuple(types)))
        if earlier_battles and draw(st.booleans()):
            card["prerequisites"] = [
                {"battle": draw(st.sampled_from(earlier_battles)), "won_by": draw(WON_BY)}
                for _ in range(draw(small(0, 3)))
            ]
        if draw(st.booleans()):
            card["homeland"] = draw(st.booleans())
        if draw(st.booleans()):
            card["loser_destroyed"] = draw(type_list(min_size=0, within=tuple(types)))
    elif kind == "kept":
        if draw(st.booleans()):
            attack, defence = draw(BONUS)
            card["effect"] = {
                "type": "combat_bonus",
                "types": draw(type_list()),
                "attack": attack,
                "defence": defence,
            }
        else:
            card["effect"] = {"type": "reinforce", "count": draw(small(1, 10))}
    else:
        card["effects"] = [draw_effect(draw, effect) for effect in draw(EFFECTS[kind])]
    return card


@st.composite
def battlecards_cards(draw: st.DrawFn) -> dict[str, Any]:
    """Battlecards parameters `{"cards": set, "expansions": [packs]}`: a merged set of 6 to 128
    cards per arsenal and 2 to 128 conflict cards (at least one battle and one build-up or
    immediate action), split between the set and 0-64 expansion packs, some of whose leaders
    repeat a leader's name (the reader skips them)."""
    ids = itertools.count(1)  # numbers of the unique ids of the merged set
    kinds = ["battle", draw(st.sampled_from(("build_up", "immediate")))]
    more = draw(small(0, MAX_CONFLICT - 2))
    kinds += draw(
        st.lists(
            st.sampled_from(("battle", "build_up", "immediate", "kept")),
            min_size=more,
            max_size=more,
        )
    )
    kinds = draw(st.permutations(kinds))
    conflict: list[dict[str, Any]] = []
    battles: list[str] = []
    for kind in kinds:
        card = conflict_card(draw, kind, next(ids), battles)
        conflict.append(card)
        if kind == "battle":
            battles.append(card["id"])
    arsenals: dict[str, list[dict[str, Any]]] = {}
    # The highest attack of each side: often nobody can attack at all (every battle a
    # stalemate), often one side only.
    ceiling = edged(0, 20)
    ceilings = draw(st.one_of(st.just((0, 0)), st.tuples(ceiling, ceiling)))
    for side, top in zip(SIDES, ceilings):
        size = draw(small(MIN_ARSENAL, MAX_ARSENAL))
        cards = []
        for _ in range(size):
            number = next(ids)
            # A leader's name is its own: each leader at most once in an arsenal.
            leader = f"leader {number}" if draw(st.integers(0, 5)) == 0 else None
            cards.append(arsenal_card(draw, number, leader, top))
        arsenals[side] = cards
    packs = draw(st.one_of(st.integers(0, 3), st.integers(0, MAX_EXPANSIONS)))
    # Where each list is cut between the set and the packs, in order.
    cuts = {
        key: sorted(draw(st.lists(st.integers(0, len(items)), min_size=packs, max_size=packs)))
        for key, items in (("conflict", conflict), *arsenals.items())
    }

    def part(key: str, items: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
        bounds = [0, *cuts[key], len(items)]
        return items[bounds[k] : bounds[k + 1]]

    base_conflict = part("conflict", conflict, 0)
    cards = {
        "format": "rivals-battlecards-set",
        "version": 1,
        "name": draw(texts()),
        "battle_list": {
            "id": unique_id(draw, next(ids)),
            "name": draw(texts(min_size=1)),
            "battles": draw(
                st.permutations([c["id"] for c in base_conflict if c["kind"] == "battle"])
            ),
        },
        "conflict": base_conflict,
        "german": part("german", arsenals["german"], 0),
        "british": part("british", arsenals["british"], 0),
    }
    expansions = []
    for k in range(1, packs + 1):
        pack: dict[str, Any] = {
            "format": "rivals-battlecards-expansion",
            "version": 1,
            "name": draw(texts()),
        }
        for key, items in (("conflict", conflict), *arsenals.items()):
            cards_of_pack = part(key, items, k)
            if key != "conflict":
                merged = items[: ([0, *cuts[key]])[k]]
                leaders = [c["name"] for c in merged if c.get("leader")]
                if leaders and draw(st.integers(0, 3)) == 0:  # a leader the arsenal has: skipped
                    repeat = arsenal_card(draw, next(ids), draw(st.sampled_from(leaders)))
                    cards_of_pack = [*cards_of_pack, repeat]
            if cards_of_pack or draw(st.booleans()):
                pack[key] = cards_of_pack
        expansions.append(pack)
    return {"cards": cards, "expansions": expansions}


@st.composite
def battlecards_params(
    draw: st.DrawFn, turns: st.SearchStrategy[int] = ANY_TURNS
) -> dict[str, Any]:
    """Every parameter of Battlecards: a generated set and packs, and `max_turns` from `turns`
    (by default its whole range; a test keeps its games short with it)."""
    return {**draw(battlecards_cards()), "max_turns": draw(turns)}


# -- Rheinländer ------------------------------------------------------------------------------

# Rheinländer ids: a letter or digit, then letters, digits, '_', '/' or '-' (docs/formats.md).
MAP_ID_LETTERS = ID_LETTERS + "_/"
MAX_SPACES, MAX_SITES, MAX_NUMBER, MAX_NEIGHBOURS, MAX_CITY = 256, 64, 63, 8, 9


def map_id(draw: st.DrawFn, number: int) -> str:
    """A space or site id, unique through the `number` after its last '-'; never one of the
    words of the action strings, which all lack a '-'."""
    first = draw(st.sampled_from(ID_LETTERS))
    rest = draw(id_prefixes(MAP_ID_LETTERS, 16 - len(str(number)) - 2))
    return f"{first}{rest}-{number}"


@st.composite
def rheinlaender_map(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A board for `players`: the numbers 1..N (5 * players <= N <= 63) each on a land space,
    some land spaces islands of two numbers, river spaces for some numbers (one each at most),
    any further land spaces, a random symmetric adjacency of at most 8 neighbours per space, and
    0-64 landmark sites on pairs of neighbouring land spaces with one chip each."""
    top = draw(edged(5 * players, MAX_NUMBER))
    order = draw(st.permutations(range(1, top + 1)))
    land: list[list[int]] = []
    k = 0
    while k < top:  # every number on land: single spaces and islands of two
        size = 2 if k + 1 < top and draw(st.integers(0, 3)) == 0 else 1
        land.append(sorted(order[k : k + size]))
        k += size
    number = st.integers(1, top)
    extra = draw(
        st.lists(
            st.one_of(
                number.map(lambda n: [n]),
                st.lists(number, min_size=2, max_size=2, unique=True).map(sorted),
            ),
            max_size=MAX_SPACES - len(land) - top,
        )
    )
    rivers = draw(st.lists(number, unique=True, max_size=top))
    spaces = [("land", numbers) for numbers in land + extra] + [("river", [n]) for n in rivers]
    spaces = draw(st.permutations(spaces))
    ids = [map_id(draw, i) for i in range(len(spaces))]
    neighbours: list[list[int]] = [[] for _ in spaces]
    count = len(spaces)
    if count > 1:
        pairs = draw(
            st.lists(
                st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)),
                max_size=4 * count,
            )
        )
        for a, b in pairs:
            full = len(neighbours[a]) >= MAX_NEIGHBOURS or len(neighbours[b]) >= MAX_NEIGHBOURS
            if a != b and b not in neighbours[a] and not full:
                neighbours[a].append(b)
                neighbours[b].append(a)
    land_pairs = [
        (a, b)
        for a in range(count)
        for b in neighbours[a]
        if a < b and spaces[a][0] == "land" and spaces[b][0] == "land"
    ]
    sites = []
    if land_pairs:
        for n, (a, b) in enumerate(draw(st.lists(st.sampled_from(land_pairs), max_size=MAX_SITES))):
            touches = [ids[a], ids[b]] if draw(st.booleans()) else [ids[b], ids[a]]
            sites.append({"id": map_id(draw, count + n), "touches": touches})
    castles = draw(st.integers(0, len(sites)))
    churches = draw(st.integers(0, len(sites) - castles))
    cities = draw(
        st.lists(
            st.integers(1, MAX_CITY),
            min_size=len(sites) - castles - churches,
            max_size=len(sites) - castles - churches,
        )
    )
    return {
        "format": "rivals-rheinlaender-map",
        "version": 1,
        "spaces": [
            {
                "id": ids[i],
                "kind": kind,
                "numbers": numbers,
                "neighbours": [ids[j] for j in neighbours[i]],
            }
            for i, (kind, numbers) in enumerate(spaces)
        ],
        "sites": sites,
        "landmarks": {"city": cities, "castle": castles, "church": churches},
    }


@st.composite
def rheinlaender_params(
    draw: st.DrawFn, turns: st.SearchStrategy[int] = ANY_TURNS
) -> dict[str, Any]:
    players = draw(st.sampled_from((3, 4, 5)))
    return {"players": players, "map": draw(rheinlaender_map(players)), "max_turns": draw(turns)}


# -- Verräter ---------------------------------------------------------------------------------

LANDSCAPES = ("Ödnis", "Weide", "Fluss", "Wald", "Dorf", "Stadt")
ACTION_CARDS = ("Verraeter", "Diplomat2", "Diplomat5", "Baumeister", "Stratege", "Bauer")
MAX_SUPPLY = 99


@st.composite
def verraeter_cards(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A card file for `players`: both sides of each landscape with one set of numbers, 1-6
    supply values of at most 99 cards in all, a start hand that the supply can give every
    player, the six action cards, the estate rules."""
    landscapes = []
    for kind in LANDSCAPES:
        conflict = draw(edged(0, 99))
        vp = draw(st.lists(edged(0, 99), min_size=4, max_size=4))
        for side in ("eagle", "rose"):
            landscapes.append(
                {
                    "type": kind,
                    "name_en": draw(texts()),
                    "side": side,
                    "conflict": conflict,
                    "vp": vp,
                    "provisional": draw(st.booleans()),
                }
            )
    values = draw(st.lists(edged(0, 99), min_size=1, max_size=6, unique=True))
    supply = []
    left = MAX_SUPPLY
    for k, value in enumerate(values):
        count = draw(edged(1, left - (len(values) - k - 1)))
        supply.append({"value": value, "count": count})
        left -= count
    # Each occurrence of a value in the start hand takes one copy per player.
    copies = {entry["value"]: entry["count"] // players for entry in supply}
    start_hand: list[int] = []
    for value in draw(st.lists(st.sampled_from(values), max_size=5)):
        if copies[value] > start_hand.count(value):
            start_hand.append(value)
    action_cards = [
        {
            "name": name,
            "name_en": draw(texts()),
            "conflict": draw(edged(0, 99)),
            "vp": draw(edged(0, 99)),
            "draws": draw(edged(0, 5)),
            "text": draw(texts()),
        }
        for name in draw(st.permutations(ACTION_CARDS))
    ]
    return {
        "format": "rivals-verraeter-cards",
        "version": 1,
        "landscapes": draw(st.permutations(landscapes)),
        "supply": draw(st.permutations(supply)),
        "start_hand": start_hand,
        "action_cards": action_cards,
        "estates": {
            "per_player": draw(st.integers(1, 3)),
            "bonus_kontore_max": draw(st.integers(0, 5)),
            "bonus_cards_max": draw(st.integers(0, 5)),
        },
    }


@st.composite
def verraeter_params(
    draw: st.DrawFn, rounds: st.SearchStrategy[int | None] = ANY_ROUNDS
) -> dict[str, Any]:
    """Every parameter of Verräter; `rounds` from `rounds` (null: twice the players)."""
    players = draw(st.sampled_from((3, 4)))
    cards = draw(verraeter_cards(players))
    return {"players": players, "rounds": draw(rounds), "cards": cards}


# -- Sekigahara -------------------------------------------------------------------------------


@st.composite
def sekigahara_cards(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "format": "rivals-sekigahara-cards",
        "version": 1,
        "cards": [
            {
                "id": card,
                "name": draw(texts()),
                "name_zh": draw(texts()),
                "strength": draw(edged(0, 99)),
                "requirement": draw(edged(0, 5)),
                "ability": draw(texts()),
            }
            for card in draw(st.permutations(range(1, 10)))
        ],
    }


@st.composite
def sekigahara_params(draw: st.DrawFn, turns: st.SearchStrategy[int] = ANY_TURNS) -> dict[str, Any]:
    return {
        "repetition_rule": draw(st.sampled_from(("turn_start", "symmetric", "off"))),
        "max_turns": draw(turns),
        "cards": draw(sekigahara_cards()),
    }
