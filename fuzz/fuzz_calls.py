"""Arguments: every public entry point of the bindings called with values of any kind where it
takes a number, an action or a parameter: ints on the edges of 32 and 64 bits, negative and
huge, floats (NaN, infinities, ``2.0``, ``5.9``), bools, ``None``, text, numpy scalars and arrays
of every dtype and shape, lists nested deep, and bots made for other rules of the same game.

Every call returns or raises ``ValueError`` (``IndexError`` for ``VectorEnv.state`` of no
environment) naming what was wrong; no other exception, no crash, no hang, and a refused call
leaves the state and the environment as they were. Budgets are kept small (counts and iterations
that are valid are cut down), so an input runs in milliseconds.

    python fuzz/fuzz_calls.py -runs=10000 corpus/calls
"""

from __future__ import annotations

import math
import random
import reprlib
import sys
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import rivals
from fuzz._common import Bytes, Failure, check, main, pick_game, play_randomly, snapshot

FLOATS = (math.nan, math.inf, -math.inf, -0.0, 0.5, 2.0, 5.9, 1e10, 1e300, -1.0)
DTYPES = (
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint32,
    np.uint64,
    np.float32,
    np.float64,
    np.bool_,
)
BOT_PARAMS = (
    "iterations",
    "time_s",
    "exploration",
    "max_nodes",
    "threads",
    "depth",
    "table_mb",
    "max_contexts",
    "seed",
    "nonsense",
)


def any_value(data: Bytes, depth: int = 0) -> Any:
    """A value of any kind, chosen by the next bytes."""
    kind = data.byte() % 12
    if kind <= 2:
        return data.int_any()
    if kind == 3:
        return data.pick(FLOATS)
    if kind == 4:
        return data.pick((True, False, None))
    if kind == 5:
        return data.text(8)
    if kind == 6:
        dtype = data.pick(DTYPES)
        return np.array(data.int_any() % 256).astype(dtype)[()]
    if kind == 7:
        dtype = data.pick(DTYPES)
        shape = data.pick(((), (0,), (1,), (3,), (2, 2), (1, 3)))
        return (np.arange(int(np.prod(shape))) + data.byte() - 8).reshape(shape).astype(dtype)
    if kind == 8 and depth < 3:
        return [any_value(data, depth + 1) for _ in range(data.below(4))]
    if kind == 9 and depth < 3:
        return {data.text(6): any_value(data, depth + 1) for _ in range(data.below(3))}
    if kind == 10:
        nested: Any = data.byte()
        for _ in range(data.pick((10, 63, 64, 65, 1000))):
            nested = [nested]
        return nested
    return data.below(8)


def small(value: Any, limit: int = 6) -> Any:
    """A valid count or budget cut down so the call stays quick; anything else unchanged."""
    if type(value) is int and limit < value <= 2**40:
        return value % limit + 1
    if isinstance(value, float) and 0.001 < value <= 86400:
        return 0.001
    if isinstance(value, np.integer) and limit < int(value):
        return type(value)(int(value) % limit + 1)
    return value


REFUSED = object()


def expect(what: str, call: Callable[..., object], *args: Any) -> object:
    """call(*args), or REFUSED when it raised one of the documented errors; any other exception
    is a finding."""
    try:
        return call(*args)
    except (ValueError, IndexError):
        return REFUSED
    except Exception as error:
        raise Failure(f"{what}: {type(error).__name__}: {error}") from error


def attempt(what: str, call: Callable[..., object], *args: Any) -> bool:
    """Whether call(*args) went through rather than being refused with a documented error."""
    return expect(what, call, *args) is not REFUSED


def one_input(raw: bytes) -> None:
    data = Bytes(raw)
    game = pick_game(data)
    name = game.name
    rng = random.Random(data.byte())
    state = game.new_initial_state()
    play_randomly(state, rng, data.below(60))
    while not data.exhausted:
        op = data.byte() % 12
        value = any_value(data)
        label = f"{name} op {op} with {reprlib.repr(value)}"
        if op == 0:
            seen = snapshot(state)
            if not attempt(label, state.apply_action, value):
                check(snapshot(state) == seen, f"{label}: a refused action changed the state")
        elif op == 1:
            attempt(label, state.is_legal, value)
            attempt(label, state.action_to_string, value)
        elif op == 2:
            attempt(label, state.observation_tensor, value)
            attempt(label, state.resample_from_infostate, value, any_value(data))
        elif op == 3:
            attempt(label, game.state_from_history, value)
            sized = isinstance(value, list) or (isinstance(value, np.ndarray) and value.ndim > 0)
            lengths = [len(value)] if sized else any_value(data)
            attempt(label, game.check_histories, value, lengths, small(any_value(data), 2))
        elif op == 4:
            threads = small(any_value(data), 3)
            attempt(label, game.random_playouts, small(value), any_value(data), threads)
        elif op == 5:
            bots = value if data.chance(30) else ["random"] * game.num_players
            count, first, threads = small(any_value(data)), any_value(data), any_value(data)
            attempt(label, game.play_match, bots, count, 0, first, small(threads, 2))
        elif op == 6:
            attempt(label, game.copy_ns, small(value, 1000))
        elif op == 7:
            bot_name = data.pick(rivals.bots.names())
            params = {"iterations": 5, data.pick(BOT_PARAMS): small(value, 20)}
            if bot_name == "solver" or "time_s" in params:
                continue  # the solver solves whole games and timed bots take time: not here
            bot = expect(label, game.make_bot, bot_name, params)
            playable = not state.is_terminal() and not state.is_chance_node()
            if isinstance(bot, rivals.bots.Bot) and playable:
                check(state.is_legal(bot.step(state)), f"{label}: {bot_name} moved illegally")
        elif op == 8:
            param = data.pick([*game.params, "nonsense"])
            attempt(label, rivals.make_game, name, {param: value})
        elif op == 9:
            threads = small(any_value(data), 2)
            attempt(label, rivals.VectorEnv, game, small(value, 4), any_value(data), threads)
        elif op == 10:
            env = rivals.VectorEnv(game, 3, seed=1)
            out = env.reset()
            before = {key: array.copy() for key, array in out.items()}
            if not attempt(label, env.step, value):
                for key, array in before.items():
                    check(np.array_equal(out[key], array), f"{label}: a refused step changed {key}")
            attempt(label, env.state, value)
        elif not state.is_terminal() and not state.is_chance_node():
            other = pick_game(data)
            if other.name == name:
                stepped = attempt(label, rivals.bots.make("random", other).step, state)
                check(stepped == (other == game), f"{label}: a bot for {other!r} on {game!r}")


def seeds() -> list[bytes]:
    rng = random.Random(0)
    return [rng.randbytes(64) for _ in range(48)]


if __name__ == "__main__":
    main(one_input, seeds)
