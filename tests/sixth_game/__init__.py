"""Tic-tac-toe, added by docs/architecture.md's "Adding a game" outside the library
(tests/test_adding_a_game.py): its rules page (rules.md), its engine folder
(cpp/rivals/tictactoe/) and its reference (reference.py)."""
