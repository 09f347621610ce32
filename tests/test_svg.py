"""SVG pictures: every game's picture is well-formed XML for every view, Rosenkönig's shows exactly
the position (stones, crown, hands, heroes, supply, scores, the last play), and the generic picture
shows a seat only what it may see."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import rivals
from rivals.boxes.rosenkoenig import svg as rk_svg
from rivals.render import svg
from tests.ecosystem_cases import CASE_IDS, CASES, random_game

NS = {"svg": "http://www.w3.org/2000/svg"}
CELL = rk_svg.CELL


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    return root


def sample_states(name: str, params: dict[str, Any], seed: int) -> list[rivals.State]:
    final = random_game(name, params, seed)
    history = final.history()
    game = final.game
    points = sorted({0, 1, len(history) // 3, len(history) // 2, len(history) - 1, len(history)})
    return [game.state_from_history(history[:k]) for k in points]


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_every_view_is_well_formed_svg(name: str, params: dict[str, Any]) -> None:
    for state in sample_states(name, params, seed=11):
        views: list[int | None] = [None, *range(state.game.num_players)]
        for player in views:
            root = parse(svg.to_svg(state, player))
            title = root.find("svg:title", NS)
            assert title is not None and title.text


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_generic_picture_is_well_formed_and_shows_the_scores(
    name: str, params: dict[str, Any]
) -> None:
    state = random_game(name, params, seed=5, limit=40)
    text = svg.generic(state, None, svg.moves(state))
    parse(text)
    scores = ", ".join(f"{score:g}" for score in state.scores())
    assert f"scores: {scores}" in text


@pytest.mark.parametrize("player", [None, 0, 1])
def test_bad_player_is_rejected(player: int | None) -> None:
    state = rivals.make("rosenkoenig").new_initial_state()
    assert svg.to_svg(state, player).startswith("<svg")
    for bad in (2, -1, True, "0", 1.0):
        with pytest.raises(ValueError, match="player must be None"):
            svg.to_svg(state, bad)  # type: ignore[arg-type]


def stones(root: ET.Element) -> dict[tuple[int, int], str]:
    out = {}
    for use in root.iter("{http://www.w3.org/2000/svg}use"):
        classes = use.attrib.get("class", "").split()
        if "stone" in classes:
            row, col = (int(part) for part in use.attrib["data-square"].split(","))
            out[(row, col)] = use.attrib["href"][-1]
            centre = (rk_svg.BOARD_X + (col + 0.5) * CELL, rk_svg.BOARD_Y + (row + 0.5) * CELL)
            assert (float(use.attrib["x"]), float(use.attrib["y"])) == centre
    return out


def seat_groups(root: ET.Element) -> dict[int, ET.Element]:
    return {
        int(group.attrib["data-seat"]): group
        for group in root.iter("{http://www.w3.org/2000/svg}g")
        if group.attrib.get("class") == "seat"
    }


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.attrib.get("class", "").split()]


@pytest.mark.parametrize("players", [2, 4])
def test_rosenkoenig_picture_shows_the_position(players: int) -> None:
    for state in sample_states("rosenkoenig", {"players": players}, seed=players):
        snap = state.to_dict()
        root = parse(svg.to_svg(state))
        expected = {
            (row, col): cell
            for row, line in enumerate(snap["board"])
            for col, cell in enumerate(line)
            if cell != "."
        }
        assert stones(root) == expected
        (crown,) = by_class(root, "crown")
        row, col = snap["crown"]
        assert (float(crown.attrib["x"]), float(crown.attrib["y"])) == (
            rk_svg.BOARD_X + (col + 0.5) * CELL,
            rk_svg.BOARD_Y + (row + 0.5) * CELL,
        )
        groups = seat_groups(root)
        assert sorted(groups) == list(range(players))
        for seat, group in groups.items():
            cards = [el.attrib["data-card"] for el in by_class(group, "card")]
            assert cards == snap["hands"][seat]
            assert len(by_class(group, "hero")) == snap["heroes"][seat]
        (left,) = by_class(root, "stones-left")
        assert left.text == str(snap["stones_left"])
        scores = {el.attrib["data-team"]: el.text for el in by_class(root, "score")}
        assert scores == {"Red": f"{snap['scores'][0]:g}", "White": f"{snap['scores'][1]:g}"}


CARD_IDS = {
    f"{direction}{distance}": index * 3 + distance - 1
    for index, direction in enumerate(("N", "NE", "E", "SE", "S", "SW", "W", "NW"))
    for distance in (1, 2, 3)
}


def test_rosenkoenig_highlights_the_last_play_and_playable_cards() -> None:
    state = random_game("rosenkoenig", {}, seed=3, limit=10)
    assert not by_class(parse(svg.to_svg(state)), "last-move"), "no card played yet"
    rng = random.Random(8)
    plays = 0
    for _ in range(80):
        if state.is_terminal():
            break
        mover = state.current_player()
        action = rng.choice(state.legal_actions())
        text = state.action_to_string(action)
        state.apply_action(action)
        root = parse(svg.to_svg(state))
        marks = by_class(root, "last-move")
        if mover >= 0 and action < 48:
            plays += 1
            (mark,) = marks
            row, col = state.to_dict()["crown"]
            assert float(mark.attrib["x"]) == pytest.approx(rk_svg.BOARD_X + col * CELL + 1.5)
            assert float(mark.attrib["y"]) == pytest.approx(rk_svg.BOARD_Y + row * CELL + 1.5)
            assert f"played {text}" in "".join(root.itertext())
        if state.current_player() >= 0:
            legal = set(state.legal_actions())
            group = seat_groups(root)[state.current_player()]
            for card in by_class(group, "card"):
                frame = card.find("svg:rect", NS)
                assert frame is not None
                green = frame.attrib["stroke"] == rk_svg.PLAYABLE
                assert green == (CARD_IDS[card.attrib["data-card"]] in legal)
    assert plays >= 10


def test_rosenkoenig_caption_names_the_move_its_arrow_shows() -> None:
    # After a play, a draw and its card: the arrow still shows the play, so the caption names
    # it beside the last move, and the play is drawn fainter than a play just made.
    final = random_game("rosenkoenig", {}, seed=0)
    history = final.history()
    walker = final.game.new_initial_state()
    moves: list[tuple[int, int, str]] = []
    older = 0
    for step, action in enumerate(history):
        if walker.current_player() >= 0:
            moves.append((step, walker.current_player(), walker.action_to_string(action)))
        walker.apply_action(action)
        plays = [move for move in moves if move[2] not in ("draw", "pass")]
        if not plays:
            continue
        root = parse(svg.to_svg(walker))
        (group,) = by_class(root, "last-play")
        (caption,) = by_class(root, "last-move-text")
        words = "".join(caption.itertext())
        at, seat, text = plays[-1]
        assert int(group.attrib["data-step"]) == at
        if at == step:
            assert float(group.attrib["opacity"]) == 1
            assert "arrow:" not in words and words.endswith(f"played {text}")
        else:
            older += 1
            assert float(group.attrib["opacity"]) < 1
            who = f"{('Red', 'White')[seat]} (seat {seat})"
            assert words.endswith(f" · arrow: {who} played {text} (move {at + 1})"), words
    assert older > 20


class Delegate:
    """Whatever it does not set itself, read from ``inner``."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class HiddenView(Delegate):
    """A Rosenkönig state whose seats each see one secret line of their own and whose game
    declares imperfect information (what a game with hidden hands shows), to check what the
    generic picture reveals to whom."""

    def __init__(self, state: rivals.State) -> None:
        super().__init__(state)
        self.game = Delegate(state.game)
        self.game.info = Delegate(state.game.info)
        self.game.info.information = "imperfect"

    def observation_string(self, player: int) -> str:
        return f"public line\nsecret of seat {player}: S{player}\n"


def test_generic_picture_shows_a_seat_only_its_view() -> None:
    state = random_game("rosenkoenig", {}, seed=1, limit=30)
    hidden: Any = HiddenView(state)
    history = svg.moves(state)
    spectator = svg.generic(hidden, None, history)
    assert "public line" in spectator
    assert "secret of seat" not in spectator
    seat1 = svg.generic(hidden, 1, history)
    assert "S1" in seat1 and "S0" not in seat1
    # Without a game's own move texts, others' moves and chance read as hidden; a seat's own
    # moves do not.
    own = next(move for move in history if move.player == 1)
    other = next(move for move in history if move.player == 0)
    seen_by_1 = svg.move_texts(hidden, 1)
    assert seen_by_1[own.step] == own.text
    assert seen_by_1[other.step] == "(hidden)"
    assert svg.move_texts(hidden, None)[history[0].step] == "(hidden)"
    assert svg.move_texts(hidden, 1, own.step) == seen_by_1[own.step :]
    # The real game declares perfect information: there every move reads as it is.
    assert svg.move_texts(state, 1)[other.step] == other.text
