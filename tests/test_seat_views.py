"""What a person is shown depends only on what their seat may know: two states that a seat cannot
tell apart (a state and its resample from that seat's information state, or a history with one
action changed that leaves the seat's information state as it was) give that seat the same board
at the terminal, the same move log, observations, picture and viewer page; the spectator's
picture and page show no more than any seat's."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rivals
from rivals import cli, replay, viewer
from rivals.render import move_texts, render, result_text, svg
from tests.random_play import play_randomly, random_action

HIDDEN = [name for name in rivals.games() if rivals.make(name).info.information == "imperfect"]
POSITIONS = 12
PAGES = 3


def terminal_text(state: Any, player: int, compact: bool = False, width: int = 120) -> str:
    console = Console(width=width, record=True, force_terminal=False, color_system=None)
    with console.capture():
        console.print(render(state, player=player, compact=compact))
    return console.export_text()


def twins(name: str) -> list[tuple[Any, Any, int]]:
    """(state, its resample from a seat, that seat) at random points of random games."""
    rng = random.Random(f"seat views {name}")
    game = rivals.make(name)
    out = []
    while len(out) < POSITIONS:
        state = game.new_initial_state()
        stop = rng.randrange(1, 400)
        play_randomly(state, rng, plies=stop)
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = rng.randrange(game.num_players)
        out.append((state, state.resample_from_infostate(seat, rng.randrange(2**63)), seat))
    return out


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_sees_the_same_of_states_it_cannot_tell_apart(name: str) -> None:
    differing = 0
    for position, (state, twin, seat) in enumerate(twins(name)):
        assert state.information_state_string(seat) == twin.information_state_string(seat)
        differing += state.history() != twin.history()
        assert seat_view(state, seat) == seat_view(twin, seat)
        if position < PAGES:  # a page draws every step of the game: a few suffice
            for viewer_seat in (seat, None):
                page, other = (
                    viewer.to_html(replay.to_dict(s), viewer_seat) for s in (state, twin)
                )
                assert page == other, viewer_seat
                # Only the whole record's page switches views: a seat's page holds its own.
                assert '<select id="view"' not in page
                assert len(viewer.frames_of(page)) == len(state.history()) + 1
                with pytest.raises(ValueError, match="out of range"):
                    viewer.frames_of(page, 1)
            # In the whole record's page, this seat's view is its own page's, no more.
            owner = viewer.to_html(state, seats=True)
            own = viewer.to_html(state, seat)
            assert viewer.frames_of(owner, seat + 1) == viewer.frames_of(own)
    # The twins must differ in what is hidden, or the test shows nothing.
    assert differing >= POSITIONS // 2


def changed_twins(name: str) -> list[tuple[Any, Any, int]]:
    """(state, twin, seat): the twin's history is the state's with one action changed, a chance
    outcome or another seat's decision, and the seat's information state is the same. Made
    without the resampler, so that a hidden fact it would keep is varied too."""
    rng = random.Random(f"changed twins {name}")
    game = rivals.make(name)
    out = []
    while len(out) < POSITIONS:
        history = play_randomly(game.new_initial_state(), rng).history()
        cut = rng.randrange(1, len(history))
        state = game.state_from_history(history[:cut])
        seat = rng.randrange(game.num_players)
        for _ in range(50):
            index = rng.randrange(cut)
            changed = history[:cut]
            changed[index] = rng.choice(game.state_from_history(history[:index]).legal_actions())
            try:
                twin = game.state_from_history(changed)
            except ValueError:  # the change made a later action illegal
                continue
            seen = twin.information_state_string(seat) == state.information_state_string(seat)
            if changed[index] != history[index] and seen:
                out.append((state, twin, seat))
                break
    return out


def seat_view(state: Any, seat: int) -> tuple[Any, ...]:
    compact = state.observation_tensor(seat, kind="compact")
    return (
        state.observation_string(seat),
        state.observation_tensor(seat).tobytes(),
        compact["board"].tobytes(),
        compact["features"].tobytes(),
        terminal_text(state, seat),
        # The short terminal's board, at the width that draws Rheinländer's map unlabelled.
        terminal_text(state, seat, compact=True, width=80),
        result_text(state),
        move_texts(state, seat),
        move_texts(state, None),
        svg.to_svg(state, seat),
        svg.to_svg(state, None),
    )


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_sees_the_same_of_histories_that_differ_only_in_what_it_cannot_see(
    name: str,
) -> None:
    differing = 0
    for state, twin, seat in changed_twins(name):
        differing += state.to_dict() != twin.to_dict()
        assert seat_view(state, seat) == seat_view(twin, seat)
    # The twins must differ in what is hidden, or the test shows nothing.
    assert differing >= POSITIONS // 2


def resumed_screen(state: Any, seat: int, path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``rivals play --resume`` shows the player of ``seat`` of a game saved at ``state``
    before their first command, the file's name left out."""
    data = replay.to_dict(state)
    data["bots"] = [
        None if other == seat else {"name": "random", "params": {}}
        for other in range(state.game.num_players)
    ]
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["play", "--resume", str(path), "--seed", "1"]) == 0
    return out.getvalue().replace(str(path), "FILE")


@pytest.mark.parametrize("name", HIDDEN)
def test_a_resumed_game_shows_its_seat_only_what_the_seat_saw(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game saved at the person's turn and resumed: the screen (the moves since their last
    # one, the board, the moves they may make) is the same for every history their seat cannot
    # tell apart, so it shows nothing of the file's hidden cards.
    monkeypatch.setenv("COLUMNS", "120")
    rng = random.Random(f"resumed {name}")
    game = rivals.make(name)
    checked = differing = 0
    while checked < 6:
        state = play_randomly(game.new_initial_state(), rng, plies=rng.randrange(1, 300))
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, rng.randrange(2**63))
        differing += state.history() != twin.history()
        # Paths of one length: the screen wraps its lines where the file's name puts them.
        screens = []
        for which, each in (("a", state), ("b", twin)):
            (tmp_path / which).mkdir(exist_ok=True)
            screens.append(resumed_screen(each, seat, tmp_path / which / "game.json", monkeypatch))
        assert screens[0] == screens[1]
        assert "resumed FILE" in screens[0]
        checked += 1
    assert differing >= 3


def face_down_ids(state: Any, seat: int) -> set[str]:
    stacks = state.to_dict()["stacks"][seat]
    return {card["id"] for stack in stacks.values() for card in stack if not card["face_up"]}


def test_battlecards_information_states_name_the_cards_turned_face_up() -> None:
    # Turned over by a battle, not named by any action: without them two histories that a seat
    # tells apart (it saw other cards) would give it one information state.
    game = rivals.make("battlecards")
    rng = random.Random(5)
    checked = 0
    while checked < 20:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
                continue
            down = [face_down_ids(state, seat) for seat in (0, 1)]
            state.apply_action(rng.choice(state.legal_actions()))
            for seat in (0, 1):
                turned = down[1 - seat] - face_down_ids(state, 1 - seat)
                still = {
                    card["id"]
                    for cards in state.to_dict()["stacks"][1 - seat].values()
                    for card in cards
                }
                turned &= still  # up, not gone from the stack
                last = state.information_state_string(seat).splitlines()[-1]
                if turned:
                    checked += 1
                    assert last.endswith("; turned face up: " + " ".join(sorted(turned))), last
                else:
                    assert "turned face up" not in last, last
