"""Vectorised environments: many games stepped together in C++."""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Mapping
from types import TracebackType
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from rivals import _core, bots
from rivals._guard import UseGuard, one_caller, process_id

__all__ = ["VectorEnv"]

OBSERVATIONS = ("planes", "compact", None)
LEGAL = ("mask", "indices", "both")
DTYPES = ("float32", "float16")

Result = dict[str, Any]


class _Metadata:
    """The environments' metadata, as Gymnasium reads it: its wrappers test that the autoreset
    mode is their own enum. Built on first use, so that ``import rivals`` does not import
    Gymnasium (a tenth of a second) for a program that never asks."""

    def __init__(self) -> None:
        self._built: dict[str, Any] | None = None

    def __get__(self, instance: object, owner: type | None = None) -> dict[str, Any]:
        if self._built is None:
            try:
                from gymnasium.vector import AutoresetMode

                mode: Any = AutoresetMode.NEXT_STEP
            except ImportError:  # no Gymnasium, or one before the enum (1.1)
                mode = "NextStep"
            self._built = {"autoreset_mode": mode}
        return self._built


class VectorEnv:
    """``num_envs`` games of one kind, stepped together in C++ with the GIL released.

    ``reset()`` and ``step(actions)`` return a dict of numpy arrays, one row per environment:

    - ``obs``: with ``obs="planes"`` (the default) the tensor ``[num_envs, *observation_shape]``;
      with ``obs="compact"`` a dict ``{"board": uint8 [num_envs, *board], "features":
      [num_envs, F]}`` of ``game.compact_observation_shape`` (docs/rules/<game>.md, "Compact
      observation"); absent with ``obs=None``. Floats are ``dtype`` (float32 or float16). The view
      is the learner's seat to move (at the end of a game, the learner's seat that moved last).
    - ``legal_mask`` bool ``[num_envs, num_distinct_actions]`` (``legal="both"``, the default, or
      ``"mask"``); ``legal_actions`` int32 ``[num_envs, game.max_legal_actions]``, the legal
      actions ascending and then -1, with ``num_legal`` int32 ``[num_envs]`` (``legal="both"`` or
      ``"indices"``). ``sample_legal()`` draws a uniformly random legal action per environment
      in C++; from the indices in numpy it is a few operations on ``num_envs`` numbers, where a
      draw from the mask scans every action (docs/learning.md, "Mask, indices or both").
    - ``player`` int32 (the seat to move; -4 at the end), ``rewards`` float32
      ``[num_envs, num_players]`` (a game's returns, on the step that ends it, else 0) and
      ``terminated`` bool.

    Chance nodes are resolved inside from per-environment random streams derived from ``seed``.
    ``opponents={seat: bot}`` (a bot name or ``(name, params)``) has those seats played by rivals
    bots inside ``step()``, so the arrays only ever show the learner's seats to move. In a game with
    hidden information only bots that decide from what their seat sees (``game.info.fair_bots``)
    may play.

    Autoreset: on the step that ends a game, ``terminated`` is True, ``rewards`` holds the returns
    and the legal mask is all False (``num_legal`` 0) as nobody is to move; the next ``step``
    restarts that environment, ignores its action and reports the new game's first position
    (``terminated`` False, ``rewards`` 0). This is Gymnasium's "next step" autoreset mode:
    ``VectorEnv.metadata["autoreset_mode"]`` is ``gymnasium.vector.AutoresetMode.NEXT_STEP``
    where a Gymnasium that has it is installed, else its value ``"NextStep"``.

    The arrays are views of buffers that every call overwrites: copy what you keep. ``close()``
    (or leaving a ``with`` block) frees the environments; any later call raises RuntimeError.
    """

    metadata: ClassVar[_Metadata] = _Metadata()

    def __init__(
        self,
        game: _core.Game | str,
        num_envs: int,
        seed: int = 0,
        threads: int = 1,
        *,
        obs: str | None = "planes",
        dtype: Any = "float32",
        legal: str = "both",
        opponents: Mapping[int, str | tuple[str, dict[str, Any]]] | None = None,
    ) -> None:
        if obs not in OBSERVATIONS:
            raise ValueError(f"obs must be 'planes', 'compact' or None, got {obs!r}")
        # The engine's environments guard themselves; this guards the arrays read after a call,
        # which a close() on another thread would take away half-way.
        self._guard = UseGuard("VectorEnv", "give each thread its own VectorEnv")
        if legal not in LEGAL:
            raise ValueError(f"legal must be 'mask', 'indices' or 'both', got {legal!r}")
        try:
            dtype_name = np.dtype(dtype).name
        except (TypeError, ValueError) as error:  # a str with a lone surrogate: ValueError
            raise ValueError(f"dtype must be float32 or float16, got {dtype!r}") from error
        if dtype_name not in DTYPES:
            raise ValueError(f"dtype must be float32 or float16, got {dtype!r}")
        resolved = _core.make_game(game, {}) if isinstance(game, str) else game
        if not isinstance(resolved, _core.Game):
            raise ValueError(f"game must be a rivals.Game or a game name, got {game!r}")
        seats = _seat_bots(resolved, opponents)
        self._env: _core.VectorEnv | None = _core.VectorEnv(
            resolved, num_envs, seed, threads, obs, dtype_name, legal, seats
        )
        self.game: _core.Game = self._env.game
        self.num_envs: int = num_envs
        self.obs: str | None = obs
        self.dtype: np.dtype[Any] = np.dtype(dtype_name)
        self.legal: str = legal
        self.learner_seats: tuple[int, ...] = tuple(
            seat for seat in range(self.game.num_players) if seats is None or seats[seat] is None
        )
        self._views: dict[str, npt.NDArray[Any]] = self._env.views()
        self._sent_in: int | None = None  # the process that sent the step awaiting recv()
        self._spaces: dict[str, Any] = {}

    # -- stepping ---------------------------------------------------------------------------------

    @one_caller
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Result:
        """Every environment at the start of a new game. With ``seed``, the random streams start
        over as if the environment had been made with that seed."""
        if options:
            raise ValueError(f"VectorEnv.reset takes no options, got {options!r}")
        self._open("reset").reset(seed)
        return self._result()

    @one_caller
    def step(self, actions: npt.ArrayLike) -> Result:
        """One action per environment; an illegal one raises ValueError and changes nothing."""
        self._open("step").step(actions)
        return self._result()

    @one_caller
    def state(self, env: int) -> _core.State:
        """Environment ``env``'s current game as a full state (rebuilt from its history)."""
        return self._open("state").state(env)

    @one_caller
    def sample_legal(self) -> npt.NDArray[np.int32]:
        """One uniformly random legal action per environment, from the last results: int32
        ``[num_envs]``, -1 where nobody is to move (a finished game, whose next action is ignored),
        so ``env.step(env.sample_legal())`` always works. Environment ``e`` draws from a stream of
        its own derived from the seed, apart from its chance and its bots: sampling never changes
        the games, and ``reset(seed=...)`` starts the stream over. A new array each call."""
        return self._open("sample_legal").sample_legal()

    @one_caller
    def send(self, actions: npt.ArrayLike) -> None:
        """Starts ``step(actions)`` in the background; ``recv()`` returns its results."""
        self._open("send").send(actions)
        self._sent_in = process_id()

    @one_caller
    def recv(self) -> Result:
        self._open("recv").recv()
        self._sent_in = None
        return self._result()

    @one_caller
    def close(self) -> None:
        """Waits for a step sent with ``send()`` and frees the environments; closing twice is
        harmless. In a process forked after the ``send()``, the step goes on in the parent only:
        nothing is waited for."""
        if self._env is None:
            return
        if self._sent_in in (None, process_id()):
            with contextlib.suppress(ValueError):  # raised when nothing was sent
                self._env.recv()
        self._env = None
        self._views = {}

    @property
    def closed(self) -> bool:
        return self._env is None

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- spaces ----------------------------------------------------------------------------------

    @property
    def single_observation_space(self) -> Any:
        """One environment's ``obs`` as a gymnasium space (an empty Dict with ``obs=None``)."""
        return self._space("single_observation")

    @property
    def observation_space(self) -> Any:
        """The batched ``obs`` as a gymnasium space (``num_envs`` rows)."""
        return self._space("observation")

    @property
    def single_action_space(self) -> Any:
        """``Discrete(num_distinct_actions)``; the legal ones are in ``legal_mask``."""
        return self._space("single_action")

    @property
    def action_space(self) -> Any:
        """``MultiDiscrete``: one action per environment."""
        return self._space("action")

    def _space(self, which: str) -> Any:
        if not self._spaces:
            self._spaces = _spaces(self)
        return self._spaces[which]

    # -- helpers ---------------------------------------------------------------------------------

    def _open(self, call: str) -> _core.VectorEnv:
        if self._env is None:
            raise RuntimeError(f"VectorEnv.{call}: the environment is closed")
        return self._env

    def _result(self) -> Result:
        views = self._views
        out: Result = {}
        if self.obs == "planes":
            out["obs"] = views["obs"]
        elif self.obs == "compact":
            out["obs"] = {"board": views["board"], "features": views["features"]}
        for key in ("legal_mask", "legal_actions", "num_legal", "player", "rewards", "terminated"):
            if key in views:
                out[key] = views[key]
        return out


