"""PPO on rivals.VectorEnv with the opponents inside C++: a worked example in JAX and optax.

A small policy-value network learns to play Sekigahara (or Rosenkönig) against bots that move
inside ``VectorEnv.step()``, so Python only ever sees the learner's decisions: by default against
``random`` and ``mcts`` at 50 iterations at once, in both seats. Training is Proximal Policy
Optimisation (Schulman et al. 2017) with generalised advantage estimation and illegal actions
masked out of the policy. Afterwards the policy plays evaluation games against the same bots,
picking its most likely legal action (and, against ``random``, sampling too), beside the
untrained network it started from.

    pip install 'rivals[train]'             # jax and optax
    python examples/ppo.py --minutes 10     # train for 10 minutes (the default), then evaluate
    python examples/ppo.py --quick          # the short version: 60,000 decisions against random
    python examples/ppo.py --steps 500000   # a fixed amount of work: the same result every run

Everything is seeded (``--seed``): the environments, the bots, the network's initial weights, the
sampled actions and the minibatch order, so a run with ``--steps`` or ``--quick`` repeats exactly.
Walkthrough and measurements: docs/learning.md.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

import rivals

Params = dict[str, dict[str, jax.Array]]
# The opponents by the names the command takes, as rivals.bots.make and VectorEnv take them.
BOTS: dict[str, Any] = {"random": "random", "mcts50": ("mcts", {"iterations": 50})}
# The short version (--quick): decisions learnt from, against random only.
QUICK_STEPS = 60_000


@dataclass(frozen=True)
class Config:
    game: str = "sekigahara"
    # The bots the policy trains against: a VectorEnv for each, per seat the learner takes.
    opponents: tuple[str, ...] = ("random", "mcts50")
    envs_per_seat: int = 64  # per opponent
    rollout: int = 32  # decisions per environment between updates
    hidden: int = 256
    learning_rate: float = 5e-4
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    seed: int = 0


# -- the network ----------------------------------------------------------------------------------


def init_params(key: jax.Array, inputs: int, hidden: int, actions: int) -> Params:
    """A two-layer torso shared by a policy head (one logit per action) and a value head."""

    def dense(key: jax.Array, fan_in: int, fan_out: int, scale: float) -> dict[str, jax.Array]:
        weights = jax.nn.initializers.orthogonal(scale)(key, (fan_in, fan_out), jnp.float32)
        return {"w": weights, "b": jnp.zeros(fan_out, jnp.float32)}

    keys = jax.random.split(key, 4)
    # Small policy weights start the policy near uniform over the legal actions (Andrychowicz et
    # al. 2021, "What matters in on-policy RL").
    return {
        "torso1": dense(keys[0], inputs, hidden, math.sqrt(2)),
        "torso2": dense(keys[1], hidden, hidden, math.sqrt(2)),
        "policy": dense(keys[2], hidden, actions, 0.01),
        "value": dense(keys[3], hidden, 1, 1.0),
    }


def inputs_of(game: rivals.Game) -> int:
    return sum(math.prod(shape) for shape in game.compact_observation_shape.values())


def initial_params(config: Config) -> Params:
    """The network a run of ``config`` starts from: the same seed, the same weights."""
    game = rivals.make(config.game)
    key = jax.random.fold_in(jax.random.PRNGKey(config.seed), 0)
    return init_params(key, inputs_of(game), config.hidden, game.num_distinct_actions)


def forward(params: Params, inputs: jax.Array, legal: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Log-probabilities over the actions (illegal ones at -inf) and the value of the position
    for the seat to move, in [-1, 1] like the game's returns."""
    x = inputs
    for layer in ("torso1", "torso2"):
        x = jax.nn.relu(x @ params[layer]["w"] + params[layer]["b"])
    logits = x @ params["policy"]["w"] + params["policy"]["b"]
    # A row with no legal action (a finished game, waiting for its restart) stays finite.
    logits = jnp.where(legal, logits, -1e9)
    value = jnp.tanh(x @ params["value"]["w"] + params["value"]["b"])[:, 0]
    return jax.nn.log_softmax(logits), value


