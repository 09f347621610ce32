"""Sekigahara as a picture: Ishida's camp above and Tokugawa's below, each left to right as
cards (name, strength, blank marked), the central cards between them with each side's influence
tokens and the requirement, the supplies, the deck, the Tokugawa token, the strength totals and
the last move highlighted.

Everything in Sekigahara is public, so ``player`` only marks that seat as "you".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.boxes.sekigahara.terminal import asked
from rivals.render import result_text
from rivals.render._data import documents
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape, fitted, headline

__all__ = ["draw"]

CARD_W = 100
CARD_H = 132
GAP = 10
MARGIN = 24
WIDTH = MARGIN * 2 + 9 * CARD_W + 8 * GAP
CAMP_Y = (110, 520)
CENTRE_Y = 316
ABILITIES_Y = CAMP_Y[1] + CARD_H + 40
ABILITY_SIZE = 12
ABILITY_LINE = 15
# Two columns of abilities, each entry on at most two lines: the longest shipped ability with
# its card's name fits in two.
ABILITY_COLUMNS = 2
ABILITY_ROWS = 5
ABILITY_ENTRY = 2 * ABILITY_LINE + 6
HEIGHT = ABILITIES_Y + 24 + ABILITY_ROWS * ABILITY_ENTRY
SIDES = ("Ishida Mitsunari", "Tokugawa Ieyasu")
TOKEN = ("#2565b5", "#c0392b")
TOKEN_EDGE = ("#123c70", "#7a1d14")
CARD_FILL = "#fffaf0"
BLANK_FILL = "#dcd6ca"
LOCKED = "#d9a21b"
TOKENS = 5


def _cards(state: State) -> dict[int, dict[str, Any]]:
    """The game's cards by id (names, printed strengths and requirements)."""
    return {int(card["id"]): card for card in documents(state.game)["cards"]["cards"]}


def _side(seat: int, player: int | None) -> str:
    name = f"{SIDES[seat]} · seat {seat}"
    return f"{name} (you)" if seat == player else name


def _last_move(history: Sequence[Move]) -> Move | None:
    return history[-1] if history else None


def _move_cards(move: Move | None) -> set[int]:
    """The card ids a move names: the card placed on, both ends of a move, the card ordered,
    blanked, swapped or revealed."""
    if move is None or move.text == "end":
        return set()
    numbers = move.text.split(" ", 1)[1]
    return {int(part) for part in numbers.split("->")}


def _move_words(move: Move, cards: dict[int, dict[str, Any]]) -> str:
    who = "chance" if move.player == CHANCE else SIDES[move.player]
    verb, _, rest = move.text.partition(" ")
    if not rest:
        return f"{who}: ends the action phase"
    names = " → ".join(cards[int(part)]["name"] for part in rest.split("->"))
    return f"{who}: {verb} {rest} ({names})"


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state``; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    cards = _cards(state)
    last = _last_move(history)
    marked = _move_cards(last)
    status = _status(state, snapshot)
    parts = [
        '<defs><pattern id="sk-blank" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="8" height="8" fill="#e6e0d4"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#c9c0af" stroke-width="3"/></pattern></defs>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>',
        headline(MARGIN, 32, "Sekigahara", status, WIDTH - 2 * MARGIN - 130),
        f'<text x="{WIDTH - MARGIN}" y="32" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"turn {snapshot['turn']} · step {len(history)}</text>",
    ]
    if last is not None:
        parts.append(
            fitted(
                MARGIN,
                56,
                f"Last move: {_move_words(last, cards)}",
                14,
                WIDTH - 2 * MARGIN,
                ' class="last-move-text"',
                HIGHLIGHT,
            )
        )
    scores = [int(score) for score in snapshot["scores"]]
    strengths = snapshot["strengths"]
    for seat in (0, 1):
        parts.append(_camp(snapshot, cards, seat, player, marked, scores[seat], strengths[seat]))
    parts.append(_centre(snapshot, cards, marked))
    parts.append(_abilities(snapshot, cards))
    return document(WIDTH, HEIGHT, "".join(parts), f"Sekigahara: {status}")


