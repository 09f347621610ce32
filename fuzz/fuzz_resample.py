"""Resampling: ``resample_from_infostate(player, seed)`` on random positions of every game with
any player and any seed (edges of 32 and 64 bits, negative and huge ints included).

A player that is not a seat or a seed outside ``0..2**64-1`` gives ``ValueError``; otherwise the
result is a valid state of the same game that the player cannot tell apart from the original:
the same number of actions, the same player to move, the same information-state string,
observation string and tensor for that player, and the same legal actions when the player is to
move. The same seed gives the same state, and the original is left unchanged.

    python fuzz/fuzz_resample.py -runs=10000 corpus/resample
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz._common import Bytes, check, check_state, main, position, snapshot


def one_input(raw: bytes) -> None:
    data = Bytes(raw)
    state = position(data)
    game = state.game
    name = game.name
    seats = game.num_players
    player = data.int_any() if data.chance(20) else data.below(seats + 4) - 2
    seed = data.int_any() if data.chance(30) else data.uint(8)
    valid = 0 <= player < seats and 0 <= seed < 2**64
    before = snapshot(state)
    try:
        sampled = state.resample_from_infostate(player, seed)
    except ValueError:
        check(not valid, f"{name}: resampling for seat {player} with seed {seed} was refused")
        check(snapshot(state) == before, f"{name}: a refused resample changed the state")
        return
    check(valid, f"{name}: resampling for player {player} with seed {seed} was accepted")
    check(snapshot(state) == before, f"{name}: resampling changed the original state")
    check(sampled.game == game, f"{name}: the resampled state belongs to {sampled.game!r}")
    check(
        len(sampled.history()) == len(state.history()),
        f"{name}: resampled {len(sampled.history())} actions from {len(state.history())}",
    )
    check(
        sampled.current_player() == state.current_player(),
        f"{name}: player {sampled.current_player()} moves after resampling, not "
        f"{state.current_player()}",
    )
    check(
        sampled.information_state_string(player) == state.information_state_string(player),
        f"{name}: the resample changes player {player}'s information state",
    )
    check(
        sampled.observation_string(player) == state.observation_string(player),
        f"{name}: the resample changes player {player}'s observation string",
    )
    check(
        sampled.observation_tensor(player).tobytes() == state.observation_tensor(player).tobytes(),
        f"{name}: the resample changes player {player}'s observation tensor",
    )
    if state.current_player() == player:
        check(
            sampled.legal_actions() == state.legal_actions(),
            f"{name}: the resample changes the legal actions of player {player}, who is to move",
        )
    check_state(sampled)
    again = state.resample_from_infostate(player, seed)
    check(again.history() == sampled.history(), f"{name}: seed {seed} resamples differently")


def seeds() -> list[bytes]:
    rng = random.Random(0)
    return [rng.randbytes(16) for _ in range(48)]


if __name__ == "__main__":
    main(one_input, seeds)