def observe(out: dict[str, Any]) -> np.ndarray:
    """The compact observation as one float row per environment: the board's 0/1 bytes, then the
    features (docs/rules/<game>.md, "Compact observation")."""
    board = out["obs"]["board"]
    return np.concatenate(
        [board.reshape(len(board), -1), out["obs"]["features"]], axis=1, dtype=np.float32
    )


@jax.jit
def sample(
    params: Params, inputs: jax.Array, legal: jax.Array, key: jax.Array
) -> tuple[jax.Array, jax.Array, jax.Array]:
    log_probs, value = forward(params, inputs, legal)
    actions = jax.random.categorical(key, log_probs)
    return actions, jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0], value


@jax.jit
def evaluate_values(params: Params, inputs: jax.Array, legal: jax.Array) -> jax.Array:
    return forward(params, inputs, legal)[1]


@jax.jit
def greedy(params: Params, inputs: jax.Array, legal: jax.Array) -> jax.Array:
    return jnp.argmax(forward(params, inputs, legal)[0], axis=1)


# -- PPO ------------------------------------------------------------------------------------------


class Batch(NamedTuple):
    inputs: jax.Array
    legal: jax.Array
    actions: jax.Array
    log_probs: jax.Array
    advantages: jax.Array
    returns: jax.Array
    weights: jax.Array  # 1 for a decision, 0 for the row of a finished game awaiting its restart


def ppo_loss(
    params: Params, batch: Batch, config: Config
) -> tuple[jax.Array, dict[str, jax.Array]]:
    log_probs, values = forward(params, batch.inputs, batch.legal)
    new = jnp.take_along_axis(log_probs, batch.actions[:, None], axis=1)[:, 0]
    ratio = jnp.exp(new - batch.log_probs)
    weights = batch.weights / jnp.maximum(batch.weights.sum(), 1.0)
    advantages = batch.advantages
    mean = (advantages * weights).sum()
    std = jnp.sqrt((((advantages - mean) ** 2) * weights).sum()) + 1e-8
    advantages = (advantages - mean) / std
    clipped = jnp.clip(ratio, 1 - config.clip, 1 + config.clip)
    policy_loss = -(jnp.minimum(ratio * advantages, clipped * advantages) * weights).sum()
    value_loss = (((values - batch.returns) ** 2) * weights).sum()
    probs = jnp.exp(log_probs)
    entropy = (-(jnp.where(batch.legal, probs * log_probs, 0.0)).sum(axis=1) * weights).sum()
    total = policy_loss + config.value_coef * value_loss - config.entropy_coef * entropy
    return total, {"policy": policy_loss, "value": value_loss, "entropy": entropy}


def make_optimiser(config: Config) -> optax.GradientTransformation:
    return optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm),
        optax.adam(config.learning_rate, eps=1e-5),
    )


@partial(jax.jit, static_argnames="config")
def ppo_update(
    params: Params, opt_state: optax.OptState, batch: Batch, key: jax.Array, config: Config
) -> tuple[Params, optax.OptState, dict[str, jax.Array]]:
    """``config.epochs`` passes over the rollout in shuffled minibatches."""
    optimiser = make_optimiser(config)
    size = batch.actions.shape[0]
    per = size // config.minibatches

    def minibatch_step(
        carry: tuple[Params, optax.OptState], indices: jax.Array
    ) -> tuple[tuple[Params, optax.OptState], dict[str, jax.Array]]:
        params, opt_state = carry
        part = jax.tree_util.tree_map(lambda column: column[indices], batch)
        grads, stats = jax.grad(ppo_loss, has_aux=True)(params, part, config)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), stats

    def epoch(
        carry: tuple[Params, optax.OptState], key: jax.Array
    ) -> tuple[tuple[Params, optax.OptState], dict[str, jax.Array]]:
        order = jax.random.permutation(key, size)[: per * config.minibatches]
        return jax.lax.scan(minibatch_step, carry, order.reshape(config.minibatches, per))

    (params, opt_state), stats = jax.lax.scan(
        epoch, (params, opt_state), jax.random.split(key, config.epochs)
    )
    return params, opt_state, jax.tree_util.tree_map(jnp.mean, stats)


