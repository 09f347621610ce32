"""Verräter as a picture: the ring of twelve landscapes as a circle (type, the house side shown in
gold for the eagle and crimson for the rose, Gutshof or Kontor with its owner), the conflict site
between two neighbours, and a panel per seat with house, victory points, hand, played supply cards
and action card, plus the round, the start player, the strategist and the supply piles.

Hands and undrafted action cards are hidden: ``player`` sees their own hand, their own pick and
their received pool (from ``observation_string``); other hands show as card backs; an action card
appears once its holder's viewer or the reveal allows it. A spectator sees what every seat sees.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from rivals._core import CHANCE, State
from rivals.boxes.verraeter.terminal import end_reason
from rivals.render import move_texts, result_text
from rivals.render._data import documents
from rivals.render.svg import HIGHLIGHT, INK, MUTED, PAPER, Move, document, escape, fitted, headline

__all__ = ["draw"]

WIDTH = 1160
RING_CX = 345
RING_CY = 392
RING_R = 235
TILE_R = 52
PANEL_X = 690
SEAT_H = 132
PLAYED_X = 204
ACTION_X = 350
HOUSE_FILL = {"eagle": "#e1b12c", "rose": "#b8323f"}
HOUSE_TEXT = {"eagle": INK, "rose": "#fff6f0"}
SEAT_COLOURS = ("#2565b5", "#2f8f46", "#7a3fa0", "#d0661b")
PICK = 36
PICKS = range(PICK, PICK + 6)


def _english(state: State) -> tuple[dict[str, str], dict[str, str]]:
    """The English names (``name_en``) of the landscape types and of the action cards of the
    game's card set, each by the name the game gives it."""
    cards = documents(state.game)["cards"]
    lands = {str(land["type"]): str(land.get("name_en", "")) for land in cards["landscapes"]}
    actions = {str(card["name"]): str(card.get("name_en", "")) for card in cards["action_cards"]}
    return lands, actions


def _values(state: State) -> dict[str, int]:
    """The conflict value of each landscape type: what it adds to its house at a conflict."""
    lands = documents(state.game)["cards"]["landscapes"]
    return {str(land["type"]): int(land["conflict"]) for land in lands}


def _seen(state: State, viewer: int) -> dict[str, Any]:
    """What seat ``viewer`` sees of the other seats' action cards and of the draft, read from its
    observation string: per seat the action card (a name, ``"?"`` or ``"-"``) and its pool."""
    actions: dict[int, str] = {}
    pool: list[str] = []
    for line in state.observation_string(viewer).splitlines():
        if line.startswith("seat ") and "; action " in line:
            seat = int(line.split(" ", 2)[1])
            actions[seat] = line.rsplit("; action ", 1)[1]
        elif line.startswith("pool: ") and line != "pool: -":
            pool = line[len("pool: ") :].split(" ")
    return {"actions": actions, "pool": pool}


def _visible_actions(state: State, player: int | None, num_players: int) -> list[str]:
    """Each seat's action card as ``player`` may see it: a name, ``"?"`` (picked, hidden) or
    ``"-"`` (none). A spectator sees a card once it is public: once another seat sees it."""
    if player is not None:
        seen = _seen(state, player)["actions"]
        return [seen.get(seat, "-") for seat in range(num_players)]
    out = []
    for seat in range(num_players):
        other = _seen(state, (seat + 1) % num_players)["actions"]
        out.append(other.get(seat, "-"))
    return out


def _angle(index: int) -> float:
    """Ring position 0 at the top, then clockwise."""
    return math.radians(-90 + 30 * index)


def _tile_centre(index: int) -> tuple[float, float]:
    angle = _angle(index)
    return RING_CX + RING_R * math.cos(angle), RING_CY + RING_R * math.sin(angle)