def _status(state: State, snapshot: dict[str, Any]) -> str:
    if state.is_terminal():
        return f"game over: {result_text(state)}"
    to_move = int(snapshot["current_player"])
    if to_move == CHANCE:
        return "revealing a card"
    return f"{SIDES[to_move]} to move: {asked(snapshot)}"


def _tokens(x: float, y: float, seat: int, count: int, css: str) -> str:
    """``count`` influence tokens of ``seat`` in a row from (x, y)."""
    return "".join(
        f'<circle cx="{x + 14 * k}" cy="{y}" r="6" fill="{TOKEN[seat]}" '
        f'stroke="{TOKEN_EDGE[seat]}" stroke-width="1.2" class="{css}"/>'
        for k in range(count)
    )


def _camp(
    snapshot: dict[str, Any],
    cards: dict[int, dict[str, Any]],
    seat: int,
    player: int | None,
    marked: set[int],
    score: int,
    strengths: list[int],
) -> str:
    y = CAMP_Y[seat]
    turn_player = int(snapshot["turn_player"]) == seat and snapshot["phase"] != "terminal"
    supply = int(snapshot["supply"][seat])
    head_y = y - 14
    parts = [
        f'<g class="camp" data-seat="{seat}">',
        f'<circle cx="{MARGIN + 7}" cy="{head_y - 5}" r="7" fill="{TOKEN[seat]}" '
        f'stroke="{TOKEN_EDGE[seat]}"/>',
        f'<text x="{MARGIN + 20}" y="{head_y}" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(_side(seat, player))}"
        f"{' ▶' if turn_player else ''}</text>",
        f'<text x="{MARGIN + 330}" y="{head_y}" font-size="13" fill="{INK}">supply</text>',
        "".join(
            f'<circle cx="{MARGIN + 384 + 14 * k}" cy="{head_y - 5}" r="6" fill="none" '
            f'stroke="{TOKEN[seat]}" stroke-opacity="0.35"/>'
            for k in range(supply, TOKENS)
        ),
        _tokens(MARGIN + 384, head_y - 5, seat, supply, "supply-token"),
        f'<text x="{MARGIN + 384 + 14 * 5 + 4}" y="{head_y}" font-size="13" fill="{INK}" '
        f'class="supply" data-seat="{seat}">{supply}</text>',
        f'<text x="{WIDTH - MARGIN}" y="{head_y}" font-size="15" fill="{INK}" text-anchor="end">'
        f'strength <tspan font-weight="bold" font-size="19" class="score" data-seat="{seat}">'
        f"{score}</tspan></text>",
    ]
    if seat == 1:
        # The Tokugawa token: one strength of its own, drawn beside the total it adds to.
        parts.append(
            f'<g class="tokugawa-token"><circle cx="{WIDTH - MARGIN - 150}" cy="{head_y - 5}" '
            f'r="10" fill="#f4c542" stroke="#5c4300" stroke-width="1.4"/>'
            f'<text x="{WIDTH - MARGIN - 150}" y="{head_y - 1}" font-size="11" '
            'font-weight="bold" fill="#5c4300" text-anchor="middle">+1</text>'
            f'<text x="{WIDTH - MARGIN - 164}" y="{head_y}" font-size="11" fill="{MUTED}" '
            'text-anchor="end">Tokugawa token</text></g>'
        )
    camp = snapshot["camps"][seat]
    if not camp:
        parts.append(
            f'<rect x="{MARGIN}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="7" fill="none" '
            'stroke="#cbbd9f" stroke-dasharray="5 4"/>'
            f'<text x="{MARGIN + CARD_W + 12}" y="{y + CARD_H / 2}" font-size="13" '
            f'fill="{MUTED}">no daimyō yet</text>'
        )
    for index, entry in enumerate(camp):
        card_id = int(entry["id"])
        x = MARGIN + index * (CARD_W + GAP)
        parts.append(
            _card(cards[card_id], x, y, bool(entry["blank"]), card_id in marked, strengths[index])
        )
    parts.append("</g>")
    return "".join(parts)


