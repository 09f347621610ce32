"""A complete random-policy loop over rivals.VectorEnv, and the same seat as a gymnasium.Env.

Trains nothing: it shows the loop a learner runs. Seat 0 of 64 Rosenkönig games is played by a
uniformly random policy that reads only the legal-action arrays; seat 1 is an mcts bot that moves
inside step(). Then one such game is wrapped as a single-agent gymnasium.Env (rivals.gymnasium_env)
and checked with gymnasium.utils.env_checker. Run: python examples/random_policy.py [--steps N]
"""

from __future__ import annotations

import argparse

import numpy as np
from gymnasium.utils.env_checker import check_env

import rivals
from rivals.gymnasium_env import LearnerEnv

OPPONENT = ("mcts", {"iterations": 50})


def random_actions(out: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per environment, from the padded index arrays."""
    counts = np.maximum(out["num_legal"], 1)  # a finished environment ignores its action
    picks = (rng.random(len(counts)) * counts).astype(np.int64)
    return np.maximum(out["legal_actions"][np.arange(len(counts)), picks], 0)


def vector_loop(steps: int) -> None:
    rng = np.random.default_rng(0)
    with rivals.VectorEnv(
        "rosenkoenig", 64, threads=2, obs="compact", legal="both", opponents={1: OPPONENT}
    ) as env:
        out = env.reset(seed=1)
        assert env.observation_space.contains(out["obs"])
        games = wins = 0
        for _ in range(steps):
            out = env.step(random_actions(out, rng))
            ended = out["terminated"]
            games += int(ended.sum())
            wins += int((out["rewards"][ended, 0] > 0).sum())
        print(f"VectorEnv: {steps} steps of 64 environments, {games} games, random won {wins}")


def single_agent() -> None:
    checked = LearnerEnv("rosenkoenig", 0, {1: OPPONENT}, illegal_action="lose")
    check_env(checked, skip_render_check=True)
    env = LearnerEnv("rosenkoenig", 0, {1: OPPONENT})
    rng = np.random.default_rng(1)
    observation, info = env.reset(seed=2)
    total, length, terminated, truncated = 0.0, 0, False, False
    while not (terminated or truncated):
        assert env.observation_space.contains(observation)
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        length += 1
    env.close()
    print(f"LearnerEnv: env_checker passed; one game of {length} decisions, return {total:+.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    vector_loop(args.steps)
    single_agent()


if __name__ == "__main__":
    main()
