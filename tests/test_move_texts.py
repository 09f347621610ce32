"""How each move reads to each viewer (``rivals.render.move_texts``): a seat sees its own cards
and every public move, never another seat's hidden card; a spectator sees only what every seat
sees; what the rules reveal is told where they reveal it."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals.render import move_texts, moves_help, render, result_text
from rivals.render._data import card_index
from tests.ecosystem_cases import random_game
from tests.games import CONFIGS
from tests.random_play import play_randomly

PACKAGE = Path(rivals.__file__).parent


def walk(state: rivals.State) -> list[tuple[int, str, dict[str, Any], dict[str, Any]]]:
    """(player, action text, snapshot before, snapshot after) for every action of the history;
    the text as the node it was played at names it (chance outcomes and decisions have ids of
    their own)."""
    walker = state.game.new_initial_state()
    out = []
    for action in state.history():
        before = walker.to_dict()
        player = walker.current_player()
        text = walker.action_to_string(action)
        walker.apply_action(action)
        out.append((player, text, before, walker.to_dict()))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_verraeter_picks_and_draws_are_hidden_from_the_others(seed: int) -> None:
    state = random_game("verraeter", {}, seed)
    seats = range(state.game.num_players)
    views = {viewer: move_texts(state, viewer) for viewer in (None, *seats)}
    picks = reveals = 0
    for index, (player, text, before, after) in enumerate(walk(state)):
        if text.startswith("pick "):
            picks += 1
            card = text.split(" ")[1]
            assert views[player][index].startswith(f"pick {card}")
            for viewer in (None, *seats):
                if viewer != player:
                    assert views[viewer][index].startswith("picks an action card (hidden)")
                    assert f"pick {card}" not in views[viewer][index]
        elif before["phase"] == "draft" and player < 0:
            hidden = "an action card is set aside (hidden)"
            assert all(view[index].startswith(hidden) for view in views.values())
        elif text.startswith("draw "):
            receiver = before["draw_queue"][0]
            value = text.split(" ")[1]
            assert views[receiver][index] == f"a {value} to seat {receiver}"
            for viewer in (None, *seats):
                if viewer != receiver:
                    assert views[viewer][index] == f"a card (hidden) to seat {receiver}"
        else:
            # Public: the ring laid out, estates, the conflict site, supply cards, done, discards.
            assert all(view[index].startswith(text) for view in views.values()), text
        if after["conflict_totals"] is not None and before["conflict_totals"] is None:
            reveals += 1
            cards = ", ".join(f"seat {s} {card}" for s, card in enumerate(after["actions"]))
            totals = after["conflict_totals"]
            for view in views.values():
                assert f"reveal: {cards}" in view[index]
                assert f"conflict: eagle {totals['eagle']}, rose {totals['rose']}" in view[index]
    assert picks >= 4 * 6 and reveals >= 6


def test_verraeter_start_player_is_told_the_pool_it_receives() -> None:
    state = random_game("verraeter", {}, 3, limit=40)
    texts = move_texts(state, 0)
    pool = next(text for text in texts if "you receive " in text)
    assert pool.startswith("an action card is set aside (hidden); you receive ")
    assert len(pool.split("you receive ")[1].split(" ")) == 5
    assert not any("you receive" in text for text in move_texts(state, None))


@pytest.mark.parametrize("seed", [1, 2])
def test_battlecards_hides_only_the_enemys_secrets(seed: int) -> None:
    state = random_game("battlecards", {}, seed, limit=600)
    cards = card_index(state.game, ("conflict", "german", "british"))
    views = {viewer: move_texts(state, viewer) for viewer in (None, 0, 1)}
    public = flipped = 0
    for index, (player, text, before, after) in enumerate(walk(state)):
        if player >= 0 and text.startswith("deploy ") and before["phase"] != "reinforce":
            card = cards[text.split(" ")[1]]
            assert views[player][index] == f"{text} {card['name']}"
            for viewer in (None, 1 - player):
                assert views[viewer][index] == f"deploys a card face down ({card['type']})"
                assert str(card["name"]) not in views[viewer][index]
        elif player < 0 and before["phase"] in ("deal", "effect_draw"):
            subject = before["subject"]
            side = ("Germany", "Britain")[subject]
            name = str(cards[text]["name"])
            assert views[subject][index] == f"{text} {name} to {side}"
            for viewer in (None, 1 - subject):
                assert views[viewer][index] == f"a card (hidden) to {side}"
        elif player >= 0 and text.split(" ")[0] in ("fire", "pass", "fight", "decline", "withdraw"):
            public += 1
            # Public decisions read in full to everybody, with the card named.
            told = {
                viewer: view[index].split("; turned face up: ") for viewer, view in views.items()
            }
            assert told[0][0] == told[1][0] == told[None][0]
            assert told[None][0].startswith(text)
            # A battle turns the enemy's cards face up; each seat is told which.
            for viewer in (0, 1):
                enemy = 1 - viewer
                turned = {
                    str(cards[str(entry["id"])]["name"])
                    for kind in ("ground", "air", "sea")
                    for entry in after["stacks"][enemy][kind]
                    if entry["face_up"]
                    and not any(
                        old["id"] == entry["id"] and old["face_up"]
                        for old in before["stacks"][enemy][kind]
                    )
                }
                shown = set(told[viewer][1].split(", ")) if len(told[viewer]) > 1 else set()
                assert shown == turned, (text, viewer)
                flipped += bool(turned)
        elif player < 0 and before["phase"] == "flip":
            action_number = cards[text]["action"]
            assert all(f"turns {text}: action {action_number}" in v[index] for v in views.values())
    assert public > 20 and flipped > 0


def test_rosenkoenig_and_sekigahara_tell_every_move() -> None:
    for name in ("rosenkoenig", "sekigahara"):
        state = random_game(name, {}, 4, limit=60)
        walker = state.game.new_initial_state()
        views = [move_texts(state, viewer) for viewer in (None, 0, 1)]
        for index, action in enumerate(state.history()):
            text = walker.action_to_string(action)
            assert all(view[index].startswith(text) for view in views)
            walker.apply_action(action)
        assert move_texts(state, 1, 30) == views[2][30:]
    with pytest.raises(ValueError, match="out of range"):
        move_texts(state, 0, len(state.history()) + 1)


@pytest.mark.parametrize("name", rivals.games())
def test_results_are_words(name: str) -> None:
    final = random_game(name, {}, 5)
    text = result_text(final)
    assert "returns" not in text and "[" not in text
    assert any(word in text for word in ("wins", "win", "draw")), text
    assert f"rivals rules {name}" in moves_help(name)


def final(name: str, params: dict[str, Any], seed: int) -> rivals.State:
    return play_randomly(rivals.make(name, **params).new_initial_state(), random.Random(seed))


def test_end_screens_say_why_the_game_ended() -> None:
    # Rosenkönig ends when the last stone is placed or when nobody can do anything but pass.
    ends = {
        seed: (final("rosenkoenig", {}, seed), final("rosenkoenig", {"players": 4}, seed))
        for seed in range(3)
    }
    for state in (state for pair in ends.values() for state in pair):
        emptied = state.to_dict()["stones_left"] == 0
        why = "(the last stone was placed)" if emptied else "(no player could move)"
        assert result_text(state).endswith(why), result_text(state)
    assert {state.to_dict()["stones_left"] == 0 for pair in ends.values() for state in pair} == {
        True,
        False,
    }
    # Verräter seed 28: every landscape shows the rose after six of the eight rounds.
    early = final("verraeter", {}, 28)
    assert early.to_dict()["round"] == 6
    assert result_text(early).endswith("; after 6 of 8 rounds every landscape shows the rose)")
    assert result_text(final("verraeter", {}, 1)).endswith("; all 8 rounds were played)")


@pytest.mark.parametrize(
    ("name", "labels", "key"),
    [
        ("rheinlaender", ["red", "yellow", "green", "purple", "navy"], "scores"),
        ("verraeter", ["seat 0", "seat 1", "seat 2", "seat 3"], "vp"),
    ],
)
def test_end_screens_give_every_seat_its_points_beside_its_name(
    name: str, labels: list[str], key: str
) -> None:
    params = {"players": len(labels)}
    for seed in range(4):
        state = final(name, params, seed)
        points = [int(value) for value in state.to_dict()[key]]
        text = result_text(state)
        best = max(points)
        leaders = [seat for seat, value in enumerate(points) if value == best]
        assert text.startswith(" and ".join(labels[seat] for seat in leaders)), text
        assert f" with {best} " in text, text
        for seat, value in enumerate(points):
            if seat not in leaders:
                assert re.search(rf"[(,] ?{labels[seat]} {value}[,;]", text), (seat, text)
        if name == "rheinlaender":
            assert text.endswith("placed its last knight)"), text


def test_pictures_never_import_the_reference() -> None:
    pictures = sorted((PACKAGE / "render").rglob("*.py"))
    for path in [*pictures, PACKAGE / "viewer.py", PACKAGE / "play.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any("reference" in name for name in names), (path, names)


def test_snapshots_carry_what_the_pictures_draw() -> None:
    state = random_game("sekigahara", {}, 2)
    snapshot = state.to_dict()
    assert [len(seat) for seat in snapshot["strengths"]] == [
        len(seat) for seat in snapshot["camps"]
    ]
    assert sum(snapshot["strengths"][0]) == snapshot["scores"][0]
    assert sum(snapshot["strengths"][1]) + 1 == snapshot["scores"][1]
    seen = 0
    for _, _, _, after in walk(random_game("verraeter", {}, 2)):
        revealed = after["phase"] in ("builder", "draw", "discard")
        assert (after["conflict_totals"] is not None) == revealed
        seen += revealed
    assert seen > 0


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("seat", [-1, 9])
def test_a_seat_out_of_range_is_refused_not_shown_as_a_spectator(name: str, seat: int) -> None:
    state = rivals.make(name).new_initial_state()
    with pytest.raises(ValueError, match=f"player {seat} is not a seat"):
        render(state, player=seat)
    with pytest.raises(ValueError, match=f"player {seat} is not a seat"):
        move_texts(state, seat)
    for not_a_seat in ("1", True, 1.0):
        with pytest.raises(ValueError, match="player must be an int"):
            render(state, player=not_a_seat)  # type: ignore[arg-type]
