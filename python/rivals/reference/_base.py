"""What every reference game has in common, so that each game's module holds only its rules.

A move is checked, applied as a chance outcome or a decision, then recorded: ``apply_action`` does
the first and last, a game supplies ``_apply_chance`` and ``_apply_decision``. The queries that do
not depend on the rules (the history, a copy, a hash of the snapshot, seat checks) live here too,
and every error is a ``ValueError`` worded as the engine words it, so the two can be compared.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import operator
import threading
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from rivals.reference import _network
from rivals.reference._data import quoted

CHANCE = -1
TERMINAL = -4

# An evaluation stays this far inside (-1, 1), below any proven result.
EVALUATION_SCALE = 0.9

Self = TypeVar("Self", bound="State")
StateT = TypeVar("StateT", bound="State")


# How deep a parameter given as Python values may nest, as in the engine's conversion of them.
MAX_NESTING = 64


def _text(value: str, where: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{where}: text is not valid Unicode (a lone surrogate)") from None
    return str(value)


def plain(value: Any, where: str, depth: int = 1) -> Any:
    """A parameter (``depth`` 1: a value of the parameters) as the engine takes it from Python:
    a list or tuple as a list, a dict with str keys, a subclass of int, float or str (an
    ``IntEnum``) and an integral number of another type (numpy's) as the plain value; a copy,
    so a caller's document is never shared. Anything else is a ``ValueError`` saying where."""
    if depth > MAX_NESTING:
        raise ValueError(f"{where}: nested more than {MAX_NESTING} levels deep")
    if isinstance(value, str):
        return _text(value, where)
    if value is None or isinstance(value, bool):
        return value
    kind = type(value)
    if not isinstance(value, (int, float, list, tuple, dict)):
        if kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"):
            raise ValueError(f"{where}: cannot use a value of type {kind.__name__}")
        try:
            value = operator.index(value)
        except TypeError:
            raise ValueError(f"{where}: cannot use a value of type {kind.__name__}") from None
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise ValueError(f"{where}: integer {value} is out of range (64 bits)")
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [plain(item, f"{where}[{k}]", depth + 1) for k, item in enumerate(value)]
    out = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise ValueError(f"{where}: keys must be strings")
        out[_text(key, where)] = plain(item, f"{where}.{key}", depth + 1)
    return out


def is_int(value: Any) -> bool:
    """An ``int`` that is not a ``bool`` (JSON documents and parameters are checked with it)."""
    return isinstance(value, int) and not isinstance(value, bool)


def with_defaults(
    name: str, defaults: dict[str, Any], params: dict[str, Any], accepted: str
) -> dict[str, Any]:
    """``params`` (as ``plain`` makes them) over ``defaults``; a ``ValueError`` naming what is
    accepted for a parameter the game does not have."""
    given = {key: plain(value, f"params.{key}") for key, value in params.items()}
    for key in given:
        if key not in defaults:
            raise ValueError(f"{name}: unknown parameter {quoted(key)}; accepted: {accepted}")
    full = copy.deepcopy(defaults)
    full.update(given)
    return full


def bad_param(name: str, key: str, accepted: str, value: Any) -> ValueError:
    """The error for parameter ``key`` given ``value``, which is not what it accepts."""
    try:
        shown = json.dumps(value)
    except (TypeError, ValueError):
        shown = repr(value)
    return ValueError(f"{name}: parameter {key} must be {accepted}, got {shown}")


def int_param(name: str, params: dict[str, Any], key: str, low: int, high: int) -> int:
    """``params[key]``, which must be an int from ``low`` to ``high``."""
    value = params[key]
    if not is_int(value) or not low <= value <= high:
        raise bad_param(name, key, f"an int {low}-{high}", value)
    return int(value)


def choice_param(name: str, params: dict[str, Any], key: str, choices: Sequence[Any]) -> Any:
    """``params[key]``, which must be one of ``choices`` (ints or strings, of one type)."""
    value = params[key]
    if not any(type(value) is type(choice) and value == choice for choice in choices):
        *others, last = [json.dumps(choice) for choice in choices]
        raise bad_param(name, key, f"{', '.join(others)} or {last}" if others else last, value)
    return value


def as_action(action: Any) -> int:
    """``action`` as a plain int: Python and numpy integers are actions, nothing else is."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise ValueError(
            f"an action is an integer (int or numpy integer), got {type(action).__name__} "
            f"{action!r}"
        )
    return int(action.__index__())


def expected_return(projected: Sequence[float], player: int, spread: float) -> float:
    """The evaluation of a game won by the highest total: seat ``s`` wins with the probability
    ``exp(projected[s] / spread) / sum(exp(projected[t] / spread))``, a winner gets +1 and each
    of the n - 1 losers -1 / (n - 1), so the expected return is (n p - 1) / (n - 1), times 0.9."""
    best = max(projected)
    weights = [math.exp((value - best) / spread) for value in projected]
    win = weights[player] / sum(weights)
    n = len(projected)
    return EVALUATION_SCALE * (n * win - 1) / (n - 1)


class Game(Generic[StateT]):
    """A game and its parameters; two games are equal when their parameters are."""

    name: str
    params: dict[str, Any]
    num_players: int

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        """``params``: the game's parameters, checked and complete. A game without a ``players``
        parameter is for two."""
        self.name = name
        self.params = params
        self.num_players = int(params.get("players", 2))

    def new_initial_state(self) -> StateT:
        raise NotImplementedError

    def state_from_history(self, history: list[int]) -> StateT:
        state = self.new_initial_state()
        for action in history:
            state.apply_action(action)
        return state

    def __repr__(self) -> str:
        return (
            f"reference.make({json.dumps(self.name)}, **{json.dumps(self.params, sort_keys=True)})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.params, sort_keys=True)))


class State:
    """A position: the rules of a game live in its subclass; this records what was played."""

    # The seat to move, CHANCE or TERMINAL (a game may derive it instead: see current_player).
    player: int
    # The evaluations the rules page describes, by the names the bots' evaluation= takes.
    EVALUATIONS: tuple[str, ...] = ("default",)

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_players: int = game.num_players
        self._history: list[int] = []
        self._moving = threading.Lock()

    # A lock is not copied: a clone or an unpickled state has its own.
    def __getstate__(self) -> dict[str, Any]:
        fields = dict(self.__dict__)
        del fields["_moving"]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._moving = threading.Lock()

    # -- what a game provides --------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply_chance(self, outcome: int) -> None:
        raise NotImplementedError

    def _apply_decision(self, action: int) -> None:
        raise NotImplementedError

    def _action_text(self, action: int) -> str:
        """The string of ``action`` at this node; ``ValueError`` for an id that names nothing."""
        raise NotImplementedError

    def _text_action(self, text: str) -> int:
        """The action that ``text`` names at this node; ``ValueError`` naming what is accepted."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def _planes(self, player: int) -> Any:
        """The observation tensor of ``player`` (checked with ``_check_seat``) as its rules page
        lays it out."""
        raise NotImplementedError

    def _compact(self, planes: Any) -> dict[str, Any]:
        """The compact observation (``board`` and ``features``) made from ``_planes``."""
        raise NotImplementedError

    def _evaluate(self, player: int) -> float:
        """The rules page's "Evaluation (for search bots)" of this unfinished position."""
        raise NotImplementedError

    def _evaluate_other(self, player: int, evaluation: str) -> float:
        """The evaluation named ``evaluation``, one of ``EVALUATIONS`` after the first."""
        raise NotImplementedError

    # -- queries ---------------------------------------------------------------------------------

    def observation_tensor(self, player: int, kind: str = "planes") -> Any:
        """``kind="planes"``: the float32 tensor; ``kind="compact"``: ``{"board": uint8,
        "features": float32}``, the same entries rearranged (the rules page, "Compact
        observation")."""
        if kind not in ("planes", "compact"):
            raise ValueError(f"observation kind must be 'planes' or 'compact', got {kind!r}")
        planes = self._planes(player)
        return planes if kind == "planes" else self._compact(planes)

    def evaluate(self, player: int, evaluation: str = "default", network: Any = None) -> float:
        """What a search bot makes of this position from ``player``'s side, in (-1, 1); at a
        decision or a chance node, never at the end (``returns`` is the value there).
        ``evaluation`` names one of ``EVALUATIONS``, the default first, or "net": the network
        ``network`` names (None: the game's shipped one)."""
        seat = self._check_seat(player)
        if self.is_terminal():
            raise ValueError(
                f"{self.game.name}: evaluate: the game is over; its value is returns()"
            )
        offered = (*self.EVALUATIONS, "net")
        if evaluation not in offered:
            raise ValueError(
                f"{self.game.name}: evaluate: no evaluation {quoted(evaluation)} "
                f"(choices: {', '.join(offered)})"
            )
        if evaluation == "net":
            return _network.value(self, seat, network)
        if network is not None:
            raise ValueError(
                f"{self.game.name}: evaluate: network names a network, and the evaluation is "
                f"{quoted(evaluation)}; give evaluation=net to use it"
            )
        if evaluation == self.EVALUATIONS[0]:
            return self._evaluate(seat)
        return self._evaluate_other(seat, evaluation)

    def current_player(self) -> int:
        return self.player

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def history(self) -> list[int]:
        return list(self._history)

    def clone(self: Self) -> Self:
        return copy.deepcopy(self)

    def hash(self) -> int:
        """64-bit hash of the snapshot (equal snapshots give equal hashes)."""
        text = json.dumps(self.to_dict(), sort_keys=True)
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")

    def action_to_string(self, action: int) -> str:
        return self._action_text(as_action(action))

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise ValueError(f"action string expected, got {text!r}")
        return self._text_action(text)

    def __repr__(self) -> str:
        return f"<{self.game.name} State history={self._history}>"

    # -- moves -----------------------------------------------------------------------------------

    def apply_action(self, action: Any) -> None:
        """Check ``action``, then play it; an illegal one raises and changes nothing. A move
        made meanwhile by another thread raises ``RuntimeError``, as the engine's does, rather
        than mixing the two."""
        if not self._moving.acquire(blocking=False):
            raise RuntimeError(
                f"this {self.game.name} reference state is in use by another call (apply_action, "
                "on another thread or in Python code it ran) and cannot be used for apply_action "
                "meanwhile; clone() it for each thread"
            )
        try:
            self._move(action)
        finally:
            self._moving.release()

    def _move(self, action: Any) -> None:
        a = self._checked_action(action)
        if self.is_chance_node():
            self._apply_chance(a)
        else:
            self._apply_decision(a)
        self._history.append(a)

    def _checked_action(self, action: Any) -> int:
        a = as_action(action)
        name = self.game.name
        if self.is_terminal():
            raise ValueError(f"{name}: action {a} cannot be applied: the game is over")
        if a not in self.legal_actions():
            try:
                text = self._action_text(a)
            except ValueError:
                text = "not an action of this game"
            who = (
                "the chance player" if self.is_chance_node() else f"player {self.current_player()}"
            )
            raise ValueError(f"{name}: action {a} ({text}) is not legal for {who}")
        return a

    def _check_seat(self, player: Any) -> int:
        """``player`` as a seat number; ``ValueError`` for anything that is not a seat."""
        name = self.game.name
        if isinstance(player, bool) or not hasattr(player, "__index__"):
            raise ValueError(
                f"{name}: player must be an int, got {type(player).__name__} {player!r}"
            )
        p = int(player.__index__())
        if not 0 <= p < self.num_players:
            raise ValueError(f"{name}: player {p} is not a seat (0..{self.num_players - 1})")
        return p
