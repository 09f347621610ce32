"""Vectorised environments: many games stepped together in C++."""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

from rivals import _core

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` games of one kind, stepped together in C++ with the GIL released.

    ``reset()`` and ``step(actions)`` return a dict of numpy arrays, one row per environment:
    ``obs`` float32 ``[num_envs, *observation_shape]`` from the view of the player to move (at the
    end of a game, of the player who moved last), ``legal_mask`` bool
    ``[num_envs, num_distinct_actions]``, ``player`` int32, ``rewards`` float32
    ``[num_envs, num_players]`` (a game's returns, on the step that ends it) and ``terminated``
    bool. Chance nodes are resolved inside from per-environment random streams derived from
    ``seed``; nothing outside can read them. An environment that terminated restarts on the next
    ``step``, which ignores its action.

    The arrays are views of buffers that every call overwrites: copy what you keep.
    """

    def __init__(
        self, game: _core.Game | str, num_envs: int, seed: int = 0, threads: int = 1
    ) -> None:
        self._env = _core.VectorEnv(game, num_envs, seed, threads)
        self._views: dict[str, npt.NDArray[Any]] = self._env.views()
        self.game: _core.Game = self._env.game
        self.num_envs: int = num_envs

    def reset(self) -> dict[str, npt.NDArray[Any]]:
        self._env.reset()
        return dict(self._views)

    def step(self, actions: npt.ArrayLike) -> dict[str, npt.NDArray[Any]]:
        """One action per environment; an illegal one raises ValueError and changes nothing."""
        self._env.step(actions)
        return dict(self._views)

    def state(self, env: int) -> _core.State:
        """Environment ``env``'s current game as a full state (rebuilt from its history)."""
        return self._env.state(env)

    def send(self, actions: npt.ArrayLike) -> None:
        """Starts ``step(actions)`` in the background; ``recv()`` returns its results."""
        self._env.send(actions)

    def recv(self) -> dict[str, npt.NDArray[Any]]:
        self._env.recv()
        return dict(self._views)