def _last_words(state: State, history: Sequence[Move], player: int | None) -> str:
    """The last decision as ``player`` saw it; another seat's draft pick stays hidden."""
    for move in reversed(history):
        if move.player != CHANCE:
            return f"seat {move.player}: {move_texts(state, player, move.step)[0]}"
    return ""


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of ``state``; ``history`` are the moves that led to it."""
    snapshot = cast("dict[str, Any]", state.to_dict())
    num_players = len(snapshot["houses"])
    height = max(RING_CY + RING_R + TILE_R + 40, 150 + num_players * SEAT_H + 110)
    status = _status(state, snapshot)
    parts = [
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
        headline(24, 32, "Verräter", status, WIDTH - 48 - 80),
        f'<text x="{WIDTH - 24}" y="32" font-size="12" fill="{MUTED}" text-anchor="end">'
        f"step {len(history)}</text>",
    ]
    last = _last_words(state, history, player)
    if last:
        parts.append(
            fitted(
                24, 56, f"Last move: {last}", 14, WIDTH - 48, ' class="last-move-text"', HIGHLIGHT
            )
        )
    lands, actions = _english(state)
    parts.append(_ring(snapshot, lands, _values(state)))
    parts.append(_panel(state, snapshot, player, num_players, actions))
    return document(WIDTH, height, "".join(parts), f"Verräter: {status}")


def _status(state: State, snapshot: dict[str, Any]) -> str:
    if state.is_terminal():
        return f"game over: {result_text(state)}"
    to_move = int(snapshot["current_player"])
    phase = snapshot["phase"]
    if to_move == CHANCE:
        return "chance: " + {
            "ring": "laying the ring",
            "draft": "setting an action card aside",
        }.get(phase, "drawing a supply card")
    doing = {
        "estates": "places a Gutshof",
        "conflict": "chooses the conflict site",
        "draft": "drafts an action card",
        "supply": "plays supply cards",
        "builder": "builds (Baumeister)",
        "discard": "discards down to 5",
    }[phase]
    return f"seat {to_move} {doing}"


def _ring(snapshot: dict[str, Any], english: dict[str, str], values: dict[str, int]) -> str:
    ring: list[dict[str, Any]] = snapshot["ring"]
    parts = [
        f'<circle cx="{RING_CX}" cy="{RING_CY}" r="{RING_R}" fill="none" stroke="#d8ccb2" '
        'stroke-width="10"/>'
    ]
    conflict = snapshot["conflict"]
    fought = set() if conflict is None else {int(conflict), (int(conflict) + 1) % 12}
    if conflict is not None:
        site = int(conflict)
        (x0, y0), (x1, y1) = _tile_centre(site), _tile_centre((site + 1) % 12)
        mid_angle = _angle(site) + math.radians(15)
        mx = RING_CX + (RING_R - TILE_R - 40) * math.cos(mid_angle)
        my = RING_CY + (RING_R - TILE_R - 40) * math.sin(mid_angle)
        parts.append(
            f'<g class="conflict" data-site="{site}">'
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{HIGHLIGHT}" '
            'stroke-width="12" stroke-linecap="round" opacity="0.55"/>'
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="17" fill="{HIGHLIGHT}"/>'
            f'<text x="{mx:.1f}" y="{my + 6:.1f}" font-size="17" fill="#ffffff" '
            'text-anchor="middle">⚔</text></g>'
        )
    for index in range(12):
        x, y = _tile_centre(index)
        if index >= len(ring):
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{TILE_R}" fill="none" stroke="#cbbd9f" '
                'stroke-dasharray="5 4"/>'
            )
            continue
        parts.append(_tile(index, ring[index], x, y, index in fought, english, values))
    parts.append(
        f'<text x="{RING_CX}" y="{RING_CY - 6}" font-size="14" fill="{MUTED}" '
        'text-anchor="middle">the ring</text>'
        f'<text x="{RING_CX}" y="{RING_CY + 14}" font-size="11" fill="{MUTED}" '
        'text-anchor="middle">position 0 at the top, clockwise</text>'
        f'<text x="{RING_CX}" y="{RING_CY + 30}" font-size="11" fill="{MUTED}" '
        'text-anchor="middle" class="legend">G2: Gutshof of seat 2 · K2: its Kontor · '
        "7: conflict value</text>"
    )
    totals = snapshot.get("conflict_totals")
    if conflict is not None and totals is None:
        # Before the reveal only the landscapes' share is certain: a traitor may still change
        # house, and the supply cards count for their player's house at the reveal.
        site = int(conflict)
        pair = [ring[site], ring[(site + 1) % 12]]
        base = {
            house: sum(values.get(str(land["type"]), 0) for land in pair if land["house"] == house)
            for house in ("eagle", "rose")
        }
        parts.append(
            f'<text x="{RING_CX}" y="{RING_CY + 54}" font-size="15" font-weight="bold" '
            f'fill="{INK}" text-anchor="middle" class="conflict-landscapes" '
            f'data-eagle="{base["eagle"]}" data-rose="{base["rose"]}">'
            f"landscapes: eagle {base['eagle']} · rose {base['rose']}</text>"
            f'<text x="{RING_CX}" y="{RING_CY + 72}" font-size="12" fill="{MUTED}" '
            'text-anchor="middle">supply cards and diplomats add at the reveal</text>'
        )
    if totals is not None:
        eagle, rose = int(totals["eagle"]), int(totals["rose"])
        verdict = "a tie" if eagle == rose else f"the {'eagle' if eagle > rose else 'rose'} won"
        parts.append(
            f'<text x="{RING_CX}" y="{RING_CY + 54}" font-size="15" font-weight="bold" '
            f'fill="{INK}" text-anchor="middle" class="conflict-totals">conflict: eagle {eagle}'
            f" · rose {rose}</text>"
            f'<text x="{RING_CX}" y="{RING_CY + 72}" font-size="12" fill="{MUTED}" '
            f'text-anchor="middle">{verdict}</text>'
        )
    return "".join(parts)


def _tile(
    index: int,
    land: dict[str, Any],
    x: float,
    y: float,
    fought: bool,
    english: dict[str, str],
    values: dict[str, int],
) -> str:
    house = str(land["house"])
    kind = str(land["type"])
    # The conflict value hangs off the tile towards the ring's centre, clear of the
    # estates outside the ring and of the conflict mark between two tiles.
    angle = _angle(index)
    bx, by = x - (TILE_R + 4) * math.cos(angle), y - (TILE_R + 4) * math.sin(angle)
    parts = [
        f'<g class="landscape" data-index="{index}" data-type="{escape(kind)}" '
        f'data-house="{house}">',
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{TILE_R}" fill="{HOUSE_FILL[house]}" '
        f'stroke="{HIGHLIGHT if fought else INK}" stroke-width="{5 if fought else 1.5}"/>',
        f'<text x="{x:.1f}" y="{y - 24:.1f}" font-size="11" fill="{HOUSE_TEXT[house]}" '
        f'text-anchor="middle">{index}</text>',
        fitted(
            round(x, 1),
            round(y - 5, 1),
            kind,
            15,
            TILE_R * 2 - 16,
            ' font-weight="bold" text-anchor="middle"',
            HOUSE_TEXT[house],
        ),
        fitted(
            round(x, 1),
            round(y + 10, 1),
            english.get(kind, ""),
            10,
            TILE_R * 2 - 24,
            ' text-anchor="middle"',
            HOUSE_TEXT[house],
        ),
        f'<text x="{x:.1f}" y="{y + 28:.1f}" font-size="11" font-style="italic" '
        f'fill="{HOUSE_TEXT[house]}" text-anchor="middle">{house}</text>',
        f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="12" fill="#fffaf0" stroke="{INK}" '
        'stroke-width="1.2"/>'
        f'<text x="{bx:.1f}" y="{by + 4.5:.1f}" font-size="13" font-weight="bold" fill="{INK}" '
        f'text-anchor="middle" class="value">{values.get(kind, "")}</text>',
    ]
    estate = land["estate"]
    if estate is not None:
        owner = int(estate["owner"])
        kontor = bool(estate["kontor"])
        label = "K" if kontor else "G"
        # The estate stands outside the ring by its landscape: a house for a Gutshof, a bigger
        # hall for a Kontor, in its owner's colour.
        x = RING_CX + (RING_R + TILE_R + 16) * math.cos(angle)
        ey = RING_CY + (RING_R + TILE_R + 16) * math.sin(angle) - 5
        width = 34 if kontor else 24
        parts.append(
            f'<g class="estate" data-owner="{owner}" data-kontor="{str(kontor).lower()}">'
            f'<path d="M{x - width / 2:.1f} {ey + 14:.1f} L{x - width / 2:.1f} {ey:.1f} '
            f"L{x:.1f} {ey - 9:.1f} L{x + width / 2:.1f} {ey:.1f} L{x + width / 2:.1f} "
            f'{ey + 14:.1f} Z" fill="{SEAT_COLOURS[owner]}" stroke="#ffffff" '
            'stroke-width="1.4"/>'
            f'<text x="{x:.1f}" y="{ey + 11:.1f}" font-size="10" font-weight="bold" '
            f'fill="#ffffff" text-anchor="middle">{label}{owner}</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)


def _supply_card(x: float, y: float, value: str, css: str) -> str:
    return (
        f'<g class="{css}"><rect x="{x}" y="{y}" width="24" height="32" rx="4" fill="#fffaf0" '
        f'stroke="#8a7a5c"/><text x="{x + 12}" y="{y + 22}" font-size="15" font-weight="bold" '
        f'fill="{INK}" text-anchor="middle">{escape(value)}</text></g>'
    )


def _back(x: float, y: float) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="24" height="32" rx="4" fill="#7d5a3c" stroke="{INK}" '
        'class="back"/>'
    )


def _panel(
    state: State,
    snapshot: dict[str, Any],
    player: int | None,
    num_players: int,
    english: dict[str, str],
) -> str:
    rounds = int(state.game.params["rounds"])
    actions = _visible_actions(state, player, num_players)
    to_move = int(snapshot["current_player"])
    x = PANEL_X
    done = int(snapshot["round"])
    if state.is_terminal():
        progress = (
            f'game over: <tspan class="round" data-round="{done}">'
            f"{escape(end_reason(state))}</tspan>"
        )
    else:
        progress = (
            f'Round <tspan font-weight="bold" class="round">{done + 1}</tspan> of {rounds} · '
            f"phase {escape(str(snapshot['phase']))}"
        )
    parts = [
        f'<text x="{x}" y="90" font-size="14" fill="{INK}">{progress}</text>',
        f'<text x="{x}" y="112" font-size="13" fill="{MUTED}">start player: seat '
        f"{snapshot['start_player']} · strategist: seat {snapshot['strategist']}</text>",
    ]
    y = 130.0
    for seat in range(num_players):
        action = actions[seat]
        parts.append(
            _seat(snapshot, seat, player, (action, english.get(action, "")), x, y, seat == to_move)
        )
        y += SEAT_H
    discard = " ".join(str(value) for value in snapshot["discard"]) or "-"
    pile = len(snapshot["draw_pile"])
    parts.append(
        f'<text x="{x}" y="{y + 14}" font-size="13" fill="{INK}">draw pile: '
        f'<tspan font-weight="bold" class="draw-pile">{pile}</tspan> card{"" if pile == 1 else "s"}'
        f" · discard: {escape(discard)}</text>"
    )
    if player is not None:
        pool = _seen(state, player)["pool"]
        if pool:
            names = ", ".join(pool)
            parts.append(
                fitted(x, y + 34, f"your draft pool: {names}", 13, WIDTH - 24 - x, ' class="pool"')
            )
    return "".join(parts)


def _seat(
    snapshot: dict[str, Any],
    seat: int,
    player: int | None,
    action: tuple[str, str],
    x: float,
    y: float,
    to_move: bool,
) -> str:
    house = str(snapshot["houses"][seat])
    name = f"seat {seat}" + (" (you)" if seat == player else "")
    marks = []
    if int(snapshot["start_player"]) == seat:
        marks.append("start player")
    if int(snapshot["strategist"]) == seat:
        marks.append("strategist")
    parts = [
        f'<g class="seat" data-seat="{seat}">',
        f'<rect x="{x - 10}" y="{y}" width="{WIDTH - x - 14}" height="{SEAT_H - 8}" rx="8" '
        f'fill="{"#fff3c8" if to_move else "#f6efdf"}" '
        f'stroke="{HIGHLIGHT if to_move else "#d8ccb2"}" stroke-width="{2.5 if to_move else 1}"/>',
        f'<rect x="{x}" y="{y + 9}" width="14" height="14" rx="3" fill="{SEAT_COLOURS[seat]}"/>',
        f'<text x="{x + 22}" y="{y + 21}" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(name)}{' ▶' if to_move else ''}</text>",
        f'<rect x="{x + 150}" y="{y + 7}" width="66" height="18" rx="9" '
        f'fill="{HOUSE_FILL[house]}"/><text x="{x + 183}" y="{y + 20}" font-size="12" '
        f'fill="{HOUSE_TEXT[house]}" text-anchor="middle" class="house">{house}</text>',
        f'<text x="{x + 228}" y="{y + 21}" font-size="12" fill="{MUTED}">'
        f"{escape(' · '.join(marks))}</text>",
        f'<text x="{WIDTH - 36}" y="{y + 22}" font-size="13" fill="{INK}" text-anchor="end">'
        f'VP <tspan font-size="19" font-weight="bold" class="vp">{snapshot["vp"][seat]}</tspan>'
        "</text>",
        f'<text x="{x}" y="{y + 48}" font-size="11" fill="{MUTED}">HAND</text>',
        f'<text x="{x + PLAYED_X}" y="{y + 48}" font-size="11" fill="{MUTED}">PLAYED</text>',
        f'<text x="{x + ACTION_X}" y="{y + 48}" font-size="11" fill="{MUTED}">ACTION CARD</text>',
    ]
    hand = [int(value) for value in snapshot["hands"][seat]]
    for k, value in enumerate(hand):
        cx = x + k * 28
        if seat == player:
            parts.append(_supply_card(cx, y + 56, str(value), "hand-card"))
        else:
            parts.append(_back(cx, y + 56))
    if seat != player:
        parts.append(
            f'<text x="{x}" y="{y + 108}" font-size="11" fill="{MUTED}" class="hand-count">'
            f"{len(hand)} card{'' if len(hand) == 1 else 's'} in hand</text>"
        )
    for k, value in enumerate(snapshot["played"][seat]):
        parts.append(_supply_card(x + PLAYED_X + k * 28, y + 56, str(value), "played-card"))
    parts.append(_action_card(*action, x + ACTION_X, y + 56))
    parts.append("</g>")
    return "".join(parts)


def _action_card(action: str, english: str, x: float, y: float) -> str:
    """An action card as the seat sees it: its name and English name, ``?`` face down, an empty
    frame (``-``) before the draft."""
    if action == "-":
        return (
            f'<rect x="{x}" y="{y}" width="90" height="40" rx="5" fill="none" stroke="#cbbd9f" '
            'stroke-dasharray="4 3"/>'
        )
    if action == "?":
        return (
            f'<rect x="{x}" y="{y}" width="90" height="40" rx="5" fill="#4b3a6b" stroke="{INK}" '
            f'class="action-back"/><text x="{x + 45}" y="{y + 25}" font-size="13" fill="#ffffff" '
            'text-anchor="middle">?</text>'
        )
    return (
        f'<rect x="{x}" y="{y}" width="90" height="40" rx="5" fill="#efe6fb" stroke="#4b3a6b" '
        'stroke-width="1.5"/>'
        + fitted(
            x + 45,
            y + 18,
            action,
            13,
            82,
            ' font-weight="bold" text-anchor="middle" class="action"',
        )
        + fitted(x + 45, y + 33, english, 10, 82, ' text-anchor="middle"', MUTED)
    )
