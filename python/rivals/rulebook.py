"""The rules pages (``docs/rules/<game>.md``), shipped with the package as ``rivals/rules``.

``page(name)`` returns a game's page as Markdown: the complete rules the engine implements, then
its encoding (actions, snapshot, observation); ``rules(name)`` the rules alone, as a person
reads them to play. In a source checkout that was not installed the pages are read from
``docs/rules`` instead.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import rivals

__all__ = ["ENCODING", "page", "rules"]

# The heading of the part of every page that is about the engine rather than the game.
ENCODING = "## Engine encoding"


def page(name: str) -> str:
    """The rules page of game ``name``; ``ValueError`` for a game without one."""
    known = rivals.games()
    if name not in known:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(known)}")
    installed = resources.files("rivals").joinpath("rules").joinpath(f"{name}.md")
    if installed.is_file():
        return installed.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "docs" / "rules" / f"{name}.md"
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    raise ValueError(f"the rules page of {name} is not installed (expected rivals/rules/{name}.md)")


def rules(name: str) -> str:
    """The rules of game ``name`` without the engine's encoding that ends its page."""
    text = page(name)
    at = text.find(f"\n{ENCODING}\n")
    return text if at < 0 else text[: at + 1]
