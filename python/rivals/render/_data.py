"""The data documents a game was made with (card sets, maps), for pictures to name and describe
what the engine refers to by id. Display only: no rule is read from them here.

Every picture asks ``documents(game)``, the one place that knows where the documents come from:
the engine's own resolved documents (``game.data``) where the bindings provide them, else the
files the parameters name, read the way the engine reads them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, cast

from rivals._core import Game

__all__ = ["card_index", "documents"]

# The parameter naming each game's main data document, and its shipped file.
_MAIN = {
    "battlecards": ("cards", "battlecards.json"),
    "rheinlaender": ("map", "rheinlaender.json"),
    "sekigahara": ("cards", "sekigahara.json"),
    "verraeter": ("cards", "verraeter.json"),
}


@cache
def _shipped(file_name: str) -> dict[str, Any]:
    text = resources.files("rivals.data").joinpath(file_name).read_text("utf-8")
    return cast("dict[str, Any]", json.loads(text))


@cache
def _file(path: str) -> dict[str, Any]:
    # The engine has read and validated this very file when the game was made.
    with open(path, encoding="utf-8") as handle:
        return cast("dict[str, Any]", json.load(handle))


def _resolve(value: Any, shipped: str | None) -> dict[str, Any]:
    if value is None and shipped is not None:
        return _shipped(shipped)
    if isinstance(value, str):
        # A shipped document by name ("battlecards_commanders"), else a path.
        if resources.files("rivals.data").joinpath(f"{value}.json").is_file():
            return _shipped(f"{value}.json")
        return _file(value)
    if isinstance(value, dict):
        return value
    raise ValueError(f"cannot read a data document from {value!r}")


def documents(game: Game) -> dict[str, Any]:
    """The data documents of ``game`` by parameter name: ``{"cards": {...}}``, plus
    ``"expansions": [...]`` for Battlecards and ``"map"`` for Rheinländer; ``{}`` for a game
    without data."""
    engine = getattr(game, "data", None)
    if isinstance(engine, dict):
        return engine
    found = _MAIN.get(game.name)
    if found is None:
        return {}
    key, shipped = found
    params = game.params
    out: dict[str, Any] = {key: _resolve(params.get(key), shipped)}
    if "expansions" in params:
        out["expansions"] = [_resolve(pack, None) for pack in params["expansions"]]
    return out


def card_index(game: Game, lists: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Every card of the ``lists`` of the game's card document and its expansions, by id."""
    docs = documents(game)
    out: dict[str, dict[str, Any]] = {}
    for doc in [docs["cards"], *docs.get("expansions", [])]:
        for name in lists:
            for card in doc.get(name, []):
                out[str(card["id"])] = card
    return out
