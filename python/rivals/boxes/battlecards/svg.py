"""Battlecards as a picture: for Germany and Britain the ground, air and sea stacks, the reserve
hand, the kept cards and the victory points; beside them the battle list with won and cancelled
battles marked, the battle in progress and the decks; the last move highlighted.

Hidden cards stay hidden: a face-down stack card, a reserve card or a kept card shows its face
only to its owner (``player``); everybody else sees a card back (a stack's backs still tell its
type, as the rules make public). A spectator sees face-up cards only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.boxes.battlecards.terminal import SIDES, TYPES, bonus_words, effect_words, values
from rivals.render import move_texts, result_text
from rivals.render._data import card_index
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape, fitted, headline

__all__ = ["draw"]

WIDTH = 1240
MARGIN = 20
LIST_X = 880
CHIP_W = 262
CHIP_H = 22
COLUMN = CHIP_W + 12
SIDE_FILL = ("#5d6b4f", "#3e5f8a")
BACK = "#7d5a3c"
TAKING_PART = "#d0661b"
TARGET = "#b8323f"
HAND_PER_ROW = 4
HAND_COLUMN = (LIST_X - MARGIN - 16) // HAND_PER_ROW
HAND_W = HAND_COLUMN - 8


def _cards(state: State) -> dict[str, dict[str, Any]]:
    """Every card of the game (both arsenals, the conflict cards) by id."""
    return card_index(state.game, ("conflict", "german", "british"))


def _last_words(state: State, player: int | None) -> str:
    """The last move as ``player`` saw it, with who made it."""
    history = state.history()
    if not history:
        return ""
    walker = state.game.state_from_history(history[:-1])
    who = walker.current_player()
    text = move_texts(state, player, len(history) - 1)[0]
    return f"{'Chance' if who == CHANCE else SIDES[who]}: {text}"


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state``; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    cards = _cards(state)
    last = _last_words(state, player)
    marked = {word for word in last.replace("(", " ").replace(")", " ").split() if word in cards}
    status = _status(state, snapshot)
    parts = [
        headline(MARGIN, 32, "Battlecards", status, WIDTH - 2 * MARGIN - 80),
        f'<text x="{WIDTH - MARGIN}" y="32" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"turn {snapshot['turn']}</text>",
    ]
    if last:
        parts.append(
            fitted(
                MARGIN,
                56,
                f"Last move: {last}",
                14,
                WIDTH - 2 * MARGIN,
                ' class="last-move-text"',
                HIGHLIGHT,
            )
        )
    y = 78.0
    for seat in (0, 1):
        block, y = _side(cards, snapshot, seat, player, marked, y)
        parts.append(block)
        y += 14
    right, right_bottom = _right(state, cards, snapshot, marked)
    parts.append(right)
    height = int(max(y, right_bottom) + 16)
    parts.insert(0, f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>')
    return document(WIDTH, height, "".join(parts), f"Battlecards: {status}")


def _status(state: State, snapshot: dict[str, Any]) -> str:
    if state.is_terminal():
        return f"game over: {result_text(state)}"
    to_move = int(snapshot["current_player"])
    phase = str(snapshot["phase"]).replace("_", " ")
    if to_move == CHANCE:
        return f"chance ({phase})"
    return f"{SIDES[to_move]} to move ({phase})"


def _chip(
    x: float, y: float, text: str, detail: str, css: str, card_id: str, frame: str, width: float
) -> str:
    # Drawn at the origin and moved into place: a card that moves keeps the same drawing, which
    # the viewer stores once.
    # The detail takes what it needs up to half the chip; the name has the rest.
    detail_room = min(len(detail) * 10 * 0.58, width / 2 - 8)
    room = width - 10 - detail_room - 6
    return (
        f'<g class="{css}" data-card="{escape(card_id)}" transform="translate({x} {y})">'
        f'<rect width="{width}" height="{CHIP_H - 3}" rx="4" fill="#fffaf0" '
        f'stroke="{frame}" stroke-width="{1 if frame == "#8a7a5c" else 2.4}"/>'
        + fitted(5, 14, text, 11, room)
        + fitted(width - 5, 14, detail, 10, detail_room, ' text-anchor="end"', MUTED)
        + "</g>"
    )


def _back(x: float, y: float, label: str, width: float, css: str = "back") -> str:
    return (
        f'<g class="{css}" transform="translate({x} {y})"><rect width="{width}" '
        f'height="{CHIP_H - 3}" rx="4" fill="{BACK}" stroke="{INK}" stroke-width="0.8"/>'
        f'<text x="{width / 2}" y="14" font-size="10" fill="{PAPER}" '
        f'text-anchor="middle">{escape(label)}</text></g>'
    )


def _hand(
    y: float,
    title: str,
    kind: str,
    ids: Sequence[str],
    own: bool,
    marked: set[str],
    describe: Callable[[str], tuple[str, str]],
) -> list[str]:
    """A side's ``kind`` cards ("reserve", "kept") under ``title`` and their number: to their
    owner (``own``) a chip per card with the text and detail ``describe`` gives it, framed when
    ``marked`` holds it; to anyone else one pile."""
    parts = [
        f'<text x="{MARGIN}" y="{y}" font-size="11" font-weight="bold" fill="{MUTED}">'
        f'{title} · <tspan class="{kind}-count">{len(ids)}</tspan></text>'
    ]
    if not own:
        parts.append(_hidden_pile(MARGIN, y + 6, len(ids), f"{kind} card", f"hidden-{kind}"))
        return parts
    for index, card_id in enumerate(ids):
        x = MARGIN + (index % HAND_PER_ROW) * HAND_COLUMN
        cy = y + 6 + (index // HAND_PER_ROW) * CHIP_H
        frame = HIGHLIGHT if card_id in marked else "#8a7a5c"
        text, detail = describe(card_id)
        parts.append(_chip(x, cy, text, detail, kind, card_id, frame, HAND_W))
    return parts


def _hidden_pile(x: float, y: float, count: int, what: str, css: str) -> str:
    """Cards the viewer may not see, as one pile with their number: a reserve or kept cards."""
    if not count:
        return f'<text x="{x}" y="{y + 14}" font-size="11" fill="{MUTED}">none</text>'
    layers = "".join(
        f'<rect x="{x + 3 * k}" y="{y - 3 * k}" width="{HAND_W}" height="{CHIP_H - 3}" rx="4" '
        f'fill="{BACK}" stroke="{INK}" stroke-width="0.8" opacity="{1 - 0.25 * k}"/>'
        for k in reversed(range(min(count, 3)))
    )
    label = f"{count} {what}{'' if count == 1 else 's'}, face down"
    return (
        f'<g class="{css}" data-count="{count}">{layers}'
        f'<text x="{x + HAND_W / 2}" y="{y + 14}" font-size="10" fill="{PAPER}" '
        f'text-anchor="middle">{escape(label)}</text></g>'
    )


def _side(
    cards: dict[str, dict[str, Any]],
    snapshot: dict[str, Any],
    seat: int,
    player: int | None,
    marked: set[str],
    top: float,
) -> tuple[str, float]:
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
    # The owner sees a compact row of named cards; anybody else one pile with a count.
    reserve_rows = max(1, -(-len(reserve) // HAND_PER_ROW)) if own else 1
    kept_rows = max(1, -(-len(kept) // HAND_PER_ROW)) if own else 1
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
        stack = stacks[kind]
        down = sum(1 for card in stack if not card["face_up"])
        parts.append(
            f'<text x="{x}" y="{y}" font-size="11" font-weight="bold" fill="{MUTED}">'
            f"{kind.upper()} · {len(stack)} ({down} face down)</text>"
        )
        # The snapshot lists a stack by card id: drawn so, a back among the faces would tell
        # the id it hides. Who may not see the face-down cards gets them after the faces.
        if not own:
            stack = [card for card in stack if card["face_up"]] + [
                card for card in stack if not card["face_up"]
            ]
        for row, card in enumerate(stack):
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
                text = str(cards[card_id]["name"]) + ("" if card["face_up"] else "  ▾")
                if card_id == shooter:
                    text = "▶ " + text
                if card_id in withdrawn:
                    text += " (withdrawn)"
                css = "unit face-up" if card["face_up"] else "unit face-down"
                parts.append(
                    _chip(x, cy, text, values(cards[card_id]), css, card_id, frame, CHIP_W)
                )
            else:
                parts.append(_back(x, cy, f"{kind} · face down", CHIP_W))
    y += 6 + tallest * CHIP_H + 18

    def unit(card_id: str) -> tuple[str, str]:
        card = cards[card_id]
        return f"{card['name']} ({card['type']})", values(card)

    def kept_card(card_id: str) -> tuple[str, str]:
        return str(cards[card_id]["name"]), effect_words(cards[card_id])

    parts += _hand(y, "RESERVE HAND", "reserve", reserve, own, marked, unit)
    y += 6 + reserve_rows * CHIP_H + 16
    parts += _hand(y, "KEPT CARDS", "kept", kept, own, marked, kept_card)
    parts.append("</g>")
    return "".join(parts), top + height


def _right(
    state: State, cards: dict[str, dict[str, Any]], snapshot: dict[str, Any], marked: set[str]
) -> tuple[str, float]:
    battle_ids = [card_id for card_id, card in cards.items() if card.get("kind") == "battle"]
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
        card = cards[card_id]
        aggressor = 0 if card["aggressor"] == "german" else 1
        if card_id in won:
            mark, colour, css = f"won by {SIDES[won[card_id]]}", SIDE_FILL[won[card_id]], "won"
        elif card_id in cancelled:
            mark, colour, css = "cancelled", MUTED, "cancelled"
        else:
            mark, colour, css = "open", INK, "open"
        active = card_id == current
        frame = HIGHLIGHT if active or card_id in marked else "#d8ccb2"
        # The whole name has the first line; the status goes right on the second.
        decoration = ' text-decoration="line-through"' if css == "cancelled" else ""
        title = f"{card_id} {card['name']}"
        parts.append(
            f'<g class="battle {css}" data-card="{card_id}"><title>{escape(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{width}" height="30" rx="4" '
            f'fill="{"#fff3c8" if active else "#fffaf0"}" stroke="{frame}" '
            f'stroke-width="{2.4 if frame == HIGHLIGHT else 1}"/>'
            f'<rect x="{x}" y="{y}" width="5" height="30" fill="{SIDE_FILL[aggressor]}"/>'
            + fitted(x + 10, y + 13, title, 11, width - 16, f' font-weight="bold"{decoration}')
            + f'<text x="{x + 10}" y="{y + 26}" font-size="10" fill="{MUTED}">'
            f"{SIDES[aggressor]} attacks · {'/'.join(card['types'])} · {card['vp']} VP"
            f"{' · homeland' if card.get('homeland') else ''}</text>"
            f'<text x="{x + width - 6}" y="{y + 26}" font-size="10" font-weight="bold" '
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
            fitted(
                x,
                y + 12,
                f"card in play: {current} {cards[current]['name']}",
                12,
                width,
                ' class="current-card" font-weight="bold"',
            )
        )
        y += 20
    battle = snapshot["battle"]
    if battle is not None:
        names = {card_id: str(card["name"]) for card_id, card in cards.items()}
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
            given = bonus_words(battle["bonus"][seat])
            if given:
                lines.append(f"{SIDES[seat]} bonus: {given}")
        box = 12 + 17 * len(lines)
        parts.append(
            f'<rect x="{x}" y="{y}" width="{width}" height="{box}" rx="6" fill="#fdecdc" '
            f'stroke="{TAKING_PART}" class="battle-box"/>'
        )
        for index, line in enumerate(lines):
            weight = "bold" if index == 0 else "normal"
            parts.append(
                fitted(x + 8, y + 20 + 17 * index, line, 12, width - 16, f' font-weight="{weight}"')
            )
        y += box + 8
    parts.append(
        f'<text x="{x}" y="{y + 14}" font-size="10" fill="{MUTED}">'
        f'<tspan fill="{TAKING_PART}" font-weight="bold">orange</tspan>: in the battle · '
        f'<tspan fill="{TARGET}" font-weight="bold">red</tspan>: target · ▶ firing · ▾ face down'
        "</text>"
    )
    return "".join(parts), y + 24
