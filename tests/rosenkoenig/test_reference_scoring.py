"""Scoring rules on crafted boards, through the reference's module-level scoring functions.

Positions like these are slow to reach by play, so they are set directly. The functions take a
board as ``to_dict()["board"]`` gives it: rows of ``"."`` (empty), ``"R"`` (red), ``"W"`` (white)
indexed ``board[row][col]``:

* ``score_board(board) -> (red score, white score)``
* ``colour_stats(board, colour) -> (score, largest group, stones)``
* ``board_winner(board) -> 0 (Red), 1 (White) or None (draw)``

A mirrored test for the engine's scoring function is the lead's to add.
"""

from __future__ import annotations

import pytest

from rivals.reference import rosenkoenig as rk


def board(*rows: str) -> list[str]:
    """A 9x9 board from up to 9 rows (missing rows and columns are empty)."""
    padded = [row.ljust(9, ".") for row in rows]
    return padded + ["." * 9] * (9 - len(padded))


def test_diagonal_neighbours_do_not_join():
    assert rk.score_board(board("R.", ".R")) == (2, 0)
    assert rk.score_board(board(".W", "W.")) == (0, 2)
    # A checkerboard corner: five diagonal singletons.
    assert rk.colour_stats(board("R.R", ".R.", "R.R"), "R") == (5, 1, 5)


def test_orthogonal_neighbours_join():
    assert rk.score_board(board("RR")) == (4, 0)
    assert rk.score_board(board("R", "R")) == (4, 0)
    assert rk.score_board(board(".R.", "RRR", ".R.")) == (25, 0)


def test_sum_of_squares_over_groups():
    b = board(
        "RR..WWWW.",
        "R........",
        "....R.R..",
        "W...R....",
    )
    # Red: L of 3 (9) + pair (4) + single (1) = 14. White: line of 4 (16) + single (1) = 17.
    assert rk.score_board(b) == (14, 17)
    assert rk.group_sizes(b, "R") == [3, 2, 1]
    assert rk.colour_stats(b, "W") == (17, 4, 5)


def test_group_across_the_whole_board():
    b = ["R" * 9] + ["R" + "." * 8] * 8  # top row and west column: one group of 17
    assert rk.score_board(b) == (289, 0)


def test_accepts_list_of_lists():
    b = [list(row) for row in board("RW", "WR")]
    assert rk.score_board(b) == (2, 2)


def test_empty_board_is_a_draw():
    assert rk.score_board(board()) == (0, 0)
    assert rk.board_winner(board()) is None


def test_higher_score_wins_against_a_larger_group():
    b = board("RR.RR.RR.", ".........", "WWW")  # Red 2+2+2 -> 12, White 3 -> 9
    assert rk.score_board(b) == (12, 9)
    assert rk.board_winner(b) == 0


def test_higher_score_wins_against_more_stones():
    b = board("RRR", "", "W.W.W.W.W", "", "W.W.W")  # Red 9; White 8 singles -> 8
    assert rk.score_board(b) == (9, 8)
    assert rk.board_winner(b) == 0


@pytest.mark.parametrize("swap", [False, True])
def test_tiebreak_largest_group(swap):
    b = board("RR", "", "W.W.W.W")  # 4 each; Red's pair beats White's singles (with fewer stones)
    if swap:
        b = [row.translate(str.maketrans("RW", "WR")) for row in b]
    assert rk.score_board(b) == (4, 4)
    assert rk.board_winner(b) == (1 if swap else 0)


@pytest.mark.parametrize("swap", [False, True])
def test_tiebreak_more_stones(swap):
    b = board("WW.WW", "", "RR.R.R.R.R")  # 8 each, largest 2 each; Red 6 stones, White 4
    if swap:
        b = [row.translate(str.maketrans("RW", "WR")) for row in b]
    assert rk.colour_stats(b, "R" if not swap else "W") == (8, 2, 6)
    assert rk.score_board(b) == (8, 8)
    assert rk.board_winner(b) == (1 if swap else 0)


def test_full_tie_is_a_draw():
    b = board("RR.R", "", "W", "W..W")  # Red 2+1, White 2+1 in other shapes
    assert rk.colour_stats(b, "R") == rk.colour_stats(b, "W") == (5, 2, 3)
    assert rk.board_winner(b) is None


def test_state_uses_the_same_scoring():
    from rivals import reference

    state = reference.make("rosenkoenig").new_initial_state()
    for card in ["NE1", "N2", "W2", "S3", "SE3", "SW1", "E3", "N3", "NW3", "SE2"]:
        state.apply_action(state.string_to_action(card))
    for move in ["NE1", "SW1", "N2", "E3", "W2"]:
        state.apply_action(state.string_to_action(move))
    snap = state.to_dict()
    red, white = rk.score_board(snap["board"])
    assert snap["scores"] == [red, white] == [9, 2]
