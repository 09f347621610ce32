"""Resampling under generated data: card sets, maps and card files drawn from the whole range
docs/formats.md allows (tests/generated_data.py), not only the shipped ones. A rule of the
resampler that holds for the shipped cards only (a unit that can attack, an effect that does not
deploy and reveal at once) shows here.

For every game with a resampler, a random game is played under generated data. At random
positions of it, for every seat, `resample_from_infostate` must give a history that is legal (the
engine rebuilds the resample with state_from_history, which checks every action) and that the
seat cannot tell from the real one (information state, observation string and tensor). At one of
them the reference must resample the same histories (replaying them with its own checks), and
`ismcts` must search (it deals from the same resampler, and stops on a deal that is not the
position). Sekigahara hides nothing: its resample is the state itself.

Hypothesis runs derandomised: a failure reproduces on every machine, and CI sees the same
examples. The turn and round limits keep the games short, so the module takes seconds.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rivals
from rivals import reference
from tests import generated_data
from tests.random_play import random_action

# Positions checked in the engine per game, the first of them in the reference too.
POSITIONS = 8
SEEDS_PER_SEAT = 2
ISMCTS_ITERATIONS = 8
# Long enough to reach reshuffles and battles, short enough for the reference's resampler.
MAX_ACTIONS = 400
# RIVALS_TEST_SCALE (default 1, as in tests/games.py) scales the examples, at least one per game:
# the sanitizer build (scripts/sanitize.sh), several times slower, tries fewer.
SCALE = float(os.environ.get("RIVALS_TEST_SCALE", "1"))


def views(state: Any, player: int) -> tuple[str, str, bytes]:
    return (
        state.information_state_string(player),
        state.observation_string(player),
        state.observation_tensor(player).tobytes(),
    )


def check_position(state: Any, seeds: list[int], oracle_state: Any = None) -> None:
    """Every seat's resamples of `state` with `seeds`, and the reference's of `oracle_state`."""
    history = state.history()
    for player in range(state.game.num_players):
        seen = views(state, player)
        if oracle_state is not None:
            assert views(oracle_state, player) == seen
        for seed in seeds:
            where = f"seat {player}, seed {seed}, after {len(history)} actions"
            resampled = state.resample_from_infostate(player, seed)
            assert len(resampled.history()) == len(history), where
            assert views(resampled, player) == seen, where
            if state.game.info.information == "perfect":
                assert resampled.history() == history, where
            elif oracle_state is not None:
                expected = oracle_state.resample_from_infostate(player, seed)
                assert resampled.history() == expected.history(), where


def check_resamples(name: str, params: dict[str, Any], data: st.DataObject) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="game seed"))
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < MAX_ACTIONS:
        state.apply_action(random_action(state, rng))
    history = state.history()
    # Late positions more often than early ones (the larger of two uniform draws): they have the
    # longer hidden histories. Hypothesis would favour the first few actions.
    cuts = [
        max(rng.randint(0, len(history)), rng.randint(0, len(history))) for _ in range(POSITIONS)
    ]
    seeds = [rng.randrange(2**64) for _ in range(SEEDS_PER_SEAT)]
    position = game.state_from_history(history[: cuts[0]])
    check_position(
        position, seeds, reference.make(name, **params).state_from_history(position.history())
    )
    if not position.is_terminal() and not position.is_chance_node():
        bot = rivals.bots.make("ismcts", game, seed=cuts[0], iterations=ISMCTS_ITERATIONS)
        assert bot.step(position) in position.legal_actions()
    for cut in cuts[1:]:
        check_position(game.state_from_history(history[:cut]), seeds)


def resampling_test(
    name: str, params: Callable[[], st.SearchStrategy[dict[str, Any]]], examples: int
) -> Callable[[], None]:
    @settings(
        max_examples=max(1, round(examples * SCALE)),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(params=params(), data=st.data())
    def test(params: dict[str, Any], data: st.DataObject) -> None:
        check_resamples(name, params, data)

    return test


# Battlecards gets the most examples: a battle decided within one action, or a card deployed and
# revealed by one effect, comes up in about one game in ten.
test_battlecards = resampling_test(
    "battlecards", lambda: generated_data.battlecards_params(turns=st.integers(10, 40)), 100
)
test_rheinlaender = resampling_test(
    "rheinlaender", lambda: generated_data.rheinlaender_params(turns=st.integers(5, 60)), 30
)
test_verraeter = resampling_test(
    "verraeter", lambda: generated_data.verraeter_params(rounds=st.none() | st.integers(1, 6)), 30
)
test_sekigahara = resampling_test(
    "sekigahara", lambda: generated_data.sekigahara_params(turns=st.integers(1, 60)), 10
)
