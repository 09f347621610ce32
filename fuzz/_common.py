"""What every fuzz harness shares: decoding bytes into choices, the games and their data files as
the installed engine reports them, random positions, the cheap state invariants, and the
command-line driver around atheris.

Nothing here names a game: a harness sees every game of ``rivals.games()`` and every data-file
parameter that ``game.params`` declares, so a new game is fuzzed as soon as it is registered.
"""

from __future__ import annotations

import gc
import json
import math
import random
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

import rivals

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent

# Around the limits of signed and unsigned 32- and 64-bit integers: 2**31 - 1, 2**31, -(2**31),
# -(2**31) - 1, 2**32 - 1, 2**32, then the same for 64 bits.
_WORD_EDGES = tuple(
    edge
    for bits in (32, 64)
    for high in (2 ** (bits - 1),)
    for edge in (high - 1, high, -high, -high - 1, 2**bits - 1, 2**bits)
)
# Integers that sit on the edges of the types the engine and the bindings convert to.
EDGE_INTS = (
    0,
    1,
    -1,
    2,
    -2,
    127,
    128,
    255,
    256,
    2**15 - 1,
    2**15,
    2**16,
    *_WORD_EDGES,
    2**100,
    -(2**100),
)


class Failure(AssertionError):
    """A broken promise of the engine: the harness found a bug."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


# A stored input names what it was found on in a first line, ``rivals-fuzz {json}``: the
# choice bytes that follow pick a game by its index in a list that grows with every game and
# parameter set, and the header keeps the input on the game it failed on.
PIN_PREFIX = b"rivals-fuzz "


def read_pin(data: bytes) -> tuple[dict[str, Any] | None, bytes]:
    """The header of a stored input and the bytes after it; (None, data) when there is no
    well-formed header (a fuzzer's mutation of one included), so any input still decodes."""
    if not data.startswith(PIN_PREFIX) or b"\n" not in data:
        return None, data
    line, rest = data[len(PIN_PREFIX) :].split(b"\n", 1)
    try:
        pin = json.loads(line.decode("utf-8"))
    except ValueError:
        return None, data
    return (pin, rest) if isinstance(pin, dict) else (None, data)


def write_pin(pin: dict[str, Any], body: bytes) -> bytes:
    return PIN_PREFIX + json.dumps(pin, sort_keys=True).encode("ascii") + b"\n" + body


class Bytes:
    """Reads fuzzer bytes as choices. Past the end every read gives zeros, so any input decodes
    to something and a harness loop ends by testing ``exhausted``. ``pin`` is the input's header
    (see ``read_pin``), if it has one."""

    def __init__(self, data: bytes) -> None:
        self.pin, self.data = read_pin(data)
        self.pos = 0

    @property
    def exhausted(self) -> bool:
        return self.pos >= len(self.data)

    def uint(self, size: int) -> int:
        chunk = self.data[self.pos : self.pos + size]
        self.pos += size
        return int.from_bytes(chunk, "little")

    def byte(self) -> int:
        return self.uint(1)

    def below(self, n: int) -> int:
        """An int in ``[0, n)``; n must be positive."""
        size = 1 if n <= 0x100 else 2 if n <= 0x10000 else 4
        return self.uint(size) % n

    def pick(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def chance(self, percent: int) -> bool:
        return self.byte() % 100 < percent

    def int_any(self) -> int:
        """An int from anywhere: small, on a type edge, or 32 or 64 random bits, either sign."""
        kind = self.byte() % 5
        if kind == 0:
            return self.byte() - 128
        if kind == 1:
            return self.pick(EDGE_INTS)
        if kind == 2:
            return self.uint(4) - 2**31
        if kind == 3:
            return self.uint(8)
        return self.pick(EDGE_INTS) + self.byte() - 128

    def text(self, max_len: int = 40) -> str:
        """Arbitrary text, lone surrogates included (bytes that are not UTF-8 map to them)."""
        raw = self.data[self.pos : self.pos + self.below(max_len + 1)]
        self.pos += len(raw)
        return raw.decode("utf-8", errors="surrogateescape")

    def rest(self) -> bytes:
        raw = self.data[self.pos :]
        self.pos = len(self.data)
        return raw


# The pin of the game or data parameter that the last input picked: fuzz/store.py gives a failing
# input the header that keeps it on that game.
_last_pick: dict[str, Any] = {}


def _picked(pin: dict[str, Any]) -> None:
    _last_pick.clear()
    _last_pick.update(pin)


def take_pick() -> dict[str, Any]:
    """The pin of the last pick since the previous call ({} when nothing was picked)."""
    pin = dict(_last_pick)
    _last_pick.clear()
    return pin


# --- The games, as the engine reports them -------------------------------------------------------


@cache
def configs() -> tuple[tuple[str, str], ...]:
    """(game, params as JSON) pairs to fuzz: each game's defaults, each player count it accepts,
    and the parameter sets of the generic test suites where those are importable."""
    out: list[tuple[str, str]] = []
    suites: dict[str, list[Any]] = {}
    try:
        from tests.games import CONFIGS

        suites = dict(CONFIGS)
    except ImportError:
        pass
    for name in rivals.games():
        candidates: list[dict[str, Any]] = [{}]
        default = rivals.make(name)
        if "players" in default.params:
            candidates += [{"players": n} for n in default.info.player_counts]
        candidates += [dict(row[0]) for row in suites.get(name, [])]
        for params in candidates:
            key = (name, json.dumps(params, sort_keys=True))
            if key not in out:
                out.append(key)
    return tuple(out)


@lru_cache(maxsize=64)
def make(name: str, params: str) -> rivals.Game:
    return rivals.make(name, **json.loads(params))


def pick_game(data: Bytes) -> rivals.Game:
    """The game the next choice bytes pick, or the input's pinned game. A pin overrides the
    choice but does not replace its bytes, so a stored input decodes as it did when it failed."""
    name, params = data.pick(configs())
    pinned = pinned_game(data.pin)
    if pinned is not None:
        _picked(data.pin or {})
        return pinned
    _picked(pin_for(name, json.loads(params)))
    return make(name, params)


def pinned_game(pin: dict[str, Any] | None) -> rivals.Game | None:
    """The game of a pin ``{"game": name, "params": {...}}``, or None when there is no pin or it
    names no game of this build."""
    if pin is None or not isinstance(pin.get("params", {}), dict):
        return None
    try:
        return make(str(pin.get("game")), json.dumps(pin.get("params", {}), sort_keys=True))
    except (ValueError, TypeError):
        return None


def pin_for(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The pin of game ``name`` made with ``params`` (data parameters by shipped name, as in
    ``configs()``, so the pin means the same on every checkout)."""
    return {"game": name, "params": params}


@dataclass(frozen=True)
class DataParam:
    """A game parameter that names a data file, and the shipped file it accepts."""

    game: str
    param: str
    shipped: Path
    as_list: bool  # the parameter takes a list of paths (expansions) rather than one path

    def value(self, path: str) -> str | list[str]:
        return [path] if self.as_list else path

    def __str__(self) -> str:
        return f"{self.game} {self.param}={self.shipped.name}"

    def pin(self) -> dict[str, Any]:
        return {"game": self.game, "param": self.param, "shipped": self.shipped.name}


def data_dir() -> Path:
    return Path(rivals.__file__).resolve().parent / "data"


@cache
def data_params() -> tuple[DataParam, ...]:
    """Every (game, parameter, shipped file) where the parameter defaults to null or to an empty
    list and the game accepts the shipped file, unchanged, as its value."""
    found = []
    files = sorted(data_dir().glob("*.json"))
    for name in rivals.games():
        for param, default in rivals.make(name).params.items():
            if default is not None and default != []:
                continue
            for path in files:
                if not path.stem.startswith(name):
                    continue
                candidate = DataParam(name, param, path, as_list=default == [])
                try:
                    rivals.make(name, **{param: candidate.value(str(path))})
                except ValueError:
                    continue
                found.append(candidate)
    return tuple(found)


def pick_data_param(data: Bytes) -> DataParam:
    """The data parameter the next choice bytes pick, or the input's pinned one (a pin
    ``{"game": name, "param": key, "shipped": file name}`` overrides the choice as in
    ``pick_game``)."""
    params = data_params()
    chosen = data.pick(params)
    pin = data.pin or {}
    for param in params:
        if param.pin() == pin:
            chosen = param
    _picked(chosen.pin())
    return chosen


# --- Positions ------------------------------------------------------------------------------------


def play_randomly(state: rivals.State, rng: random.Random, plies: int) -> None:
    """Up to ``plies`` uniformly random actions (chance outcomes uniform too)."""
    for _ in range(plies):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@lru_cache(maxsize=512)
def _position(game: rivals.Game, seed: int, plies: int) -> rivals.State:
    state = game.new_initial_state()
    play_randomly(state, random.Random(seed), plies)
    return state


def position(data: Bytes) -> rivals.State:
    """A random position of a random game, chosen by the next bytes. Positions are cached, so
    most inputs pay for a clone rather than a playout."""
    game = pick_game(data)
    seed = data.byte()
    plies = data.below(max(1, min(game.max_game_length, 400)) + 1)
    return _position(game, seed, plies).clone()


def snapshot(state: rivals.State) -> tuple[str, int, list[int]]:
    """What an action that raises must leave unchanged."""
    return (state.to_json(), state.hash(), state.history())


def check_state(state: rivals.State) -> None:
    """Cheap invariants of any state, checked after each legal action."""
    game = state.game
    name = game.name
    player = state.current_player()
    terminal = state.is_terminal()
    chance = state.is_chance_node()
    check(terminal == (player == rivals.TERMINAL), f"{name}: is_terminal disagrees with {player}")
    check(chance == (player == rivals.CHANCE), f"{name}: is_chance_node disagrees with {player}")
    check(
        terminal or chance or 0 <= player < game.num_players,
        f"{name}: current_player {player} is no seat",
    )
    history = state.history()
    check(
        len(history) <= game.max_game_length,
        f"{name}: {len(history)} actions, past max_game_length {game.max_game_length}",
    )
    legal = state.legal_actions()
    check(terminal == (not legal), f"{name}: terminal={terminal} with legal actions {legal}")
    check(
        all(a < b for a, b in zip(legal, legal[1:])),
        f"{name}: legal actions not strictly ascending: {legal}",
    )
    # Chance outcomes and decisions are numbered apart, each from 0 (OpenSpiel's convention).
    ids = game.max_chance_outcomes if chance else game.num_distinct_actions
    check(
        all(0 <= a < ids for a in legal),
        f"{name}: legal action outside 0..{ids - 1}: {legal}",
    )
    if chance:
        outcomes = state.chance_outcomes()
        check(
            [a for a, _ in outcomes] == legal,
            f"{name}: chance outcomes {outcomes} are not the legal actions {legal}",
        )
        check(all(p > 0 for _, p in outcomes), f"{name}: a chance outcome without weight")
        total = math.fsum(p for _, p in outcomes)
        check(abs(total - 1) < 1e-9, f"{name}: chance probabilities sum to {total}")
    returns = state.returns()
    check(len(returns) == game.num_players, f"{name}: {len(returns)} returns")
    check(terminal or not any(returns), f"{name}: returns {returns} before the end")


def check_replayable(state: rivals.State) -> None:
    """The history rebuilds the same state: the end-of-input check of a sequence of actions."""
    rebuilt = state.game.state_from_history(state.history())
    name = state.game.name
    check(rebuilt.hash() == state.hash(), f"{name}: replaying the history changes the hash")
    check(rebuilt.to_json() == state.to_json(), f"{name}: replaying the history changes to_json")


# --- Running under atheris ------------------------------------------------------------------------


def _instrument(prefixes: tuple[str, ...]) -> None:
    """Coverage for the Python code that matters (rivals, the harnesses) only: instrumenting
    everything loaded (numpy included) costs a minute at start-up."""
    import atheris  # type: ignore[import-untyped]

    for obj in gc.get_objects():
        if not isinstance(obj, types.FunctionType):
            continue
        module = getattr(obj, "__module__", None) or ""
        if module == "__main__" or module.startswith(prefixes):
            atheris.instrument_func(obj)


def write_seeds(corpus: Path, seeds: Sequence[bytes]) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    for index, seed in enumerate(seeds):
        (corpus / f"seed-{index:04d}").write_bytes(seed)


def main(one_input: Callable[[bytes], None], seeds: Callable[[], Sequence[bytes]]) -> None:
    """``python fuzz/fuzz_X.py [libFuzzer flags] [corpus_dir ...]``. The first corpus directory
    (where libFuzzer adds new inputs) is filled with the harness's seeds when missing or empty."""
    import atheris

    dirs = [Path(arg) for arg in sys.argv[1:] if not arg.startswith("-")]
    if dirs and not dirs[0].is_file() and (not dirs[0].is_dir() or not any(dirs[0].iterdir())):
        write_seeds(dirs[0], seeds())
    _instrument(("rivals", "fuzz", "tests.games"))
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
