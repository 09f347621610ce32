"""Random games on the shipped card set: they end, stay below max_game_length and are zero-sum.

Random against random over the reference, 3500 games in two runs (seeds 1 and 2): Germany (seat
0, moves first) wins 46.0%, Britain 51.1%, 2.9% are draws; 1057 actions and 188 turns per game
on average. The test below plays fewer games and checks that neither side wins more than 60%.
"""

from __future__ import annotations

import random

import pytest

from .helpers import random_game


@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_within_the_limits(make, seed):
    game = make("battlecards")
    rng = random.Random(seed)
    state = random_game(game.new_initial_state(), rng)
    assert state.is_terminal()
    assert len(state.history()) < game.max_game_length
    returns = state.returns()
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    snap = state.to_dict()
    assert snap["end_reason"] in ("homeland", "battles", "max_turns")
    assert snap["turn"] <= game.params["max_turns"]
    if snap["end_reason"] == "battles":
        # Every battle of the list is won or cancelled.
        resolved = snap["won"][0] + snap["won"][1] + snap["cancelled"]
        assert len(resolved) == 16
        assert (returns[0] > 0) == (snap["vp"][0] > snap["vp"][1])


def test_short_max_turns_ends_in_a_draw(make):
    game = make("battlecards", max_turns=5)
    state = random_game(game.new_initial_state(), random.Random(3))
    snap = state.to_dict()
    # Five turns cannot resolve 16 battles nor reach a homeland battle (it needs three wins).
    assert snap["end_reason"] == "max_turns" and snap["turn"] == 5
    assert state.returns() == [0.0, 0.0]


def test_random_versus_random_is_balanced():
    from rivals import reference

    game = reference.make("battlecards")
    rng = random.Random(11)
    wins = [0, 0]
    games = 120
    for _ in range(games):
        state = random_game(game.new_initial_state(), rng)
        for seat in (0, 1):
            wins[seat] += state.returns()[seat] > 0
    assert wins[0] + wins[1] <= games
    assert max(wins) <= 0.6 * games, wins
