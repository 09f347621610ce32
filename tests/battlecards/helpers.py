"""Helpers to build Battlecards positions from explicit action sequences.

They use only the public State API, so they drive the reference and the engine alike. Most rules
tests use ``rules_set()``, a small card set whose numbers make each rule easy to see; the card set
is passed as an object through the ``cards`` parameter.
"""

from __future__ import annotations

import copy
from typing import Any

PASS = 0
FIGHT = 1
DECLINE = 2
DEPLOY = 3
FIRE = 259
WITHDRAW = 515
PLAY = 771
NUM_DISTINCT_ACTIONS = 899
# Chance outcomes are numbered apart from decisions: the slot in the subject's arsenal, or the
# conflict index.
MAX_CHANCE_OUTCOMES = 128


def unit(
    cid: str, t: str, g: int, a: int, s: int, d: int, phase: int, **extra: Any
) -> dict[str, Any]:
    card = {
        "id": cid,
        "name": f"Unit {cid}",
        "type": t,
        "attack": {"ground": g, "air": a, "sea": s},
        "defence": d,
        "phase": phase,
    }
    card.update(extra)
    return card


def _arsenal(p: str) -> list[dict[str, Any]]:
    return [
        unit(f"{p}1", "ground", 7, 0, 0, 4, 3),  # tank
        unit(f"{p}2", "ground", 5, 1, 0, 3, 4),  # infantry
        unit(f"{p}3", "ground", 5, 7, 0, 3, 1),  # heavy flak
        unit(f"{p}4", "air", 1, 7, 0, 4, 1),  # fighter
        unit(f"{p}5", "air", 6, 1, 4, 3, 3),  # bomber
        unit(f"{p}6", "air", 0, 0, 0, 3, 1, support={"types": ["air"], "attack": 0, "defence": 1}),
        unit(f"{p}7", "sea", 5, 2, 8, 6, 2),  # battleship
        unit(f"{p}8", "sea", 0, 0, 7, 2, 4),  # submarine
        unit(
            f"{p}9",
            "ground",
            1,
            0,
            0,
            2,
            4,
            support={"types": ["ground"], "attack": 1, "defence": 0},
        ),
        unit(f"{p}10", "ground", 0, 0, 0, 9, 1),  # a bunker that cannot shoot
    ]


def battle(
    cid: str, action: int, aggressor: str, types: list[str], vp: int, **extra: Any
) -> dict[str, Any]:
    card = {
        "id": cid,
        "name": f"Battle {cid}",
        "action": action,
        "kind": "battle",
        "aggressor": aggressor,
        "types": types,
        "vp": vp,
    }
    card.update(extra)
    return card


def effect_card(cid: str, action: int, kind: str, *effects: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": cid,
        "name": f"Card {cid}",
        "action": action,
        "kind": kind,
        "effects": list(effects),
    }


def kept(cid: str, action: int, effect: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "name": f"Kept {cid}", "action": action, "kind": "kept", "effect": effect}


