"""Helpers to build Rheinländer positions from explicit action sequences.

They use only the public State API, so they drive the reference and the engine alike. Numbers
below refer to the shipped map (docs/rules/rheinlaender.md): space ``3(n-1)`` is ``nL``,
``3(n-1)+1`` is ``nR``, ``3(n-1)+2`` is ``nW``, the islands follow at 162-165.
"""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from typing import Any

S = 166  # spaces of the shipped map
T = 26  # sites
N = 54  # numbers
BASTION_BASE = N * S
DISCARD_BASE = BASTION_BASE + S
NUM_ACTIONS = DISCARD_BASE + N  # decisions; chance outcomes are numbered apart
RESHUFFLE = 0  # chance outcome c at a deal or draw is card c
CHIP_KINDS = 11  # chance outcome k at a landmark site is chip kind k
MAX_CHANCE_OUTCOMES = N + 1
KNIGHTS = {3: 25, 4: 20, 5: 17}

# The chips the tests lay, by site; the sites not named get the remaining chips in the order
# castle, church, city 2, city 3, city 4, round and round (see fill_chips).
CHIPS = {
    "S1": "city 4",  # 2L 3L
    "S2": "church",  # 4R 5R
    "S3": "castle",  # 6L 7L
    "S4": "city 2",  # 8R 9R
    "S5": "castle",  # 10L 11L
    "S6": "church",  # 12R 13R
    "S7": "city 3",  # 14L 15L
}
POOL = {"castle": 7, "church": 7, "city 2": 4, "city 3": 4, "city 4": 4}


