"""What a browser is shown of a position, built from the renderers' seat views: the picture
(``rivals.render.svg``), the move list as that seat saw it (``move_texts``), the move menu of
the player to move (``menu``) and the places to click (``boards``). Nothing here reads a hidden
card except through those views, so a seat is told only what it may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rivals
from rivals import replay as replays
from rivals._core import CHANCE, Game, State
from rivals.render import (
    menu,
    move_texts,
    params_text,
    parse_move,
    player_label,
    result_text,
    seat_label,
)
from rivals.render.svg import Move, draw

__all__ = [
    "log_entries",
    "menu_payload",
    "params_shown",
    "parse_typed",
    "picture",
    "rejection",
    "seat_labels",
    "status_text",
]


def params_shown(game: Game) -> str:
    """The parameters of ``game`` that differ from its defaults, as typed (``players=4``): a
    page names only those."""
    defaults = rivals.make(game.name).params
    changed = {key: value for key, value in game.params.items() if defaults.get(key) != value}
    return params_text(changed)


def seat_labels(state: State) -> list[str]:
    game = state.game
    return [seat_label(game.name, game.num_players, seat) for seat in range(game.num_players)]


def picture(state: State, viewer: int | None, moves: Sequence[Move]) -> str:
    """The SVG picture of ``state`` as seat ``viewer`` sees it (``None``: a spectator)."""
    return draw(state, viewer, moves)


def log_entries(state: State, viewer: int | None, start: int) -> list[dict[str, Any]]:
    """The moves of ``state``'s history from index ``start`` on, as seat ``viewer`` saw them:
    ``{"n": step, "player": seat or -1, "who": "Red (0)", "text": ...}``."""
    history = state.history()
    texts = move_texts(state, viewer, start)
    walker = state.game.state_from_history(history[:start])
    out = []
    for index, (action, text) in enumerate(zip(history[start:], texts), start + 1):
        player = walker.current_player()
        out.append(
            {"n": index, "player": player, "who": player_label(walker, player), "text": text}
        )
        walker.apply_action(action)
    return out


def menu_payload(state: State) -> list[dict[str, Any]]:
    """The legal moves of the player to move, grouped as the terminal groups them; numbered
    entries carry the number a person may type instead. The entries of a group the terminal
    has typed rather than numbered are labelled by their whole action string: their short
    labels ("with 18") lean on the note beside them."""
    groups = []
    number = 0
    for group in menu(state):
        entries = []
        for action, short in group.entries:
            label = short if group.numbered else state.action_to_string(action)
            entry: dict[str, Any] = {"action": action, "label": label}
            if group.numbered:
                number += 1
                entry["number"] = number
            entries.append(entry)
        groups.append({"title": group.title, "note": group.note, "entries": entries})
    return groups


def _numbered(state: State) -> list[int]:
    return [action for group in menu(state) if group.numbered for action, _ in group.entries]


def parse_typed(state: State, text: str) -> int | None:
    """The legal action a person typed: its exact string (any case), its number in the menu,
    or a game's short form; ``None`` for anything else."""
    text = " ".join(text.split())
    legal = state.legal_actions()
    strings = {state.action_to_string(action): action for action in legal}
    if text in strings:
        return strings[text]
    folded = {key.casefold(): action for key, action in strings.items()}
    if text.casefold() in folded:
        return folded[text.casefold()]
    if text.isascii() and text.isdigit() and len(text) <= 9:
        numbered = _numbered(state)
        if 1 <= int(text) <= len(numbered):
            return numbered[int(text) - 1]
    return parse_move(state, text)


def rejection(state: State, text: str) -> str:
    """Why ``text`` is not a move here, in words: a move of the game that is not legal now, a
    number out of the menu's range, or not a move at all."""
    shown = replays.shown(" ".join(text.split()))
    try:
        state.string_to_action(text)
        known = True
    except (ValueError, TypeError):
        known = False
    if known:
        return f"{shown} is not legal here; choose one of the moves listed"
    if text.isascii() and text.strip().isdigit():
        return f"{shown} is not a move here: the moves are numbered 1 to {len(_numbered(state))}"
    return f"{shown} is not a move of {state.game.name}; choose one of the moves listed"


def status_text(state: State, names: Sequence[str]) -> str:
    """Who is to move, by seat and name, or how the game ended."""
    if state.is_terminal():
        return result_text(state)
    player = state.current_player()
    if player == CHANCE:
        return "chance to move"
    return f"{player_label(state, player)} {names[player]} to move"
