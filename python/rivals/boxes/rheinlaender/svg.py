"""Rheinländer as a picture: the Rhine as a band of sections wrapped into rows (left bank above,
river in the middle, right bank below), islands in the river between their two numbers, landmark
sites on the outer edge of each bank. Knights are tokens in their seat's colour, bastions grey
towers; a domain is drawn as a band in its owner's colour (grey when ownerless) joining its
spaces, with a badge on its first space giving the duke and the value. A side panel lists points,
knights and bastions left, bishops, the archbishop and the hand sizes; a hand's cards are shown
only to the seat holding it. The last decision is ringed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.boxes.rheinlaender.terminal import SEAT_NAMES
from rivals.render import move_texts, result_text
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape, fitted, headline

__all__ = ["draw"]

SEAT_COLOURS = ("#d0342c", "#f2c230", "#2e9e4f", "#8e44ad", "#1f3f8f")
OWNERLESS = "#9a9a9a"
COL_W = 54
SITE_H = 30
BANK_H = 40
RIVER_H = 70
ROW_GAP = 14
ROW_H = SITE_H + BANK_H + RIVER_H + BANK_H + SITE_H + ROW_GAP
ROW_TARGET = 12
MAP_X = 34
MAP_Y = 78
PANEL_W = 330
TOKEN_R = 10
LAND = "#e7dcb5"
LAND_EDGE = "#b9a878"
WATER = "#9cc7e4"
WATER_EDGE = "#6d9ec2"
ISLAND = "#d9cf9f"


def _colour(seat: int | None) -> str:
    return OWNERLESS if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _seat_name(seat: int, player: int | None) -> str:
    name = f"seat {seat} ({SEAT_NAMES[seat % len(SEAT_NAMES)]})"
    return f"{name} · you" if seat == player else name


def _rows(game_map: dict[str, Any], top: int) -> list[tuple[int, int]]:
    """Sections ``first..last`` per row, never breaking between two numbers that a site or an
    island joins, so every landmark and island is drawn whole within one row."""
    joined: set[int] = set()
    spaces = {space["id"]: space for space in game_map["spaces"]}
    for space in game_map["spaces"]:
        if len(space["numbers"]) > 1:
            joined.update(range(min(space["numbers"]), max(space["numbers"])))
    for site in game_map["sites"]:
        numbers = [n for space_id in site["touches"] for n in spaces[space_id]["numbers"]]
        joined.update(range(min(numbers), max(numbers)))
    rows = []
    first = 1
    while first <= top:
        last = min(top, first + ROW_TARGET - 1)
        while last < top and last in joined and last > first:
            last -= 1
        rows.append((first, last))
        first = last + 1
    return rows


class _Layout:
    """Where every space and site of the map is drawn."""

    def __init__(self, game_map: dict[str, Any]) -> None:
        self.spaces = {space["id"]: space for space in game_map["spaces"]}
        top = max(n for space in game_map["spaces"] for n in space["numbers"])
        self.rows = _rows(game_map, top)
        self.row_of = {n: k for k, (a, b) in enumerate(self.rows) for n in range(a, b + 1)}
        self.width = max(b - a + 1 for a, b in self.rows) * COL_W
        self.height = len(self.rows) * ROW_H - ROW_GAP
        self.centre: dict[str, tuple[float, float]] = {}
        self.bank: dict[str, str] = {}
        for space in game_map["spaces"]:
            self.bank[space["id"]] = self._bank_of(space)
        for space in game_map["spaces"]:
            self.centre[space["id"]] = self._place(space)
        self.sites = {site["id"]: self._site_place(site["touches"]) for site in game_map["sites"]}
        self.site_touches = {site["id"]: site["touches"] for site in game_map["sites"]}

    def _bank_of(self, space: dict[str, Any]) -> str:
        if space["kind"] == "river":
            return "W"
        if len(space["numbers"]) == 1:
            return "L" if str(space["id"]).endswith("L") else "R"
        # An island lies on the bank of the land spaces it touches.
        for other in space["neighbours"]:
            found = self.spaces[other]
            if found["kind"] == "land" and len(found["numbers"]) == 1:
                return "L" if str(found["id"]).endswith("L") else "R"
        return "L"

    def row_top(self, n: int) -> float:
        return MAP_Y + self.row_of[n] * ROW_H

    def column_x(self, n: float) -> float:
        row = self.row_of[int(n)]
        return MAP_X + (n - self.rows[row][0] + 0.5) * COL_W

    def _place(self, space: dict[str, Any]) -> tuple[float, float]:
        numbers = space["numbers"]
        n = min(numbers)
        top = self.row_top(n)
        x = sum(self.column_x(k) for k in numbers) / len(numbers)
        bank = self.bank[space["id"]]
        river_top = top + SITE_H + BANK_H
        if len(numbers) > 1:
            return x, river_top + (14 if bank == "L" else RIVER_H - 14)
        if bank == "W":
            return x, river_top + RIVER_H / 2
        if bank == "L":
            return x, top + SITE_H + BANK_H / 2
        return x, river_top + RIVER_H + BANK_H / 2

    def _site_place(self, touches: list[str]) -> tuple[float, float, str]:
        xs = [self.centre[space_id][0] for space_id in touches]
        bank = self.bank[touches[0]]
        n = min(min(self.spaces[space_id]["numbers"]) for space_id in touches)
        top = self.row_top(n)
        y = top + SITE_H / 2 if bank == "L" else top + ROW_H - ROW_GAP - SITE_H / 2
        return sum(xs) / len(xs), y, bank


def _last_decision(history: Sequence[Move]) -> Move | None:
    return next((move for move in reversed(history) if move.player != CHANCE), None)


def _move_space(move: Move, game_map: dict[str, Any]) -> str | None:
    """The space a card play or bastion used (action encoding of docs/rules/rheinlaender.md)."""
    spaces = game_map["spaces"]
    count = len(spaces)
    top = max(n for space in spaces for n in space["numbers"])
    if move.action < top * count:
        return str(spaces[move.action % count]["id"])
    if move.action < top * count + count:
        return str(spaces[move.action - top * count]["id"])
    return None


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state`` as ``player`` sees it; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    game_map = state.game.map
    layout = _Layout(game_map)
    num_players = len(snapshot["points"])
    panel_x = MAP_X + layout.width + 30
    width = int(panel_x + PANEL_W)
    height = int(max(MAP_Y + layout.height + 20, MAP_Y + 140 * num_players + 200))
    last = _last_decision(history)
    status = _status(state, snapshot, player)
    parts = [f'<rect width="{width}" height="{height}" fill="{PAPER}"/>']
    parts.append(headline(MAP_X - 16, 30, "Rheinländer", status, width - MAP_X - 16))
    if last is not None:
        said = f"{_seat_name(last.player, player)}: {move_texts(state, player, last.step)[0]}"
        parts.append(
            fitted(
                MAP_X - 16,
                54,
                f"Last move: {said}",
                14,
                width - 2 * (MAP_X - 16) - 170,  # the step and turn on its right
                ' class="last-move-text"',
                HIGHLIGHT,
            )
        )
    parts.append(
        f'<text x="{width - 16}" y="54" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"step {len(history)} · turn {snapshot['turn']}</text>"
    )
    parts.append(_board(layout, snapshot, last, game_map))
    parts.append(_panel(snapshot, panel_x, num_players, player))
    return document(width, height, "".join(parts), f"Rheinländer: {status}")


def _status(state: State, snapshot: dict[str, Any], player: int | None) -> str:
    if state.is_terminal():
        return result_text(state)
    to_move = int(snapshot["current_player"])
    if to_move == CHANCE:
        receiving = snapshot.get("receiving")
        if receiving is None:
            return f"chance to move ({snapshot['phase']})"
        return f"dealing a card to {_seat_name(int(receiving), player)}"
    bastion = " (bastion placed)" if snapshot["bastion_placed"] else ""
    return f"{_seat_name(to_move, player)} to move{bastion}"


def _board(
    layout: _Layout, snapshot: dict[str, Any], last: Move | None, game_map: dict[str, Any]
) -> str:
    parts = [_rows_background(layout)]
    parts.append(_spaces(layout))
    parts.append(_domains(layout, snapshot))
    parts.append(_sites(layout, snapshot))
    knights: dict[str, int] = snapshot["knights"]
    for space_id in snapshot["bastions"]:
        x, y = layout.centre[space_id]
        parts.append(
            f'<g class="bastion" data-space="{escape(space_id)}">'
            f'<path d="M{x - 9} {y + 10} L{x - 9} {y - 6} L{x - 9} {y - 10} L{x - 5} {y - 10} '
            f"L{x - 5} {y - 6} L{x - 2} {y - 6} L{x - 2} {y - 10} L{x + 2} {y - 10} L{x + 2} "
            f"{y - 6} L{x + 5} {y - 6} L{x + 5} {y - 10} L{x + 9} {y - 10} L{x + 9} {y + 10} Z"
            f'" fill="#6f6f6f" stroke="{INK}" stroke-width="1.2"/></g>'
        )
    for space_id, seat in knights.items():
        x, y = layout.centre[space_id]
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{TOKEN_R}" fill="{_colour(seat)}" stroke="{INK}" '
            f'stroke-width="1.4" class="knight" data-space="{escape(space_id)}" '
            f'data-seat="{seat}"/>'
        )
    parts.append(_badges(layout, snapshot))
    if last is not None:
        space_id = _move_space(last, game_map)
        if space_id is not None:
            x, y = layout.centre[space_id]
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="{TOKEN_R + 6}" fill="none" stroke="{HIGHLIGHT}" '
                f'stroke-width="3.5" class="last-move" data-space="{escape(space_id)}"/>'
            )
    return "".join(parts)


def _rows_background(layout: _Layout) -> str:
    parts = []
    for first, last in layout.rows:
        top = layout.row_top(first)
        x0 = MAP_X
        span = (last - first + 1) * COL_W
        river_top = top + SITE_H + BANK_H
        parts.append(
            f'<rect x="{x0}" y="{top + SITE_H}" width="{span}" height="{BANK_H}" fill="{LAND}"/>'
            f'<rect x="{x0}" y="{river_top}" width="{span}" height="{RIVER_H}" fill="{WATER}"/>'
            f'<rect x="{x0}" y="{river_top + RIVER_H}" width="{span}" height="{BANK_H}" '
            f'fill="{LAND}"/>'
        )
        # The left bank, the water and the right bank, each marked at its middle.
        for letter, middle in (
            ("L", top + SITE_H + BANK_H / 2),
            ("W", river_top + RIVER_H / 2),
            ("R", river_top + RIVER_H + BANK_H / 2),
        ):
            parts.append(
                f'<text x="{x0 - 6}" y="{middle + 4}" font-size="11" '
                f'fill="{MUTED}" text-anchor="end">{letter}</text>'
            )
        if last < max(layout.row_of):
            # The river flows on into the next row.
            parts.append(
                f'<text x="{x0 + span + 4}" y="{river_top + RIVER_H / 2 + 5}" font-size="15" '
                f'fill="{WATER_EDGE}">↵</text>'
            )
    return "".join(parts)


def _spaces(layout: _Layout) -> str:
    parts = []
    for space_id, (x, y) in layout.centre.items():
        space = layout.spaces[space_id]
        numbers = "-".join(str(n) for n in space["numbers"])
        if len(space["numbers"]) > 1:
            parts.append(
                f'<ellipse cx="{x}" cy="{y}" rx="{COL_W * 0.55}" ry="12.5" fill="{ISLAND}" '
                f'stroke="{LAND_EDGE}" stroke-width="1.2"/>'
                f'<text x="{x + COL_W * 0.55 - 4}" y="{y + 4}" font-size="9" fill="{MUTED}" '
                f'text-anchor="end">{numbers}</text>'
            )
            continue
        river = space["kind"] == "river"
        half_h = 13 if river else BANK_H / 2 - 3
        parts.append(
            f'<rect x="{x - COL_W / 2 + 2}" y="{y - half_h}" width="{COL_W - 4}" '
            f'height="{2 * half_h}" rx="4" fill="none" '
            f'stroke="{WATER_EDGE if river else LAND_EDGE}" stroke-width="1"/>'
        )
        if not river:
            parts.append(
                f'<text x="{x - COL_W / 2 + 5}" y="{y - half_h + 10}" font-size="10" '
                f'fill="{INK}">{numbers}</text>'
            )
        else:
            parts.append(
                f'<text x="{x + COL_W / 2 - 5}" y="{y + 4}" font-size="9" fill="#3d6a8c" '
                f'text-anchor="end">{numbers}</text>'
            )
    return "".join(parts)


def _domains(layout: _Layout, snapshot: dict[str, Any]) -> str:
    """Each domain as thick bands in its owner's colour along the adjacencies that hold it
    together (across a row break the band is left out: the next row continues it)."""
    parts = []
    for index, domain in enumerate(snapshot["domains"]):
        colour = _colour(domain["owner"])
        members = set(domain["spaces"])
        edges = []
        for space_id in domain["spaces"]:
            for other in layout.spaces[space_id]["neighbours"]:
                if other in members and space_id < other:
                    a = min(layout.spaces[space_id]["numbers"])
                    b = min(layout.spaces[other]["numbers"])
                    if layout.row_of[a] != layout.row_of[b]:
                        continue
                    (x1, y1), (x2, y2) = layout.centre[space_id], layout.centre[other]
                    edges.append(f"M{x1} {y1} L{x2} {y2}")
        blobs = "".join(
            f'<circle cx="{layout.centre[s][0]}" cy="{layout.centre[s][1]}" r="{TOKEN_R + 6}"/>'
            for s in domain["spaces"]
        )
        parts.append(
            f'<g class="domain" data-domain="{index}" data-owner="{domain["owner"]}" '
            f'fill="{colour}" fill-opacity="0.45" stroke="none">{blobs}'
            f'<path d="{" ".join(edges)}" stroke="{colour}" stroke-opacity="0.45" '
            f'stroke-width="{2 * TOKEN_R + 8}" stroke-linecap="round" fill="none"/></g>'
        )
    return "".join(parts)


def _badges(layout: _Layout, snapshot: dict[str, Any]) -> str:
    """The duke (a crown in the owner's colour) and the value on each domain's first space."""
    parts = []
    for domain in snapshot["domains"]:
        x, y = layout.centre[domain["spaces"][0]]
        bx, by = x + 18, y - 7
        colour = _colour(domain["owner"])
        value = int(domain["value"])
        if domain["duke"]:
            parts.append(
                f'<path d="M{bx - 7} {by + 4} L{bx - 7} {by - 4} L{bx - 3.5} {by - 1} '
                f"L{bx} {by - 7} L{bx + 3.5} {by - 1} L{bx + 7} {by - 4} L{bx + 7} {by + 4} Z"
                f'" fill="{colour}" stroke="{INK}" stroke-width="1.2" class="duke" '
                f'data-owner="{domain["owner"]}"/>'
            )
        parts.append(
            f'<circle cx="{bx}" cy="{by + 13}" r="6.5" fill="#fff" stroke="{INK}" '
            f'stroke-width="0.8"/><text x="{bx}" y="{by + 16.5}" font-size="10" '
            f'font-weight="bold" fill="{INK}" text-anchor="middle" class="domain-value">'
            f"{value}</text>"
        )
        if domain["bishop"]:
            parts.append(
                f'<text x="{x - 18}" y="{y + 14}" font-size="12" font-weight="bold" '
                f'fill="{INK}" text-anchor="middle" class="bishop">✝</text>'
            )
    return "".join(parts)


def _sites(layout: _Layout, snapshot: dict[str, Any]) -> str:
    landmarks: dict[str, dict[str, Any]] = snapshot["landmarks"]
    castle_knights: dict[str, int] = snapshot["castle_knights"]
    parts = []
    for site_id, (x, y, bank) in layout.sites.items():
        # A short tie to each of the two land spaces the site touches.
        edge = y + (SITE_H / 2 if bank == "L" else -SITE_H / 2)
        parts.append(
            f'<line x1="{x - COL_W / 2}" y1="{edge}" x2="{x + COL_W / 2}" y2="{edge}" '
            f'stroke="{LAND_EDGE}" stroke-width="3"/>'
        )
        chip = landmarks.get(site_id)
        if chip is None:
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="8" fill="none" stroke="{LAND_EDGE}" '
                f'stroke-dasharray="3 2" class="site-empty" data-site="{site_id}"/>'
            )
            continue
        kind = str(chip["kind"])
        parts.append(f'<g class="landmark landmark-{kind}" data-site="{site_id}">')
        if kind == "city":
            parts.append(
                f'<path d="M{x - 11} {y + 9} L{x - 11} {y - 3} L{x - 6} {y - 9} L{x - 1} {y - 3} '
                f"L{x - 1} {y - 6} L{x + 11} {y - 6} L{x + 11} {y + 9} Z"
                f'" fill="#c9503c" stroke="{INK}" stroke-width="1"/>'
                f'<text x="{x + 5}" y="{y + 6}" font-size="11" font-weight="bold" fill="#fff" '
                f'text-anchor="middle">{int(chip["value"])}</text>'
            )
        elif kind == "castle":
            parts.append(
                f'<path d="M{x - 10} {y + 9} L{x - 10} {y - 8} L{x - 6} {y - 8} L{x - 6} {y - 4} '
                f"L{x - 2} {y - 4} L{x - 2} {y - 8} L{x + 2} {y - 8} L{x + 2} {y - 4} L{x + 6} "
                f"{y - 4} L{x + 6} {y - 8} L{x + 10} {y - 8} L{x + 10} {y + 9} Z"
                f'" fill="#8c7b63" stroke="{INK}" stroke-width="1"/>'
            )
        else:
            parts.append(
                f'<rect x="{x - 8}" y="{y - 3}" width="16" height="12" fill="#f4f0e4" '
                f'stroke="{INK}"/><path d="M{x} {y - 11} L{x} {y - 1} M{x - 4} {y - 7} '
                f'L{x + 4} {y - 7}" stroke="{INK}" stroke-width="2"/>'
            )
        parts.append("</g>")
        if site_id in castle_knights:
            seat = castle_knights[site_id]
            parts.append(
                f'<circle cx="{x + 18}" cy="{y}" r="{TOKEN_R - 2}" fill="{_colour(seat)}" '
                f'stroke="{INK}" stroke-width="1.4" class="castle-knight" '
                f'data-site="{site_id}" data-seat="{seat}"/>'
            )
    return "".join(parts)


def _panel(snapshot: dict[str, Any], x: float, num_players: int, player: int | None) -> str:
    to_move = int(snapshot["current_player"])
    archbishop = snapshot["archbishop"]
    parts = []
    y = float(MAP_Y) - 8
    for seat in range(num_players):
        active = seat == to_move
        owned = [d for d in snapshot["domains"] if d["owner"] == seat]
        hand: list[int] = snapshot["hands"][seat]
        parts.append(
            f'<g class="seat" data-seat="{seat}">'
            f'<rect x="{x - 8}" y="{y}" width="{PANEL_W - 12}" height="128" rx="8" '
            f'fill="{"#fff3c8" if active else "#f6efdf"}" '
            f'stroke="{HIGHLIGHT if active else "#d8ccb2"}" stroke-width="{2.5 if active else 1}"/>'
            f'<circle cx="{x + 6}" cy="{y + 16}" r="8" fill="{_colour(seat)}" stroke="{INK}" '
            f'stroke-width="1.3"/>'
            f'<text x="{x + 20}" y="{y + 21}" font-size="14" font-weight="bold" fill="{INK}">'
            f"{escape(_seat_name(seat, player))}"
            f"{' ▶' if active else ''}</text>"
            f'<text x="{x + 2}" y="{y + 42}" font-size="12" fill="{INK}">'
            f'points <tspan font-weight="bold" class="points">{snapshot["points"][seat]}</tspan>'
            f' · knights left <tspan font-weight="bold" class="knights-left">'
            f"{snapshot['knights_left'][seat]}</tspan>"
            f' · bastions left <tspan font-weight="bold" class="bastions-left">'
            f"{snapshot['bastions_left'][seat]}</tspan></text>"
            f'<text x="{x + 2}" y="{y + 60}" font-size="12" fill="{INK}">'
            f"domains {len(owned)} (value {sum(int(d['value']) for d in owned)})"
            f" · bishops {snapshot['bishops'][seat]}"
            f"{' · ARCHBISHOP' if archbishop == seat else ''}</text>"
            f'<text x="{x + 2}" y="{y + 78}" font-size="12" fill="{INK}">'
            f"score now {snapshot['scores'][seat]} · hand {len(hand)} cards</text>"
        )
        if seat == player:
            parts.append(f'<g class="hand" data-seat="{seat}">')
            for k, card in enumerate(hand):
                cx = x + 2 + k * 40
                parts.append(
                    f'<rect x="{cx}" y="{y + 88}" width="34" height="32" rx="4" fill="#fffaf0" '
                    f'stroke="{INK}" stroke-width="1.2"/><text x="{cx + 17}" y="{y + 110}" '
                    f'font-size="15" font-weight="bold" fill="{INK}" text-anchor="middle" '
                    f'class="card">{card}</text>'
                )
            parts.append("</g>")
        else:
            parts.append(
                f'<text x="{x + 2}" y="{y + 108}" font-size="11" fill="{MUTED}">hand hidden</text>'
            )
        parts.append("</g>")
        y += 138
    parts.append(
        f'<text x="{x}" y="{y + 12}" font-size="12" fill="{INK}">deck {snapshot["deck_size"]} · '
        f"discard {len(snapshot['discard'])} · phase {escape(str(snapshot['phase']))}</text>"
    )
    if snapshot["discard"]:
        parts.append(
            f'<text x="{x}" y="{y + 30}" font-size="11" fill="{MUTED}">discard: '
            f"{escape(' '.join(str(c) for c in snapshot['discard'][-14:]))}</text>"
        )
    legend = [
        "● knight · ♜ grey tower: bastion",
        "band: domain in its owner's colour (grey: none)",
        "crown: duke, number: domain value · ✝ bishop",
        "red house: city (value) · tower: castle · cross: church",
        "token beside a castle: its castle knight",
        "blue ring: last move",
    ]
    for k, line in enumerate(legend):
        parts.append(
            f'<text x="{x}" y="{y + 56 + 15 * k}" font-size="11" fill="{MUTED}">'
            f"{escape(line)}</text>"
        )
    return "".join(parts)
