"""The play screen's menu of moves: every legal action is offered exactly once, under its card,
whatever ids a data document gives its spaces, and the short forms a person types find them."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rivals
from rivals.render import menu, parse_move
from tests.games import CONFIGS
from tests.random_play import random_action
from tests.rheinlaender.helpers import tiny_map


def decisions(game: rivals.Game, seed: int, count: int, chance: bool = False) -> list[rivals.State]:
    """``count`` decision states (chance nodes instead with ``chance``) of random games, at
    random points."""
    rng = random.Random(seed)
    out: list[rivals.State] = []
    while len(out) < count:
        state = game.new_initial_state()
        stop = rng.randrange(1, 200)
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(random_action(state, rng))
        if not state.is_terminal() and state.is_chance_node() == chance:
            out.append(state)
    return out


def offered(state: rivals.State) -> list[int]:
    return [action for group in menu(state) for action, _ in group.entries]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_menu_offers_every_legal_action_once(name: str) -> None:
    for state in decisions(rivals.make(name), 1, 30):
        assert sorted(offered(state)) == sorted(state.legal_actions())


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_menu_lists_every_chance_outcome_once(name: str) -> None:
    for state in decisions(rivals.make(name), 3, 30, chance=True):
        assert sorted(offered(state)) == sorted(state.legal_actions())


def test_rheinlaender_menus_take_the_card_from_the_map_not_the_space_id() -> None:
    # tiny_map's chain spaces are P7..P16 (card 7 to 16): not the shipped map's 12L style.
    game = rivals.make("rheinlaender", map=tiny_map())
    numbers: dict[str, Any] = {space["id"]: space["numbers"] for space in game.map["spaces"]}
    placed = 0
    for state in decisions(game, 2, 40):
        groups = menu(state)
        assert sorted(offered(state)) == sorted(state.legal_actions())
        for group in groups:
            if not group.title.startswith("card "):
                continue
            card = int(group.title.split()[1])
            for action, _ in group.entries:
                words = state.action_to_string(action).split()
                if len(words) == 1:  # a space played by the one card of its number
                    placed += 1
                    assert numbers[words[0]] == [card]
                    assert parse_move(state, f"{words[0]} {card}") == action
                    # Digits int() refuses (a superscript two) are no card number.
                    assert parse_move(state, f"{words[0]} \u00b2") is None
    assert placed > 0
