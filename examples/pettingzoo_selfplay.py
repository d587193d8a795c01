"""Self-play with PettingZoo: one linear softmax policy plays every seat of an AEC game, learns
from each seat's result by REINFORCE, and is measured against random play as it goes.

    python examples/pettingzoo_selfplay.py --game sintra --episodes 400

Needs the research extras (pip install -e '.[research]'). The observations are normalised
(``normalize=True``: every entry in [-1, 1]), so the policy needs no scaling of its own. Every
``--every`` episodes, the policy (seat 0, its most likely legal action) plays ``--eval`` games
against uniformly random play in the other seats; the line printed is its mean result there
(+1 a win, -1 a loss). The run is seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from azul.interop.pettingzoo import env as aec_env


def choose(weights, obs, rng, greedy=False):
    """The policy's action for ``obs``, and what its gradient needs: (legal, probs, i, x)."""
    x = obs["observation"]
    legal = np.flatnonzero(obs["action_mask"])
    logits = weights[legal] @ x
    p = np.exp(logits - logits.max())
    p /= p.sum()
    i = int(np.argmax(p)) if greedy else int(rng.choice(len(legal), p=p))
    return int(legal[i]), (legal, p, i, x)


def episode(env, weights, rng, learners, greedy=False):
    """One game: the seats in ``learners`` play the policy, the others at random. Returns each
    seat's final reward and, for the learners, the decisions they made."""
    env.reset(seed=int(rng.integers(2**31)))
    traces = {agent: [] for agent in env.possible_agents}
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        if agent in learners:
            action, trace = choose(weights, obs, rng, greedy)
            traces[agent].append(trace)
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return final, traces


def learn(weights, final, traces, lr):
    """REINFORCE: each seat's decisions pushed towards its result (d log pi / d W[legal] is
    (onehot(i) - p) x)."""
    for agent, decisions in traces.items():
        for legal, p, i, x in decisions:
            coef = -p
            coef[i] += 1.0
            weights[legal] += lr * final[agent] * np.outer(coef, x)


def against_random(env, weights, rng, games):
    first = env.possible_agents[0]
    return float(
        np.mean([episode(env, weights, rng, {first}, greedy=True)[0][first] for _ in range(games)])
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sintra", choices=["pavilion", "sintra"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--every", type=int, default=100, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=100, help="evaluation games")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = aec_env(args.game, players=args.players, normalize=True)
    rng = np.random.default_rng(args.seed)
    first = env.possible_agents[0]
    size = env.observation_space(first)["observation"].shape[0]
    weights = np.zeros((env.action_space(first).n, size))
    start = time.perf_counter()
    print(f"episode 0: {against_random(env, weights, rng, args.eval):+.2f} against random")
    for k in range(1, args.episodes + 1):
        final, traces = episode(env, weights, rng, set(env.possible_agents))
        learn(weights, final, traces, args.lr)
        if k % args.every == 0 or k == args.episodes:
            score = against_random(env, weights, rng, args.eval)
            print(f"episode {k}: {score:+.2f} against random ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
