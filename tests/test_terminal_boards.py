"""The text boards as a person reads them at a terminal, without colour: every mark that a style
carries is also told in characters, and nothing is cut short at the usual widths."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

import rivals
from rivals.render import render
from tests.random_play import play_randomly


def plain(renderable: Any, width: int) -> str:
    """What a terminal of ``width`` columns without colour shows."""
    console = Console(width=width, file=io.StringIO(), color_system=None, force_terminal=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def final(name: str, seed: int) -> rivals.State:
    return play_randomly(rivals.make(name).new_initial_state(), random.Random(seed))


def test_battlecards_battle_list_marks_cancelled_battles() -> None:
    # Seed 1 ends with every battle over, three of them cancelled.
    state = final("battlecards", 1)
    snapshot = state.to_dict()
    assert snapshot["end_reason"] == "battles" and len(snapshot["cancelled"]) == 3
    cards = {card["id"]: card for card in state.game.data["cards"]["conflict"]}
    text = " ".join(plain(render(state, player=0), 100).split())
    listed = text.split("battle list", 1)[1]
    assert "✗ cancelled" in listed  # the legend
    for card_id in snapshot["cancelled"]:
        name = str(cards[card_id]["name"]).split(" (", 1)[0]
        assert re.search(rf"{re.escape(name)} ✗", listed), name
    # Every battle of the list is won or cancelled: each entry carries a mark.
    entries = listed.split(": ", 1)[1].split(" turn ")[0].split(" · ")
    assert len(entries) == 16
    assert all(entry.endswith(("✔G", "✔B", "✗")) for entry in entries), entries


@pytest.mark.parametrize("width", [80, 110])
def test_sekigahara_abilities_are_told_whole_in_the_camps_and_the_centre(width: int) -> None:
    game = rivals.make("sekigahara")
    abilities = {int(card["id"]): str(card["ability"]) for card in game.data["cards"]["cards"]}
    checked = 0
    for seed in range(4):
        final_state = final("sekigahara", seed)
        history = final_state.history()
        for cut in (len(history) // 3, 2 * len(history) // 3, len(history)):
            state = game.state_from_history(history[:cut])
            snapshot = state.to_dict()
            text = plain(render(state, ["you", "mcts"], 0), width)
            assert max(len(line) for line in text.splitlines()) <= width
            flat = " ".join(text.split())
            assert "…" not in flat
            cards = [entry for camp in snapshot["camps"] for entry in camp if not entry["blank"]]
            cards += snapshot["neutral"]
            for entry in cards:
                checked += 1
                assert abilities[int(entry["id"])] in flat, (width, entry["id"])
    assert checked > 30