def shipped_map() -> dict[str, Any]:
    text = resources.files("rivals.data").joinpath("rheinlaender.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def fill_chips(chosen: dict[str, str]) -> list[str]:
    """The chip string for each of the 26 sites in order: ``chosen`` first, then the rest."""
    left = dict(POOL)
    for chip in chosen.values():
        left[chip] -= 1
    order = ["castle", "church", "city 2", "city 3", "city 4"]
    result = []
    turn = 0
    for t in range(1, T + 1):
        site = f"S{t}"
        if site in chosen:
            result.append(chosen[site])
            continue
        while left[order[turn % 5]] == 0:
            turn += 1
        result.append(order[turn % 5])
        left[order[turn % 5]] -= 1
        turn += 1
    return result


def lay(state: Any, chosen: dict[str, str] | None = None) -> Any:
    for chip in fill_chips(CHIPS if chosen is None else chosen):
        assert state.to_dict()["phase"] == "landmarks"
        state.apply_action(state.string_to_action(chip))
    return state


def deal(state: Any, hands: list[list[int]]) -> Any:
    for seat, cards in enumerate(hands):
        for card in cards:
            snap = state.to_dict()
            assert snap["phase"] == "deal" and snap["receiving"] == seat
            state.apply_action(state.string_to_action(f"card {card}"))
    assert state.to_dict()["phase"] == "play"
    return state


def step(state: Any, *moves: str) -> Any:
    """Apply actions by their strings (decisions and chance outcomes alike)."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal_strings(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def card_of(move: str) -> int | None:
    """The card a move string plays (None for a bastion), on the shipped map."""
    words = move.split()
    if words[0] == "bastion":
        return None
    if words[0] == "discard" or "with" in words:
        return int(words[-1])
    digits = ""
    for ch in words[0]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits)


class Script:
    """A scripted game on the shipped map: turns in seat order, cards dealt and drawn to fit.

    ``turns[i]`` is the turn of seat ``i % players``: one move string, or a bastion and a move
    separated by ``;``. Every seat is dealt (and then draws, one card per turn) exactly the cards
    its moves need, in order, after the ``keep`` cards it holds for the whole script; spare places
    are filled with cards no move uses, highest first. Each card may be played once.
    """

    def __init__(
        self,
        make: Any,
        turns: list[str],
        players: int = 3,
        chips: dict[str, str] | None = None,
        keep: dict[int, list[int]] | None = None,
        **params: Any,
    ) -> None:
        self.players = players
        self.turns = turns
        self.state = make("rheinlaender", players=players, **params).new_initial_state()
        keep = keep or {}
        uses: list[list[int]] = [list(keep.get(s, [])) for s in range(players)]
        for i, turn in enumerate(turns):
            card = card_of(turn.split(";")[-1].strip())
            assert card is not None, turn
            uses[i % players].append(card)
        used = [c for seat in uses for c in seat]
        assert len(used) == len(set(used)), "a card is used twice"
        spare = [c for c in range(N, 0, -1) if c not in used]
        self.draws: list[list[int]] = []
        hands = []
        for seat in range(players):
            cards = uses[seat] + [spare.pop(0) for _ in range(max(0, 5 - len(uses[seat])))]
            hands.append(cards[:5])
            rest = cards[5:]
            own_turns = len(turns[seat::players])
            rest += [spare.pop(0) for _ in range(max(0, own_turns - len(rest)))]
            self.draws.append(rest)
        lay(self.state, chips)
        deal(self.state, hands)
        self.done = 0

    def run(self, until: int | None = None) -> Any:
        """Play the scripted turns up to (not including) turn ``until`` (default: all)."""
        stop = len(self.turns) if until is None else until
        while self.done < stop:
            seat = self.done % self.players
            assert self.state.current_player() == seat, (self.done, self.state.current_player())
            for move in self.turns[self.done].split(";"):
                step(self.state, move.strip())
            if not self.state.is_terminal():
                draw = self.draws[seat][self.done // self.players]
                step(self.state, f"card {draw}")
            self.done += 1
        return self.state


def domain_of(snapshot: dict[str, Any], space: str) -> dict[str, Any] | None:
    for domain in snapshot["domains"]:
        if space in domain["spaces"]:
            return dict(domain)
    return None


def expected_domains(snapshot: dict[str, Any], board: dict[str, Any]) -> list[dict[str, Any]]:
    """Domains and landmark values from a snapshot by an independent flood fill on the map."""
    order = [s["id"] for s in board["spaces"]]
    adjacent = {s["id"]: s["neighbours"] for s in board["spaces"]}
    knights = snapshot["knights"]
    seen: set[str] = set()
    result = []
    for space in order:
        if space not in knights or space in seen:
            continue
        group = {space}
        queue = deque([space])
        while queue:
            here = queue.popleft()
            for other in adjacent[here]:
                if other in knights and other not in group:
                    group.add(other)
                    queue.append(other)
        seen |= group
        if len(group) < 2:
            continue
        marks = 0
        for site in board["sites"]:
            if group & set(site["touches"]) and site["id"] in snapshot["landmarks"]:
                marks += snapshot["landmarks"][site["id"]]["value"]
        result.append({"spaces": [s for s in order if s in group], "landmarks": marks})
    return result


def tiny_map() -> dict[str, Any]:
    """Islands A (1, 2), B (3, 4), C (5, 6) standing alone and a chain P7-P16; no sites."""
    chain = [f"P{n}" for n in range(7, 17)]
    spaces = [
        {"id": "A", "kind": "land", "numbers": [1, 2], "neighbours": []},
        {"id": "B", "kind": "land", "numbers": [3, 4], "neighbours": []},
        {"id": "C", "kind": "land", "numbers": [5, 6], "neighbours": []},
    ]
    for i, name in enumerate(chain):
        near = [chain[j] for j in (i - 1, i + 1) if 0 <= j < len(chain)]
        spaces.append({"id": name, "kind": "land", "numbers": [7 + i], "neighbours": near})
    return {
        "format": "rivals-rheinlaender-map",
        "version": 1,
        "spaces": spaces,
        "sites": [],
        "landmarks": {"city": [], "castle": 0, "church": 0},
    }
