"""Pure-Python reference implementation of Rosenkönig (The Rose King).

This module is the oracle that the fast engine is checked against, so it is written for clarity:
a plain 2D list board, explicit loops, a breadth-first search for scoring. It implements exactly
``docs/rules/rosenkoenig.md``; the comments cite that page.

Conventions (from the rules page):

* Board 9x9, ``board[row][col]`` is ``"."`` (empty), ``"R"`` (red) or ``"W"`` (white). Row 0 is
  the north edge, column 0 the west edge; north means row - 1.
* Card id = ``direction * 3 + (distance - 1)`` with directions ``N NE E SE S SW W NW``.
* Actions: 0-23 play a card, 24-47 hero with card ``a - 24``, 48 draw, 49 pass. At a chance node
  the outcomes are card ids 0-23.
* Seats: seat ``s`` plays colour ``s % 2`` (0 Red, 1 White); with four players seats 0 and 2 form
  team Red, 1 and 3 team White.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals.reference import _base
from rivals.reference._base import CHANCE, EVALUATION_SCALE, TERMINAL, choice_param, with_defaults

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

NAME = "rosenkoenig"

BOARD_SIZE = 9
NUM_STONES = 52
CROWN_START = (4, 4)

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# (row delta, column delta) per direction, same order as DIRECTIONS.
DIRECTION_DELTAS = (
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
)
NUM_CARDS = 24

HERO_OFFSET = 24  # actions 24-47: hero with card (action - 24)
DRAW = 48
PASS = 49
NUM_DISTINCT_ACTIONS = 50

EMPTY = "."
COLOUR_CHARS = ("R", "W")  # colour 0 = Red, colour 1 = White
COLOUR_NAMES = ("Red", "White")

# Per number of players: (hand limit = deal size, heroes per seat).
SETUP = {2: (5, 4), 4: (3, 2)}

DEFAULT_PARAMS: dict[str, Any] = {"players": 2}
PARAM_HELP = "players (2 or 4, default 2)"


# ---------------------------------------------------------------------------------------------
# Cards and actions
# ---------------------------------------------------------------------------------------------


def card_name(card: int) -> str:
    """``card_name(4) == "NE2"``."""
    return f"{DIRECTIONS[card // 3]}{card % 3 + 1}"


def card_offset(card: int) -> tuple[int, int]:
    """The (row, col) displacement of the crown for ``card``."""
    dr, dc = DIRECTION_DELTAS[card // 3]
    distance = card % 3 + 1
    return dr * distance, dc * distance


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name`; ``ValueError`` for anything that is not a card."""
    if len(text) >= 2 and text[-1] in "123" and text[:-1] in DIRECTIONS:
        return DIRECTIONS.index(text[:-1]) * 3 + int(text[-1]) - 1
    raise ValueError(f"not a Rosenkönig card: {text!r} (expected e.g. 'N1', 'NE2', 'NW3')")


def action_name(action: int) -> str:
    """String of an action id (0-49); a chance outcome uses the card string, same as 0-23."""
    if 0 <= action < NUM_CARDS:
        return card_name(action)
    if HERO_OFFSET <= action < HERO_OFFSET + NUM_CARDS:
        return "hero " + card_name(action - HERO_OFFSET)
    if action == DRAW:
        return "draw"
    if action == PASS:
        return "pass"
    raise ValueError(f"action {action} is out of range 0..{NUM_DISTINCT_ACTIONS - 1}")


def parse_action(text: str) -> int:
    """Inverse of :func:`action_name`."""
    if not isinstance(text, str):
        raise ValueError(f"action string expected, got {text!r}")
    words = text.split()
    if words == ["draw"]:
        return DRAW
    if words == ["pass"]:
        return PASS
    try:
        if len(words) == 1:
            return parse_card(words[0])
        if len(words) == 2 and words[0] == "hero":
            return HERO_OFFSET + parse_card(words[1])
    except ValueError:
        pass
    raise ValueError(
        f"unknown Rosenkönig action {text!r}; accepted: a card such as 'NE2', "
        "'hero NE2', 'draw', 'pass'"
    )


# ---------------------------------------------------------------------------------------------
# Scoring (module level so that tests can score a crafted board)
# ---------------------------------------------------------------------------------------------