def advantages(
    rewards: np.ndarray,
    values: np.ndarray,
    ends: np.ndarray,
    last_values: np.ndarray,
    config: Config,
) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimation over [rollout, envs]: a game's end cuts the sums, so the
    row after it (the finished game, then the next game's start) never leaks into the last move."""
    gae = np.zeros_like(last_values)
    result = np.zeros_like(values)
    following = last_values
    for t in reversed(range(len(rewards))):
        going_on = 1.0 - ends[t]
        delta = rewards[t] + config.gamma * following * going_on - values[t]
        gae = delta + config.gamma * config.gae_lambda * going_on * gae
        result[t] = gae
        following = values[t]
    return result, result + values


class Learner:
    """The learner's games: a VectorEnv per opponent and seat, stepped one after the other."""

    def __init__(self, config: Config) -> None:
        self.seats = [seat for _ in config.opponents for seat in (0, 1)]
        self.envs = [
            rivals.VectorEnv(
                config.game,
                config.envs_per_seat,
                # Seeds of their own for the training environments of each run.
                seed=1000 * config.seed + index,
                threads=2,
                obs="compact",
                legal="mask",
                opponents={1 - seat: BOTS[opponent]},
            )
            for index, (opponent, seat) in enumerate(
                (opponent, seat) for opponent in config.opponents for seat in (0, 1)
            )
        ]
        self.outs = [env.reset() for env in self.envs]

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.concatenate([observe(out) for out in self.outs]),
            np.concatenate([out["legal_mask"] for out in self.outs]),
        )

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Plays one action per environment; returns the learner's reward and whether the game
        ended, per environment."""
        rewards, ends = [], []
        parts = np.split(actions, len(self.envs))
        for index, (env, seat, part) in enumerate(zip(self.envs, self.seats, parts)):
            out = env.step(part)
            self.outs[index] = out
            rewards.append(out["rewards"][:, seat].copy())
            ends.append(out["terminated"].copy())
        return np.concatenate(rewards), np.concatenate(ends)

    def close(self) -> None:
        for env in self.envs:
            env.close()


class Rollout(NamedTuple):
    """``config.rollout`` steps of every environment, as [step, environment] arrays."""

    inputs: np.ndarray
    legal: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    rewards: np.ndarray  # the learner's return on the step that ended a game, else 0
    ends: np.ndarray  # 1.0 where the step ended a game
    weights: np.ndarray  # 1.0 for a decision, 0.0 for a finished game's row awaiting its restart


def collect(params: Params, learner: Learner, key: jax.Array, steps: int) -> Rollout:
    rows: dict[str, list[np.ndarray]] = {name: [] for name in Rollout._fields}
    for _ in range(steps):
        inputs, legal = learner.observe()
        key, pick = jax.random.split(key)
        actions, log_probs, values = (np.asarray(a) for a in sample(params, inputs, legal, pick))
        rewards, ends = learner.step(actions)
        decided = np.asarray(legal.any(axis=1), np.float32)
        row = (inputs, legal, actions, log_probs, values, rewards, ends.astype(np.float32), decided)
        for name, column in zip(Rollout._fields, row):
            rows[name].append(column)
    stacked = {name: np.stack(column) for name, column in rows.items()}
    # A finished game's row has no decision: its value estimates nothing.
    stacked["values"] *= stacked["weights"]
    return Rollout(**stacked)


def train(
    config: Config, steps: int | None, seconds: float | None, log_every: float = 10.0
) -> tuple[Params, list[dict[str, float]]]:
    """Trains until ``steps`` decisions have been learnt from (in whole updates: the same result
    on any machine) or ``seconds`` have passed, whichever comes first. Prints a line of progress
    every ``log_every`` seconds and returns the weights and those lines' figures."""
    params = initial_params(config)
    opt_state = make_optimiser(config).init(params)
    key = jax.random.fold_in(jax.random.PRNGKey(config.seed), 1)
    learner = Learner(config)
    # Which opponent each environment plays, for the win rates in the log.
    against = np.repeat(np.arange(len(config.opponents)), 2 * config.envs_per_seat)
    games = np.zeros(len(config.opponents))
    wins = np.zeros(len(config.opponents))
    history: list[dict[str, float]] = []
    started = last_log = time.perf_counter()
    done = 0
    try:
        while (steps is None or done < steps) and (
            seconds is None or time.perf_counter() - started < seconds
        ):
            key, rollout_key, update_key = jax.random.split(key, 3)
            rollout = collect(params, learner, rollout_key, config.rollout)
            inputs, legal = learner.observe()
            last_values = np.asarray(evaluate_values(params, inputs, legal))
            gae, returns = advantages(
                rollout.rewards, rollout.values, rollout.ends, last_values, config
            )
            batch = Batch(
                *(
                    jnp.asarray(column.reshape(-1, *column.shape[2:]))
                    for column in (
                        rollout.inputs,
                        rollout.legal,
                        rollout.actions,
                        rollout.log_probs,
                        gae,
                        returns,
                        rollout.weights,
                    )
                )
            )
            params, opt_state, losses = ppo_update(params, opt_state, batch, update_key, config)
            done += int(rollout.weights.sum())
            ended = rollout.ends.astype(bool)
            games += np.bincount(np.broadcast_to(against, ended.shape)[ended], minlength=len(games))
            won = ended & (rollout.rewards > 0)
            wins += np.bincount(np.broadcast_to(against, won.shape)[won], minlength=len(wins))
            now = time.perf_counter()
            finished = (steps is not None and done >= steps) or (
                seconds is not None and now - started >= seconds
            )
            if now - last_log >= log_every or finished:
                record = {
                    "seconds": now - started,
                    "decisions": float(done),
                    **{
                        f"won vs {name}": w / max(g, 1)
                        for name, w, g in zip(config.opponents, wins, games)
                    },
                    **{f"loss {name}": float(value) for name, value in losses.items()},
                }
                history.append(record)
                rates = ", ".join(
                    f"{name} {w / max(g, 1):.0%} of {g:.0f}"
                    for name, w, g in zip(config.opponents, wins, games)
                )
                print(
                    f"{now - started:4.0f} s {done:>10,} decisions"
                    f" {done / (now - started):>6,.0f}/s"
                    f"  won (sampling) against {rates}"
                    f"  loss: policy {losses['policy']:+.4f} value {losses['value']:.3f}"
                    f" entropy {losses['entropy']:.2f}",
                    flush=True,
                )
                last_log = now
                games[:] = 0
                wins[:] = 0
    finally:
        learner.close()
    return params, history


