"""Helpers to build Verräter positions from explicit action sequences.

They use only the public State API, so they drive the reference and the engine alike. Chance
outcomes are given by their strings (``"Stadt eagle"``, ``"aside Bauer"``, ``"draw 5"``).
"""

from __future__ import annotations

from typing import Any

# Alternating houses: every one of the twelve sites lies between different houses.
ALT_RING = [
    "Stadt eagle",
    "Stadt rose",
    "Dorf eagle",
    "Dorf rose",
    "Wald eagle",
    "Wald rose",
    "Fluss eagle",
    "Fluss rose",
    "Weide eagle",
    "Weide rose",
    "Ödnis eagle",
    "Ödnis rose",
]
# Two blocks: eagle at positions 0-5, rose at 6-11 (ascending conflict values); only sites 5
# (Ödnis eagle | Ödnis rose) and 11 (Stadt rose | Stadt eagle) lie between different houses.
BLOCK_RING = [
    "Stadt eagle",
    "Dorf eagle",
    "Wald eagle",
    "Fluss eagle",
    "Weide eagle",
    "Ödnis eagle",
    "Ödnis rose",
    "Weide rose",
    "Fluss rose",
    "Wald rose",
    "Dorf rose",
    "Stadt rose",
]

# The shipped numbers, written out independently of the card file.
CONFLICT_VALUE = {"Ödnis": 0, "Weide": 3, "Fluss": 5, "Wald": 7, "Dorf": 10, "Stadt": 15}
VP_TABLE = {
    "Ödnis": [3, 2, 1, 1],
    "Weide": [4, 3, 2, 1],
    "Fluss": [5, 3, 2, 2],
    "Wald": [6, 4, 3, 2],
    "Dorf": [7, 4, 3, 3],
    "Stadt": [8, 5, 4, 3],
}
DECK = [2] * 5 + [3] * 5 + [4] * 5 + [5] * 5 + [6] * 2 + [8]
CARDS = ["Verraeter", "Diplomat2", "Diplomat5", "Baumeister", "Stratege", "Bauer"]


def act(state: Any, *moves: str) -> Any:
    """Apply actions (or chance outcomes) by their strings."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal_strings(state: Any) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def new_game(
    make: Any,
    players: int = 4,
    ring: list[str] | None = None,
    estates: list[int] | None = None,
    **params: Any,
) -> Any:
    """A state after the setup: the ring laid in the given order, then one estate per seat."""
    state = make("verraeter", players=players, **params).new_initial_state()
    for text in ring or ALT_RING:
        assert state.is_chance_node()
        act(state, text)
    for seat, position in enumerate(estates if estates is not None else range(players)):
        assert state.current_player() == seat
        act(state, f"build {position}")
    assert state.to_dict()["phase"] == "conflict"
    return state


def order(state: Any) -> list[int]:
    snap = state.to_dict()
    n = len(snap["houses"])
    return [(snap["start_player"] + j) % n for j in range(n)]


def draft(state: Any, site: int | None, aside: str, picks: dict[int, str]) -> Any:
    """Phases 1-2: the conflict site (``None``: the first legal one), the set-aside card and
    each seat's pick."""
    assert state.current_player() == state.to_dict()["strategist"]
    if site is None:
        state.apply_action(state.legal_actions()[0])
    else:
        act(state, f"conflict {site}")
    act(state, f"aside {aside}")
    for seat in order(state):
        assert state.current_player() == seat
        act(state, f"pick {picks[seat]}")
    return state


def supply(state: Any, plays: dict[int, list[int]] | None = None) -> Any:
    """Phase 3: each seat in order from the start player plays its cards, then ``done``."""
    for seat in order(state):
        assert state.current_player() == seat
        for value in (plays or {}).get(seat, []):
            act(state, f"play {value}")
        act(state, "done")
    return state


def finish(
    state: Any,
    builder: str = "pass",
    draws: list[int] | None = None,
    discards: dict[int, list[int]] | None = None,
) -> Any:
    """Phases 7-13: the builder's action, the draws (given values, else the first outcome) and
    the hand-limit discards (given values, else the first legal), to the next round or the end."""
    snap = state.to_dict()
    if snap["phase"] == "builder":
        act(state, builder)
    pending = list(draws or [])
    wanted = {seat: list(values) for seat, values in (discards or {}).items()}
    while not state.is_terminal() and state.to_dict()["phase"] in ("draw", "discard"):
        if state.is_chance_node():
            if pending:
                act(state, f"draw {pending.pop(0)}")
            else:
                state.apply_action(state.legal_actions()[0])
        else:
            seat = state.current_player()
            if wanted.get(seat):
                act(state, f"discard {wanted[seat].pop(0)}")
            else:
                state.apply_action(state.legal_actions()[0])
    assert not pending, "more draws were given than happened"
    return state


def play_round(
    state: Any,
    site: int | None,
    aside: str,
    picks: dict[int, str],
    plays: dict[int, list[int]] | None = None,
    **finish_args: Any,
) -> Any:
    draft(state, site, aside, picks)
    supply(state, plays)
    return finish(state, **finish_args)


def seat_one_to_draw(make: Any) -> Any:
    """Round 1 at seat 1's first of three draws: seat 1 took the Bauer in a draft with the
    Verraeter set aside, and seat 0 passed."""
    state = new_game(make)
    draft(state, 0, "Verraeter", {0: "Baumeister", 1: "Bauer", 2: "Stratege", 3: "Diplomat5"})
    supply(state)
    act(state, "pass")
    return state


def views(state: Any, player: int) -> tuple[str, bytes, str]:
    """Everything ``player`` is shown of ``state``."""
    return (
        state.observation_string(player),
        state.observation_tensor(player).tobytes(),
        state.information_state_string(player),
    )


def resampled_alike(state: Any, player: int, seed: int) -> Any:
    """``state`` resampled from ``player``'s information state, checked to be as long, to look the
    same to ``player`` and to leave their hand as it was."""
    other = state.resample_from_infostate(player, seed)
    assert len(other.history()) == len(state.history())
    assert views(other, player) == views(state, player)
    assert other.to_dict()["hands"][player] == state.to_dict()["hands"][player]
    return other