def _card(
    card: dict[str, Any], x: float, y: float, blank: bool, marked: bool, final: int | None
) -> str:
    """A daimyō: id, name on two lines, strength large, requirement small; in a camp, where its
    abilities change its strength, the strength it counts now beside the printed one."""
    words = str(card["name"]).split(" ")
    lines = [" ".join(words[:1]), " ".join(words[1:])] if len(words) > 1 else words
    classes = "card blank" if blank else "card"
    parts = [
        f'<g class="{classes}" data-card="{card["id"]}" '
        f'data-strength="{card["strength"] if final is None else final}">'
        f"<title>{escape(_tooltip(card, blank))}</title>",
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="7" '
        f'fill="{"url(#sk-blank)" if blank else CARD_FILL}" '
        f'stroke="{HIGHLIGHT if marked else "#8a7a5c"}" stroke-width="{3.5 if marked else 1.2}"/>',
        f'<text x="{x + 8}" y="{y + 18}" font-size="12" fill="{MUTED}">#{card["id"]}</text>',
        f'<text x="{x + CARD_W - 8}" y="{y + 18}" font-size="11" fill="{MUTED}" '
        f'text-anchor="end">req {card["requirement"]}</text>',
        f'<text x="{x + CARD_W / 2}" y="{y + 66}" font-size="34" font-weight="bold" '
        f'fill="{INK}" text-anchor="middle" class="strength">{card["strength"]}</text>',
    ]
    for k, line in enumerate(lines):
        parts.append(
            fitted(
                x + CARD_W / 2,
                y + 92 + 15 * k,
                line,
                12,
                CARD_W - 10,
                ' text-anchor="middle" class="name"',
            )
        )
    if final is not None and final != int(card["strength"]):
        parts.append(
            f'<text x="{x + CARD_W - 8}" y="{y + 66}" font-size="16" font-weight="bold" '
            f'fill="{HIGHLIGHT}" text-anchor="end" class="final">→{final}</text>'
        )
    if blank:
        parts.append(
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H - 6}" font-size="11" font-weight="bold" '
            f'fill="#8b1d1d" text-anchor="middle" class="blank-mark">BLANK</text>'
        )
    if marked:
        parts.append(
            f'<rect x="{x - 4}" y="{y - 4}" width="{CARD_W + 8}" height="{CARD_H + 8}" rx="9" '
            f'fill="none" stroke="{HIGHLIGHT}" stroke-width="1.5" stroke-dasharray="4 3" '
            'class="last-move"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _tooltip(card: dict[str, Any], blank: bool) -> str:
    ability = "blank: its ability does not count" if blank else str(card.get("ability", ""))
    return f"#{card['id']} {card['name']} (strength {card['strength']}): {ability}"


def _lines(text: str, room: float, size: int) -> list[str]:
    """``text`` broken between words into lines of at most ``room`` units at ``size``."""
    most = max(1, int(room / (size * 0.58)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _abilities(snapshot: dict[str, Any], cards: dict[int, dict[str, Any]]) -> str:
    """Every ability of the cards on the table, by card number: the cards have no room for
    them, and a tooltip is out of reach of a printed page or a touch screen."""
    blank = {int(entry["id"]) for camp in snapshot["camps"] for entry in camp if entry["blank"]}
    shown = sorted(
        {int(entry["id"]) for camp in snapshot["camps"] for entry in camp}
        | {int(entry["id"]) for entry in snapshot["neutral"]}
    )
    column_w = (WIDTH - 2 * MARGIN) / ABILITY_COLUMNS
    parts = [
        f'<g class="abilities"><text x="{MARGIN}" y="{ABILITIES_Y}" font-size="13" '
        f'font-weight="bold" fill="{MUTED}">ABILITIES</text>'
    ]
    for index, card_id in enumerate(shown):
        card = cards[card_id]
        column, row = divmod(index, ABILITY_ROWS)
        x = MARGIN + column * column_w
        y = ABILITIES_Y + 22 + row * ABILITY_ENTRY
        ability = "blank: no ability" if card_id in blank else str(card.get("ability", ""))
        head = f"#{card_id} {card['name']}: "
        room = column_w - 16
        lines = _lines(head + ability, room, ABILITY_SIZE)
        if len(lines) > 2:  # a card set of its own may say more than the shipped one
            lines = [lines[0], " ".join(lines[1:])]
        parts.append(f'<g class="ability" data-card="{card_id}">')
        for k, line in enumerate(lines):
            if k == 0 and line.startswith(head.rstrip()):
                rest = line[len(head) :]
                parts.append(
                    f'<text x="{x}" y="{y + k * ABILITY_LINE}" font-size="{ABILITY_SIZE}" '
                    f'fill="{INK}"><tspan font-weight="bold">{escape(head)}</tspan>'
                    f"{escape(rest)}</text>"
                )
            else:
                parts.append(fitted(x, y + k * ABILITY_LINE, line, ABILITY_SIZE, room))
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)


def _centre(snapshot: dict[str, Any], cards: dict[int, dict[str, Any]], marked: set[int]) -> str:
    top = CENTRE_Y - 48
    parts = [
        f'<rect x="{MARGIN - 8}" y="{top}" width="{WIDTH - 2 * MARGIN + 16}" height="{CARD_H + 66}"'
        ' rx="10" fill="#f3ead6" stroke="#d8ccb2"/>',
        f'<text x="{MARGIN}" y="{top + 20}" font-size="13" font-weight="bold" fill="{MUTED}">'
        "CENTRAL DAIMYŌ</text>",
    ]
    locked = {int(card) for card in snapshot["locked"]}
    for index, entry in enumerate(snapshot["neutral"]):
        card_id = int(entry["id"])
        x = MARGIN + index * (CARD_W + 130 + GAP)
        parts.append(_card(cards[card_id], x, CENTRE_Y, False, card_id in marked, None))
        influence = [int(value) for value in entry["influence"]]
        tx = x + CARD_W + 14
        parts.append(f'<g class="influence" data-card="{card_id}">')
        for seat in (0, 1):
            ty = CENTRE_Y + 24 + 36 * seat
            parts.append(
                f'<text x="{tx}" y="{ty + 4}" font-size="13" font-weight="bold" '
                f'fill="{TOKEN[seat]}" class="influence-count" data-seat="{seat}">'
                f"{influence[seat]}</text>" + _tokens(tx + 20, ty, seat, influence[seat], "token")
            )
        parts.append("</g>")
        parts.append(
            f'<text x="{tx}" y="{CENTRE_Y + 104}" font-size="11" fill="{MUTED}">'
            f"locks at over {cards[card_id]['requirement']}</text>"
        )
        if card_id in locked:
            parts.append(
                f'<text x="{tx}" y="{CENTRE_Y + 124}" font-size="12" font-weight="bold" '
                f'fill="{LOCKED}" class="locked">LOCKED</text>'
            )
        elif influence[0] != influence[1]:
            ahead = 0 if influence[0] > influence[1] else 1
            parts.append(
                f'<text x="{tx}" y="{CENTRE_Y + 124}" font-size="12" font-weight="bold" '
                f'fill="{TOKEN[ahead]}" class="ahead" data-seat="{ahead}">'
                f"{SIDES[ahead].split(' ')[0]} ahead</text>"
            )
    deck = len(snapshot["deck"])
    dx = WIDTH - MARGIN - 70
    parts.append(
        f'<rect x="{dx + 6}" y="{CENTRE_Y + 6}" width="58" height="80" rx="6" fill="#5b4630"/>'
        f'<rect x="{dx}" y="{CENTRE_Y}" width="58" height="80" rx="6" fill="#7d5a3c" '
        f'stroke="{INK}"/>'
        f'<text x="{dx + 29}" y="{CENTRE_Y + 48}" font-size="22" font-weight="bold" '
        f'fill="{PAPER}" text-anchor="middle" class="deck">{deck}</text>'
        f'<text x="{dx + 32}" y="{CENTRE_Y + 106}" font-size="12" fill="{MUTED}" '
        'text-anchor="middle">in the deck</text>'
    )
    return "".join(parts)