def integral(value: Any, what: str) -> int:
    """``value`` as an int when it is an integral number (a Python int or a numpy integer, as
    every int the engine takes); ``ValueError`` for a bool, a float, text or anything else."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ValueError(f"{what} must be an integer, got {type(value).__name__} {value!r:.80}")


def seed_value(value: Any) -> int:
    """``value`` as a seed: an integral number in 0..2**64-1, as every seed the engine takes."""
    seed = integral(value, "seed")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int 0..2**64-1, got {seed}")
    return seed


def _seat_bots(
    game: _core.Game, opponents: Mapping[int, str | tuple[str, dict[str, Any]]] | None
) -> list[str | tuple[str, dict[str, Any]] | None] | None:
    """The per-seat list the engine takes, after the checks only the package can make (the
    engine itself refuses bots that would peek): bots that think by the clock (so that a run
    would not repeat) or start threads of their own inside the environment's workers."""
    if opponents is None:
        return None
    if not isinstance(opponents, Mapping):
        raise ValueError(f"opponents must be a dict {{seat: bot}}, got {opponents!r}")
    seats: list[str | tuple[str, dict[str, Any]] | None] = [None] * game.num_players
    for key, bot in opponents.items():
        seat = integral(key, "opponents: a seat")
        if not 0 <= seat < game.num_players:
            raise ValueError(
                f"opponents: seat {seat} is not a seat of {game.name} (0..{game.num_players - 1})"
            )
        if isinstance(bot, str):
            name, params = bot, {}
        elif isinstance(bot, tuple) and len(bot) == 2 and isinstance(bot[0], str):
            name, params = bot[0], bot[1]
            if not isinstance(params, dict):
                raise ValueError(f"opponents: seat {seat}: bot params are a dict, got {params!r}")
        else:
            raise ValueError(
                f"opponents: seat {seat}: a bot is a name or (name, params), got {bot!r}"
            )
        if bots.clock_dependent(game, name, params):
            raise ValueError(
                f"opponents: seat {seat}: {name} with time_s thinks by the clock, so runs would "
                "not repeat; give it iterations instead"
            )
        if params.get("threads", 1) != 1:
            raise ValueError(
                f"opponents: seat {seat}: {name} runs inside the environment's threads; "
                "leave its threads at 1 and give the VectorEnv threads= instead"
            )
        seats[seat] = name if not params else (name, params)
    if all(bot is not None for bot in seats):
        raise ValueError(f"opponents: every seat of {game.name} is a bot; leave one to the learner")
    return seats


def _spaces(env: VectorEnv) -> dict[str, Any]:
    try:
        from gymnasium import spaces
        from gymnasium.vector.utils import batch_space
    except ImportError as error:
        raise ModuleNotFoundError(
            "VectorEnv spaces are gymnasium spaces: pip install 'rivals[gymnasium]'"
        ) from error
    game = env.game
    low, high = game.info.observation_bounds
    single: Any
    if env.obs == "planes":
        single = spaces.Box(low, high, shape=tuple(game.observation_shape), dtype=env.dtype)
    elif env.obs == "compact":
        shape = game.compact_observation_shape
        single = spaces.Dict(
            {
                "board": spaces.Box(0, 1, shape=tuple(shape["board"]), dtype=np.uint8),
                "features": spaces.Box(low, high, shape=tuple(shape["features"]), dtype=env.dtype),
            }
        )
    else:
        single = spaces.Dict({})
    action = spaces.Discrete(game.num_distinct_actions)
    return {
        "single_observation": single,
        "observation": batch_space(single, env.num_envs),
        "single_action": action,
        "action": batch_space(action, env.num_envs),
    }
