"""Rosenkönig as a picture: the 9x9 board with red and white roses, the crown, the last play
highlighted with an arrow from where the crown stood, every hand as cards with an arrow and a
distance, heroes, the supply and the score.

Everything in Rosenkönig is public, so ``player`` only marks that seat as "you".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.render import result_text, seat_label
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape, fitted, headline

__all__ = ["draw"]

SIZE = 9
CELL = 56
BOARD_X = 40
BOARD_Y = 84
PANEL_X = BOARD_X + SIZE * CELL + 36
WIDTH = PANEL_X + 390
SEAT_BLOCK = 112
# Below the seats: the score (74 units) and the supply with the legend (70).
BELOW_SEATS = 150
CARD_W = 60
CARD_H = 80
CARD_GAP = 8
HAND_LIMIT = {2: 5, 4: 3}
DRAW = 48
PASS = 49
NUM_CARDS = 24
# Card id = direction * 3 + distance - 1 (docs/rules/rosenkoenig.md); (row, col) steps.
DIRECTIONS = (
    ("N", -1, 0),
    ("NE", -1, 1),
    ("E", 0, 1),
    ("SE", 1, 1),
    ("S", 1, 0),
    ("SW", 1, -1),
    ("W", 0, -1),
    ("NW", -1, -1),
)
PLAYABLE = "#2f8f46"
HERO_GOLD = "#d9a21b"
BOARD_FILL = "#efe2bf"
BOARD_LINE = "#c2ab7a"
BOARD_EDGE = "#6b5330"
TEAM_FILL = ("#a61e24", "#f3eee2")
TEAM_EDGE = ("#6d1016", "#9d917a")

DEFS = (
    "<defs>"
    # Tudor roses: five outer petals, five inner ones turned half a petal, a golden heart.
    + "".join(
        f'<g id="rk-stone-{colour}">'
        f'<circle r="24" fill="{fill}" stroke="{edge}" stroke-width="1.6"/>'
        + "".join(
            f'<circle cx="{8.5 * math.cos(math.radians(72 * k - 90)):.2f}" '
            f'cy="{8.5 * math.sin(math.radians(72 * k - 90)):.2f}" r="8.2" fill="{petal}" '
            f'stroke="{edge}" stroke-width="0.8"/>'
            for k in range(5)
        )
        + "".join(
            f'<circle cx="{4.6 * math.cos(math.radians(72 * k - 54)):.2f}" '
            f'cy="{4.6 * math.sin(math.radians(72 * k - 54)):.2f}" r="4.6" fill="{inner}" '
            f'stroke="{edge}" stroke-width="0.6"/>'
            for k in range(5)
        )
        + f'<circle r="2.8" fill="#f0c23c" stroke="{edge}" stroke-width="0.6"/></g>'
        for colour, fill, petal, inner, edge in (
            ("R", "#a61e24", "#d23c43", "#e8696e", "#6d1016"),
            ("W", "#f3eee2", "#fdfbf6", "#ffffff", "#9d917a"),
        )
    )
    + '<g id="rk-crown"><path d="M-15 7 L-15 -5 L-8 1 L0 -11 L8 1 L15 -5 L15 7 Z" '
    'fill="#f4c542" stroke="#5c4300" stroke-width="1.6" stroke-linejoin="round"/>'
    '<rect x="-15" y="7" width="30" height="5" rx="1" fill="#e0ac22" stroke="#5c4300" '
    'stroke-width="1.4"/><circle cx="-15" cy="-6" r="2.4" fill="#f4c542" stroke="#5c4300"/>'
    '<circle cx="0" cy="-12" r="2.6" fill="#f4c542" stroke="#5c4300"/>'
    '<circle cx="15" cy="-6" r="2.4" fill="#f4c542" stroke="#5c4300"/>'
    '<circle cx="0" cy="2.5" r="2.2" fill="#c0392b"/></g>'
    '<path id="rk-shield" d="M0 -8 L7 -5 L7 1 C7 5 3.5 7.5 0 9 C-3.5 7.5 -7 5 -7 1 L-7 -5 Z"/>'
    '<marker id="rk-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
    'markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" '
    f'fill="{HIGHLIGHT}"/></marker>'
    '<marker id="rk-card-arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" '
    f'markerHeight="4" orient="auto"><path d="M0 0 L10 5 L0 10 Z" fill="{INK}"/></marker>'
    "</defs>"
)


def _centre(row: int, col: int) -> tuple[float, float]:
    return BOARD_X + (col + 0.5) * CELL, BOARD_Y + (row + 0.5) * CELL


def _seat_name(num_players: int, seat: int, player: int | None) -> str:
    name = f"{seat_label('rosenkoenig', num_players, seat)} · seat {seat}"
    return f"{name} (you)" if seat == player else name


def _last_play(history: Sequence[Move]) -> Move | None:
    """The last card played (with or without a hero): it moved the crown."""
    for move in reversed(history):
        if move.player != CHANCE and move.action < DRAW:
            return move
    return None


def _who(num_players: int, seat: int) -> str:
    return f"{seat_label('rosenkoenig', num_players, seat)} (seat {seat})"


def _last_move(history: Sequence[Move], num_players: int) -> str:
    """The last action in words: a play, a draw and the card drawn, a pass, or a card dealt."""
    if not history:
        return ""
    last = history[-1]
    if last.player != CHANCE:
        who = _who(num_players, last.player)
        if last.action == DRAW:
            return f"{who} draws a card"
        if last.action == PASS:
            return f"{who} passed"
        return f"{who} played {last.text}"
    previous = history[-2] if len(history) > 1 else None
    if previous is not None and previous.player != CHANCE:
        return f"{_who(num_players, previous.player)} drew {last.text}"
    # Still in the opening deal: each seat in turn is dealt a full hand.
    seat = (len(history) - 1) // HAND_LIMIT[num_players]
    return f"{last.text} dealt to {_who(num_players, seat)}"


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state``; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    num_players = len(snapshot["hands"])
    height = max(BOARD_Y + SIZE * CELL + 28, BOARD_Y + num_players * SEAT_BLOCK + BELOW_SEATS)
    parts = [DEFS, f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>']
    parts.append(_header(state, snapshot, history, num_players))
    parts.append(_board(snapshot, history))
    parts.append(_panel(state, snapshot, num_players, player))
    title = f"Rosenkönig: {_status(state, snapshot, num_players)}"
    return document(WIDTH, height, "".join(parts), title)


def _status(state: State, snapshot: dict[str, Any], num_players: int) -> str:
    to_move = int(snapshot["current_player"])
    if state.is_terminal():
        return f"game over: {result_text(state)}"
    if to_move == CHANCE:
        receiving = snapshot.get("receiving")
        if receiving is None:
            return "chance to move"
        return f"dealing a card to {_seat_name(num_players, int(receiving), None)}"
    return f"{_seat_name(num_players, to_move, None)} to move"


def _header(
    state: State, snapshot: dict[str, Any], history: Sequence[Move], num_players: int
) -> str:
    parts = [
        headline(BOARD_X - 16, 30, "Rosenkönig", _status(state, snapshot, num_players), WIDTH - 110)
    ]
    last = _last_move(history, num_players)
    play = _last_play(history)
    if play is not None and play is not history[-1]:
        # A draw or a deal since: the arrow on the board is the last card played, not the last
        # move, and the caption says which it is.
        who = _who(num_players, play.player)
        last += f" · arrow: {who} played {play.text} (move {play.step + 1})"
    if last:
        parts.append(
            fitted(
                BOARD_X - 16,
                52,
                f"Last move: {last}",
                14,
                WIDTH - BOARD_X,
                ' class="last-move-text"',
                HIGHLIGHT,
            )
        )
    parts.append(
        f'<text x="{WIDTH - 16}" y="30" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"step {len(history)}</text>"
    )
    return "".join(parts)


def _board(snapshot: dict[str, Any], history: Sequence[Move]) -> str:
    board: list[str] = snapshot["board"]
    crown_row, crown_col = (int(value) for value in snapshot["crown"])
    size = SIZE * CELL
    parts = [
        f'<rect x="{BOARD_X - 6}" y="{BOARD_Y - 6}" width="{size + 12}" height="{size + 12}" '
        f'rx="6" fill="{BOARD_EDGE}"/>',
        f'<rect x="{BOARD_X}" y="{BOARD_Y}" width="{size}" height="{size}" fill="{BOARD_FILL}"/>',
    ]
    for k in range(1, SIZE):
        offset = k * CELL
        parts.append(
            f'<line x1="{BOARD_X + offset}" y1="{BOARD_Y}" x2="{BOARD_X + offset}" '
            f'y2="{BOARD_Y + size}" stroke="{BOARD_LINE}" stroke-width="1"/>'
            f'<line x1="{BOARD_X}" y1="{BOARD_Y + offset}" x2="{BOARD_X + size}" '
            f'y2="{BOARD_Y + offset}" stroke="{BOARD_LINE}" stroke-width="1"/>'
        )
    for k in range(SIZE):
        x, y = _centre(k, k)
        parts.append(
            f'<text x="{x}" y="{BOARD_Y - 12}" font-size="12" fill="{MUTED}" '
            f'text-anchor="middle">{k}</text>'
            f'<text x="{BOARD_X - 14}" y="{y + 4}" font-size="12" fill="{MUTED}" '
            f'text-anchor="middle">{k}</text>'
        )
    # The centre, where the crown starts, keeps a faint mark once it is left.
    cx, cy = _centre(SIZE // 2, SIZE // 2)
    parts.append(
        f'<circle cx="{cx}" cy="{cy}" r="5" fill="none" stroke="{BOARD_LINE}" stroke-width="2"/>'
    )
    last = _last_play(history)
    if last is not None:
        parts.append(
            f'<rect x="{BOARD_X + crown_col * CELL + 2}" y="{BOARD_Y + crown_row * CELL + 2}" '
            f'width="{CELL - 4}" height="{CELL - 4}" rx="5" fill="{HIGHLIGHT}" '
            'fill-opacity="0.18" stroke="none"/>'
        )
    for row, line in enumerate(board):
        for col, cell in enumerate(line):
            if cell in "RW":
                x, y = _centre(row, col)
                parts.append(
                    f'<use href="#rk-stone-{cell}" x="{x}" y="{y}" '
                    f'class="stone stone-{cell}" data-square="{row},{col}"/>'
                )
    if last is not None:
        # An older play (a card drawn since) is drawn fainter than the move just made.
        parts.append(_last_play_marks(last, crown_row, crown_col, last is history[-1]))
    x, y = _centre(crown_row, crown_col)
    parts.append(f'<use href="#rk-crown" x="{x}" y="{y}" class="crown"/>')
    return "".join(parts)


def _last_play_marks(last: Move, row: int, col: int, latest: bool) -> str:
    """The landing square framed, and an arrow from the square the crown came from; faint when
    other moves have followed the play."""
    card = last.action % NUM_CARDS
    _, d_row, d_col = DIRECTIONS[card // 3]
    distance = card % 3 + 1
    from_row, from_col = row - d_row * distance, col - d_col * distance
    x0, y0 = _centre(from_row, from_col)
    x1, y1 = _centre(row, col)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    start = (x0 + ux * 10, y0 + uy * 10)
    end = (x1 - ux * 27, y1 - uy * 27)
    parts = [
        f'<g class="last-play" data-step="{last.step}" opacity="{1 if latest else 0.45}">',
        f'<rect x="{BOARD_X + col * CELL + 1.5}" y="{BOARD_Y + row * CELL + 1.5}" '
        f'width="{CELL - 3}" height="{CELL - 3}" rx="5" fill="none" stroke="{HIGHLIGHT}" '
        'stroke-width="3.5" class="last-move"/>',
        f'<circle cx="{x0}" cy="{y0}" r="6" fill="{HIGHLIGHT}" fill-opacity="0.85"/>',
        f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{end[0]:.1f}" y2="{end[1]:.1f}" '
        f'stroke="{HIGHLIGHT}" stroke-width="4" stroke-linecap="round" '
        'marker-end="url(#rk-arrow)" opacity="0.9"/>',
    ]
    if last.action >= NUM_CARDS:
        # A hero flipped this stone: the hero's shield sits on the square's corner.
        parts.append(
            f'<use href="#rk-shield" x="{x1 + 19}" y="{y1 - 18}" fill="{HERO_GOLD}" '
            f'stroke="{INK}" stroke-width="1.2"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _panel(state: State, snapshot: dict[str, Any], num_players: int, player: int | None) -> str:
    to_move = int(snapshot["current_player"])
    legal = set(state.legal_actions()) if to_move >= 0 else set()
    start = cast("dict[str, Any]", state.game.new_initial_state().to_dict())
    heroes_dealt = max(int(heroes) for heroes in start["heroes"])
    limit = HAND_LIMIT[num_players]
    parts = []
    y = BOARD_Y - 6
    for seat in range(num_players):
        parts.append(
            _seat_block(
                seat,
                y,
                snapshot,
                num_players,
                player,
                legal if seat == to_move else set(),
                heroes_dealt,
                limit,
            )
        )
        y += SEAT_BLOCK
    parts.append(_score_block(state, snapshot, y + 4))
    parts.append(_supply_block(snapshot, y + 78))
    return "".join(parts)


def _seat_block(
    seat: int,
    y: float,
    snapshot: dict[str, Any],
    num_players: int,
    player: int | None,
    legal: set[int],
    heroes_dealt: int,
    limit: int,
) -> str:
    team = seat % 2
    to_move = int(snapshot["current_player"]) == seat
    parts = [
        f'<g class="seat" data-seat="{seat}">',
        f'<rect x="{PANEL_X - 10}" y="{y}" width="380" height="104" rx="8" '
        f'fill="{"#fff3c8" if to_move else "#f6efdf"}" '
        f'stroke="{HIGHLIGHT if to_move else "#d8ccb2"}" '
        f'stroke-width="{2.5 if to_move else 1}"/>',
        f'<circle cx="{PANEL_X + 4}" cy="{y + 15}" r="7" fill="{TEAM_FILL[team]}" '
        f'stroke="{TEAM_EDGE[team]}" stroke-width="1.4"/>',
        f'<text x="{PANEL_X + 17}" y="{y + 20}" font-size="14" font-weight="bold" '
        f'fill="{INK}">{escape(_seat_name(num_players, seat, player))}</text>',
    ]
    if to_move:
        # The bold name is about 8.5 units a character at this size.
        tag_x = PANEL_X + 17 + 8.5 * len(_seat_name(num_players, seat, player)) + 10
        parts.append(
            f'<text x="{tag_x:.0f}" y="{y + 20}" font-size="12" font-weight="bold" '
            f'fill="{HIGHLIGHT}">▶ to move</text>'
        )
    heroes_left = int(snapshot["heroes"][seat])
    for k in range(heroes_dealt):
        used = k >= heroes_left
        parts.append(
            f'<use href="#rk-shield" x="{PANEL_X + 356 - 18 * (heroes_dealt - 1 - k)}" '
            f'y="{y + 15}" fill="{HERO_GOLD}" fill-opacity="{0.15 if used else 1}" '
            f'stroke="{INK}" stroke-opacity="{0.3 if used else 1}" stroke-width="1.1" '
            f'class="{"hero-used" if used else "hero"}"/>'
        )
    hand: list[str] = snapshot["hands"][seat]
    for index in range(limit):
        x = PANEL_X + index * (CARD_W + CARD_GAP)
        if index < len(hand):
            parts.append(_card(hand[index], x, y + 26, legal))
        else:
            parts.append(
                f'<rect x="{x}" y="{y + 26}" width="{CARD_W}" height="{CARD_H - 6}" rx="6" '
                'fill="none" stroke="#cbbd9f" stroke-dasharray="4 3"/>'
            )
    parts.append("</g>")
    return "".join(parts)


def _card(text: str, x: float, y: float, legal: set[int]) -> str:
    """A power card: its distance large in the corner, an arrow for its direction."""
    direction = text.rstrip("123")
    distance = int(text[len(direction) :])
    index = next(k for k, (name, _, _) in enumerate(DIRECTIONS) if name == direction)
    _, d_row, d_col = DIRECTIONS[index]
    card = index * 3 + distance - 1
    playable = card in legal
    hero = card + NUM_CARDS in legal
    height = CARD_H - 6
    # The arrow has one length for every card, centred on the card; the distance is the number.
    cx, cy = x + CARD_W / 2, y + 38
    norm = math.hypot(d_row, d_col)
    ux, uy = d_col / norm * 15, d_row / norm * 15
    parts = [
        f'<g class="card" data-card="{escape(text)}">',
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{height}" rx="6" fill="#fffaf0" '
        f'stroke="{PLAYABLE if playable else "#8a7a5c"}" '
        f'stroke-width="{2.6 if playable else 1.2}"/>',
        f'<text x="{x + 6}" y="{y + 18}" font-size="17" font-weight="bold" fill="{INK}">'
        f"{distance}</text>",
        f'<line x1="{cx - ux:.1f}" y1="{cy - uy:.1f}" x2="{cx + ux:.1f}" y2="{cy + uy:.1f}" '
        f'stroke="{INK}" stroke-width="3" stroke-linecap="round" '
        'marker-end="url(#rk-card-arrow)"/>',
        f'<text x="{cx}" y="{y + height - 5}" font-size="11" fill="{MUTED}" '
        f'text-anchor="middle">{escape(text)}</text>',
    ]
    if hero:
        parts.append(
            f'<use href="#rk-shield" x="{x + CARD_W - 11}" y="{y + 12}" fill="{HERO_GOLD}" '
            f'stroke="{INK}" stroke-width="1"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _score_block(state: State, snapshot: dict[str, Any], y: float) -> str:
    scores = [float(score) for score in snapshot["scores"]]
    parts = [
        f'<text x="{PANEL_X - 4}" y="{y + 16}" font-size="12" fill="{MUTED}">SCORE</text>',
    ]
    for team in range(2):
        x = PANEL_X - 4 + 70 + 150 * team
        name = seat_label("rosenkoenig", 2, team)
        parts.append(
            f'<circle cx="{x + 8}" cy="{y + 26}" r="9" fill="{TEAM_FILL[team]}" '
            f'stroke="{TEAM_EDGE[team]}" stroke-width="1.4"/>'
            f'<text x="{x + 24}" y="{y + 33}" font-size="22" font-weight="bold" fill="{INK}" '
            f'class="score" data-team="{name}">{scores[team]:g}</text>'
            f'<text x="{x + 24}" y="{y + 48}" font-size="11" fill="{MUTED}">{name}</text>'
        )
    if state.is_terminal():
        # Who won and by what: why the game ended is in the headline, with room for it.
        parts.append(
            fitted(
                PANEL_X - 4,
                y + 66,
                result_text(state).split(" (", 1)[0],
                13,
                WIDTH - PANEL_X - 12,
                ' font-weight="bold" class="result"',
                HIGHLIGHT,
            )
        )
    return "".join(parts)


def _supply_block(snapshot: dict[str, Any], y: float) -> str:
    stones = int(snapshot["stones_left"])
    draw_pile = len(snapshot["draw_pile"])
    discard = len(snapshot["discard"])
    x = PANEL_X - 4
    return (
        f'<use href="#rk-stone-R" transform="translate({x + 9} {y + 14}) scale(0.38)"/>'
        f'<use href="#rk-stone-W" transform="translate({x + 19} {y + 14}) scale(0.38)"/>'
        f'<text x="{x + 34}" y="{y + 19}" font-size="13" fill="{INK}">'
        f'<tspan font-weight="bold" class="stones-left">{stones}</tspan> stones left</text>'
        f'<rect x="{x + 150}" y="{y + 4}" width="14" height="19" rx="2" fill="#7d5a3c" '
        f'stroke="{INK}" stroke-width="0.8"/>'
        f'<text x="{x + 170}" y="{y + 19}" font-size="13" fill="{INK}">'
        f'<tspan font-weight="bold">{draw_pile}</tspan> to draw</text>'
        f'<rect x="{x + 250}" y="{y + 4}" width="14" height="19" rx="2" fill="#fffaf0" '
        f'stroke="{INK}" stroke-width="0.8"/>'
        f'<text x="{x + 270}" y="{y + 19}" font-size="13" fill="{INK}">'
        f'<tspan font-weight="bold">{discard}</tspan> discarded</text>'
        f'<text x="{x}" y="{y + 46}" font-size="11" fill="{MUTED}">'
        f'<tspan fill="{PLAYABLE}" font-weight="bold">green</tspan> frame: playable · '
        f'<tspan fill="{HERO_GOLD}" font-weight="bold">shield</tspan> on a card: with a hero</text>'
        f'<text x="{x}" y="{y + 62}" font-size="11" fill="{MUTED}">'
        "shields by a name: heroes left · north is up</text>"
    )
