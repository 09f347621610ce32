"""Pure-Python reference of tic-tac-toe (rules.md beside this file), on the reference's bases as
every game's reference is (docs/architecture.md, "The reference")."""

from __future__ import annotations

from typing import Any

from rivals.reference import _base
from rivals.reference._base import TERMINAL

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class Game(_base.Game["State"]):
    name = "tictactoe"
    num_players = 2
    num_distinct_actions = 9
    max_chance_outcomes = 0
    max_game_length = 9

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"tictactoe: unknown parameter {sorted(params)[0]!r}; accepted: none")
        self.params: dict[str, Any] = {}

    def new_initial_state(self) -> State:
        return State(self)


class State(_base.State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cells: list[int | None] = [None] * 9
        self.winner: int | None = None

    def current_player(self) -> int:
        if self.winner is not None or None not in self.cells:
            return TERMINAL
        return len(self._history) % 2

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [cell for cell in range(9) if self.cells[cell] is None]

    def _apply_decision(self, action: int) -> None:
        mover = self.current_player()
        self.cells[action] = mover
        if any(all(self.cells[cell] == mover for cell in line) for line in LINES):
            self.winner = mover

    def _action_text(self, action: int) -> str:
        if not 0 <= action < 9:
            raise ValueError(f"no cell {action}")
        return f"r{action // 3}c{action % 3}"

    def _text_action(self, text: str) -> int:
        for action in range(9):
            if self._action_text(action) == text:
                return action
        raise ValueError(f"no cell {text!r} (r0c0 to r2c2)")

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def scores(self) -> list[float]:
        return self.returns()

    def to_dict(self) -> dict[str, Any]:
        marks = [".XO"[mark + 1 if mark is not None else 0] for mark in self.cells]
        return {"board": ["".join(marks[row * 3 : row * 3 + 3]) for row in range(3)]}
