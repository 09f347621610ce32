"""Battlecards as a picture: for Germany and Britain the ground, air and sea stacks, the reserve
hand, the kept cards and the victory points; beside them the battle list with won and cancelled
battles marked, the battle in progress and the decks; the last move highlighted.

Hidden cards stay hidden: a face-down stack card, a reserve card or a kept card shows its face
only to its owner (``player``); everybody else sees a card back (a stack's backs still tell its
type, as the rules make public). A spectator sees face-up cards only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.reference.battlecards import CardSet, load_card_set
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape

__all__ = ["draw"]

WIDTH = 1240
MARGIN = 20
LIST_X = 880
CHIP_W = 262
CHIP_H = 22
COLUMN = CHIP_W + 12
TYPES = ("ground", "air", "sea")
SIDES = ("Germany", "Britain")
SIDE_FILL = ("#5d6b4f", "#3e5f8a")
BACK = "#7d5a3c"
TAKING_PART = "#d0661b"
TARGET = "#b8323f"
PER_ROW = 3


@cache
def _card_set(documents: str) -> CardSet:
    data = json.loads(documents)
    return load_card_set(data["cards"], data["expansions"])


def _names(state: State) -> dict[str, str]:
    """Card id to name, for every card of the game's merged card set."""
    cards = _card_set(json.dumps(state.game.data, sort_keys=True))
    names = {card.id: card.name for side in cards.arsenals for card in side}
    names.update({card.id: card.name for card in cards.conflict})
    return names


def _units(state: State) -> dict[str, Any]:
    cards = _card_set(json.dumps(state.game.data, sort_keys=True))
    return {card.id: card for side in cards.arsenals for card in side}


def _conflicts(state: State) -> dict[str, Any]:
    cards = _card_set(json.dumps(state.game.data, sort_keys=True))
    return {card.id: card for card in cards.conflict}


