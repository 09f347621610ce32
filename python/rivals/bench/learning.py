"""Learning at full speed, for every game: ``rivals bench learning``.

VectorEnv against a Python loop doing the same work per environment, compact against planes,
bots inside step() against bots called from Python (the engine's random playouts against a
hand-tuned playout are row 6 of ``rivals bench rosenkoenig``), and what a game's value network
costs a search against its hand-written evaluation. One thread throughout; every ratio
is measured in the same run, A and B alternating.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

import rivals
from rivals._core import Game, State, game_names

from ._common import Row, Sizes, alternate, positive, timed, verdict

TITLE = "Learning"
NUM_ENVS = 256
OPPONENT = ("mcts", {"iterations": 50})
# Rows 1 and 5 read the legal actions as padded index arrays: choosing a random legal action from
# them takes numpy a few calls on NUM_ENVS numbers, where finding the legal cells of a dense mask
# costs more than the step itself (row 4 measures both forms).
LEGAL = "indices"

Log = Callable[[str], None]
Results = dict[str, Any]


def _steps(sizes: Sizes) -> int:
    return {"full": 200, "quick": 60}.get(sizes.mode, 3)


def random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """One uniformly random legal action per row, in time linear in the mask."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=len(mask))
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(len(mask)) * counts).astype(np.intp)
    # A finished environment has no legal action; its action is ignored, so any id will do.
    return np.where(counts > 0, cols[np.minimum(picks, len(cols) - 1)], 0)


def random_indexed(out: Results, rng: np.random.Generator) -> npt.NDArray[np.int32]:
    """The same choice from the padded index arrays."""
    counts = np.maximum(out["num_legal"], 1)
    picks = (rng.random(len(counts)) * counts).astype(np.intp)
    chosen: npt.NDArray[np.int32] = out["legal_actions"][np.arange(len(counts)), picks]
    return np.maximum(chosen, 0)


def vector_rate(game: Game, steps: int, **options: Any) -> Callable[[], float]:
    """Environment steps per CPU second of VectorEnv, actions chosen in numpy (from the legal
    indices where the options return them)."""

    def run() -> float:
        with rivals.VectorEnv(game, NUM_ENVS, seed=1, **options) as env:
            out = env.reset()
            rng = np.random.default_rng(1)
            indexed = "legal_actions" in out

            def loop() -> None:
                nonlocal out
                for _ in range(steps):
                    actions = (
                        random_indexed(out, rng)
                        if indexed
                        else random_legal(out["legal_mask"], rng)
                    )
                    out = env.step(actions)

            return NUM_ENVS * steps / positive(timed(loop).cpu_s)

    return run


def python_rate(
    game: Game,
    steps: int,
    obs: str | None,
    bot: tuple[str, Any] | None = None,
    legal: str = "mask",
) -> Callable[[], float]:
    """The work of VectorEnv.step in Python over single states: per environment, apply the
    action, resolve chance (and with ``bot``, let it play seat 1), write the observation of the
    encoding and the legal mask (or index array), restart finished games."""

    def run() -> float:
        rng = random.Random(1)
        mask = np.zeros((NUM_ENVS, game.num_distinct_actions), dtype=bool)
        indices = np.zeros((NUM_ENVS, game.max_legal_actions), dtype=np.int32)
        counts = np.zeros(NUM_ENVS, dtype=np.int32)
        if obs == "planes":
            planes = np.zeros((NUM_ENVS, *game.observation_shape), dtype=np.float32)
        elif obs == "compact":
            shape = game.compact_observation_shape
            board = np.zeros((NUM_ENVS, *shape["board"]), dtype=np.uint8)
            features = np.zeros((NUM_ENVS, *shape["features"]), dtype=np.float32)
        opponents = (
            [rivals.bots.make(bot[0], game, seed=e, **bot[1]) for e in range(NUM_ENVS)]
            if bot
            else []
        )

        def settle(state: State, e: int) -> State:
            while True:
                while state.is_chance_node():
                    actions, weights = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, weights)[0])
                if not opponents or state.current_player() != 1:
                    return state
                state.apply_action(opponents[e].step(state))

        states = [settle(game.new_initial_state(), e) for e in range(NUM_ENVS)]

        def loop() -> None:
            for _ in range(steps):
                for e, state in enumerate(states):
                    if state.is_terminal():
                        state = states[e] = settle(game.new_initial_state(), e)
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
                        settle(state, e)
                    player = state.current_player()
                    if player < 0:
                        continue
                    if obs == "planes":
                        planes[e] = state.observation_tensor(player)
                    elif obs == "compact":
                        view = state.observation_tensor(player, kind="compact")
                        board[e] = view["board"]
                        features[e] = view["features"]
                    actions = state.legal_actions()
                    if legal == "mask":
                        mask[e] = False
                        mask[e, actions] = True
                    else:
                        indices[e, : len(actions)] = actions
                        indices[e, len(actions) :] = -1
                        counts[e] = len(actions)

        return NUM_ENVS * steps / positive(timed(loop).cpu_s)

    return run