# -- evaluation -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A win counts 1, a draw a half."""
        return (self.wins + 0.5 * self.draws) / self.games

    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the score (a draw as half a win), which stays honest near
        0% and 100% where the normal approximation shrinks to nothing."""
        n, p, z = self.games, self.score, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def __str__(self) -> str:
        low, high = self.interval()
        return (
            f"{self.score:.1%} (95% CI {low:.1%}-{high:.1%}): "
            f"{self.wins} wins, {self.draws} draws, {self.losses} losses in {self.games} games"
        )


def evaluate(
    params: Params, game: str, opponent: Any, games_per_seat: int, seed: int, sampled: bool
) -> Score:
    """The policy plays ``games_per_seat`` games in each seat, taking its most likely legal
    action (``sampled=False``) or drawing one from its distribution: exactly one game per
    environment, so that short games are not over-counted."""
    key = jax.random.PRNGKey(seed)
    wins = draws = losses = 0
    for seat in (0, 1):
        with rivals.VectorEnv(
            game,
            games_per_seat,
            seed=seed + seat,
            threads=2,
            obs="compact",
            legal="mask",
            opponents={1 - seat: opponent},
        ) as env:
            out = env.reset()
            finished = np.zeros(games_per_seat, bool)
            while not finished.all():
                inputs, legal = observe(out), out["legal_mask"]
                if sampled:
                    key, pick = jax.random.split(key)
                    actions = sample(params, inputs, legal, pick)[0]
                else:
                    actions = greedy(params, inputs, legal)
                out = env.step(np.asarray(actions))
                first = out["terminated"] & ~finished
                returns = out["rewards"][first, seat]
                wins += int((returns > 0).sum())
                draws += int((returns == 0).sum())
                losses += int((returns < 0).sum())
                finished |= out["terminated"]
    return Score(wins, draws, losses)


# -- the command ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    budget = parser.add_argument_group("budget (whichever ends first; the default is 10 minutes)")
    budget.add_argument("--minutes", type=float, help="train for this long (wall clock)")
    budget.add_argument("--steps", type=int, help="train on this many decisions (repeatable)")
    budget.add_argument(
        "--quick",
        action="store_true",
        help=f"the short version: {QUICK_STEPS:,} decisions against random, evaluated on 100 "
        "games a seat against random only (other options still apply)",
    )
    parser.add_argument("--game", default=Config.game, choices=["rosenkoenig", "sekigahara"])
    parser.add_argument(
        "--against",
        help="the opponents to train against, comma-separated, of "
        f"{', '.join(BOTS)} (default {','.join(Config.opponents)}; random with --quick)",
    )
    parser.add_argument("--seed", type=int, default=Config.seed)
    parser.add_argument("--hidden", type=int, default=Config.hidden, help="units per layer")
    parser.add_argument(
        "--envs", type=int, default=Config.envs_per_seat, help="games per seat and opponent"
    )
    parser.add_argument(
        "--eval-games", type=int, help="per seat, per opponent (default 250; 100 with --quick)"
    )
    parser.add_argument("--no-mcts", action="store_true", help="evaluate against random only")
    args = parser.parse_args(argv)
    if args.quick:
        args.steps = QUICK_STEPS if args.steps is None else args.steps
        args.against = args.against or "random"
        args.eval_games = args.eval_games or 100
        args.no_mcts = True
    args.against = args.against or ",".join(Config.opponents)
    args.eval_games = args.eval_games or 250
    minutes = 10.0 if args.minutes is None and args.steps is None else args.minutes
    against = tuple(args.against.split(","))
    if not against or not set(against) <= set(BOTS):
        parser.error(f"--against takes names of {', '.join(BOTS)}, got {args.against!r}")
    config = Config(
        game=args.game,
        opponents=against,
        seed=args.seed,
        hidden=args.hidden,
        envs_per_seat=args.envs,
    )
    print(f"PPO on {config.game}, {config}", flush=True)
    params, history = train(config, args.steps, None if minutes is None else 60 * minutes)
    trained_for = history[-1]["seconds"] if history else 0.0
    print(f"trained for {trained_for:.0f} s on {history[-1]['decisions']:,.0f} decisions")

    # The untrained network (the same seed's initial weights) is the baseline that shows learning:
    # sampled, it plays uniformly at random among the legal actions; by argmax, it plays a fixed
    # preference order that its random initial weights happen to give.
    untrained = initial_params(config)
    summary: dict[str, Any] = {"trained_seconds": trained_for, "history": history}
    games = 2 * args.eval_games
    print(f"evaluation: {games} games against each opponent, half of them in each seat")
    # Evaluation games have seeds of their own, apart from the training environments'.
    eval_seed = 1000 * config.seed + 500
    for label, weights, pick, opponents in (
        ("untrained", untrained, "sampling", ["random"]),
        ("untrained", untrained, "argmax", ["random"]),
        ("trained", params, "sampling", ["random"]),
        ("trained", params, "argmax", ["random"] if args.no_mcts else ["random", "mcts50"]),
    ):
        for name in opponents:
            clock = time.perf_counter()
            score = evaluate(
                weights, config.game, BOTS[name], args.eval_games, eval_seed, pick == "sampling"
            )
            summary[f"{label} {pick} vs {name}"] = score
            print(
                f"  {label:>9} policy, {pick:>8}, against {name:<6}: {score}"
                f"  [{time.perf_counter() - clock:.0f} s]",
                flush=True,
            )
    return summary


if __name__ == "__main__":
    main()