def _seen_line(state: State, player: int | None) -> str:
    """The last line of the history as ``player`` saw it. A spectator sees the line of the seat
    that saw less: where the two seats' lines differ, one of them hides a card with ``?``."""
    if not state.history():
        return ""
    lines = [state.information_state_string(seat).rsplit("\n", 1)[1] for seat in (0, 1)]
    if player is not None:
        return lines[player]
    return next((line for line in lines if "?" in line), lines[0])


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state``; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    names = _names(state)
    last = _seen_line(state, player)
    marked = {word for word in last.replace("(", " ").replace(")", " ").split() if word in names}
    status = _status(state, snapshot)
    parts = [
        f'<text x="{MARGIN}" y="32" font-size="21" font-weight="bold" fill="{INK}">Battlecards '
        f'<tspan font-weight="normal" fill="{MUTED}">— {escape(status)}</tspan></text>',
        f'<text x="{WIDTH - MARGIN}" y="32" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"turn {snapshot['turn']} · step {len(history)}</text>",
    ]
    if last:
        who, _, text = last.partition(" ")
        words = f"{who.capitalize()}: {text}"
        named = [names[word] for word in text.split() if word in names]
        if named:
            words += f" ({', '.join(named)})"
        parts.append(
            f'<text x="{MARGIN}" y="56" font-size="14" fill="{HIGHLIGHT}" class="last-move-text">'
            f"Last move: {escape(words)}</text>"
        )
    y = 78.0
    for seat in (0, 1):
        block, y = _side(state, snapshot, seat, player, marked, y)
        parts.append(block)
        y += 14
    right, right_bottom = _right(state, snapshot, marked)
    parts.append(right)
    height = int(max(y, right_bottom) + 16)
    parts.insert(0, f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>')
    return document(WIDTH, height, "".join(parts), f"Battlecards: {status}")


def _status(state: State, snapshot: dict[str, Any]) -> str:
    if state.is_terminal():
        winner = snapshot["winner"]
        outcome = "a draw" if winner is None else f"{SIDES[winner]} wins"
        return f"game over ({snapshot['end_reason']}): {outcome}"
    to_move = int(snapshot["current_player"])
    phase = str(snapshot["phase"]).replace("_", " ")
    if to_move == CHANCE:
        return f"chance ({phase})"
    return f"{SIDES[to_move]} to move ({phase})"


def _chip(
    x: float, y: float, text: str, detail: str, css: str, card_id: str, frame: str, width: float
) -> str:
    return (
        f'<g class="{css}" data-card="{escape(card_id)}">'
        f'<rect x="{x}" y="{y}" width="{width}" height="{CHIP_H - 3}" rx="4" fill="#fffaf0" '
        f'stroke="{frame}" stroke-width="{1 if frame == "#8a7a5c" else 2.4}"/>'
        f'<text x="{x + 5}" y="{y + 14}" font-size="11" fill="{INK}">{escape(text)}</text>'
        f'<text x="{x + width - 5}" y="{y + 14}" font-size="10" fill="{MUTED}" '
        f'text-anchor="end">{escape(detail)}</text></g>'
    )


def _back(x: float, y: float, label: str, width: float) -> str:
    return (
        f'<g class="back"><rect x="{x}" y="{y}" width="{width}" height="{CHIP_H - 3}" rx="4" '
        f'fill="{BACK}" stroke="{INK}" stroke-width="0.8"/>'
        f'<text x="{x + width / 2}" y="{y + 14}" font-size="10" fill="{PAPER}" '
        f'text-anchor="middle">{escape(label)}</text></g>'
    )


def _unit_detail(unit: Any) -> str:
    attack = "/".join(str(unit.attack[kind]) for kind in TYPES)
    return f"A {attack} D {unit.defence} P{unit.phase}"


def _side(
    state: State,
    snapshot: dict[str, Any],
    seat: int,
    player: int | None,
    marked: set[str],
    top: float,
) -> tuple[str, float]:
    units = _units(state)
    names = _names(state)
    battle = snapshot["battle"]
    taking_part = set(battle["taking_part"][seat]) if battle else set()
    withdrawn = set(battle["withdrawn"][seat]) if battle else set()
    target = battle["target"] if battle else None
    shooter = battle["unit"] if battle else None
    own = seat == player
    to_move = int(snapshot["current_player"]) == seat
    name = SIDES[seat] + (" (you)" if own else "")
    stacks = snapshot["stacks"][seat]
    tallest = max(1, *(len(stacks[kind]) for kind in TYPES))
    reserve = list(snapshot["reserve"][seat])
    kept = list(snapshot["kept"][seat])
    reserve_rows = max(1, -(-len(reserve) // PER_ROW))
    kept_rows = max(1, -(-len(kept) // PER_ROW))
    height = 58 + tallest * CHIP_H + 26 + reserve_rows * CHIP_H + 22 + kept_rows * CHIP_H + 10
    parts = [
        f'<g class="side" data-seat="{seat}">',
        f'<rect x="{MARGIN - 8}" y="{top}" width="{LIST_X - MARGIN - 8}" height="{height}" '
        f'rx="8" fill="{"#fff3c8" if to_move else "#f6efdf"}" '
        f'stroke="{HIGHLIGHT if to_move else "#d8ccb2"}" stroke-width="{2.5 if to_move else 1}"/>',
        f'<rect x="{MARGIN}" y="{top + 9}" width="16" height="16" rx="3" '
        f'fill="{SIDE_FILL[seat]}"/>',
        f'<text x="{MARGIN + 24}" y="{top + 23}" font-size="16" font-weight="bold" fill="{INK}">'
        f"{escape(name)}{' ▶' if to_move else ''}</text>",
        f'<text x="{MARGIN + 200}" y="{top + 23}" font-size="12" fill="{MUTED}">'
        f"arsenal deck {len(snapshot['arsenal_deck'][seat])} · discard "
        f"{len(snapshot['arsenal_discard'][seat])} · battles won {len(snapshot['won'][seat])}"
        "</text>",
        f'<text x="{LIST_X - 30}" y="{top + 24}" font-size="13" fill="{INK}" text-anchor="end">'
        f'VP <tspan font-size="20" font-weight="bold" class="vp" data-seat="{seat}">'
        f"{snapshot['vp'][seat]}</tspan></text>",
    ]
    y = top + 46
    for column, kind in enumerate(TYPES):
        x = MARGIN + column * COLUMN
        cards = stacks[kind]
        down = sum(1 for card in cards if not card["face_up"])
        parts.append(
            f'<text x="{x}" y="{y}" font-size="11" font-weight="bold" fill="{MUTED}">'
            f"{kind.upper()} · {len(cards)} ({down} face down)</text>"
        )
        for row, card in enumerate(cards):
            cy = y + 6 + row * CHIP_H
            card_id = str(card["id"])
            if card["face_up"] or own:
                frame = "#8a7a5c"
                if card_id in marked:
                    frame = HIGHLIGHT
                elif card_id == target:
                    frame = TARGET
                elif card_id in taking_part or card_id == shooter:
                    frame = TAKING_PART
                text = names[card_id] + ("" if card["face_up"] else "  ▾")
                if card_id == shooter:
                    text = "▶ " + text
                if card_id in withdrawn:
                    text += " (withdrawn)"
                css = "unit face-up" if card["face_up"] else "unit face-down"
                parts.append(
                    _chip(x, cy, text, _unit_detail(units[card_id]), css, card_id, frame, CHIP_W)
                )
            else:
                parts.append(_back(x, cy, f"{kind} · face down", CHIP_W))
    y += 6 + tallest * CHIP_H + 18
    parts.append(
        f'<text x="{MARGIN}" y="{y}" font-size="11" font-weight="bold" fill="{MUTED}">'
        f'RESERVE HAND · <tspan class="reserve-count">{len(reserve)}</tspan></text>'
    )
    for index, card_id in enumerate(reserve):
        x = MARGIN + (index % PER_ROW) * COLUMN
        cy = y + 6 + (index // PER_ROW) * CHIP_H
        if own:
            frame = HIGHLIGHT if card_id in marked else "#8a7a5c"
            unit = units[card_id]
            parts.append(
                _chip(
                    x,
                    cy,
                    f"{names[card_id]} ({unit.type})",
                    _unit_detail(unit),
                    "reserve",
                    card_id,
                    frame,
                    CHIP_W,
                )
            )
        else:
            parts.append(_back(x, cy, "reserve card", CHIP_W))
    y += 6 + reserve_rows * CHIP_H + 16
    parts.append(
        f'<text x="{MARGIN}" y="{y}" font-size="11" font-weight="bold" fill="{MUTED}">'
        f'KEPT CARDS · <tspan class="kept-count">{len(kept)}</tspan></text>'
    )
    for index, card_id in enumerate(kept):
        x = MARGIN + (index % PER_ROW) * COLUMN
        cy = y + 6 + (index // PER_ROW) * CHIP_H
        if own:
            frame = HIGHLIGHT if card_id in marked else "#8a7a5c"
            parts.append(_chip(x, cy, names[card_id], card_id, "kept", card_id, frame, CHIP_W))
        else:
            parts.append(_back(x, cy, "kept card", CHIP_W))
    parts.append("</g>")
    return "".join(parts), top + height


def _right(state: State, snapshot: dict[str, Any], marked: set[str]) -> tuple[str, float]:
    conflicts = _conflicts(state)
    card_set = _card_set(json.dumps(state.game.data, sort_keys=True))
    battle_ids = [card.id for card in card_set.conflict if card.kind == "battle"]
    won = {card: seat for seat in (0, 1) for card in snapshot["won"][seat]}
    cancelled = set(snapshot["cancelled"])
    current = snapshot["card"]
    x = LIST_X
    width = WIDTH - MARGIN - x
    y = 78.0
    parts = [
        f'<text x="{x}" y="{y + 12}" font-size="13" font-weight="bold" fill="{INK}">'
        "Battle list</text>"
    ]
    y += 20
    for card_id in battle_ids:
        card = conflicts[card_id]
        if card_id in won:
            mark, colour, css = f"won by {SIDES[won[card_id]]}", SIDE_FILL[won[card_id]], "won"
        elif card_id in cancelled:
            mark, colour, css = "cancelled", MUTED, "cancelled"
        else:
            mark, colour, css = "open", INK, "open"
        active = card_id == current
        frame = HIGHLIGHT if active or card_id in marked else "#d8ccb2"
        # The status takes the right end of the first line: long names are cut short.
        name = card.name if len(card.name) <= 24 else card.name[:23] + "…"
        decoration = ' text-decoration="line-through"' if css == "cancelled" else ""
        parts.append(
            f'<g class="battle {css}" data-card="{card_id}"><title>{escape(card.name)}</title>'
            f'<rect x="{x}" y="{y}" width="{width}" height="30" rx="4" '
            f'fill="{"#fff3c8" if active else "#fffaf0"}" stroke="{frame}" '
            f'stroke-width="{2.4 if frame == HIGHLIGHT else 1}"/>'
            f'<rect x="{x}" y="{y}" width="5" height="30" fill="{SIDE_FILL[card.aggressor]}"/>'
            f'<text x="{x + 10}" y="{y + 13}" font-size="11" font-weight="bold" fill="{INK}"'
            f"{decoration}>{card_id} {escape(name)}</text>"
            f'<text x="{x + 10}" y="{y + 26}" font-size="10" fill="{MUTED}">'
            f"{SIDES[card.aggressor]} attacks · {'/'.join(card.types)} · {card.vp} VP"
            f"{' · homeland' if card.homeland else ''}</text>"
            f'<text x="{x + width - 6}" y="{y + 13}" font-size="10" font-weight="bold" '
            f'fill="{colour}" text-anchor="end">{"✔ " if css == "won" else ""}{mark}</text></g>'
        )
        y += 33
    y += 10
    parts.append(
        f'<text x="{x}" y="{y + 10}" font-size="12" fill="{INK}">conflict deck '
        f"{len(snapshot['conflict_deck'])} · discard {len(snapshot['conflict_discard'])}</text>"
    )
    y += 18
    if current is not None:
        parts.append(
            f'<text x="{x}" y="{y + 12}" font-size="12" fill="{INK}" class="current-card">'
            f'card in play: <tspan font-weight="bold">{current} '
            f"{escape(conflicts[current].name)}</tspan></text>"
        )
        y += 20
    battle = snapshot["battle"]
    if battle is not None:
        names = _names(state)
        lines = [f"battle: {SIDES[battle['aggressor']]} attacks"]
        if battle["round"]:
            lines.append(f"combat round {battle['round']} of 4")
        if battle["firing_phase"]:
            side = battle["firing_side"]
            lines.append(
                f"firing phase {battle['firing_phase']}"
                + (f", {SIDES[side]} firing" if side is not None else "")
            )
        if battle["unit"] is not None:
            lines.append(f"unit: {names[battle['unit']]}")
        if battle["target"] is not None:
            lines.append(f"target: {names[battle['target']]}")
        if battle["window"] is not None:
            lines.append(f"battle window: {SIDES[battle['window']]}")
        if battle["withdrawing"] is not None:
            lines.append(f"withdrawing: {SIDES[battle['withdrawing']]}")
        for seat in (0, 1):
            bonus = battle["bonus"][seat]
            given = [
                f"{kind} +{bonus['attack'][kind]}/+{bonus['defence'][kind]}"
                for kind in TYPES
                if bonus["attack"][kind] or bonus["defence"][kind]
            ]
            if given:
                lines.append(f"{SIDES[seat]} bonus: {', '.join(given)}")
        box = 12 + 17 * len(lines)
        parts.append(
            f'<rect x="{x}" y="{y}" width="{width}" height="{box}" rx="6" fill="#fdecdc" '
            f'stroke="{TAKING_PART}" class="battle-box"/>'
        )
        for index, line in enumerate(lines):
            weight = "bold" if index == 0 else "normal"
            parts.append(
                f'<text x="{x + 8}" y="{y + 20 + 17 * index}" font-size="12" fill="{INK}" '
                f'font-weight="{weight}">{escape(line)}</text>'
            )
        y += box + 8
    parts.append(
        f'<text x="{x}" y="{y + 14}" font-size="10" fill="{MUTED}">'
        f'<tspan fill="{TAKING_PART}" font-weight="bold">orange</tspan>: in the battle · '
        f'<tspan fill="{TARGET}" font-weight="bold">red</tspan>: target · ▶ firing · ▾ face down'
        "</text>"
    )
    return "".join(parts), y + 24
