"""SVG pictures of the card games: Sekigahara, Verräter and Battlecards. Every view parses as
XML and shows the public facts of the position, and a hidden card appears only to the seat that
may see it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any, cast

import pytest

import rivals
from rivals.render import svg
from rivals.render.svg import escape
from tests.battlecards.helpers import unseen_by_others
from tests.ecosystem_cases import random_game

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
    return root


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.attrib.get("class", "").split()]


def text_of(element: ET.Element) -> str:
    return " ".join(element.itertext())


def positions(name: str, params: dict[str, Any], seed: int) -> list[rivals.State]:
    """Early, middle and late positions of one random game, and its end."""
    final = random_game(name, params, seed)
    history = final.history()
    points = sorted({1, len(history) // 4, len(history) // 2, 3 * len(history) // 4, len(history)})
    return [final.game.state_from_history(history[:k]) for k in points]


def snapshot(state: rivals.State) -> dict[str, Any]:
    return cast("dict[str, Any]", state.to_dict())


def shipped(name: str) -> dict[str, Any]:
    text = resources.files("rivals.data").joinpath(f"{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


# --- Sekigahara ------------------------------------------------------------------------------

SEKIGAHARA_NAMES = {int(card["id"]): str(card["name"]) for card in shipped("sekigahara")["cards"]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sekigahara_shows_camps_centre_supplies_and_totals(seed: int) -> None:
    for state in positions("sekigahara", {}, seed):
        snap = snapshot(state)
        for player in (None, 0, 1):
            root = parse(svg.to_svg(state, player))
            camps = {int(group.attrib["data-seat"]): group for group in by_class(root, "camp")}
            assert sorted(camps) == [0, 1]
            for seat in (0, 1):
                cards = by_class(camps[seat], "card")
                assert [int(card.attrib["data-card"]) for card in cards] == [
                    entry["id"] for entry in snap["camps"][seat]
                ]
                for card, entry in zip(cards, snap["camps"][seat]):
                    title = card.find(f"{SVG_NS}title")
                    assert title is not None and title.text is not None
                    assert title.text.startswith(f"#{entry['id']} {SEKIGAHARA_NAMES[entry['id']]}")
                    assert ("blank" in card.attrib["class"].split()) == entry["blank"]
                    assert bool(by_class(card, "blank-mark")) == entry["blank"]
                # The strengths the cards count now add up to the total (with the Tokugawa token).
                counted = sum(int(card.attrib["data-strength"]) for card in cards)
                assert counted + seat == snap["scores"][seat]
            influence = {
                int(group.attrib["data-card"]): [
                    int(el.text or "") for el in by_class(group, "influence-count")
                ]
                for group in by_class(root, "influence")
            }
            assert influence == {entry["id"]: entry["influence"] for entry in snap["neutral"]}
            supply = {
                int(el.attrib["data-seat"]): int(el.text or "") for el in by_class(root, "supply")
            }
            assert supply == dict(enumerate(snap["supply"]))
            scores = {
                int(el.attrib["data-seat"]): int(el.text or "") for el in by_class(root, "score")
            }
            assert scores == dict(enumerate(snap["scores"]))
            (deck,) = by_class(root, "deck")
            assert deck.text == str(len(snap["deck"]))
            assert len(by_class(root, "tokugawa-token")) == 1


SEKIGAHARA_ABILITIES = {
    int(card["id"]): str(card["ability"]) for card in shipped("sekigahara")["cards"]
}


@pytest.mark.parametrize("seed", [2, 3])
def test_sekigahara_tells_every_ability_on_the_table(seed: int) -> None:
    # Each card on the table, in a camp or in the centre, has its ability written out beneath
    # the board and in its tooltip; a blank card says that it has none.
    blanks = 0
    for state in positions("sekigahara", {}, seed):
        snap = snapshot(state)
        blank = {entry["id"] for camp in snap["camps"] for entry in camp if entry["blank"]}
        blanks += len(blank)
        on_table = {entry["id"] for camp in snap["camps"] for entry in camp} | {
            entry["id"] for entry in snap["neutral"]
        }
        root = parse(svg.to_svg(state, 0))
        listed = {
            int(group.attrib["data-card"]): " ".join(text_of(group).split())
            for group in by_class(root, "ability")
        }
        assert set(listed) == on_table
        for card_id, text in listed.items():
            said = "blank: no ability" if card_id in blank else SEKIGAHARA_ABILITIES[card_id]
            assert text == f"#{card_id} {SEKIGAHARA_NAMES[card_id]}: {said}"
        for card in by_class(root, "card"):
            card_id = int(card.attrib["data-card"])
            title = card.findtext(f"{SVG_NS}title") or ""
            if card_id in blank:
                assert title.endswith("blank: its ability does not count")
            else:
                assert title.endswith(SEKIGAHARA_ABILITIES[card_id])
        # Within the picture: the two columns of abilities fit its width and height.
        width, height = float(root.attrib["width"]), float(root.attrib["height"])
        for text in by_class(root, "ability"):
            for line in text.iter(f"{SVG_NS}text"):
                assert float(line.attrib["y"]) < height
                assert float(line.attrib["x"]) + 0.58 * 12 * len("".join(line.itertext())) < (
                    width * 1.02
                )
    assert seed != 2 or blanks > 0  # seed 2 blanks a card


def test_sekigahara_highlights_the_cards_of_the_last_move() -> None:
    state = random_game("sekigahara", {}, seed=4, limit=12)
    last = state.history()[-1]
    text = state.action_to_string(last)
    root = parse(svg.to_svg(state))
    assert "Last move: " in text_of(root)
    named = {int(part) for part in text.split(" ", 1)[1].split("->")} if " " in text else set()
    framed = {
        int(card.attrib["data-card"])
        for card in by_class(root, "card")
        if by_class(card, "last-move")
    }
    assert framed == named


# --- Verräter --------------------------------------------------------------------------------


def seat_groups(root: ET.Element) -> dict[int, ET.Element]:
    return {int(group.attrib["data-seat"]): group for group in by_class(root, "seat")}


@pytest.mark.parametrize("players", [3, 4])
def test_verraeter_shows_the_ring_and_the_public_facts(players: int) -> None:
    drawn = positions("verraeter", {"players": players}, seed=players)
    laid = [state for state in drawn if len(snapshot(state)["ring"]) == 12]
    assert len(laid) == len(drawn) - 1, "the ring is laid after the first action"
    for state in laid:
        snap = snapshot(state)
        for player in (None, *range(players)):
            root = parse(svg.to_svg(state, player))
            tiles = by_class(root, "landscape")
            assert len(tiles) == 12
            for tile, land in zip(tiles, snap["ring"]):
                assert tile.attrib["data-type"] == land["type"]
                assert tile.attrib["data-house"] == land["house"]
                estates = by_class(tile, "estate")
                if land["estate"] is None:
                    assert not estates
                else:
                    (estate,) = estates
                    assert int(estate.attrib["data-owner"]) == land["estate"]["owner"]
                    assert estate.attrib["data-kontor"] == str(land["estate"]["kontor"]).lower()
            conflict = by_class(root, "conflict")
            if snap["conflict"] is None:
                assert not conflict
            else:
                assert int(conflict[0].attrib["data-site"]) == snap["conflict"]
            groups = seat_groups(root)
            for seat, group in groups.items():
                (vp,) = by_class(group, "vp")
                assert vp.text == str(snap["vp"][seat])
                played = [el for el in by_class(group, "played-card")]
                assert [int(text_of(el)) for el in played] == snap["played"][seat]


def test_verraeter_ring_shows_conflict_values_and_the_conflict_at_every_step() -> None:
    # As the terminal does: each landscape's conflict value, and at the conflict site the
    # landscapes' share before the reveal and the totals after it.
    values = {
        str(land["type"]): int(land["conflict"]) for land in shipped("verraeter")["landscapes"]
    }
    state = random_game("verraeter", {}, seed=2)
    walker = state.game.new_initial_state()
    seen = {"landscapes": 0, "totals": 0}
    for action in state.history():
        walker.apply_action(action)
        snap = snapshot(walker)
        if len(snap["ring"]) < 12:
            continue
        root = parse(svg.to_svg(walker, 0))
        tiles = by_class(root, "landscape")
        assert [int(by_class(tile, "value")[0].text or "") for tile in tiles] == [
            values[land["type"]] for land in snap["ring"]
        ]
        base = by_class(root, "conflict-landscapes")
        totals = by_class(root, "conflict-totals")
        if snap["conflict"] is None:
            assert not base and not totals
        elif snap["conflict_totals"] is None:
            site = snap["conflict"]
            pair = [snap["ring"][site], snap["ring"][(site + 1) % 12]]
            expected = {
                house: sum(values[land["type"]] for land in pair if land["house"] == house)
                for house in ("eagle", "rose")
            }
            (shown,) = base
            assert (
                text_of(shown) == f"landscapes: eagle {expected['eagle']} · rose {expected['rose']}"
            )
            assert not totals
            seen["landscapes"] += 1
        else:
            (shown,) = totals
            eagle, rose = snap["conflict_totals"]["eagle"], snap["conflict_totals"]["rose"]
            assert text_of(shown) == f"conflict: eagle {eagle} · rose {rose}"
            assert not base
            seen["totals"] += 1
    assert seen["landscapes"] > 20 and seen["totals"] > 5


@pytest.mark.parametrize("players", [3, 4])
def test_verraeter_hands_and_picks_are_shown_only_to_their_owner(players: int) -> None:
    drafting_seen = 0
    for seed in range(4):
        final = random_game("verraeter", {"players": players}, seed)
        game = final.game
        for k in range(0, len(final.history()) + 1, 3):
            state = game.state_from_history(final.history()[:k])
            snap = snapshot(state)
            for player in (None, *range(players)):
                groups = seat_groups(parse(svg.to_svg(state, player)))
                for seat in range(players):
                    group = groups[seat]
                    shown = [int(text_of(el)) for el in by_class(group, "hand-card")]
                    backs = len(by_class(group, "back"))
                    if seat == player:
                        assert shown == snap["hands"][seat] and backs == 0
                    else:
                        assert shown == [] and backs == len(snap["hands"][seat])
                    action = snap["actions"][seat]
                    names = [text_of(el) for el in by_class(group, "action")]
                    hidden = bool(by_class(group, "action-back"))
                    seen_by_all = all(
                        f"action {action}" in line
                        for other in range(players)
                        for line in state.observation_string(other).splitlines()
                        if line.startswith(f"seat {seat} ")
                    )
                    if action is None:
                        assert not names and not hidden
                    elif seat == player or seen_by_all:
                        assert len(names) == 1 and not hidden
                    else:
                        drafting_seen += 1
                        assert not names and hidden
    assert drafting_seen > 0, "no position with a hidden pick was drawn"


# --- Battlecards -----------------------------------------------------------------------------


def shows(picture: str, name: str) -> bool:
    """Whether a text of ``picture`` starts with the whole name ``name`` (a card's face; not
    "Spitfire Mk I" in "Spitfire Mk IX", not a unit in a battle's name)."""
    return re.search(rf">(▶ )?{re.escape(escape(name))}(?!\w)", picture) is not None


def battlecards_names() -> dict[str, str]:
    data = shipped("battlecards")
    return {
        card["id"]: card["name"] for key in ("conflict", "german", "british") for card in data[key]
    }


def test_battlecards_shows_victory_points_and_the_battle_list() -> None:
    battles = shipped("battlecards")["battle_list"]["battles"]
    for seed in (1, 2):
        for state in positions("battlecards", {}, seed):
            snap = snapshot(state)
            won = {card: seat for seat in (0, 1) for card in snap["won"][seat]}
            for player in (None, 0, 1):
                root = parse(svg.to_svg(state, player))
                vp = {
                    int(el.attrib["data-seat"]): int(el.text or "") for el in by_class(root, "vp")
                }
                assert vp == dict(enumerate(snap["vp"]))
                rows = by_class(root, "battle")
                assert [row.attrib["data-card"] for row in rows] == battles
                for row in rows:
                    card = row.attrib["data-card"]
                    classes = row.attrib["class"].split()
                    if card in won:
                        assert "won" in classes
                        assert f"won by {('Germany', 'Britain')[won[card]]}" in text_of(row)
                    elif card in snap["cancelled"]:
                        assert "cancelled" in classes
                    else:
                        assert "open" in classes
                for seat in (0, 1):
                    (side,) = [
                        g for g in by_class(root, "side") if g.attrib["data-seat"] == str(seat)
                    ]
                    (reserve,) = by_class(side, "reserve-count")
                    assert reserve.text == str(len(snap["reserve"][seat]))
                    (kept,) = by_class(side, "kept-count")
                    assert kept.text == str(len(snap["kept"][seat]))


def test_battlecards_hidden_cards_appear_only_to_their_owner() -> None:
    names = battlecards_names()
    checked = 0
    for seed in (3, 5):
        for state in positions("battlecards", {}, seed):
            snap = snapshot(state)
            views = {player: svg.to_svg(state, player) for player in (None, 0, 1)}
            for seat in (0, 1):
                for card in unseen_by_others(snap, seat):
                    checked += 1
                    name = names[card]
                    assert shows(views[seat], name), (card, name)
                    assert not shows(views[1 - seat], name), (card, name)
                    assert not shows(views[None], name), (card, name)
                    assert f'data-card="{card}"' in views[seat]
                    assert f'data-card="{card}"' not in views[1 - seat]
                    assert f'data-card="{card}"' not in views[None]
                face_up = [
                    card["id"]
                    for kind in ("ground", "air", "sea")
                    for card in snap["stacks"][seat][kind]
                    if card["face_up"]
                ]
                for card in face_up:
                    assert all(shows(view, names[card]) for view in views.values())
            # A face-down stack card is a card back; an unseen reserve or set of kept cards is
            # one pile that gives its count.
            for player, view in views.items():
                root = parse(view)
                for seat in (0, 1):
                    if seat == player:
                        continue
                    (side,) = [
                        g for g in by_class(root, "side") if g.attrib["data-seat"] == str(seat)
                    ]
                    down = sum(
                        not card["face_up"]
                        for kind in ("ground", "air", "sea")
                        for card in snap["stacks"][seat][kind]
                    )
                    assert len(by_class(side, "back")) == down
                    for css, key in (("hidden-reserve", "reserve"), ("hidden-kept", "kept")):
                        count = len(snap[key][seat])
                        piles = by_class(side, css)
                        assert [int(pile.attrib["data-count"]) for pile in piles] == (
                            [count] if count else []
                        )
    assert checked > 0


def test_a_text_too_long_to_squeeze_is_cut_and_kept_whole_in_a_tooltip() -> None:
    assert svg.fitted(0, 0, "Ishida", 12, 90) == (
        '<text x="0" y="0" font-size="12" fill="#2b2118">Ishida</text>'
    )
    squeezed = svg.fitted(0, 0, "x" * 15, 12, 90)  # 104 units wide at 12: squeezed to 90
    assert 'textLength="90"' in squeezed and "<title>" not in squeezed
    cut = ET.fromstring(svg.fitted(0, 0, "x" * 1000, 12, 90))
    assert cut.findtext("title") == "x" * 1000
    shown = "".join(cut.itertext())[1000:]
    assert shown.endswith("\u2026") and len(shown) * 12 * 0.58 <= 90 * svg.SQUEEZE


@pytest.mark.parametrize("name", ["sekigahara", "battlecards"])
def test_names_of_a_thousand_bytes_stay_inside_the_picture(name: str) -> None:
    document = json.loads(resources.files("rivals.data").joinpath(f"{name}.json").read_text())
    for key in ("cards",) if name == "sekigahara" else ("german", "british", "conflict"):
        for card in document[key]:
            card["name"] = "W" * 990 + str(card["id"])
    final = random_game(name, {}, 3, limit=40)
    game = rivals.make(name, cards=document)
    state = game.state_from_history(final.history())
    root = ET.fromstring(svg.to_svg(state, 0))
    for text in root.iter("{http://www.w3.org/2000/svg}text"):
        own = (text.text or "") + "".join(child.tail or "" for child in text)
        assert len(own) < 200, own[:80]


def test_a_headline_too_long_is_squeezed_then_cut_and_kept_whole_in_a_tooltip() -> None:
    short = ET.fromstring(svg.headline(0, 0, "Verräter", "seat 0 to move", 600))
    assert "textLength" not in short.attrib and short.find("title") is None
    status = "game over: purple wins with 42 points (red 38, yellow 38, green 23, navy 9; " * 2
    cut = ET.fromstring(svg.headline(0, 0, "Rheinländer", status, 600))
    assert cut.findtext("title") == status
    shown = "".join(cut.itertext())[len(status) :]
    assert shown.startswith("Rheinländer — ") and shown.endswith("\u2026")
    # Drawn within its room: squeezed to it, no more than the squeeze allows.
    assert cut.attrib["textLength"] == "600"
    assert 21 * 0.58 * len(shown) <= 600 * svg.SQUEEZE


@pytest.mark.parametrize("name", ["rheinlaender", "verraeter", "rosenkoenig", "battlecards"])
def test_an_end_headline_stays_clear_of_the_step_counter(name: str) -> None:
    # A result names every seat and why the game ended: the headline keeps within the picture
    # and clear of the step or turn counter on its right.
    params = {"players": 5} if name == "rheinlaender" else {}
    for seed in range(3):
        root = parse(svg.to_svg(random_game(name, params, seed)))
        texts = list(root.iter(f"{SVG_NS}text"))
        head = next(el for el in texts if el.attrib.get("font-size") == "21")
        title = head.find(f"{SVG_NS}title")
        shown = "".join(head.itertext())[len(title.text or "") if title is not None else 0 :]
        start = float(head.attrib["x"])
        if "textLength" in head.attrib:
            end = start + float(head.attrib["textLength"])
        else:
            end = start + 21 * 0.6 * len(shown)
        right = float(root.attrib["width"])
        for other in texts:
            if (
                other.attrib.get("y") == head.attrib["y"]
                and other.attrib.get("text-anchor") == "end"
            ):
                size = float(other.attrib["font-size"])
                right = float(other.attrib["x"]) - size * 0.58 * len("".join(other.itertext()))
        assert end <= right, (shown, end, right)
