"""Every rivals game as an OpenSpiel game, so OpenSpiel's own algorithms run on it.

>>> import pyspiel, rivals.openspiel
>>> rivals.openspiel.register()
['rivals_battlecards', 'rivals_rheinlaender', 'rivals_rosenkoenig', ...]
>>> game = pyspiel.load_game("rivals_rosenkoenig(players=4)")

The OpenSpiel game is a thin Python game (``pyspiel.register_game``) over the engine: legal
actions, chance outcomes, returns, action strings and observations are the engine's, so they are
identical to ``rivals.make(...)``'s at every step. Needs the optional extra ``open-spiel``.

Parameters: a game parameter whose default is a number, a bool or a string is an OpenSpiel game
parameter of the same type. One whose default is ``null`` (a data file) is a string where ``""``
keeps the default, and one whose default depends on another parameter (Verräter's ``rounds`` on
``players``) defaults to a value the engine rejects (``0``), which means "the engine's default".
Parameters with list or object values keep their defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, Union

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise ModuleNotFoundError(
        "rivals.openspiel needs OpenSpiel: pip install 'rivals[openspiel]'", name=error.name
    ) from error

from rivals._core import Game, State, game_names, make_game

__all__ = ["PREFIX", "RivalsGame", "RivalsObserver", "RivalsState", "pyspiel_name", "register"]

PREFIX = "rivals_"
# The contract's returns: +1 win, -1 loss, 0 draw. The OpenSpiel random simulation test checks
# every game's returns against these bounds.
MIN_UTILITY = -1.0
MAX_UTILITY = 1.0

Scalar = Union[bool, int, float, str]


def pyspiel_name(name: str) -> str:
    """The OpenSpiel name of rivals game ``name``: ``rivals_rosenkoenig``."""
    return PREFIX + name


def register() -> list[str]:
    """Registers every rivals game with OpenSpiel (again is harmless); returns their names."""
    for name in game_names():
        short_name = pyspiel_name(name)
        if short_name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(name), _game_class(name))
    return [pyspiel_name(name) for name in game_names()]


def _game_class(name: str) -> type[RivalsGame]:
    """A subclass of ``RivalsGame`` bound to game ``name``, as OpenSpiel's factory.

    OpenSpiel keeps the factory in a C++ registry that outlives the interpreter. A class, unlike a
    ``functools.partial``, is kept alive by its own reference cycles, so the registry's last
    release at process exit does not free a Python object after Python has shut down (which
    aborts the process).
    """

    def __init__(self: RivalsGame, params: Mapping[str, Any] | None = None) -> None:
        RivalsGame.__init__(self, name, params)

    return type(f"RivalsGame_{name}", (RivalsGame,), {"__init__": __init__})


def _load_game(text: str) -> Any:
    """``pyspiel.load_game(text)`` with the rivals games registered: how a pickled game is made
    again, in this process or another."""
    register()
    return pyspiel.load_game(text)


def _replayed(game: Any, history: Iterable[int]) -> RivalsState:
    """The state ``history`` leads to in OpenSpiel game ``game``, played through OpenSpiel so that
    its own history is that one."""
    state: RivalsState = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _load_state(game_text: str, history: list[int]) -> RivalsState:
    """The state ``history`` leads to in game ``game_text``, the rivals games registered first:
    how a pickled state is made again, in this process or another."""
    return _replayed(_load_game(game_text), history)


@cache
def _specification(name: str) -> tuple[dict[str, Scalar], dict[str, Scalar]]:
    """OpenSpiel's parameter specification of game ``name``, and the values in it that stand for
    "the engine's default" (left out when the game is made).

    OpenSpiel fills in every parameter the user leaves out, so a default that depends on another
    parameter (Verräter's ``rounds`` on ``players``) cannot be a plain value: it gets a value the
    engine rejects instead, which then means "leave it to the engine". So does a ``null`` default.
    """
    default = make_game(name, {})
    others = []
    if "players" in default.params:
        others = [
            make_game(name, {"players": count}).params
            for count in default.info.player_counts
            if count != default.num_players
        ]
    spec: dict[str, Scalar] = {}
    automatic: dict[str, Scalar] = {}
    for key, value in default.params.items():
        if value is None:
            spec[key] = automatic[key] = ""
        elif isinstance(value, (bool, int, float, str)):
            dependent = key != "players" and any(params.get(key) != value for params in others)
            sentinel = _rejected_value(name, key, value) if dependent else None
            spec[key] = value if sentinel is None else sentinel
            if sentinel is not None:
                automatic[key] = sentinel
    return spec, automatic


def _rejected_value(name: str, key: str, value: Scalar) -> Scalar | None:
    """A value of ``value``'s type that game ``name`` rejects for ``key``, if there is one."""
    if isinstance(value, bool):
        return None
    candidates: tuple[Scalar, ...] = ("",) if isinstance(value, str) else (0, -1)
    for candidate in candidates:
        typed = float(candidate) if isinstance(value, float) else candidate
        try:
            make_game(name, {key: typed})
        except ValueError:
            return typed
    return None


def _rivals_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel's parameters back to the engine's, the stand-ins for its defaults left out."""
    automatic = _specification(name)[1]
    return {
        key: value
        for key, value in params.items()
        if not (key in automatic and value == automatic[key])
    }


def _game_type(name: str) -> Any:
    info = make_game(name, {}).info
    game_type = pyspiel.GameType
    utilities = {
        "zero_sum": game_type.Utility.ZERO_SUM,
        "constant_sum": game_type.Utility.CONSTANT_SUM,
        "general_sum": game_type.Utility.GENERAL_SUM,
    }
    return game_type(
        short_name=pyspiel_name(name),
        long_name=f"rivals {info.long_name}",
        dynamics=game_type.Dynamics.SEQUENTIAL,
        chance_mode=game_type.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            game_type.Information.PERFECT_INFORMATION
            if info.information == "perfect"
            else game_type.Information.IMPERFECT_INFORMATION
        ),
        utility=utilities[info.utility],
        reward_model=game_type.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string="information_state_string" in info.observations,
        provides_information_state_tensor="information_state_tensor" in info.observations,
        provides_observation_string="observation_string" in info.observations,
        provides_observation_tensor="observation_tensor" in info.observations,
        parameter_specification=_specification(name)[0],
    )


class RivalsGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """A rivals game seen by OpenSpiel; ``rivals_game`` is the engine's ``Game``."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        self.rivals_game: Game = make_game(name, _rivals_params(name, params or {}))
        game = self.rivals_game
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            # Chance outcomes are ids in [0, max_chance_outcomes) as OpenSpiel expects.
            max_chance_outcomes=game.max_chance_outcomes,
            num_players=game.num_players,
            min_utility=MIN_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=game.info.utility_sum,
            max_game_length=game.max_game_length,
        )
        super().__init__(_game_type(name), info, dict(params or {}))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pyspiel's own pickling would make the object without __init__, so without the engine's
        # game; loading it by its name makes it whole, in any process.
        return _load_game, (str(self),)

    def new_initial_state(self) -> RivalsState:
        return RivalsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RivalsObserver:
        return RivalsObserver(self, iig_obs_type, params)