def group_sizes(board: Sequence[Sequence[str]], colour: str) -> list[int]:
    """Sizes of the orthogonally connected groups of ``colour`` ("R" or "W"), largest first.

    ``board`` is a rectangular grid indexed ``board[row][col]``, e.g. the 9 strings of
    ``to_dict()["board"]`` or a list of lists of ``"."``/``"R"``/``"W"``. Any size is accepted.
    """
    rows = len(board)
    seen = [[False] * len(board[r]) for r in range(rows)]
    sizes = []
    for r0 in range(rows):
        for c0 in range(len(board[r0])):
            if board[r0][c0] != colour or seen[r0][c0]:
                continue
            # Breadth-first search over the four orthogonal neighbours (diagonals never join).
            seen[r0][c0] = True
            queue = deque([(r0, c0)])
            size = 0
            while queue:
                r, c = queue.popleft()
                size += 1
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    nr, nc = r + dr, c + dc
                    if (
                        0 <= nr < rows
                        and 0 <= nc < len(board[nr])
                        and board[nr][nc] == colour
                        and not seen[nr][nc]
                    ):
                        seen[nr][nc] = True
                        queue.append((nr, nc))
            sizes.append(size)
    sizes.sort(reverse=True)
    return sizes


def colour_stats(board: Sequence[Sequence[str]], colour: str) -> tuple[int, int, int]:
    """``(score, largest group, stones)`` of ``colour`` on ``board`` (see :func:`group_sizes`).

    score = sum over the colour's orthogonally connected groups of size squared.
    """
    sizes = group_sizes(board, colour)
    return sum(s * s for s in sizes), (sizes[0] if sizes else 0), sum(sizes)


def score_board(board: Sequence[Sequence[str]]) -> tuple[int, int]:
    """``(red score, white score)`` of ``board``.

    Input: a rectangular grid indexed ``board[row][col]`` whose cells are ``"."`` (empty),
    ``"R"`` (red) or ``"W"`` (white): the 9 strings of ``to_dict()["board"]`` work directly.
    """
    return colour_stats(board, "R")[0], colour_stats(board, "W")[0]


def board_winner(board: Sequence[Sequence[str]]) -> int | None:
    """Winning colour of ``board`` by the full rule: 0 Red, 1 White, ``None`` for a draw.

    Higher score wins; on equal scores the larger single group; then more stones; else a draw.
    Same input as :func:`score_board`.
    """
    red = colour_stats(board, "R")
    white = colour_stats(board, "W")
    # Tuples compare element by element: score, then largest group, then stone count.
    if red > white:
        return 0
    if white > red:
        return 1
    return None


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def _check_params(params: dict[str, Any]) -> dict[str, Any]:
    full = with_defaults(NAME, DEFAULT_PARAMS, params, PARAM_HELP)
    choice_param(NAME, full, "players", sorted(SETUP))
    return full


class Game(_base.Game["State"]):
    """Rosenkönig with ``players`` = 2 (default) or 4 (two teams of two)."""

    def __init__(self, **params: Any) -> None:
        super().__init__(NAME, _check_params(params))
        self.hand_limit: int
        self.heroes_per_seat: int
        self.hand_limit, self.heroes_per_seat = SETUP[self.num_players]
        self.num_distinct_actions: int = NUM_DISTINCT_ACTIONS
        self.max_chance_outcomes: int = NUM_CARDS  # a card dealt or drawn
        n = self.num_players
        d = self.hand_limit
        total_heroes = self.heroes_per_seat * n
        plays = NUM_STONES + total_heroes
        # Deal, then at most `plays` card plays, as many draws and draw outcomes, and at most
        # n - 1 passes before and after each other decision.
        self.max_game_length: int = n * d + plays * 3 + (n - 1) * (2 * plays + 1)
        self.num_planes: int = 29 + 26 * n
        self.observation_shape: tuple[int, ...] = (
            self.num_planes,
            BOARD_SIZE,
            BOARD_SIZE,
        )
        self.compact_observation_shape: dict[str, tuple[int, ...]] = {
            "board": (3, BOARD_SIZE, BOARD_SIZE),
            "features": (25 + 26 * n,),
        }

    def new_initial_state(self) -> State:
        return State(self)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


