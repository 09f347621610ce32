"""Search and scale, for every game: VectorEnv against a Python loop over single states, and
tree-search iterations per second. ``rivals bench scale``. (Two threads against one, VectorEnv's
included: ``rivals bench threads``.)"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

import rivals
from rivals._core import Game, State, game_names

from ._common import Row, Sizes, alternate, positive, timed, verdict

TITLE = "Search and scale"
NUM_ENVS = 256
# VectorEnv with its default arguments against the Python loop.
VECTOR_TARGET = 3.0

Log = Callable[[str], None]


def _steps(sizes: Sizes) -> int:
    return {"full": 200, "quick": 60}.get(sizes.mode, 3)


def vector_rate(game: Game, steps: int, threads: int, clock: str) -> Callable[[], float]:
    """Environment steps per second of VectorEnv with its default arguments, random legal actions
    chosen with ``sample_legal()`` as docs/learning.md recommends, by the process's CPU time
    (``clock="cpu"``: against the Python loop) or the wall clock (``"wall"``: threads against one
    thread, where the CPU time stays the same)."""

    def run() -> float:
        env = rivals.VectorEnv(game, NUM_ENVS, seed=1, threads=threads)
        env.reset()

        def loop() -> None:
            for _ in range(steps):
                env.step(env.sample_legal())

        timing = timed(loop)
        env.close()
        return NUM_ENVS * steps / positive(timing.cpu_s if clock == "cpu" else timing.wall_s)

    return run


def _python_rate(game: Game, steps: int) -> Callable[[], float]:
    """The same work as VectorEnv.step from Python over single states: per environment, apply the
    action, resolve chance, write the observation and the legal mask, restart finished games;
    by the process's CPU time."""

    def run() -> float:
        rng = random.Random(1)
        shape = game.observation_shape
        obs = np.zeros((NUM_ENVS, *shape), dtype=np.float32)
        mask = np.zeros((NUM_ENVS, game.num_distinct_actions), dtype=bool)

        def settle(state: State) -> State:
            while state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            return state

        states = [settle(game.new_initial_state()) for _ in range(NUM_ENVS)]

        def loop() -> None:
            for _ in range(steps):
                for e, state in enumerate(states):
                    if state.is_terminal():
                        state = states[e] = settle(game.new_initial_state())
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
                        settle(state)
                    player = state.current_player()
                    if player >= 0:
                        obs[e] = state.observation_tensor(player)
                        mask[e] = False
                        mask[e, state.legal_actions()] = True

        return NUM_ENVS * steps / positive(timed(loop).cpu_s)

    return run


def search_bot(game: Game) -> str:
    """The game's tree search: mcts, or ismcts where information is hidden."""
    return "mcts" if game.info.information == "perfect" else "ismcts"


def midgame(game: Game, seed: int) -> State:
    """A decision with a choice, some 40 random actions into a game."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history()) < 40:
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _search_rate(game: Game, iterations: int) -> float:
    """Iterations per second of the game's tree search."""
    state = midgame(game, 3)
    bot = rivals.bots.make(search_bot(game), game, seed=1, iterations=iterations)
    return iterations / positive(timed(lambda: bot.step(state)).cpu_s)


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    steps = _steps(sizes)
    rows: list[Row] = []
    for name in game_names():
        game = rivals.make(name)
        log(f"{name}: VectorEnv vs a Python loop")
        pair = alternate(
            vector_rate(game, steps, 1, "cpu"), _python_rate(game, steps), sizes.rounds
        )
        ratio = pair.ratio()
        rows.append(
            Row.of_pair(
                "1",
                f"{name}: env steps/s, VectorEnv({NUM_ENVS}) / Python loop",
                pair,
                "cpu",
                f"≥ {VECTOR_TARGET:g}x {verdict(ratio >= VECTOR_TARGET)}",
                ratio >= VECTOR_TARGET,
            )
        )
    iterations = {"full": 20_000, "quick": 5_000}.get(sizes.mode, 200)
    for name in game_names():
        log(f"{name}: tree search")
        rates = [_search_rate(rivals.make(name), iterations) for _ in range(sizes.rounds)]
        label = f"{name}: search iterations/s (one move)"
        rows.append(Row("2", label, float(np.median(rates)), clock="cpu"))
    notes = [
        f"Row 1: {NUM_ENVS} environments with VectorEnv's default arguments (planes, legal "
        f"mask and legal indices) stepped {steps} times, each action a uniformly random legal "
        "one from sample_legal() (docs/learning.md); the Python loop does the same "
        "work per environment (apply, resolve chance, observation tensor and legal mask for the "
        "player to move, restart finished games) and draws from state.legal_actions().",
        "Row 2: mcts for the perfect-information games, ismcts (one determinisation per "
        "iteration) for the others, from a position 40 actions into a random game.",
    ]
    return rows, notes