def run(sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
    steps = _steps(sizes)
    rows: list[Row] = []
    for name in game_names():
        game = rivals.make(name)
        log(f"{name}: VectorEnv(compact, legal={LEGAL!r}) vs a Python loop")
        pair = alternate(
            vector_rate(game, steps, obs="compact", legal=LEGAL),
            python_rate(game, steps, "compact", legal=LEGAL),
            sizes.rounds,
        )
        goal = 10 if name == "rosenkoenig" else 5
        target = f"≥ {goal}x {verdict(pair.ratio() >= goal)}"
        met = pair.ratio() >= goal
        if name == "rosenkoenig":
            target += f"; ≥ 3M/s {verdict(pair.a_median >= 3e6)}"
            met = met and pair.a_median >= 3e6
        rows.append(
            Row.of_pair(
                "1",
                f"{name}: env steps/s, VectorEnv({NUM_ENVS}, compact, {LEGAL}) / Python loop",
                pair,
                "cpu",
                target,
                met,
            )
        )
    for name in game_names():
        game = rivals.make(name)
        log(f"{name}: VectorEnv, compact vs planes")
        pair = alternate(
            vector_rate(game, steps, obs="compact"),
            vector_rate(game, steps, obs="planes"),
            sizes.rounds,
        )
        label = f"{name}: env steps/s, compact / planes"
        rows.append(Row("2", label, pair.a_median, pair.b_median, pair.ratio(), "cpu"))
    rosenkoenig = rivals.make("rosenkoenig")
    log("rosenkoenig: VectorEnv without observations vs a Python loop")
    pair = alternate(
        vector_rate(rosenkoenig, steps, obs=None, legal="mask"),
        python_rate(rosenkoenig, steps, None),
        sizes.rounds,
    )
    label = "rosenkoenig: env steps/s, VectorEnv(obs=None) / Python loop (mask only)"
    rows.append(Row("3", label, pair.a_median, pair.b_median, pair.ratio(), "cpu"))
    for name in ("rosenkoenig", "rheinlaender"):
        game = rivals.make(name)
        log(f"{name}: legal-action indices vs the dense mask")
        pair = alternate(
            vector_rate(game, steps, obs="compact", legal="indices"),
            vector_rate(game, steps, obs="compact", legal="mask"),
            sizes.rounds,
        )
        label = f"{name}: env steps/s, legal='indices' / legal='mask'"
        rows.append(Row("4", label, pair.a_median, pair.b_median, pair.ratio(), "cpu"))
    bot_steps = max(1, steps // 4)
    log("rosenkoenig: mcts opponents inside step() vs called from Python")
    pair = alternate(
        vector_rate(rosenkoenig, bot_steps, obs="compact", legal=LEGAL, opponents={1: OPPONENT}),
        python_rate(rosenkoenig, bot_steps, "compact", OPPONENT, legal=LEGAL),
        sizes.rounds,
    )
    label = "rosenkoenig: learner steps/s, opponents={1: mcts 50} / Python loop with bot.step"
    rows.append(Row("5", label, pair.a_median, pair.b_median, pair.ratio(), "cpu"))
    rows += network_rows(sizes, log)
    notes = [
        f"Rows 1-5: {NUM_ENVS} environments, one thread, {steps} steps per measurement "
        f"({bot_steps} with bots), random legal actions chosen in numpy; the Python loop does the "
        "same work per environment over single states (apply, resolve chance, the observation of "
        "the same encoding and the legal actions in the same form: index arrays in rows 1 and 5, "
        "the mask in row 3; restart finished games; row 5 also calls bot.step for seat 1).",
        "Rows 6-7: the game's shipped network (evaluation='net') against its first hand-written "
        "evaluation, by the thread's CPU time: one evaluation over the decision positions of a "
        f"random game (row 6, lower is better), and mcts at {SEARCH_ITERATIONS} iterations valuing "
        "each new leaf by the evaluation (rollout_depth=0) over positions of random games (row 7).",
    ]
    return rows, notes


SEARCH_ITERATIONS = 2000


def search_rate(game: Game, evaluation: str, positions: list[State]) -> Callable[[], float]:
    """Simulations per CPU second of ``mcts`` valuing each new leaf by ``evaluation``."""

    def run() -> float:
        bot = rivals.bots.make(
            "mcts",
            game,
            seed=1,
            iterations=SEARCH_ITERATIONS,
            rollout_depth=0,
            evaluation=evaluation,
        )
        visits = 0

        def search() -> None:
            nonlocal visits
            for state in positions:
                bot.step(state)
                visits += int(bot.stats()["visits"])

        seconds = positive(timed(search).cpu_s)
        return visits / seconds

    return run


def evaluation_cost(game: Game, evaluation: str, count: int) -> Callable[[], float]:
    """CPU nanoseconds of one evaluation (the game's shipped network for "net")."""
    return lambda: game.evaluation_ns(evaluation, count=count)


def network_rows(sizes: Sizes, log: Log) -> list[Row]:
    """Rows 6 and 7: what a network costs against the hand-written evaluation it replaces."""
    count = {"full": 200_000, "quick": 50_000}.get(sizes.mode, 2_000)
    searched = {"full": 8, "quick": 4}.get(sizes.mode, 1)
    # Per row: what its log line compares, its label, how it measures an evaluation in a game, and
    # whether more is better (a rate) or worse (a cost).
    measures: list[tuple[str, str, str, Callable[[Game, str], Callable[[], float]], bool]] = [
        (
            "6",
            "a network's evaluation",
            "ns per evaluation",
            lambda game, evaluation: evaluation_cost(game, evaluation, count),
            False,
        ),
        (
            "7",
            "mcts simulations valuing leaves by the network",
            "mcts simulations/s at rollout_depth 0",
            lambda game, evaluation: search_rate(game, evaluation, _decisions(game, searched)),
            True,
        ),
    ]
    rows: list[Row] = []
    for number, compared, label, measure, higher_is_better in measures:
        for name in game_names():
            game = rivals.make(name)
            default = game.info.evaluations[0]
            log(f"{name}: {compared} vs {default!r}")
            pair = alternate(measure(game, "net"), measure(game, default), sizes.rounds)
            rows.append(
                Row.of_pair(
                    number,
                    f"{name}: {label}, net / {default}",
                    pair,
                    "cpu",
                    higher_is_better=higher_is_better,
                )
            )
    return rows


def _decisions(game: Game, count: int) -> list[State]:
    """Decision positions 10 to 40 random decisions into seeded random games, each with a choice
    to search."""
    rng = random.Random(7)
    found: list[State] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(10, 40)):
            while state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
    return found
