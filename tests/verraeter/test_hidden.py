"""Hidden information in the engine: what each player sees, and resample_from_infostate."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import rivals
from tests.random_play import play_randomly, random_action

from .helpers import act, draft, finish, new_game, resampled_alike, seat_one_to_draw, supply, views


def reshuffled(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The discard pile became the draw pile between two snapshots."""
    return len(after["draw_pile"]) > len(before["draw_pile"])


def sample_positions(players: int, games: int, seed: int) -> list[Any]:
    """States at random plies of random engine games, at least one after a reshuffle."""
    rng = random.Random(seed)
    game = rivals.make("verraeter", players=players)
    positions = []
    after_reshuffle = 0
    for _ in range(games):
        state = game.new_initial_state()
        seen_reshuffle = False
        while not state.is_terminal():
            before = state.to_dict()
            state.apply_action(random_action(state, rng))
            seen_reshuffle = seen_reshuffle or reshuffled(before, state.to_dict())
            if rng.random() < 0.04:
                positions.append(state.clone())
                after_reshuffle += seen_reshuffle
        positions.append(state)
    assert after_reshuffle > 0, "no position after a reshuffle: raise the number of games"
    return positions


@pytest.mark.parametrize("players", [3, 4])
def test_resampled_states_look_the_same_to_the_player(players: int) -> None:
    for state in sample_positions(players, 12, seed=players):
        for player in range(players):
            for seed in (0, 1):
                other = resampled_alike(state, player, seed)
                assert other.current_player() == state.current_player()
                if player == state.current_player():
                    assert other.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("players", [3, 4])
def test_resampled_states_play_on_legally(players: int) -> None:
    rng = random.Random(players)
    for state in sample_positions(players, 6, seed=10 + players):
        for player in range(players):
            other = state.resample_from_infostate(player, rng.randrange(2**32))
            play_randomly(other, rng)
            assert other.is_terminal()
            # The whole history replays through the checked API.
            assert other.game.state_from_history(other.history()).to_dict() == other.to_dict()


def test_same_seed_same_state_other_seeds_other_hidden_cards() -> None:
    state = sample_positions(4, 1, seed=3)[-1]  # a finished game: many hidden draws
    for player in range(4):
        first = state.resample_from_infostate(player, 7)
        assert first.history() == state.resample_from_infostate(player, 7).history()
        others = [state.resample_from_infostate(player, seed).to_dict() for seed in range(12)]
        for snap in others:
            assert snap["hands"][player] == state.to_dict()["hands"][player]
        hidden = {
            tuple(tuple(hand) for seat, hand in enumerate(snap["hands"]) if seat != player)
            for snap in others
        }
        assert len(hidden) > 1


def hidden_kinds(state: Any) -> list[str | None]:
    """Per history entry, 'draw', 'aside' or 'pick' where it may be hidden, else None."""
    replay = state.game.new_initial_state()
    kinds: list[str | None] = []
    for action in state.history():
        phase = replay.to_dict()["phase"]
        if replay.is_chance_node():
            kinds.append({"draw": "draw", "draft": "aside"}.get(phase))
        else:
            kinds.append("pick" if phase == "draft" else None)
        replay.apply_action(action)
    return kinds


def test_resample_never_touches_public_actions() -> None:
    for state in sample_positions(4, 4, seed=21):
        history = state.history()
        kinds = hidden_kinds(state)
        for player in range(4):
            other = state.resample_from_infostate(player, 5).history()
            for ours, theirs, kind in zip(history, other, kinds):
                # Only draws, the set-aside card and picks are hidden.
                if ours != theirs:
                    assert kind is not None


def test_another_players_draw_does_not_change_my_view() -> None:
    # Round 1: seat 1 takes Bauer and draws three cards; the two states differ only in them.
    states = []
    for draws in ([2, 2, 3], [8, 6, 5]):
        state = seat_one_to_draw(rivals.make)
        for value in draws:
            assert state.to_dict()["draw_queue"][0] == 1
            act(state, f"draw {value}")
        states.append(state)
    a, b = states
    assert a.to_dict()["hands"][1] != b.to_dict()["hands"][1]
    for player in (0, 2, 3):
        assert views(a, player) == views(b, player)
    assert views(a, 1) != views(b, 1)
    # And it stays hidden after the game goes on with the same public actions: the estate draws
    # of seats 2 and 3, seat 1's discard down to five cards, the next draft.
    for state in states:
        finish(state, draws=[2, 4], discards={1: [4]})
        draft(state, None, "Stratege", {1: "Bauer", 2: "Verraeter", 3: "Diplomat2", 0: "Diplomat5"})
    for player in (0, 2, 3):
        assert views(a, player) == views(b, player)


def test_another_players_pick_does_not_change_my_view_until_the_reveal() -> None:
    states = []
    for pick in ("Stratege", "Diplomat2"):
        state = new_game(rivals.make)
        act(state, "conflict 0", "aside Verraeter", "pick Bauer", f"pick {pick}")
        states.append(state)
    a, b = states
    # Seat 3 has not received a pool yet; seat 0 picked before the difference.
    for player in (0, 3):
        assert views(a, player) == views(b, player)
    # Seat 2 receives different pools.
    assert views(a, 2) != views(b, 2)
    for state in states:
        act(state, "pick Diplomat5", "pick Baumeister")
        supply(state, {0: [3]})
    assert views(a, 0) != views(b, 0)  # revealed
    for state in states:
        state.undo()
    assert views(a, 0) == views(b, 0)  # seat 3's done was the last action before the reveal


def test_resampled_draft_keeps_what_the_player_received() -> None:
    state = new_game(rivals.make)
    act(state, "conflict 0", "aside Verraeter", "pick Bauer", "pick Stratege")
    received = state.observation_string(2).splitlines()[-2]
    assert received == "pool: Diplomat2 Diplomat5 Baumeister"
    asides = set()
    for seed in range(30):
        other = state.resample_from_infostate(2, seed)
        assert other.observation_string(2).splitlines()[-2] == received
        snap = other.to_dict()
        assert {snap["aside"], snap["actions"][0], snap["actions"][1]} == {
            "Verraeter",
            "Bauer",
            "Stratege",
        }
        asides.add(snap["aside"])
    assert asides == {"Verraeter", "Bauer", "Stratege"}
    # Seat 3 has not received anything yet: all six cards may be set aside.
    seen = {state.resample_from_infostate(3, seed).to_dict()["aside"] for seed in range(60)}
    assert len(seen) == 6


def test_bad_player_is_a_value_error() -> None:
    state = new_game(rivals.make)
    for player in (-1, 4):
        with pytest.raises(ValueError, match="seat"):
            state.resample_from_infostate(player, 0)
        with pytest.raises(ValueError, match="seat"):
            state.information_state_string(player)


def test_ismcts_plays_legal_moves_reproducibly() -> None:
    game = rivals.make("verraeter", players=3, rounds=2)
    rng = random.Random(4)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
            continue
        bot = rivals.bots.make("ismcts", game, seed=moves, iterations=40)
        again = rivals.bots.make("ismcts", game, seed=moves, iterations=40)
        action = bot.step(state)
        assert action in state.legal_actions()
        assert again.step(state) == action
        state.apply_action(action)
        moves += 1
    assert moves > 10
    assert np.isclose(sum(state.returns()), 0.0)
