"""The public API on the Python engine and on the compiled core, paired in one run: random
steps through ``load_game(...).new_initial_state()``, the heuristic bot's decisions, OpenSpiel's
``clone()`` and PettingZoo AEC steps, on the same games and seeds. The engines alternate round by
round (``AZUL_PURE_PYTHON=1`` for the Python engine), and each figure is the best round's.

    python benchmarks/engines.py --games 100 --rounds 3

Run by a release from before the public API played on the cores (its interpreter, this
script), both columns show that release's Python engine: the figures "before".
"""

from __future__ import annotations

import argparse
import os
import random
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import azul
from azul.native import PURE  # (also where the API had no engines)

ENGINES = ("python", "compiled")


def api_steps(game: azul.Game[Any], games: int) -> float:
    """Random legal steps per second through the public API."""
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def positions(game: azul.Game[Any], count: int) -> list[azul.State]:
    """Decisions from seeded random games, one every 10 steps or so."""
    rng = random.Random(1)
    found: list[azul.State] = []
    g = 0
    while len(found) < count:
        state = game.new_initial_state(g)
        g += 1
        while not state.is_terminal() and len(found) < count:
            state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_chance_node() and not state.is_terminal() and rng.random() < 0.1:
                found.append(state.clone())
    return found


def heuristic(game: azul.Game[Any], count: int) -> float:
    """The heuristic bot's decisions per second."""
    from azul.bots.heuristic import HeuristicBot

    found = positions(game, count)
    bot = HeuristicBot(seed=1)
    start = time.perf_counter()
    for state in found:
        bot.choose(state)
    return count / (time.perf_counter() - start)


def spiel_clone(name: str, count: int) -> float:
    """Microseconds per OpenSpiel ``clone()`` of mid-game states."""
    import pyspiel

    from azul.interop.openspiel import register

    register()
    game = pyspiel.load_game(f"azul_{name}")
    rng = random.Random(2)
    states = []
    state = game.new_initial_state()
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            states.append(state.clone())
    best = min(timeit.repeat(lambda: [s.clone() for s in states], number=20, repeat=3))
    return best / (20 * len(states)) * 1e6


def aec_steps(name: str, games: int) -> float:
    """PettingZoo AEC steps per second: ``last()`` and a random legal action from the mask."""
    from azul.interop.pettingzoo import env

    aec = env(name)
    rng = np.random.default_rng(3)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        aec.reset(seed=g)
        for _ in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            done = terminated or truncated
            aec.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def on(engine: str, measure: Callable[[], float]) -> float:
    """``measure()`` with the states of ``load_game`` on ``engine``."""
    if engine == "python":
        os.environ[PURE] = "1"
    else:
        os.environ.pop(PURE, None)
    try:
        return measure()
    finally:
        os.environ.pop(PURE, None)


def measure(name: str, games: int, decisions: int, rounds: int) -> None:
    """Print the figures of ``name`` on both engines, the best of ``rounds`` rounds each."""
    from azul import native

    if native.core(name) is None:
        print(f"{name}: no compiled core in use")
        return
    game = azul.load_game(name)
    tasks: dict[str, Callable[[], float]] = {
        "public API steps/s": lambda: api_steps(game, games),
        "heuristic decisions/s": lambda: heuristic(game, decisions),
        "OpenSpiel clone() us": lambda: spiel_clone(name, 200),
        "PettingZoo AEC steps/s": lambda: aec_steps(name, max(1, games // 4)),
    }
    best: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        for label, task in tasks.items():
            for engine in ENGINES:
                x = on(engine, task)
                keep = min if label.endswith(" us") else max
                best[label, engine] = keep(best.get((label, engine), x), x)
    print(f"{name}")
    for label in tasks:
        py, c = best[label, "python"], best[label, "compiled"]
        ratio = py / c if label.endswith(" us") else c / py
        print(f"  {label:<24} Python {py:>10,.2f}  compiled {c:>10,.2f}  ({ratio:.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="random games per figure")
    parser.add_argument("--decisions", type=int, default=60, help="heuristic bot decisions")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(azul.GAMES))
    args = parser.parse_args()
    for name in args.game or ["pavilion", "sintra"]:
        measure(name, args.games, args.decisions, args.rounds)


if __name__ == "__main__":
    main()
