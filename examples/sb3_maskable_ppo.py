"""Train sb3-contrib's MaskablePPO on the batched environment against the random bot, and
measure it against random and greedy as it learns.

    python examples/sb3_maskable_ppo.py --game sintra --steps 300000

Needs the rl extra (pip install -e '.[rl]': stable-baselines3, sb3-contrib and PyTorch). The
environment is ``azul.interop.sb3.AzulSB3VecEnv`` with normalised observations; no wrapper is
needed for the masks. Every ``--every`` steps, the policy (its most likely legal action) plays
``--eval`` games against each of ``random`` and ``greedy`` from seat 0; the line printed gives
its win rate (a shared win counts half). Seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO

from azul.interop.gym import make
from azul.interop.sb3 import AzulSB3VecEnv


def win_rate(model: MaskablePPO, game: str, opponent: str, games: int, seed: int) -> float:
    env = make(game, opponents=[opponent], reward="win", normalize=True)
    results = []
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
        results.append((reward + 1) / 2)  # +1 a win, -1 a loss, shared wins split
    return float(np.mean(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sintra", choices=["pavilion", "sintra"])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--every", type=int, default=50_000, help="steps between evaluations")
    parser.add_argument("--eval", type=int, default=200, help="games against each opponent")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    envs = AzulSB3VecEnv(args.game, num_envs=args.envs, opponents=["random"], normalize=True)
    envs.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=128, batch_size=256, seed=args.seed, verbose=0
    )
    start, done = time.perf_counter(), 0

    def report() -> None:
        found = {o: win_rate(model, args.game, o, args.eval, 10_000) for o in ("random", "greedy")}
        elapsed = time.perf_counter() - start
        print(
            f"step {done}: {found['random']:.1%} against random, {found['greedy']:.1%} "
            f"against greedy ({elapsed:.0f} s)",
            flush=True,
        )

    report()
    while done < args.steps:
        chunk = min(args.every, args.steps - done)
        model.learn(chunk, reset_num_timesteps=False)
        done += chunk
        report()


if __name__ == "__main__":
    main()
