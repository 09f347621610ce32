"""Every rivals game as a PettingZoo AEC environment with action masks.

>>> from rivals.pettingzoo import env
>>> environment = env("rosenkoenig", players=4)
>>> environment.reset(seed=42)
>>> for agent in environment.agent_iter():
...     observation, reward, terminated, truncated, info = environment.last()
...     if terminated or truncated:
...         action = None
...     else:
...         mask = observation["action_mask"]
...         action = environment.action_space(agent).sample(mask)
...     environment.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the seats). An observation is
``{"observation": float32 array of game.observation_shape, "action_mask": int8 array of
num_distinct_actions}`` from the agent's own view; the mask is all zero for an agent not to move.
The observation space is bounded by [0, 1] for games whose rules page scales the tensor so, and
unbounded otherwise. Chance (deals, draws) is resolved inside the environment with a generator
seeded by ``reset(seed=...)``. Rewards come once, at the end: the game's returns. An illegal action
raises ``ValueError`` and leaves the environment unchanged. Needs the optional extra
``pettingzoo``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise ModuleNotFoundError(
        "rivals.pettingzoo needs PettingZoo: pip install 'rivals[pettingzoo]'", name=error.name
    ) from error

from rivals._core import Game, State, make_game
from rivals._guard import UseGuard, one_caller
from rivals.replay import shown
from rivals.vector_env import integral, seed_value

__all__ = ["RENDER_MODES", "OrderEnforcingEnv", "RivalsAECEnv", "env", "raw_env"]

RENDER_MODES = ("ansi",)

Observation = dict[str, npt.NDArray[Any]]


def env(game: Game | str, render_mode: str | None = None, **params: Any) -> Any:
    """The AEC environment of ``game`` (a ``Game`` or a name with ``params``), wrapped so that
    stepping before ``reset`` fails clearly."""
    return OrderEnforcingEnv(raw_env(game, render_mode=render_mode, **params))


class OrderEnforcingEnv(wrappers.OrderEnforcingWrapper):  # type: ignore[misc, unused-ignore]
    """PettingZoo's order-enforcing wrapper, whose ``last()`` after the end says so as the raw
    environment's does (PettingZoo's reads the agent's entries, gone once every agent is done)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._has_reset:
            return self.unwrapped.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


def raw_env(game: Game | str, render_mode: str | None = None, **params: Any) -> RivalsAECEnv:
    """The environment without PettingZoo's wrappers."""
    return RivalsAECEnv(game, render_mode=render_mode, **params)


class RivalsAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """A rivals game as a PettingZoo ``AECEnv``; ``game_state`` is the engine's current state."""

    def __init__(self, game: Game | str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        # Two threads stepping one game would interleave moves and chance draws.
        self._guard = UseGuard("RivalsAECEnv", "give each thread its own environment")
        if isinstance(game, str):
            game = make_game(game, params)
        elif params:
            raise ValueError(f"parameters {sorted(params)} given with a Game object; pass a name")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; use one of {RENDER_MODES} or None"
            )
        self.game = game
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": list(RENDER_MODES),
            "name": f"rivals_{game.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = game.info.observation_bounds
        # One space object per agent, as PettingZoo requires (seeding a space must stick).
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low, high, shape=tuple(game.observation_shape), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        0, 1, shape=(game.num_distinct_actions,), dtype=np.int8
                    ),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(game.num_distinct_actions) for agent in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.game_state: State = game.new_initial_state()
        # PettingZoo's wrapper enforces reset-before-step; the raw environment has to say so
        # itself, or step() fails on an attribute reset() sets.
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: Any) -> int:
        """The seat of ``agent``; ``ValueError`` naming it when it is none of the agents (a str
        that is no agent's name, a lone surrogate's included, or not a str at all)."""
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(
                f"{shown(agent)} is not an agent of this environment: the agents are "
                f"player_0 to player_{len(self.possible_agents) - 1}"
            )
        return seat

    @one_caller
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the chance events (and later resets without a seed go on
        with the same generator, so a seeded run of several games is reproducible)."""
        del options  # none; PettingZoo's api_test passes some, which must do nothing
        if seed is not None:
            seed = seed_value(seed)
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state()
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._started = True

    def _require_game(self, call: str) -> None:
        """A game to call ``call`` on: after ``reset()``, and not over with every agent done
        (``agents`` empty), when there is no agent left to step or to ask about."""
        if not self._started:
            raise RuntimeError(f"RivalsAECEnv.{call}() before reset(): call reset() first")
        if not self.agents:
            raise RuntimeError(
                f"RivalsAECEnv.{call}() after the game ended (every agent is done, agents is "
                "empty): call reset() for a new game"
            )

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_game("last")
        return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> Observation:
        seat = self._seat(agent)
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": mask}

    @one_caller
    def step(self, action: int | None) -> None:
        self._require_game("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must give an action, not None")
        self.game_state.apply_action(integral(action, f"{agent}'s action"))
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        if self.game_state.is_terminal():
            self.rewards = dict(zip(self.agents, self.game_state.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            # Every agent then takes its final observation with a None step, in seat order from
            # the one after the last mover.
            seat = self._seats[agent]
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The state as text (``render_mode="ansi"``); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return str(self.game_state)

    @one_caller
    def close(self) -> None:
        """Nothing to release."""

    def _resolve_chance(self) -> None:
        state = self.game_state
        while state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            weights = np.asarray(probabilities, dtype=np.float64)
            state.apply_action(int(self._rng.choice(actions, p=weights / weights.sum())))
