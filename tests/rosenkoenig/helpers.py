"""Helpers to build Rosenkönig positions from explicit action sequences.

They use only the public State API, so they drive the reference and the engine alike.
"""

from __future__ import annotations

from typing import Any

DRAW = 48
PASS = 49
SIZE = 9
DIRS = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}
CARDS = [f"{d}{k}" for d in DIRS for k in (1, 2, 3)]  # index = card id


def new_state(make: Any, players: int = 2) -> Any:
    """A fresh state; ``players=None``-style defaults are left to the game."""
    game = make("rosenkoenig") if players == 2 else make("rosenkoenig", players=players)
    return game.new_initial_state()


def deal(state: Any, hands: list[list[str]]) -> Any:
    """Apply the deal: ``hands[seat]`` are the card strings dealt to that seat, in seat order."""
    for seat, cards in enumerate(hands):
        for text in cards:
            assert state.is_chance_node(), "the deal is over"
            assert state.to_dict()["receiving"] == seat
            state.apply_action(state.string_to_action(text))
    assert not state.is_chance_node(), "the deal is not complete"
    return state


def play(state: Any, *moves: str) -> Any:
    """Apply actions by their strings.

    ``"NE2"``, ``"hero NE2"``, ``"pass"`` and ``"draw"`` are the action strings; at a chance node
    a card string is the card drawn. ``"draw NE2"`` is shorthand for ``"draw"`` then ``"NE2"``.
    """
    for move in moves:
        words = move.split()
        if words[0] == "draw" and len(words) == 2:
            assert not state.is_chance_node()
            state.apply_action(DRAW)
            assert state.is_chance_node()
            state.apply_action(state.string_to_action(words[1]))
        else:
            state.apply_action(state.string_to_action(move))
    return state


def legal_strings(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def landing(crown: list[int], card: str) -> tuple[int, int] | None:
    """Square a card moves the crown to, or None if it leaves the board (from the rules page)."""
    dr, dc = DIRS[card[:-1]]
    k = int(card[-1])
    r, c = crown[0] + dr * k, crown[1] + dc * k
    return (r, c) if 0 <= r < SIZE and 0 <= c < SIZE else None


def expected_legal(snapshot: dict[str, Any], seat: int, hand_limit: int) -> set[str]:
    """The legal action strings of ``seat`` computed from a ``to_dict()`` snapshot by the rules."""
    own = "RW"[seat % 2]
    other = "RW"[1 - seat % 2]
    board = snapshot["board"]
    result = set()
    for card in snapshot["hands"][seat]:
        square = landing(snapshot["crown"], card)
        if square is None:
            continue
        content = board[square[0]][square[1]]
        assert content in (".", own, other)
        if content == "." and snapshot["stones_left"] > 0:
            result.add(card)
        elif content == other and snapshot["heroes"][seat] > 0:
            result.add("hero " + card)
    if len(snapshot["hands"][seat]) < hand_limit and snapshot["draw_pile"]:
        result.add("draw")
    return result or {"pass"}


def random_game(state: Any, rng: Any, stop: Any = None) -> Any:
    """Play uniformly random legal actions (chance included) until the end or ``stop(state)``."""
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def colour_stats(board: list[str], colour: str) -> tuple[int, int, int]:
    """(sum of squared group sizes, largest group, stones) of ``colour``; groups join orthogonally.

    Written independently of any implementation under test (a plain flood fill).
    """
    seen: set[tuple[int, int]] = set()
    sizes = []
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r][c] != colour or (r, c) in seen:
                continue
            stack = [(r, c)]
            seen.add((r, c))
            size = 0
            while stack:
                y, x = stack.pop()
                size += 1
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    inside = 0 <= ny < SIZE and 0 <= nx < SIZE
                    if inside and board[ny][nx] == colour and (ny, nx) not in seen:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
            sizes.append(size)
    return sum(s * s for s in sizes), max(sizes, default=0), sum(sizes)


def expected_returns(board: list[str], players: int) -> list[float]:
    """Returns at the end by the rules: score, then largest group, then stones, else a draw."""
    red, white = colour_stats(board, "R"), colour_stats(board, "W")
    if red == white:
        return [0.0] * players
    red_wins = red > white
    return [1.0 if (seat % 2 == 0) == red_wins else -1.0 for seat in range(players)]
