"""The evaluation protocol of learned baselines: one bot against random, greedy, heuristic and
MCTS at a fixed iteration count, two players, fixed seeds, mirrored deals.

    python benchmarks/baselines.py sintra policy --games 200 --workers 2 --json out.json

Prints a Markdown table (the bot's win rate with its 95% interval, and both mean scores);
docs/research.md publishes it for the shipped policies.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from azul.arena import tournament
from azul.bots.spec import BotSpec

# the search by hand: with eval=auto it would take a shipped network, and the protocol would
# change whenever one ships
OPPONENTS = ["random", "greedy", "heuristic", "mcts:iterations=200,eval=hand"]
SEED = 20_000  # the first deal of the first opponent; each opponent starts 10,000 deals later


def evaluate(
    game: str,
    bot: str,
    games: int,
    workers: int,
    progress: bool = True,
    only: list[str] | None = None,
) -> list[dict]:
    """One row per opponent (those of ``only``, each on its own deals): the bot's results."""
    rows = []
    for i, opponent in enumerate(OPPONENTS):
        if only and opponent not in only:
            continue
        lineup = [BotSpec.parse(bot), BotSpec.parse(opponent)]
        jobs = tournament.match_jobs(game, {}, lineup, 2, games, SEED + 10_000 * i, None)
        _, stats = tournament.run(jobs, workers=workers, progress=progress)
        me, them = (next(s for s in stats if s.bot == spec.label) for spec in lineup)
        rows.append(
            {
                "opponent": opponent,
                "games": me.games,
                "win_rate": me.win_rate,
                "win_low": me.win_low,
                "win_high": me.win_high,
                "score": me.mean_score,
                "opponent_score": them.mean_score,
                "seconds_per_move": me.seconds_per_move,
            }
        )
    return rows


def markdown(rows: list[dict]) -> str:
    lines = [
        "| opponent | games | win rate (95%) | mean score, bot vs opponent |",
        "|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['opponent']}` | {r['games']} | {100 * r['win_rate']:.1f}% "
            f"({100 * r['win_low']:.1f}–{100 * r['win_high']:.1f}) "
            f"| {r['score']:.1f} vs {r['opponent_score']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("bot", help="the bot evaluated, e.g. policy")
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--opponent", action="append", choices=OPPONENTS, help="only these (repeatable)"
    )
    args = parser.parse_args()
    rows = evaluate(args.game, args.bot, args.games, args.workers, not args.quiet, args.opponent)
    print(markdown(rows))
    if args.json:
        report = {"game": args.game, "bot": args.bot, "rows": rows}
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