def rules_set() -> dict[str, Any]:
    """A small card set. Action numbers: K1..K20 have the action numbers listed below."""
    conflict = [
        battle("K1", 5, "german", ["ground"], 2),
        battle("K2", 6, "british", ["air"], 3),
        battle("K3", 7, "german", ["air", "sea"], 1, decisive=["sea"], loser_destroyed=["air"]),
        battle(
            "K4",
            8,
            "german",
            ["ground", "sea"],
            5,
            homeland=True,
            prerequisites=[{"battle": "K1", "won_by": "aggressor"}],
        ),
        battle(
            "K5", 9, "british", ["ground"], 1, prerequisites=[{"battle": "K4", "won_by": "either"}]
        ),
        kept("K6", 1, {"type": "combat_bonus", "types": ["ground"], "attack": 2, "defence": 0}),
        kept("K7", 2, {"type": "reinforce", "count": 2}),
        effect_card("K8", 3, "build_up", {"type": "draw", "who": "drawer", "count": 2}),
        effect_card("K9", 4, "immediate", {"type": "deploy", "who": "drawer", "count": 2}),
        effect_card(
            "K10", 10, "immediate", {"type": "discard_reserve", "who": "opponent", "count": 1}
        ),
        effect_card(
            "K11", 1, "immediate", {"type": "reveal", "who": "opponent", "types": ["ground", "air"]}
        ),
        effect_card(
            "K12", 2, "immediate", {"type": "destroy_stack", "who": "opponent", "stack": "ground"}
        ),
        effect_card("K13", 3, "immediate", {"type": "victory_points", "who": "drawer", "count": 2}),
        effect_card(
            "K14",
            4,
            "build_up",
            {"type": "draw", "who": "british", "count": 1},
            {"type": "draw", "who": "german", "count": 1},
        ),
        effect_card(
            "K15", 5, "immediate", {"type": "victory_points", "who": "opponent", "count": 1}
        ),
        effect_card("K16", 6, "immediate", {"type": "victory_points", "who": "drawer", "count": 1}),
        effect_card("K17", 7, "immediate", {"type": "victory_points", "who": "drawer", "count": 1}),
        effect_card("K18", 8, "immediate", {"type": "victory_points", "who": "drawer", "count": 1}),
        effect_card("K19", 9, "immediate", {"type": "victory_points", "who": "drawer", "count": 1}),
        effect_card(
            "K20", 10, "immediate", {"type": "victory_points", "who": "drawer", "count": 1}
        ),
    ]
    battles = [c["id"] for c in conflict if c["kind"] == "battle"]
    return {
        "format": "rivals-battlecards-set",
        "version": 1,
        "name": "rules test set",
        "battle_list": {"id": "K0", "name": "Battle List", "battles": battles},
        "conflict": conflict,
        "german": _arsenal("G"),
        "british": _arsenal("B"),
    }


# The action number of each test-set conflict card, for choosing flips.
ACTION = {c["id"]: c["action"] for c in rules_set()["conflict"]}


def flip_card(number: int, state: Any) -> str:
    """A conflict card with action number ``number`` that is in the deck of ``state``."""
    deck = state.to_dict()["conflict_deck"]
    for cid in deck:
        if ACTION.get(cid) == number:
            return str(cid)
    raise AssertionError(f"no card with action number {number} in the conflict deck {deck}")


def new_state(make: Any, cards: Any = None, **params: Any) -> Any:
    return make(
        "battlecards", cards=copy.deepcopy(rules_set()) if cards is None else cards, **params
    ).new_initial_state()


def act(state: Any, *texts: str) -> Any:
    """Apply actions by their strings (a chance outcome is the card id)."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def setup(
    state: Any,
    german: list[str],
    british: list[str],
    german_deploy: list[str],
    british_deploy: list[str],
) -> Any:
    """Deal the given six cards to each side and deploy the given three."""
    assert len(german) == 6 and len(british) == 6
    act(state, *german, *british)
    act(state, *(f"deploy {c}" for c in german_deploy))
    act(state, *(f"deploy {c}" for c in british_deploy))
    return state


def legal_strings(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def stack_ids(state: Any, seat: int, kind: str) -> list[str]:
    return [c["id"] for c in state.to_dict()["stacks"][seat][kind]]


def face_up(state: Any, seat: int) -> set[str]:
    stacks = state.to_dict()["stacks"][seat]
    return {c["id"] for kind in stacks.values() for c in kind if c["face_up"]}


def unseen_by_others(snapshot: dict[str, Any], seat: int) -> list[str]:
    """The ids of ``seat``'s cards the other side may not see, from a ``to_dict()`` snapshot: its
    face-down units, its reserve and its kept cards (docs/rules/battlecards.md)."""
    ids = [
        entry["id"]
        for kind in ("ground", "air", "sea")
        for entry in snapshot["stacks"][seat][kind]
        if not entry["face_up"]
    ]
    return [*ids, *snapshot["reserve"][seat], *snapshot["kept"][seat]]


def random_game(state: Any, rng: Any) -> Any:
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state
