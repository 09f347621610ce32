"""Where on a game's picture each legal move is clicked.

``targets(state)`` lists, for the player to move, the places of the picture that
``rivals.render.svg`` draws (its ``data-`` attributes and layout) with the legal actions each
one offers: a card in the hand, a square where the crown lands, a space of the Rhine. A target
is either an element of the picture (``"select"``: a CSS selector, with ``"text"`` the text it
must hold) or a spot drawn over it (``"circle"``: centre and radius, ``"rect"``: corner and
size, in the picture's units). A place may offer several actions (a card played with or without
a hero); the page then asks which. A ``quiet`` place offers only moves of which there are many
alike (a bastion on any free space): it is shown under the pointer only. Every legal action is
also in the move menu, so a game or an action without a place here is still played by a click.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, cast

from rivals._core import State
from rivals.boxes.rheinlaender import svg as rheinlaender_svg
from rivals.boxes.rosenkoenig import svg as rosenkoenig_svg
from rivals.boxes.verraeter import svg as verraeter_svg

__all__ = ["targets"]

Target = dict[str, Any]
# Maps whose layout is kept.
LAYOUTS = 8


class _Places:
    """Targets gathered by place: each place once, with every action it offers, in order."""

    def __init__(self) -> None:
        self._by_key: dict[str, Target] = {}

    def add(self, action: int, quiet: bool = False, **where: Any) -> None:
        """``action`` offered at ``where``; a place whose every action is ``quiet`` (one of
        many like it, such as a bastion on any free space) is shown only under the pointer."""
        key = repr(sorted(where.items()))
        target = self._by_key.setdefault(key, {**where, "actions": [], "quiet": True})
        actions: list[int] = target["actions"]
        actions.append(action)
        target["quiet"] = bool(target["quiet"]) and quiet

    def list(self) -> list[Target]:
        return list(self._by_key.values())


def _rosenkoenig(state: State) -> list[Target]:
    snapshot = cast("dict[str, Any]", state.to_dict())
    seat = state.current_player()
    row, col = (int(value) for value in snapshot["crown"])
    places = _Places()
    cards = rosenkoenig_svg.NUM_CARDS
    for action in state.legal_actions():
        if action >= rosenkoenig_svg.DRAW:
            continue  # drawing and passing are in the menu
        card = action % cards
        name = state.action_to_string(card)
        places.add(action, select=f'g.seat[data-seat="{seat}"] g.card[data-card="{name}"]')
        _, d_row, d_col = rosenkoenig_svg.DIRECTIONS[card // 3]
        distance = card % 3 + 1
        size = rosenkoenig_svg.CELL
        x = rosenkoenig_svg.BOARD_X + (col + d_col * distance) * size
        y = rosenkoenig_svg.BOARD_Y + (row + d_row * distance) * size
        places.add(action, rect=[x + 3, y + 3, size - 6, size - 6])
    return places.list()


def _sekigahara(state: State) -> list[Target]:
    places = _Places()
    for action in state.legal_actions():
        verb, _, rest = state.action_to_string(action).partition(" ")
        if verb == "end":
            continue
        # A move is offered on the card its token leaves; every other verb names one card.
        card = rest.split("->")[0]
        central = ":not(g.camp g.card)" if verb in ("place", "move") else ""
        places.add(action, select=f'g.card[data-card="{card}"]{central}')
    return places.list()


_layouts: dict[str, Any] = {}


def _rheinlaender_layout(state: State) -> Any:
    """The picture's layout of the game's map, worked out once per map (it takes a few ms)."""
    key = json.dumps(state.game.params, sort_keys=True)
    layout = _layouts.get(key)
    if layout is None:
        if len(_layouts) >= LAYOUTS:
            _layouts.clear()
        layout = _layouts[key] = rheinlaender_svg._Layout(state.game.map)
    return layout


def _rheinlaender(state: State) -> list[Target]:
    game_map = state.game.map
    spaces = game_map["spaces"]
    count = len(spaces)
    top = max(n for space in spaces for n in space["numbers"])
    layout = _rheinlaender_layout(state)
    seat = state.current_player()
    places = _Places()
    for action in state.legal_actions():
        if action < top * count:
            space = str(spaces[action % count]["id"])
            card = action // count + 1
        elif action < top * count + count:
            space = str(spaces[action - top * count]["id"])
            card = 0
        else:
            space = ""
            card = action - top * count - count + 1
        if space:
            x, y = layout.centre[space]
            places.add(action, quiet=not card, circle=[x, y, rheinlaender_svg.TOKEN_R + 6])
        if card:
            places.add(action, select=f'g.hand[data-seat="{seat}"] text.card', text=str(card))
    return places.list()


def _verraeter(state: State) -> list[Target]:
    seat = state.current_player()
    places = _Places()
    for action in state.legal_actions():
        verb, _, rest = state.action_to_string(action).partition(" ")
        if verb == "conflict":
            site = int(rest)
            # Between the two landscapes, where the picture puts the swords once chosen.
            angle = verraeter_svg._angle(site) + math.radians(15)
            reach = verraeter_svg.RING_R - verraeter_svg.TILE_R - 40
            x = verraeter_svg.RING_CX + reach * math.cos(angle)
            y = verraeter_svg.RING_CY + reach * math.sin(angle)
            places.add(action, circle=[round(x, 1), round(y, 1), 18])
        elif verb in ("build", "upgrade"):
            places.add(action, select=f'g.landscape[data-index="{rest}"]')
        elif verb in ("play", "discard"):
            places.add(action, select=f'g.seat[data-seat="{seat}"] g.hand-card', text=rest)
    return places.list()


def _battlecards(state: State) -> list[Target]:
    places = _Places()
    for action in state.legal_actions():
        verb, _, card = state.action_to_string(action).partition(" ")
        if card and verb in ("deploy", "fire", "withdraw", "play"):
            places.add(action, select=f'g[data-card="{card}"]:not(.battle)')
    return places.list()


_BY_GAME: dict[str, Callable[[State], list[Target]]] = {
    "battlecards": _battlecards,
    "rheinlaender": _rheinlaender,
    "rosenkoenig": _rosenkoenig,
    "sekigahara": _sekigahara,
    "verraeter": _verraeter,
}


def targets(state: State) -> list[Target]:
    """The clickable places of the picture of ``state`` for the player to move (none at a
    chance node, at the end, or in a game without its own places here)."""
    if state.is_terminal() or state.is_chance_node():
        return []
    places = _BY_GAME.get(state.game.name)
    return places(state) if places is not None else []
