"""Train a linear softmax policy with REINFORCE against the random bot, then evaluate it.

    python examples/reinforce.py --game sintra --episodes 300

Needs the research extras (pip install -e '.[research]'). A few seconds on one CPU core; the
result varies with --seed (docs/research.md gives the spread over 20 seeds).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from azul.interop.gym import make


def play(env, weights, rng, learn=False, lr=0.0):
    """One episode; with learn=True, a REINFORCE update at its end. Returns the reward."""
    obs, _ = env.reset(seed=int(rng.integers(2**31)))
    grads = []
    done = False
    reward = 0.0
    while not done:
        x = obs["observation"] / 10.0
        legal = np.flatnonzero(obs["action_mask"])
        logits = weights[legal] @ x
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = rng.choice(len(legal), p=p)
        if learn:
            grads.append((legal, p, i, x))
        obs, reward, done, _, _ = env.step(int(legal[i]))
    if learn:
        for legal, p, i, x in grads:  # d log pi / d W[legal] = (onehot(i) - p) x
            coef = -p
            coef[i] += 1.0
            weights[legal] += lr * reward * np.outer(coef, x)
    return reward


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sintra", choices=["pavilion", "sintra"])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--eval", type=int, default=100, help="evaluation episodes")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = make(args.game, opponents=["random"], reward="win")
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((env.action_space.n, env.observation_space["observation"].shape[0]))
    start = time.perf_counter()
    before = np.mean([play(env, weights, rng) for _ in range(args.eval)])
    for _ in range(args.episodes):
        play(env, weights, rng, learn=True, lr=args.lr)
    after = np.mean([play(env, weights, rng) for _ in range(args.eval)])
    print(
        f"{args.game}: mean reward against random {before:+.2f} before training, "
        f"{after:+.2f} after {args.episodes} episodes ({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