class RivalsState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """An OpenSpiel state over an engine ``State`` (``rivals_state``).

    OpenSpiel clones a Python state by deep-copying its attributes, and the engine state's copy is
    a plain C++ copy, so cloning stays cheap.
    """

    def __init__(self, game: RivalsGame) -> None:
        super().__init__(game)
        self.rivals_state: State = game.rivals_game.new_initial_state()

    def current_player(self) -> int:
        # rivals.CHANCE and rivals.TERMINAL are OpenSpiel's PlayerId.CHANCE and TERMINAL.
        return self.rivals_state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.rivals_state.current_player():
            return []
        return self.rivals_state.legal_actions()

    # At a chance node pyspiel answers a seat's legal actions with the chance outcomes, without
    # asking _legal_actions; the outcomes depend on hidden cards, so a seat gets none, as in
    # OpenSpiel's own games.
    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is None:
            return list(super().legal_actions())
        if player != self.current_player():
            return []
        return list(super().legal_actions(player))

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        if player is None:
            return list(super().legal_actions_mask())
        if player != self.current_player():
            return [0] * self.get_game().num_distinct_actions()
        return list(super().legal_actions_mask(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.rivals_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.rivals_state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        del player  # the engine names an action in the state it is played from
        return self.rivals_state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.rivals_state.is_terminal()

    def returns(self) -> list[float]:
        return self.rivals_state.returns()

    def __str__(self) -> str:
        return str(self.rivals_state)

    def __reduce__(self) -> tuple[Any, tuple[str, list[int]]]:
        # pyspiel's own pickling loads the game by its name, which a new process does not know
        # until register() runs; replaying the history there registers it first.
        return _load_state, (str(self.get_game()), list(self.history()))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> RivalsState:
        """A state seat ``player_id`` cannot tell from this one, what it has not seen dealt anew
        by the engine (``State.resample_from_infostate``), as OpenSpiel's ISMCTS asks for it; the
        sampler's draw (uniform in [0, 1)) seeds the deal."""
        seed = int(probability_sampler() * 2.0**53)
        dealt = self.rivals_state.resample_from_infostate(player_id, seed)
        return _replayed(self.get_game(), dealt.history())


class RivalsObserver:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``).

    With perfect recall (OpenSpiel's information state) the string is the engine's
    ``information_state_string`` for games with hidden information, and the action history for
    games without (OpenSpiel's convention there: the engine's string is the current position,
    which different histories share). Otherwise it is the engine's observation string and tensor.
    """

    def __init__(
        self, game: RivalsGame, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"rivals observers take no parameters; got {dict(params)}")
        name = game.rivals_game.name
        self._perfect_information = game.rivals_game.info.information == "perfect"
        if (
            iig_obs_type is not None
            and not self._perfect_information
            and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{pyspiel_name(name)} observes for one player: private_info must be "
                f"SINGLE_PLAYER, got {iig_obs_type.private_info}"
            )
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]
        if self._perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            shape = game.rivals_game.observation_shape
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: RivalsState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.rivals_state.observation_tensor(player).ravel()

    def string_from(self, state: RivalsState, player: int) -> str:
        if not self._perfect_recall:
            return state.rivals_state.observation_string(player)
        if self._perfect_information:
            return str(state.history_str())
        return state.rivals_state.information_state_string(player)
