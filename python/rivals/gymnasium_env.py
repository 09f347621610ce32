"""One seat of a rivals game as a single-agent ``gymnasium.Env``, the other seats played by bots.

>>> from rivals.gymnasium_env import LearnerEnv
>>> env = LearnerEnv("rosenkoenig", seat=0, opponents={1: ("mcts", {"iterations": 50})})
>>> observation, info = env.reset(seed=1)
>>> info["action_mask"].shape
(50,)

It is a ``rivals.VectorEnv`` of one environment (the bots move inside its ``step()``), so
observations, seeds and bots follow the VectorEnv's rules. The legal actions are
``info["action_mask"]`` (and ``action_masks()``, as maskable learners expect). An illegal action
raises ValueError, or with ``illegal_action="lose"`` ends the episode with reward -1 (the lowest
return), as PettingZoo's ``TerminateIllegalWrapper`` does; that mode also lets
``gymnasium.utils.env_checker.check_env``, which steps with unmasked random actions, run.
Needs gymnasium (``pip install 'rivals[gymnasium]'``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from rivals import _core
from rivals._guard import UseGuard, one_caller
from rivals.vector_env import VectorEnv, integral, seed_value

__all__ = ["LearnerEnv"]

ILLEGAL_ACTIONS = ("raise", "lose")


class LearnerEnv(gymnasium.Env[Any, np.int64]):
    """Seat ``seat`` of ``game``; ``opponents`` gives a bot for every other seat."""

    def __init__(
        self,
        game: _core.Game | str,
        seat: int,
        opponents: Mapping[int, str | tuple[str, dict[str, Any]]],
        *,
        obs: str = "compact",
        dtype: Any = "float32",
        seed: int = 0,
        illegal_action: str = "raise",
    ) -> None:
        # Two threads stepping one game would start a new one unseen when the other ends it.
        self._guard = UseGuard("LearnerEnv", "give each thread its own LearnerEnv")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        if obs is None:
            raise ValueError("obs must be 'planes' or 'compact': a learner needs an observation")
        seat = integral(seat, "seat")
        self._env = VectorEnv(game, 1, seed, obs=obs, dtype=dtype, opponents=opponents)
        players = self._env.game.num_players
        if not 0 <= seat < players:
            raise ValueError(
                f"{self._env.game.name}: seat {seat} is not a seat (0 to {players - 1})"
            )
        if self._env.learner_seats != (seat,):
            raise ValueError(
                f"opponents must name a bot for every seat but the learner's ({seat}); "
                f"the learner would play seats {list(self._env.learner_seats)}"
            )
        self.metadata = {"render_modes": []}
        self.game = self._env.game
        self.seat = seat
        self.illegal_action = illegal_action
        self.observation_space = self._env.single_observation_space
        self.action_space = self._env.single_action_space
        self._out: dict[str, Any] = {}
        self._over = True

    @one_caller
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            # Checked first, so that a seed refused leaves even the generator of gymnasium as it
            # was; a numpy integer is the int it stands for.
            seed = seed_value(seed)
        if options:
            raise ValueError(f"LearnerEnv.reset takes no options, got {options!r:.200}")
        super().reset(seed=seed)
        self._out = self._env.reset(seed=seed)
        self._over = False
        return self._observation(), self._info()

    @one_caller
    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise ValueError("the game is over (or was never started): call reset()")
        legal = self._out["legal_mask"][0]
        index = integral(action, f"{self.game.name}: an action")
        if not 0 <= index < legal.size or not legal[index]:
            if self.illegal_action == "raise":
                raise ValueError(
                    f"{self.game.name}: action {action!r} is not legal for seat {self.seat}"
                )
            self._over = True
            return self._observation(), -1.0, True, False, self._info(legal=False)
        self._out = self._env.step(np.array([index]))
        self._over = bool(self._out["terminated"][0])
        reward = float(self._out["rewards"][0, self.seat])
        return self._observation(), reward, self._over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return np.array(self._out["legal_mask"][0])

    @one_caller
    def close(self) -> None:
        self._env.close()

    def _observation(self) -> Any:
        # Copies: the VectorEnv's arrays are overwritten by the next step.
        obs = self._out["obs"]
        if isinstance(obs, dict):
            return {key: np.array(value[0]) for key, value in obs.items()}
        return np.array(obs[0])

    def _info(self, legal: bool = True) -> dict[str, Any]:
        mask = np.array(self._out["legal_mask"][0])
        if self._over:
            mask[:] = False
        return {"action_mask": mask, "illegal_action": not legal}
