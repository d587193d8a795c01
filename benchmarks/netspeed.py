"""The compiled search's iterations per second on the hand evaluation and with value networks of
several shapes at its leaves (random weights: the speed depends on the shape, not the values).

    python benchmarks/netspeed.py sintra --hidden 64,64 32,32 16

The positions are the first three decisions of ``--deals`` deals, searched 4,000 iterations
each without tree reuse, the networks residual as ``azul train`` makes them. Paired: every
shape searches the same positions in one run, so a loaded machine slows them alike. "leaf us"
is one leaf's value for one seat through the network, in microseconds.
"""

from __future__ import annotations

import argparse
import json
import time
import timeit

from provenance import command, commit

from azul import load_game
from azul.bots.mcts import MCTSBot
from azul.core.api import State
from azul.core.compiled import compiled_core
from azul.learn.net import random_net

ITERATIONS = 4000


def positions(game: str, players: int, deals: int) -> list[State]:
    g = load_game(game, players=players)
    out = []
    for seed in range(deals):
        s = g.new_initial_state(seed)
        bot = MCTSBot(seed=seed, iterations=200, eval="hand")
        for _ in range(3):
            if s.is_terminal() or s.is_chance_node():
                break
            out.append(s.clone())
            s.apply_action(bot.choose(s))
    return out


def rate(states: list[State], weights: object) -> float:
    """Iterations per second over ``states`` (None: the hand evaluation)."""
    if weights is None:
        bot = MCTSBot(seed=1, iterations=ITERATIONS, eval="hand", reuse=False)
    else:
        bot = MCTSBot(seed=1, iterations=ITERATIONS, eval="learned", weights=weights, reuse=False)
    start = time.perf_counter()
    for s in states:
        bot.analyse(s)
    return ITERATIONS * len(states) / (time.perf_counter() - start)


def leaf_cost(states: list[State], net: object) -> float:
    """Microseconds of one leaf's value for one seat (``net_value``: the features, the forward
    pass and the hand evaluation a residual network adds to), the best of 7 rounds over the
    positions, so that a loaded machine counts least."""
    module = states[0].game.compiled()
    weights = net.compiled(module)  # type: ignore[attr-defined]
    cores = [compiled_core(s) for s in states]
    calls = 2000

    def values() -> None:
        for core in cores:
            for _ in range(calls):
                module.net_value(core, weights, 0)

    best = min(timeit.repeat(values, number=1, repeat=7))
    return best / (calls * len(cores)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--hidden", nargs="+", default=["64,64", "32,32", "16"])
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    states = positions(args.game, args.players, args.deals)
    hand = rate(states, None)
    rows: dict[str, object] = {"hand": round(hand)}
    for shape in args.hidden:
        net = random_net(game, [int(h) for h in shape.split(",")], residual=True)
        rows[shape] = round(rate(states, net))
        rows[f"{shape} leaf us"] = round(leaf_cost(states, net), 3)
    report = {"command": command(), "commit": commit(), "positions": len(states), **rows}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
