"""The data documents a game was made with (card sets, maps), for pictures to name and describe
what the engine refers to by id. Display only: no rule is read from them here."""

from __future__ import annotations

from typing import Any, cast

from rivals._core import Game, State

__all__ = ["card_index", "documents", "snapshot"]


def documents(game: Game) -> dict[str, Any]:
    """The data documents of ``game`` by parameter name (the engine's resolved ``game.data``):
    ``{"cards": {...}}``, plus ``"expansions": [...]`` for Battlecards and ``"map"`` for
    Rheinländer; ``{}`` for a game without data."""
    return dict(game.data)


def card_index(game: Game, lists: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Every card of the ``lists`` of the game's card document and its expansions, by id."""
    docs = documents(game)
    out: dict[str, dict[str, Any]] = {}
    for doc in [docs["cards"], *docs.get("expansions", [])]:
        for name in lists:
            for card in doc.get(name, []):
                out[str(card["id"])] = card
    return out


def snapshot(state: State) -> dict[str, Any]:
    """``state.to_dict()``, typed as the JSON object it is."""
    return cast("dict[str, Any]", state.to_dict())
