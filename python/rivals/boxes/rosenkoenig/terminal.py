"""Rosenkönig in the terminal: the board in colour, the crown highlighted, hands, heroes, scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rivals._core import CHANCE, State
from rivals.render._data import snapshot as _snapshot

__all__ = ["HELP", "render", "result_text", "seat_label"]

HELP = """\
NE2: play that card; the crown moves two steps north-east and your stone goes where it lands
(on the board, on an empty point). hero NE2: the same onto a stone of the other colour, which
turns to yours (while you have heroes). draw: take a card while your hand is not full. pass:
only when nothing else is possible. Each colour scores the square of every connected group."""

COLOURS = ("Red", "White")
# Stones are drawn as coloured tiles rather than coloured letters so that both colours stay
# visible on light and dark terminals alike; the letters keep the picture readable without colour.
STONE_STYLE = {"R": "bold white on red3", "W": "bold black on grey85", ".": "grey50"}
CROWN_STYLE = "bold gold1"
SIZE = 9


def seat_label(num_players: int, seat: int) -> str:
    """Red for even seats (the first team), White for odd ones, with two or four players."""
    del num_players  # the colour depends only on the seat's parity
    return COLOURS[seat % 2]


def _groups(board: Sequence[str], colour: str) -> list[int]:
    """Sizes of the orthogonally connected groups of ``colour``."""
    seen: set[tuple[int, int]] = set()
    sizes: list[int] = []
    for row in range(SIZE):
        for col in range(SIZE):
            if board[row][col] != colour or (row, col) in seen:
                continue
            stack = [(row, col)]
            seen.add((row, col))
            size = 0
            while stack:
                r, c = stack.pop()
                size += 1
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if (
                        0 <= nr < SIZE
                        and 0 <= nc < SIZE
                        and board[nr][nc] == colour
                        and (nr, nc) not in seen
                    ):
                        seen.add((nr, nc))
                        stack.append((nr, nc))
            sizes.append(size)
    return sizes


def result_text(state: State) -> str:
    """``"Red wins 156 to 148 (the last stone was placed)"``, with the tie-break named when the
    scores are level."""
    snapshot = _snapshot(state)
    red, white = (int(score) for score in state.scores()[:2])
    if not state.is_terminal():
        return f"Red {red}, White {white} (game in progress)"
    # The game ends when the supply is empty or when nobody can do anything but pass.
    why = "the last stone was placed" if snapshot["stones_left"] == 0 else "no player could move"
    returns = state.returns()
    if returns[0] == 0:
        return f"draw, {red} to {white} ({why})"
    winner, loser = ("Red", "White") if returns[0] > 0 else ("White", "Red")
    high, low = max(red, white), min(red, white)
    if red != white:
        return f"{winner} wins {high} to {low} ({why})"
    board = snapshot["board"]
    groups = {colour: _groups(board, colour[0]) for colour in COLOURS}
    if max(groups["Red"], default=0) != max(groups["White"], default=0):
        reason = "the largest group"
    else:
        reason = "more stones"
    return f"{winner} wins on {reason} ({high} to {low}; {loser} level on points; {why})"


def _status(snapshot: dict[str, Any], num_players: int, names: Sequence[str] | None) -> Text:
    player = int(snapshot["current_player"])
    if player >= 0:
        who = _seat_name(num_players, player, names)
        return Text.assemble((who, _seat_style(player)), " to move")
    if player == CHANCE:
        receiving = snapshot.get("receiving")
        if receiving is None:
            return Text("chance to move", style="italic")
        who = _seat_name(num_players, int(receiving), names)
        return Text.assemble("dealing a card to ", (who, _seat_style(int(receiving))))
    return Text("final position", style="bold")


def _seat_style(seat: int) -> str:
    return "bold red3" if seat % 2 == 0 else "bold grey85"


def _seat_name(num_players: int, seat: int, names: Sequence[str] | None) -> str:
    label = f"{seat_label(num_players, seat)} (seat {seat})"
    if names is not None and seat < len(names) and names[seat]:
        label += f" {names[seat]}"
    return label


def _board(snapshot: dict[str, Any]) -> Text:
    board: list[str] = snapshot["board"]
    crown_row, crown_col = snapshot["crown"]
    text = Text()
    text.append("    " + "".join(f" {col} " for col in range(SIZE)), style="dim")
    for row, line in enumerate(board):
        text.append(f"\n {row}  ", style="dim")
        for col, cell in enumerate(line):
            style = STONE_STYLE.get(cell, "")
            shown = "·" if cell == "." else cell
            if (row, col) == (crown_row, crown_col):
                # The crown keeps the stone's tile colour; only the brackets carry the gold.
                text.append("[", style=f"{CROWN_STYLE} on {_background(style)}")
                text.append("♔" if cell == "." else shown, style=f"{style} underline")
                text.append("]", style=f"{CROWN_STYLE} on {_background(style)}")
            else:
                text.append(f" {shown} ", style=style)
    return text


def _background(style: str) -> str:
    _, on, background = style.partition(" on ")
    return background if on else "default"


def _seats(snapshot: dict[str, Any], num_players: int, names: Sequence[str] | None) -> Table:
    table = Table.grid(padding=(0, 2))
    for column in ("", "seat", "hand", "heroes", "score"):
        table.add_column(column)
    table.add_row(*(Text(heading, "dim") for heading in ("", "seat", "hand", "heroes", "score")))
    to_move = int(snapshot["current_player"])
    for seat in range(num_players):
        marker = Text("▶", style="bold yellow") if seat == to_move else Text(" ")
        hand = Text(" ".join(snapshot["hands"][seat]) or "-")
        heroes = int(snapshot["heroes"][seat])
        score = snapshot["scores"][seat]
        table.add_row(
            marker,
            Text(_seat_name(num_players, seat, names), style=_seat_style(seat)),
            hand,
            Text(str(heroes), style="bold" if heroes else "dim"),
            Text(f"{score:g}" if isinstance(score, float) else str(score)),
        )
    return table


def render(state: State, names: Sequence[str] | None, player: int | None) -> RenderableType:
    """The board with the crown in brackets, then each seat's hand, heroes and score. Everything
    is public, so every seat's view is the whole table."""
    del player
    snapshot = _snapshot(state)
    num_players = len(snapshot["hands"])
    piles = Text(
        f"stones left {snapshot['stones_left']}   draw pile {len(snapshot['draw_pile'])}   "
        f"discard {len(snapshot['discard'])}",
        style="dim",
    )
    parts: list[RenderableType] = [
        _status(snapshot, num_players, names),
        _board(snapshot),
        _seats(snapshot, num_players, names),
        piles,
    ]
    return Group(*parts)
