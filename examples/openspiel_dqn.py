"""Train OpenSpiel's PyTorch DQN on a game through ``rl_environment``, against OpenSpiel's
random agent, and measure it as it learns.

    python examples/openspiel_dqn.py --game sintra --episodes 3000

Needs the research and rl extras (pip install -e '.[rl]': PyTorch; dm-tree comes with the
research extra). The agent reads the information state tensor, which is the observation
tensor (docs/research.md). It plays seat 0 of two; every ``--every`` episodes, it plays
``--eval`` games greedily against the random agent, and the line printed is its win rate (a
shared win counts half). Seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.pytorch import dqn

from azul.interop import openspiel


def play(env, agents, evaluating: bool) -> float:
    """One episode; returns seat 0's result (+1 a win, -1 a loss)."""
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([agents[seat].step(step, is_evaluation=evaluating).action])
    for agent in agents:  # the agents see the end of the episode
        agent.step(step, is_evaluation=evaluating)
    return float(step.rewards[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sintra", choices=["pavilion", "sintra"])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--every", type=int, default=500, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    openspiel.register()
    game = pyspiel.load_game(f"azul_{args.game}")
    env = rl_environment.Environment(game, seed=args.seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    learner = dqn.DQN(
        player_id=0,
        state_representation_size=size,
        num_actions=actions,
        hidden_layers_sizes=(128, 128),
        replay_buffer_capacity=20_000,
        batch_size=64,
        learning_rate=0.001,
        min_buffer_size_to_learn=1_000,
        epsilon_decay_duration=50_000,
        optimizer_str="adam",
        seed=args.seed,
    )
    agents = [learner, random_agent.RandomAgent(player_id=1, num_actions=actions)]
    start = time.perf_counter()

    def report(episode: int) -> None:
        results = [play(env, agents, evaluating=True) for _ in range(args.eval)]
        rate = np.mean([(r + 1) / 2 for r in results])
        elapsed = time.perf_counter() - start
        print(f"episode {episode}: {rate:.1%} against random ({elapsed:.0f} s)", flush=True)

    report(0)
    for episode in range(1, args.episodes + 1):
        play(env, agents, evaluating=False)
        if episode % args.every == 0 or episode == args.episodes:
            report(episode)


if __name__ == "__main__":
    main()