class State(_base.State):
    EVALUATIONS = ("default", "thesis", "calibrated")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.board: list[list[str]] = [[EMPTY] * BOARD_SIZE for _ in range(BOARD_SIZE)]
        self.crown: tuple[int, int] = CROWN_START
        # Hands and piles are kept in ascending card order.
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.heroes: list[int] = [game.heroes_per_seat] * self.num_players
        self.stones_left: int = NUM_STONES
        self.draw_pile: list[int] = list(range(NUM_CARDS))
        self.discard: list[int] = []
        self.cards_dealt: int = 0
        # The seat to move, CHANCE or TERMINAL.
        self.player: int = CHANCE
        # At a chance node, the seat that receives the next card.
        self.receiving: int | None = 0

    def colour_of(self, seat: int) -> int:
        return seat % 2

    def _in_deal(self) -> bool:
        return self.cards_dealt < self.num_players * self.game.hand_limit

    # -- legal actions --------------------------------------------------------------------------

    def _landing(self, card: int) -> tuple[int, int] | None:
        """The square ``card`` moves the crown to, or ``None`` if it leaves the board."""
        dr, dc = card_offset(card)
        r, c = self.crown[0] + dr, self.crown[1] + dc
        if 0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE:
            return r, c
        return None

    def _actions_of(self, seat: int) -> list[int]:
        """Legal actions of ``seat`` if it were to move now (non-terminal, non-chance)."""
        other = COLOUR_CHARS[1 - self.colour_of(seat)]
        plays = []
        heroes = []
        for card in self.hands[seat]:
            square = self._landing(card)
            if square is None:
                continue  # the crown may not leave the board
            content = self.board[square[0]][square[1]]
            if content == EMPTY and self.stones_left > 0:
                plays.append(card)
            elif content == other and self.heroes[seat] > 0:
                heroes.append(HERO_OFFSET + card)
            # content == own: never legal, with or without a hero.
        actions = plays + heroes
        if len(self.hands[seat]) < self.game.hand_limit and self.draw_pile:
            actions.append(DRAW)
        if not actions:
            actions.append(PASS)
        return sorted(actions)

    def _can_act(self, seat: int) -> bool:
        return self._actions_of(seat) != [PASS]

    def legal_actions(self) -> list[int]:
        if self.player == TERMINAL:
            return []
        if self.player == CHANCE:
            return list(self.draw_pile)
        return self._actions_of(self.player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.player != CHANCE:
            return []
        p = 1.0 / len(self.draw_pile)
        return [(card, p) for card in self.draw_pile]

    # -- applying actions -----------------------------------------------------------------------

    def _take_from_draw_pile(self, card: int) -> None:
        self.draw_pile.remove(card)
        if not self.draw_pile:
            # As soon as the last card is drawn, the discard pile becomes the draw pile.
            self.draw_pile = self.discard
            self.discard = []

    def _apply_chance(self, card: int) -> None:
        seat = self.receiving
        assert seat is not None
        self._take_from_draw_pile(card)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        if self._in_deal():
            self.cards_dealt += 1
            if self._in_deal():
                # Each seat, in seat order, is dealt a full hand.
                self.receiving = self.cards_dealt // self.game.hand_limit
                return
            self._next_turn(0)
        else:
            self._next_turn((seat + 1) % self.num_players)

    def _apply_decision(self, action: int) -> None:
        seat = self.player
        if action == DRAW:
            self.player = CHANCE
            self.receiving = seat
            return
        if action == PASS:
            self._next_turn((seat + 1) % self.num_players)
            return
        hero = action >= HERO_OFFSET
        card = action - HERO_OFFSET if hero else action
        square = self._landing(card)
        assert square is not None
        r, c = square
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.discard.sort()
        self.board[r][c] = COLOUR_CHARS[self.colour_of(seat)]
        if hero:
            self.heroes[seat] -= 1  # the stone is flipped, none taken from the supply
        else:
            self.stones_left -= 1
        self.crown = (r, c)
        if self.stones_left == 0:
            # The 52nd stone ends the game at once.
            self._end()
            return
        self._next_turn((seat + 1) % self.num_players)

    def _next_turn(self, seat: int) -> None:
        """Hand the turn to ``seat``, unless no player can act any more (then the game ends)."""
        self.receiving = None
        if not any(self._can_act(s) for s in range(self.num_players)):
            self._end()
            return
        self.player = seat

    def _end(self) -> None:
        self.player = TERMINAL
        self.receiving = None

    # -- strings --------------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.player == CHANCE and not 0 <= action < NUM_CARDS:
            raise ValueError(f"chance outcome {action} is out of range 0..{NUM_CARDS - 1}")
        return action_name(action)

    def _text_action(self, text: str) -> int:
        return parse_action(text)

    # -- results --------------------------------------------------------------------------------

    def colour_scores(self) -> tuple[int, int]:
        return score_board(self.board)

    def scores(self) -> list[float]:
        by_colour = self.colour_scores()
        return [float(by_colour[self.colour_of(s)]) for s in range(self.num_players)]

    def winner(self) -> int | None:
        """Winning colour (0 Red, 1 White) or ``None`` for a draw or an unfinished game."""
        if self.player != TERMINAL:
            return None
        return board_winner(self.board)

    def returns(self) -> list[float]:
        win = self.winner()
        if win is None:
            return [0.0] * self.num_players
        return [1.0 if self.colour_of(s) == win else -1.0 for s in range(self.num_players)]

    def _leads(self, player: int) -> tuple[int, int]:
        """``player``'s side's lead in points and in heroes held."""
        mine = self.colour_of(player)
        by_colour = self.colour_scores()
        heroes = [0, 0]
        for seat in range(self.num_players):
            heroes[self.colour_of(seat)] += self.heroes[seat]
        return by_colour[mine] - by_colour[1 - mine], heroes[mine] - heroes[1 - mine]

    def _evaluate(self, player: int) -> float:
        """docs/rules/rosenkoenig.md, "Evaluation (for search bots)"."""
        points, heroes = self._leads(player)
        return EVALUATION_SCALE * math.tanh((points + 6 * heroes) / 40)

    def _evaluate_other(self, player: int, evaluation: str) -> float:
        """thesis: a hero worth 30 points, the lead scaled by the widest lead possible;
        calibrated: a hero worth 30 points, squashed like the default on a scale of 80."""
        points, heroes = self._leads(player)
        if evaluation == "calibrated":
            return EVALUATION_SCALE * math.tanh((points + 30 * heroes) / 80)
        widest = NUM_STONES * NUM_STONES + 30 * self.game.heroes_per_seat * self.num_players / 2
        return EVALUATION_SCALE * (points + 30 * heroes) / widest

    # -- snapshots ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        by_colour = self.colour_scores()
        return {
            "board": ["".join(row) for row in self.board],
            "crown": [self.crown[0], self.crown[1]],
            "hands": [[card_name(c) for c in hand] for hand in self.hands],
            "heroes": list(self.heroes),
            "stones_left": self.stones_left,
            "draw_pile": [card_name(c) for c in self.draw_pile],
            "discard": [card_name(c) for c in self.discard],
            "current_player": self.player,
            "receiving": self.receiving if self.player == CHANCE else None,
            "scores": [by_colour[self.colour_of(s)] for s in range(self.num_players)],
        }

    def _compact(self, planes: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The compact observation: the planes' entries rearranged (docs/rules/rosenkoenig.md,
        "Compact observation")."""
        # Every plane from 4 on is constant: its value is one feature.
        return {
            "board": planes[[0, 1, 3]].astype(np.uint8),
            "features": planes[4:, 0, 0].copy(),
        }

    def _planes(self, player: int) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        n = self.num_players
        obs = np.zeros(self.game.observation_shape, dtype=np.float32)
        own = COLOUR_CHARS[self.colour_of(p)]
        other = COLOUR_CHARS[1 - self.colour_of(p)]
        for r in range(BOARD_SIZE):
            for c in range(BOARD_SIZE):
                if self.board[r][c] == own:
                    obs[0, r, c] = 1.0
                elif self.board[r][c] == other:
                    obs[1, r, c] = 1.0
                else:
                    obs[2, r, c] = 1.0
        obs[3, self.crown[0], self.crown[1]] = 1.0
        for seat in range(n):
            rel = (seat - p) % n
            for card in self.hands[seat]:
                obs[4 + 24 * rel + card] = 1.0
            obs[28 + 24 * n + rel] = self.heroes[seat] / self.game.heroes_per_seat
        for card in self.discard:
            obs[4 + 24 * n + card] = 1.0
        obs[28 + 25 * n] = self.stones_left / NUM_STONES
        if self.player >= 0:
            obs[29 + 25 * n + (self.player - p) % n] = 1.0
        return obs

    def observation_string(self, player: int) -> str:
        self._check_seat(player)
        # Everything is public, so every seat sees the whole table.
        return str(self)

    def information_state_string(self, player: int) -> str:
        self._check_seat(player)
        # Perfect information (open hands, uniform draws): the action history identifies the
        # information state, as in OpenSpiel's perfect-information games.
        return " ".join(str(a) for a in self._history)

    def __str__(self) -> str:
        # The picture of the rules page ("Text"): three characters a square, the crown's square
        # bracketed ([+] while it is empty).
        lines = ["    " + "  ".join(str(c) for c in range(BOARD_SIZE))]
        for r in range(BOARD_SIZE):
            cells = ""
            for c in range(BOARD_SIZE):
                mark = self.board[r][c]
                if (r, c) == self.crown:
                    cells += "[" + ("+" if mark == EMPTY else mark) + "]"
                else:
                    cells += " " + mark + " "
            lines.append(f"{r} {cells}")
        scores = self.scores()
        for seat in range(self.num_players):
            colour = ("Red  ", "White")[self.colour_of(seat)]
            hand = " ".join(card_name(c) for c in self.hands[seat]) or "-"
            lines.append(
                f"seat {seat} {colour} heroes {self.heroes[seat]}  score {int(scores[seat])}"
                f"  hand {hand}"
            )
        lines.append(
            f"stones left {self.stones_left}, draw pile {len(self.draw_pile)}, "
            f"discard {len(self.discard)}"
        )
        if self.player == TERMINAL:
            win = self.winner()
            lines.append("draw" if win is None else COLOUR_NAMES[win] + " wins")
        elif self.player == CHANCE:
            lines.append(f"dealing a card to seat {self.receiving}")
        else:
            lines.append(f"seat {self.player} to move")
        return "\n".join(lines) + "\n"
