"""Rheinländer's SVG picture: well-formed, one token per knight and per castle knight, every
bastion and landmark marked, a hand shown only to its holder, the last card play or bastion
ringed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, cast

import pytest

import rivals
from rivals.render import svg
from tests.ecosystem_cases import random_game

SVG = "{http://www.w3.org/2000/svg}"


def elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.attrib.get("class", "").split()]


def states() -> list[rivals.State]:
    out = []
    for players, seed in ((3, 1), (5, 4)):
        final = random_game("rheinlaender", {"players": players}, seed)
        history = final.history()
        game = final.game
        for k in (len(history) // 3, len(history) // 2, len(history)):
            out.append(game.state_from_history(history[:k]))
    return out


STATES = states()


@pytest.mark.parametrize("state", STATES)
def test_tokens_match_the_snapshot(state: rivals.State) -> None:
    snapshot = cast("dict[str, Any]", state.to_dict())
    root = ET.fromstring(svg.to_svg(state))
    knights = {e.attrib["data-space"]: int(e.attrib["data-seat"]) for e in elements(root, "knight")}
    assert len(elements(root, "knight")) == len(snapshot["knights"])
    assert knights == snapshot["knights"]
    castle = {
        e.attrib["data-site"]: int(e.attrib["data-seat"]) for e in elements(root, "castle-knight")
    }
    assert castle == snapshot["castle_knights"]
    bastions = [e.attrib["data-space"] for e in elements(root, "bastion")]
    assert sorted(bastions) == sorted(snapshot["bastions"])
    landmarks = {e.attrib["data-site"] for e in elements(root, "landmark")}
    assert landmarks == set(snapshot["landmarks"])
    owners = [d["owner"] for d in snapshot["domains"] if d["duke"]]
    assert sorted(int(e.attrib["data-owner"]) for e in elements(root, "duke")) == sorted(owners)
    values = [e.text for e in elements(root, "domain-value")]
    assert values == [str(d["value"]) for d in snapshot["domains"]]


@pytest.mark.parametrize("state", STATES[:3])
def test_a_hand_is_shown_only_to_its_holder(state: rivals.State) -> None:
    snapshot = cast("dict[str, Any]", state.to_dict())
    seats = state.game.num_players
    for viewer in [None, *range(seats)]:
        root = ET.fromstring(svg.to_svg(state, viewer))
        hands = elements(root, "hand")
        shown = [int(e.attrib["data-seat"]) for e in hands]
        assert shown == ([] if viewer is None else [viewer])
        if viewer is not None:
            cards = [int(e.text or "") for e in elements(hands[0], "card")]
            assert cards == snapshot["hands"][viewer]
        else:
            assert elements(root, "card") == []


@pytest.mark.parametrize("limit", [95, 150, 151, 152])
def test_last_move_is_ringed(limit: int) -> None:
    state = random_game("rheinlaender", {}, 7, limit=limit)
    snapshot = cast("dict[str, Any]", state.to_dict())
    last = next(m for m in reversed(svg.moves(state)) if m.player >= 0)
    root = ET.fromstring(svg.to_svg(state))
    rings = elements(root, "last-move")
    assert last.text in "".join(elements(root, "last-move-text")[0].itertext())
    if last.text.startswith("discard"):
        assert rings == []
    else:
        assert len(rings) == 1
        space = rings[0].attrib["data-space"]
        assert space in last.text.split()
        assert space in snapshot["knights"] or space in snapshot["bastions"]


def test_no_ring_before_any_decision() -> None:
    root = ET.fromstring(svg.to_svg(rivals.make("rheinlaender").new_initial_state()))
    assert elements(root, "last-move") == []
    assert elements(root, "last-move-text") == []


def test_move_texts_hide_only_cards_dealt_to_others() -> None:
    state = random_game("rheinlaender", {}, 3, limit=120)
    walker = state.game.new_initial_state()
    views = {viewer: svg.move_texts(state, viewer) for viewer in (None, 0, 1)}
    dealt = 0
    for move in svg.moves(state):
        receiving = walker.to_dict()["receiving"]
        if move.player < 0 and receiving is not None and move.text != "reshuffle":
            dealt += 1
            to = ("red", "yellow", "green")[receiving]
            for viewer, texts in views.items():
                if viewer == receiving:
                    assert texts[move.step] == f"{move.text} to {to}"
                else:
                    assert texts[move.step] == f"a card (hidden) to {to}"
        else:
            assert all(texts[move.step].startswith(move.text) for texts in views.values())
        walker.apply_action(move.action)
    assert dealt >= 15
