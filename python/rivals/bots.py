"""Bots: ``rivals.bots.make(name, game, seed=0, **params)`` -> a bot whose ``step(state)`` returns
an action legal for the player to move. Every bot runs in C++ with the GIL released."""

from __future__ import annotations

from typing import Any

from rivals._core import Bot, Game, bot_names

__all__ = ["Bot", "make", "names"]


def names() -> list[str]:
    """Names of the available bots."""
    return list(bot_names())


def make(name: str, game: Game, seed: int = 0, **params: Any) -> Bot:
    """A bot for ``game``. Budgets: ``iterations=`` or ``time_s=`` (mcts).

    Unknown names or parameters raise ``ValueError`` listing what is accepted.
    """
    return game.make_bot(name, params, seed)
