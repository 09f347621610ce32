"""Hidden information in the engine: resample_from_infostate and the information state.

The positions come from random games on the shipped card set, deep enough that the opponent
holds reserve cards, face-down stacks and kept cards, and that decks have been reshuffled. Every
resampled state must look the same to the player it was drawn for (observation string and
tensor, information state), deal the opponent's hidden cards anew from seed to seed, repeat
itself for the same seed, and play on legally to the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals

from .helpers import act, battle, effect_card, face_up, new_state, setup, unit

SEEDS = range(10)
KEPT = {
    card["id"]
    for card in json.loads(
        resources.files("rivals.data").joinpath("battlecards.json").read_text("utf-8")
    )["conflict"]
    if card["kind"] == "kept"
}


def random_position(seed: int, plies: int, until: Callable[[Any], bool] | None = None) -> Any:
    """The engine state after `plies` random actions of game `seed`, then further on until
    `until(state)` holds; the game must not end before."""
    state = rivals.make("battlecards").new_initial_state()
    rng = random.Random(seed)
    while len(state.history()) < plies or (until is not None and not until(state)):
        assert not state.is_terminal(), f"game {seed} ended after {len(state.history())} actions"
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal(), f"game {seed} ended after {plies} actions"
    return state


def hides_cards(state: Any) -> bool:
    """Both sides hold reserve or face-down cards that the other cannot see."""
    snapshot = state.to_dict()
    return all(hidden_part(snapshot, seat)[0] or hidden_part(snapshot, seat)[1] for seat in (0, 1))


def hidden_part(snapshot: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What the other player cannot see of `seat`: reserve, face-down cards, kept cards, deck."""
    face_down = [
        c["id"] for kind in snapshot["stacks"][seat].values() for c in kind if not c["face_up"]
    ]
    return (
        tuple(snapshot["reserve"][seat]),
        tuple(sorted(face_down)),
        tuple(snapshot["kept"][seat]),
        tuple(snapshot["arsenal_deck"][seat]),
    )


POSITIONS = [(seed, plies) for seed in (1, 2, 3) for plies in (40, 250, 700)]


