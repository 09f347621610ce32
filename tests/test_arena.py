"""rivals.arena: the same games whatever the backend, chunking or threads."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
import pytest

import rivals
from rivals import arena

BOTS: list[arena.BotSpec] = [("mcts", {"iterations": 20}), ("random", {})]


def test_local_chunks_and_threads_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rivals.make("rosenkoenig")
    direct = game.play_match(BOTS, 12, seed=3, keep_histories=True)
    monkeypatch.setattr(arena, "CHUNK_SECONDS", 0.0)
    for threads in (1, 2):
        seen: list[int] = []
        result = arena.run(
            game,
            BOTS,
            12,
            seed=3,
            backend=arena.LocalBackend(threads),
            keep_histories=True,
            on_chunk=lambda chunk, seen=seen: seen.append(chunk.first_game),
        )
        assert seen == sorted(seen) and seen[0] == 0 and len(seen) > 1
        np.testing.assert_array_equal(result.returns, direct["returns"])
        np.testing.assert_array_equal(result.seating, direct["seating"])
        assert result.histories == direct["histories"]


def test_an_arena_can_start_in_the_middle() -> None:
    game = rivals.make("rosenkoenig", players=4)
    bots = [("random", {})] * 4
    whole = arena.run(game, bots, 10, seed=8)
    tail = arena.run(game, bots, 4, seed=8, first_game=6)
    np.testing.assert_array_equal(whole.returns[6:], tail.returns)
    np.testing.assert_array_equal(whole.seating[6:], tail.seating)


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[arena.RayBackend]:
    import ray  # the optional backend's package: scripts/setup.sh installs it for the suite

    backend = arena.RayBackend(chunk_games=3)
    yield backend
    ray.shutdown()


def test_ray_backend_gives_the_same_games_as_local_threads(
    ray_backend: arena.RayBackend,
) -> None:
    game = rivals.make("rosenkoenig")
    local = arena.run(game, BOTS, 10, seed=5, backend=arena.LocalBackend(2), keep_histories=True)
    remote = arena.run(game, BOTS, 10, seed=5, backend=ray_backend, keep_histories=True)
    np.testing.assert_array_equal(local.returns, remote.returns)
    np.testing.assert_array_equal(local.lengths, remote.lengths)
    assert local.histories == remote.histories


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes every import of that name fail.
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ValueError, match="pip install"):
        arena.RayBackend()
