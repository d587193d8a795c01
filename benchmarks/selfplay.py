"""Where a self-play game's time goes: the games of ``azul train`` (``azul.learn.selfplay``),
timed whole and in the game's endgame solver (Summer Pavilion: round 6's play phase).

    python benchmarks/selfplay.py pavilion --games 20 --iterations 200
    python benchmarks/selfplay.py pavilion --games 20 --iterations 200 --weights auto

Prints seconds per game, the share spent in the solver (``Strategy.endgame_values``, which the
MCTS asks first at every decision) and in the compiled search, and the positions per game.
The rest is the game's own moves, the observations kept for training and the bots' set-up.
cProfile is no guide here: it slows the solver's many Python calls far more than the search,
which is one C call a move.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from provenance import command, commit

from azul import load_game
from azul.bots import mcts
from azul.learn import selfplay


def measure(game: str, players: int, games: int, iterations: int, weights: str | None) -> Any:
    """Play ``games`` self-play games; the seconds in all, in the solver and in the search."""
    strategy = type(load_game(game, players=players).strategy())
    spent = {"solver": 0.0, "search": 0.0}
    solve, search = strategy.endgame_values, mcts.MCTSBot._search_compiled

    def timed(name: str, func: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start

        return wrapper

    strategy.endgame_values = timed("solver", solve)  # type: ignore[method-assign]
    mcts.MCTSBot._search_compiled = timed("search", search)  # type: ignore[method-assign]
    positions = 0
    start = time.perf_counter()
    try:
        for i in range(games):
            job = selfplay.Job(game, (("players", players),), 1000 + i, iterations, 20, weights)
            positions += len(selfplay.play(job)["obs"])
    finally:
        strategy.endgame_values = solve  # type: ignore[method-assign]
        mcts.MCTSBot._search_compiled = search  # type: ignore[method-assign]
    total = time.perf_counter() - start
    return {
        "seconds_per_game": total / games,
        "solver_share": spent["solver"] / total,
        "search_share": spent["search"] / total,
        "positions_per_game": positions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument(
        "--weights", help="a network's file, or 'auto' for the shipped one (default: the hand's)"
    )
    args = parser.parse_args()
    if args.games < 1 or args.iterations < 1:
        parser.error("--games and --iterations must be at least 1")
    weights = args.weights
    if weights == "auto":
        shipped = load_game(args.game, players=args.players).strategy().value_weights(args.players)
        if shipped is None:
            parser.error(f"no network ships for {args.game} with {args.players} players")
        weights = str(shipped)
    figures = measure(args.game, args.players, args.games, args.iterations, weights)
    print(json.dumps({"command": command(), "commit": commit(), **figures}, indent=1))


if __name__ == "__main__":
    main()
