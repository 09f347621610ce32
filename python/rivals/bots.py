"""Bots: ``rivals.bots.make(name, game, seed=0, **params)`` -> a bot whose ``step(state)`` returns
an action legal for the player to move. Every bot runs in C++ with the GIL released."""

from __future__ import annotations

from typing import Any

from rivals._core import Bot, Game, bot_names

__all__ = ["Bot", "clock_dependent", "make", "names", "resolve"]


def names() -> list[str]:
    """Names of the bots that play at least one game; a game's own are ``game.info.bots``."""
    return list(bot_names())


def make(name: str, game: Game, seed: int = 0, **params: Any) -> Bot:
    """A bot for ``game``: one of ``game.info.bots``, or a preset of ``game.info.presets``
    (``"best"``: the game's strongest setting, 0.1 s/move), whose parameters ``params`` override.
    Budgets: ``iterations=`` or ``time_s=`` (mcts).

    The bot's ``name`` is the bot that plays (a preset's bot), ``preset`` the preset or None, and
    ``params`` every parameter it plays with. Unknown names or parameters raise ``ValueError``
    listing what is accepted.
    """
    return game.make_bot(name, params, seed)


def resolve(game: Game, name: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The bot that ``name`` with ``params`` plays and the parameters it is given: for a preset
    its bot, with the preset's parameters and ``params`` over them; for a bot, itself."""
    preset = game.info.presets.get(name)
    if preset is None:
        return name, dict(params)
    return preset["bot"], {**preset["params"], **params}


def clock_dependent(game: Game, name: str, params: dict[str, Any]) -> bool:
    """Whether bot (or preset) ``name`` of ``game`` with ``params`` thinks by the clock
    (``time_s`` > 0), so that its moves depend on the machine's speed and load and the same seed
    can give other games.
    An exact solver (``game.info.solvers``) never does: it finds the answer within its time or
    raises ``BudgetExceeded``."""
    name, params = resolve(game, name, params)
    time_s = params.get("time_s")
    timed = isinstance(time_s, (int, float)) and not isinstance(time_s, bool) and time_s > 0
    return timed and name not in game.info.solvers
