"""Pictures of game states as standalone SVG documents.

``to_svg(state, player=None)`` draws any game. ``player`` is the seat whose view is drawn: in a game
with hidden information only what that seat may see appears; ``None`` is a spectator, who sees the
public part only.

A game gets a picture of its own from the ``svg`` module of its box (``rivals.boxes.<game>``):
``draw(state, player, moves) -> str``; ``moves`` is the list of ``Move`` that led to ``state``, so a
picture can highlight the last move without replaying the game. A game without a module gets the
generic picture here: the game's own text picture (its observation string for a seat, the whole
table or its public part for a spectator), the scores and the last move. How a move reads to a
viewer (``move_texts``) comes from ``rivals.render.move_texts``: it hides only what that viewer
may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as _escape

from rivals import boxes
from rivals import render as _render
from rivals._core import CHANCE, State
from rivals.render import player_label, result_text

__all__ = [
    "Move",
    "document",
    "draw",
    "escape",
    "fitted",
    "generic",
    "headline",
    "move_texts",
    "moves",
    "to_svg",
]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
INK = "#2b2118"
MUTED = "#7a6e60"
PAPER = "#fbf7ee"
HIGHLIGHT = "#1e7bd6"
# How far fitted() squeezes a text before it cuts it instead: letters at 3/4 of their width.
SQUEEZE = 4 / 3


@dataclass(frozen=True)
class Move:
    """One action of a game: ``step`` is its index in the history (the state after it is step
    ``step + 1``), ``player`` the seat that took it or ``CHANCE``, ``text`` its string."""

    step: int
    player: int
    action: int
    text: str


def moves(state: State) -> list[Move]:
    """The moves that led to ``state``, replayed from the start."""
    walker = state.game.new_initial_state()
    out = []
    for step, action in enumerate(state.history()):
        out.append(Move(step, walker.current_player(), action, walker.action_to_string(action)))
        walker.apply_action(action)
    return out


def escape(text: str) -> str:
    """``text`` safe inside SVG element content and double-quoted attributes."""
    return _escape(text, {'"': "&quot;"})


def fitted(
    x: float, y: float, text: str, size: int, room: float, extra: str = "", fill: str = INK
) -> str:
    """A text element that never runs past ``room`` units. A text a little too long is squeezed
    to fit; one that would be squeezed past reading (names in a card set may have 1,000 bytes)
    is cut with an ellipsis and keeps its whole self in a tooltip."""
    # DejaVu Sans averages a little under 0.6 em per character.
    width = size * 0.58
    title = ""
    if len(text) * width > room * SQUEEZE:
        title = f"<title>{escape(text)}</title>"
        text = text[: max(1, int(room * SQUEEZE / width) - 1)] + "\u2026"
    squeeze = (
        f' textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs"'
        if len(text) * width > room
        else ""
    )
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{squeeze}{extra}>'
        f"{title}{escape(text)}</text>"
    )


def headline(x: float, y: float, name: str, status: str, room: float, size: int = 21) -> str:
    """A picture's first line: the game's ``name`` in bold, then ``— status``, within ``room``
    units: a status a little too long is squeezed, a longer one cut with an ellipsis and kept
    whole in a tooltip (a result names every seat and why the game ended)."""
    # DejaVu Sans: about 0.63 em a character in bold, 0.58 in the normal weight.
    head = size * 0.63 * (len(name) + 1)
    width = head + size * 0.58 * (len(status) + 2)
    title = ""
    shown = status
    if width > room * SQUEEZE:
        title = f"<title>{escape(status)}</title>"
        keep = max(1, int((room * SQUEEZE - head) / (size * 0.58)) - 3)
        shown = status[:keep].rstrip() + "\u2026"
        width = head + size * 0.58 * (len(shown) + 2)
    squeeze = f' textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs"' if width > room else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="bold" fill="{INK}"{squeeze}>'
        f'{title}{escape(name)} <tspan font-weight="normal" fill="{MUTED}">— '
        f"{escape(shown)}</tspan></text>"
    )


def document(width: int, height: int, body: str, title: str) -> str:
    """A standalone SVG document of ``width`` x ``height`` user units around ``body``."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" role="img">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def _hook(game_name: str, hook: str) -> Callable[..., Any] | None:
    return boxes.hook(game_name, "svg", hook)


def _check_player(state: State, player: int | None) -> None:
    players = state.game.num_players
    if player is not None and (
        isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players
    ):
        raise ValueError(
            f"player must be None (a spectator) or a seat 0..{players - 1}, got {player!r}"
        )


def to_svg(state: State, player: int | None = None) -> str:
    """An SVG picture of ``state`` as ``player`` (a seat, or ``None`` for a spectator) sees it."""
    _check_player(state, player)
    return draw(state, player, moves(state))


def draw(state: State, player: int | None, history: Sequence[Move]) -> str:
    """``to_svg`` with the moves that led to ``state`` given (the viewer keeps them)."""
    _check_player(state, player)
    hook = _hook(state.game.name, "draw")
    if hook is not None:
        return str(hook(state, player, history))
    return generic(state, player, history)


def move_texts(state: State, player: int | None, start: int = 0) -> list[str]:
    """How each move of ``state``'s history from ``start`` on reads to ``player`` (``None``: a
    spectator): what that viewer may not see is hidden, the rest is told."""
    return _render.move_texts(state, player, start)


def _public_lines(state: State) -> list[str]:
    """The lines of the text picture that every seat sees alike: what is public."""
    views = [state.observation_string(seat).splitlines() for seat in range(state.game.num_players)]
    shared = set(views[0]).intersection(*views[1:])
    return [line for line in views[0] if line in shared]


def generic(state: State, player: int | None, history: Sequence[Move]) -> str:
    """The picture of a game without a module of its own (and the model for one)."""
    name = state.game.name
    if player is not None:
        lines = state.observation_string(player).splitlines()
    elif state.game.info.information == "perfect":
        lines = str(state).splitlines()
    else:
        lines = _public_lines(state)
    to_move = state.current_player()
    if state.is_terminal():
        status = result_text(state)
    elif to_move == CHANCE:
        status = "chance to move"
    else:
        status = f"{player_label(state, to_move)} to move"
    last = next((move for move in reversed(history) if move.player != CHANCE), None)
    notes = [f"scores: {', '.join(f'{score:g}' for score in state.scores())}"]
    if last is not None:
        who = player_label(state, last.player)
        notes.append(f"last move: {who}: {move_texts(state, player, last.step)[0]}")
    view = "spectator" if player is None else f"view of {player_label(state, player)}"
    line_height = 17
    width = max(480, 24 + 8 * max((len(line) for line in [*lines, *notes, status]), default=0))
    text_top = 64
    height = text_top + line_height * (len(lines) + len(notes)) + 40
    body = [
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
        f'<text x="16" y="28" font-size="18" font-weight="bold" fill="{INK}">'
        f"{escape(name)}: {escape(status)}</text>",
        f'<text x="16" y="48" font-size="12" fill="{MUTED}">{escape(view)}</text>',
    ]
    y = text_top + line_height
    for line in lines:
        body.append(
            f'<text x="16" y="{y}" font-family="{MONO}" font-size="13" fill="{INK}" '
            f'xml:space="preserve">{escape(line)}</text>'
        )
        y += line_height
    y += 8
    for index, note in enumerate(notes):
        colour = HIGHLIGHT if index == 1 else INK
        body.append(f'<text x="16" y="{y}" font-size="13" fill="{colour}">{escape(note)}</text>')
        y += line_height
    return document(width, height, "".join(body), f"{name}: {status}")
