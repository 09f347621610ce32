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


@pytest.mark.parametrize("width", [80, 100, 120])
def test_rheinlaender_map_takes_two_blocks_from_80_columns(width: int) -> None:
    # The shipped map has 54 sections: three blocks of 18 took 22 lines; two of 27 take 16.
    state = play_randomly(
        rivals.make("rheinlaender").new_initial_state(), random.Random(4), plies=90
    )
    text = plain(render(state, player=0), width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    headers = [line for line in lines if re.fullmatch(r"\s*(\d+ +)+\d+\s*", line)]
    assert [header.split()[0] for header in headers] == ["1", "28"]
    labelled = width >= 6 + 3 * 27
    assert ("Rhine  " in text) == labelled
    assert ("each block: landmarks, left bank" in text) != labelled
    # Every knight on the map is drawn: as many seat numbers on the map rows as knights placed.
    snapshot = state.to_dict()
    start = lines.index(headers[0])
    end = next(at for at, line in enumerate(lines) if line.startswith(("each block", "0-4")))
    drawn = sum(
        len(re.findall(r"(?<![\w◼♜])[0-4](?![\w])", line))
        for line in lines[start:end]
        if line not in headers and not re.search(r"[◼♜✚]", line)
    )
    assert drawn == len(snapshot["knights"])


@pytest.mark.parametrize("name", ["rheinlaender", "battlecards"])
def test_compact_boards_are_shorter_and_leave_out_only_what_is_told_elsewhere(name: str) -> None:
    game = rivals.make(name)
    for seed in range(3):
        history = final(name, seed).history()
        state = game.state_from_history(history[: len(history) // 2])
        full = plain(render(state, ["you", "b", "c"][: game.num_players], 0), 80)
        short = plain(render(state, ["you", "b", "c"][: game.num_players], 0, compact=True), 80)
        assert len(short.splitlines()) < len(full.splitlines()) - 5
        assert max(len(line) for line in short.splitlines()) <= 80
        snapshot = state.to_dict()
        if name == "rheinlaender":
            hand = " ".join(map(str, snapshot["hands"][0])) or "-"
            assert hand in short
            assert "knights  bastions" in full and "knights  bastions" not in short
            assert "0-4 a seat's knight" in full and "0-4 a seat's knight" not in short
        else:
            names = {card["id"]: card["name"] for card in game.data["cards"]["german"]}
            for card in snapshot["reserve"][0]:
                assert names[card] in " ".join(short.split())


def test_a_game_without_a_compact_board_draws_its_full_one() -> None:
    state = final("rosenkoenig", 1)
    assert plain(render(state, player=0, compact=True), 100) == plain(render(state, player=0), 100)


def test_sekigahara_compact_board_leaves_the_camps_abilities_to_board() -> None:
    game = rivals.make("sekigahara")
    history = final("sekigahara", 2).history()
    state = game.state_from_history(history[: 2 * len(history) // 3])
    snapshot = state.to_dict()
    abilities = {int(card["id"]): str(card["ability"]) for card in game.data["cards"]["cards"]}
    short = " ".join(plain(render(state, player=0, compact=True), 80).split())
    assert "the camps' abilities: board" in short and "str: the strength" not in short
    for entry in snapshot["neutral"]:
        assert abilities[int(entry["id"])] in short
    camp = {int(entry["id"]) for side in snapshot["camps"] for entry in side}
    central = {int(entry["id"]) for entry in snapshot["neutral"]}
    assert camp and all(abilities[card] not in short for card in camp - central)
