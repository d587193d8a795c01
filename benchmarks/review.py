"""How long a game's review takes at the default settings: games between the heuristic bot and
the random bot (seeded), each reviewed by ``azul.review`` on the compiled search.

    python benchmarks/review.py pavilion --games 3
    python benchmarks/review.py sintra --games 3 --iterations 2000
"""

from __future__ import annotations

import argparse
import statistics
import time

import azul
from azul.bots import make
from azul.core.records import record_of
from azul.review import ITERATIONS, review_record


def game_record(name: str, players: int, seed: int) -> azul.core.records.Record:
    state = azul.load_game(name, players=players).new_initial_state(seed)
    bots = [make("heuristic", seed=seed)] + [
        make("random", seed=seed + i) for i in range(1, players)
    ]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    return record_of(state, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(azul.GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    times, decisions = [], []
    for g in range(args.games):
        rec = game_record(args.game, args.players, args.seed + g)
        start = time.process_time()
        review = review_record(rec, seed=g, iterations=args.iterations)
        times.append(time.process_time() - start)
        decisions.append(len(review.decisions))
        losses = ", ".join(f"{p.average_loss:.2f}" for p in review.summary)
        print(
            f"game {g + 1}: {decisions[-1]} decisions, {times[-1]:.1f} s CPU, "
            f"points lost per move by seat: {losses}"
        )
    print(
        f"{args.game}, {args.players} players, {args.iterations} iterations per decision: "
        f"median {statistics.median(times):.1f} s CPU a game (longest {max(times):.1f} s), "
        f"{sum(times) / sum(decisions) * 1000:.0f} ms a decision"
    )


if __name__ == "__main__":
    main()