@pytest.mark.parametrize(("seed", "plies"), POSITIONS)
def test_resampled_states_look_the_same_to_the_player(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    for p in (0, 1):
        for s in SEEDS:
            other = state.resample_from_infostate(p, s)
            assert other.observation_string(p) == state.observation_string(p)
            np.testing.assert_array_equal(other.observation_tensor(p), state.observation_tensor(p))
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.current_player() == state.current_player()
            assert len(other.history()) == len(state.history())
            if state.current_player() == p:
                assert other.legal_actions() == state.legal_actions()
            mine = other.to_dict()
            real = state.to_dict()
            # The player's own cards and everything public stay exactly as they are.
            for key in ("turn", "phase", "vp", "won", "cancelled", "conflict_discard", "battle"):
                assert mine[key] == real[key], key
            assert mine["reserve"][p] == real["reserve"][p]
            assert mine["stacks"][p] == real["stacks"][p]
            assert mine["kept"][p] == real["kept"][p]
            assert mine["arsenal_discard"] == real["arsenal_discard"]
            o = 1 - p
            for kind in ("ground", "air", "sea"):
                ups = [c for c in real["stacks"][o][kind] if c["face_up"]]
                assert [c for c in mine["stacks"][o][kind] if c["face_up"]] == ups
                assert len(mine["stacks"][o][kind]) == len(real["stacks"][o][kind])
            assert len(mine["reserve"][o]) == len(real["reserve"][o])
            assert len(mine["kept"][o]) == len(real["kept"][o])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hidden_cards_differ_across_seeds_and_repeat_for_one_seed(seed: int) -> None:
    state = random_position(seed, 250, hides_cards)
    for p in (0, 1):
        o = 1 - p
        deals = set()
        for s in SEEDS:
            first = state.resample_from_infostate(p, s)
            again = state.resample_from_infostate(p, s)
            assert first.history() == again.history()
            assert first.to_dict() == again.to_dict()
            assert first.hash() == again.hash()
            deals.add(hidden_part(first.to_dict(), o))
        assert len(deals) > 1, f"seat {p}: every seed dealt the opponent the same hidden cards"


def german_kept_card_early(seed: int) -> Any:
    """The first position of game `seed` where Germany holds a kept card while another kept card
    lies in the conflict deck, before the deck was ever reshuffled (so Britain has not seen it),
    or None."""
    state = rivals.make("battlecards").new_initial_state()
    rng = random.Random(seed)
    deck = len(state.to_dict()["conflict_deck"])
    while not state.is_terminal():
        snapshot = state.to_dict()
        if len(snapshot["conflict_deck"]) > deck:
            return None  # reshuffled: every card has been seen in the discard pile
        deck = len(snapshot["conflict_deck"])
        if snapshot["kept"][0] and KEPT & set(snapshot["conflict_deck"]):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_the_opponents_kept_cards_are_resampled() -> None:
    state = next(s for s in map(german_kept_card_early, range(50)) if s is not None)
    held = set()
    for s in range(20):
        kept = state.resample_from_infostate(1, s).to_dict()["kept"][0]
        assert len(kept) == len(state.to_dict()["kept"][0]) and set(kept) <= KEPT
        held.add(tuple(kept))
    assert len(held) > 1


@pytest.mark.parametrize("seed", [4, 5])
def test_resampled_states_play_on_legally(seed: int) -> None:
    state = random_position(seed, 400)
    rng = random.Random(seed)
    for p in (0, 1):
        for s in range(3):
            other = state.resample_from_infostate(p, s)
            # apply_action checks every action, so a hidden card in the wrong place would raise.
            while not other.is_terminal():
                other.apply_action(rng.choice(other.legal_actions()))
            assert sum(other.returns()) == 0


def test_information_state_hides_only_the_hidden_actions() -> None:
    state = random_position(6, 120)
    history = state.history()
    for p in (0, 1):
        lines = state.information_state_string(p).split("\n")
        assert lines[0] == f"seat {p} {('germany', 'britain')[p]}"
        assert len(lines) == len(history) + 1
        # The opening deal: the own six cards are named, the opponent's six are not.
        own = lines[1 + 6 * p : 7 + 6 * p]
        other = lines[1 + 6 * (1 - p) : 7 + 6 * (1 - p)]
        assert all(line.startswith("chance ") and "?" not in line for line in own)
        assert other == ["chance ?"] * 6
        for line in lines[13:19]:
            side = line.split(" ")[0]
            if side == ("germany", "britain")[p]:
                assert "?" not in line
            else:
                assert line.startswith(f"{side} deploy ? (") and line.endswith(")")


def test_engine_resamples_deep_histories_like_the_reference() -> None:
    from rivals import reference

    state = random_position(8, 600)
    oracle = reference.make("battlecards").new_initial_state()
    for action in state.history():
        oracle.apply_action(action)
    for p in (0, 1):
        assert state.information_state_string(p) == oracle.information_state_string(p)
        for s in (0, 17):
            assert state.resample_from_infostate(p, s).history() == (
                oracle.resample_from_infostate(p, s).history()
            )


# -- what a battle or a reveal turns face up within one action -----------------------------------


def unarmed_set(*effects: dict[str, Any]) -> dict[str, Any]:
    """Six ground units a side that cannot attack, so that a battle is a stalemate at once (and
    nobody holds a kept card to play first); a German ground battle whose loser loses its ground
    units, and an immediate action with `effects`."""
    return {
        "format": "rivals-battlecards-set",
        "version": 1,
        "name": "unarmed",
        "battle_list": {"id": "K0", "name": "Battle List", "battles": ["K1"]},
        "conflict": [
            battle("K1", 5, "german", ["ground"], 1, loser_destroyed=["ground"]),
            effect_card("K2", 3, "immediate", *effects),
        ],
        "german": [unit(f"G{k}", "ground", 0, 0, 0, 1, 1) for k in range(1, 7)],
        "british": [unit(f"B{k}", "ground", 0, 0, 0, 1, 1) for k in range(1, 7)],
    }


def deal_and_deploy(state: Any, german_deploy: list[str]) -> Any:
    return setup(
        state,
        [f"G{k}" for k in range(1, 7)],
        [f"B{k}" for k in range(1, 7)],
        german_deploy,
        ["B1", "B2", "B3"],
    )


def seen_by(state: Any, player: int) -> tuple[str, bytes]:
    return state.observation_string(player), state.observation_tensor(player).tobytes()


def twin_positions(make: Callable[..., Any], cards: dict[str, Any], *moves: str) -> list[Any]:
    """`moves` after Germany deployed G1, G2, G3 at the setup, and after it deployed G4, G2, G3;
    `{other}` in a move is the card of G1 and G4 that it did not deploy."""
    twins = []
    for first, other in (("G1", "G4"), ("G4", "G1")):
        state = deal_and_deploy(new_state(make, cards), [first, "G2", "G3"])
        twins.append(act(state, *(move.format(other=other) for move in moves)))
    return twins


def test_a_stalemate_decided_in_the_fight_action_shows_the_destroyed_units(
    make: Callable[..., Any],
) -> None:
    # Germany fights with three face-down ground units, nobody can fire: the defender wins at
    # once and the German ground units are destroyed within the one action. Britain saw which
    # (they are in the discard pile), so the twins differ to it, and so do its information states.
    cards = unarmed_set({"type": "victory_points", "who": "drawer", "count": 1})
    twins = twin_positions(make, cards, "pass", "K1", "fight")
    assert [t.to_dict()["arsenal_discard"][0] for t in twins] == [
        ["G1", "G2", "G3"],
        ["G2", "G3", "G4"],
    ]
    assert seen_by(twins[0], 1) != seen_by(twins[1], 1)
    lines = [t.information_state_string(1).split("\n")[-1] for t in twins]
    assert lines == [
        "germany fight; turned face up: G1 G2 G3",
        "germany fight; turned face up: G2 G3 G4",
    ]
    for s in range(20):
        resampled = twins[0].resample_from_infostate(1, s)
        assert resampled.to_dict()["arsenal_discard"][0] == ["G1", "G2", "G3"]
        assert seen_by(resampled, 1) == seen_by(twins[0], 1)
        assert resampled.information_state_string(1) == twins[0].information_state_string(1)


def test_a_card_deployed_and_revealed_in_one_action_is_not_told_apart(
    make: Callable[..., Any],
) -> None:
    # Germany deploys a card face down and the same card's reveal turns its whole ground stack
    # face up: Britain sees four cards face up and cannot tell which was the last one deployed.
    cards = unarmed_set(
        {"type": "deploy", "who": "drawer", "count": 1},
        {"type": "reveal", "who": "drawer", "types": ["ground"]},
    )
    twins = twin_positions(make, cards, "pass", "K2", "deploy {other}")
    assert all(face_up(t, 0) == {"G1", "G2", "G3", "G4"} for t in twins)
    assert seen_by(twins[0], 1) == seen_by(twins[1], 1)
    assert twins[0].information_state_string(1) == twins[1].information_state_string(1)
    assert twins[0].information_state_string(1).split("\n")[-1] == (
        "germany deploy ? (ground); turned face up: G1 G2 G3 G4"
    )
    for s in range(20):
        resampled = twins[0].resample_from_infostate(1, s)
        assert resampled.information_state_string(1) == twins[0].information_state_string(1)


def test_resampling_at_a_zero_attack_stalemate_gives_legal_histories(
    make: Callable[..., Any],
) -> None:
    # A generated card set whose units cannot attack: a German ground unit deployed face down is
    # flipped and destroyed by one action, later refilled into the deck and drawn again. Every
    # resample for Germany must put it where Britain saw it, or its draw is illegal.
    case = json.loads((Path(__file__).parent / "cases" / "zero_attack_stalemate.json").read_text())
    game = make("battlecards", **case["params"])
    state = game.new_initial_state()
    for action in case["history"]:
        state.apply_action(action)
    for p in (0, 1):
        for s in range(20):
            resampled = state.resample_from_infostate(p, s)
            again = game.new_initial_state()
            for action in resampled.history():
                again.apply_action(action)  # checked
            assert seen_by(again, p) == seen_by(state, p)
            assert again.information_state_string(p) == state.information_state_string(p)
