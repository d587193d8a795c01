"""Steps per second of the batched environment against Gymnasium's SyncVectorEnv over as many
single environments, on the same games: random legal actions from the masks, chosen for the
whole batch in one vectorised call, against random opponents.
The batched environment runs on the game's compiled core when it has one (azul.native); it is
then measured on the Python engine too.

    python benchmarks/vector.py --game sintra --envs 64 --steps 20000
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

from azul.interop.gym import env_id


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row, chosen for the whole batch in one vectorised
    call (the largest of random keys over the legal entries), so that the choice costs little
    beside the steps. A row without a legal action (SyncVectorEnv shows an ended game for one
    step) gets 0."""
    keys = rng.random(masks.shape) * masks
    return np.argmax(keys, axis=1)


def steps_per_second(envs: gym.vector.VectorEnv, steps: int, seed: int) -> float:
    """Steps (one game's action each) per second over ``steps`` steps."""
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = envs.num_envs
    start = time.perf_counter()
    for _ in range(steps // n):
        actions = random_legal(obs["action_mask"], rng)
        obs, *_ = envs.step(actions)
    return (steps // n) * n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sintra", choices=["pavilion", "sintra"])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    name = env_id(args.game)
    sync = gym.make_vec(name, num_envs=args.envs, vectorization_mode="sync")
    batched = gym.make_vec(name, num_envs=args.envs)
    a = steps_per_second(sync, args.steps, args.seed)
    print(f"{args.game}, {args.envs} environments, {args.steps} steps:")
    print(f"  SyncVectorEnv  {a:9.0f} steps/s")
    runs = [("", batched)]
    if batched.core is not None:
        runs = [(" (compiled core)", batched)]
        runs.append((" (Python engine)", gym.make_vec(name, num_envs=args.envs, native=False)))
    for label, envs in runs:
        b = steps_per_second(envs, args.steps, args.seed)
        print(f"  AzulVectorEnv  {b:9.0f} steps/s  ({b / a:.2f}x){label}")


if __name__ == "__main__":
    main()
