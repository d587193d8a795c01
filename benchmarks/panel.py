"""A bot against a panel of opponents, by seat: the hand-evaluated MCTS, heuristic, builder,
greedy, the policy bot, the big-pile bot and any others named (earlier generations).

    python benchmarks/panel.py pavilion mcts:time=0.5 --games 400 --workers 2
    python benchmarks/panel.py pavilion mcts:time=0.5 --also mcts:time=0.5,weights=gen-02.npz

Two players, mirrored deals (each deal is played with the seats swapped). Prints a Markdown
table (win rate with its 95% interval, mean scores, and the same by the bot's seat) and writes
the figures as JSON into benchmarks/results/ (or --json), with the command and the commit.

``--journal FILE`` makes a long panel resumable: every game is appended to FILE (JSON lines) as
it finishes, and the same command run again plays only the games FILE lacks. A game is known by
its deal and its seats' bot specs, so a journal can be shared by panels of other sizes: a
400-game panel continues one of 100 games (its first 100 games are the same deals).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from provenance import ROOT, command, commit

from azul.arena import tournament
from azul.arena.match import GameResult, play_game
from azul.arena.runner import Job
from azul.arena.stats import mean_interval, summarize, wilson
from azul.bots.spec import BotSpec

# The panel; {time} is --time. The hand-evaluated MCTS is the server's "mcts" level on the hand
# evaluation (eval=hand: where a network ships, the level's default, eval=auto, would use it).
PANEL = [
    "mcts:time={time},iterations=null,scale=30,c=0.35,eval=hand",
    "heuristic",
    "builder",
    "greedy",
    "policy",
    "bigpile",
]
SEED = 30_000  # the first deal against the first opponent; each opponent starts 10,000 later


def seat_rows(results: list[GameResult], bot: str, players: int) -> list[dict[str, Any]]:
    """The bot's figures in each seat it held: games, wins (a shared win counts 1/k), win rate
    with its 95% interval, its mean score and the best opponent's."""
    rows = []
    for seat in range(players):
        mine = [r for r in results if r.seats[seat] == bot]
        wins = sum(1 / len(r.winners) for r in mine if seat in r.winners)
        low, high = wilson(wins, len(mine))
        others = [max(s for i, s in enumerate(r.scores) if i != seat) for r in mine]
        rows.append(
            {
                "seat": seat,
                "games": len(mine),
                "wins": wins,
                "win_rate": wins / len(mine) if mine else 0.0,
                "win_low": low,
                "win_high": high,
                "score": mean_interval([r.scores[seat] for r in mine])[0],
                "opponent_score": mean_interval(others)[0],
            }
        )
    return rows


def against(bot: str, opponent: str, results: list[GameResult]) -> dict[str, Any]:
    """The bot's row against one opponent, from the games between them."""
    stats = {s.bot: s for s in summarize(results)}
    me, them = stats[bot], stats[opponent]
    return {
        "opponent": opponent,
        "games": me.games,
        "wins": me.wins,
        "win_rate": me.win_rate,
        "win_low": me.win_low,
        "win_high": me.win_high,
        "score": me.mean_score,
        "score_low": me.score_low,
        "score_high": me.score_high,
        "opponent_score": them.mean_score,
        "margin": me.mean_margin,
        "seconds_per_move": me.seconds_per_move,
        "opponent_seconds_per_move": them.seconds_per_move,
        "by_seat": seat_rows(results, bot, 2),
    }


def key(job: Job) -> str:
    """A game as the journal knows it: the game, its options, the deal and the seats' specs."""
    game, options, seats, seed, _ = job
    return json.dumps([game, options, seed, [s.label for s in seats]], sort_keys=True)


def read_journal(path: Path | None) -> dict[str, GameResult]:
    """The games of a journal (a line a kill cut short is dropped)."""
    found: dict[str, GameResult] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            doc = json.loads(line)
            found[doc["key"]] = GameResult(**doc["result"])
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
    return found


def play_all(jobs: list[Job], workers: int) -> Iterator[tuple[int, GameResult]]:
    """(index, result) of every job, in job order."""
    if workers <= 1:
        for i, job in enumerate(jobs):
            yield i, play_game(*job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from enumerate(pool.map(_play, jobs))


def _play(job: Job) -> GameResult:
    return play_game(*job)


def run(jobs: list[Job], workers: int, progress: bool, journal: Path | None) -> list[GameResult]:
    """Every job's result, in job order: those in the journal read from it, the others played
    (and appended to it as each comes back)."""
    known = read_journal(journal)
    results: dict[int, GameResult] = {}
    todo: list[tuple[int, Job]] = []
    for i, job in enumerate(jobs):
        if key(job) in known:
            results[i] = known[key(job)]
        else:
            todo.append((i, job))
    if journal is not None:
        journal.parent.mkdir(parents=True, exist_ok=True)
        journal.write_text(  # rewritten whole, so that appends start on a clean line
            "".join(
                json.dumps({"key": k, "result": dataclasses.asdict(r)}) + "\n"
                for k, r in known.items()
            ),
            encoding="utf-8",
        )
    from tqdm import tqdm

    bar = tqdm(total=len(jobs), initial=len(results), unit="game", disable=not progress)
    try:
        for n, result in play_all([job for _, job in todo], workers):
            i, job = todo[n]
            results[i] = result
            if journal is not None:
                with journal.open("a", encoding="utf-8") as f:
                    doc = {"key": key(job), "result": dataclasses.asdict(result)}
                    f.write(json.dumps(doc) + "\n")
            bar.update(1)
    finally:
        bar.close()
    return [results[i] for i in range(len(jobs))]


def evaluate(
    game: str,
    bot: str,
    opponents: list[str],
    games: int,
    workers: int,
    seed: int,
    progress: bool,
    journal: Path | None = None,
) -> list[dict[str, Any]]:
    """One row per opponent; all the games are run together, so the workers stay busy."""
    me = BotSpec.parse(bot)
    lineups = [[me, BotSpec.parse(o)] for o in opponents]
    plans = [
        tournament.match_jobs(game, {}, lineup, 2, games, seed + 10_000 * i, None)
        for i, lineup in enumerate(lineups)
    ]
    results = run([job for plan in plans for job in plan], workers, progress, journal)
    rows, start = [], 0
    for lineup, plan in zip(lineups, plans, strict=True):
        rows.append(against(me.label, lineup[1].label, results[start : start + len(plan)]))
        start += len(plan)
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    def rate(r: dict[str, Any]) -> str:
        return f"{100 * r['win_rate']:.1f}% ({100 * r['win_low']:.0f}–{100 * r['win_high']:.0f})"

    lines = [
        "| opponent | games | win rate (95%) | mean score, bot vs opponent "
        "| as seat 0: win rate, scores | as seat 1: win rate, scores |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        seats = [f"{rate(s)}, {s['score']:.1f} vs {s['opponent_score']:.1f}" for s in r["by_seat"]]
        lines.append(
            f"| `{r['opponent']}` | {r['games']} | {rate(r)} "
            f"| {r['score']:.1f} vs {r['opponent_score']:.1f} | {' | '.join(seats)} |"
        )
    return "\n".join(lines)


def default_path(game: str, bot: str) -> Path:
    slug = re.sub(r"[^a-z0-9.]+", "-", bot.lower()).strip("-")
    return ROOT / "benchmarks" / "results" / f"{game}-panel-{slug}.json"


def options() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("bot", help="the bot measured, e.g. mcts:time=0.5")
    parser.add_argument("--games", type=int, default=400, help="games per opponent (even)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED, help="first deal")
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move, panel MCTS")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="BOT",
        help="another opponent, e.g. an earlier generation's weights as its bot spec (repeatable)",
    )
    parser.add_argument(
        "--opponent", action="append", metavar="BOT", help="replace the panel by these (repeatable)"
    )
    parser.add_argument("--json", type=Path, help="the JSON file (default: in benchmarks/results/)")
    parser.add_argument(
        "--journal", type=Path, help="JSON lines of the games played: resumes a killed panel"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = options()
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    panel = [o.format(time=args.time) for o in (args.opponent or PANEL)] + args.also
    bot = BotSpec.parse(args.bot).label
    skipped = [o for o in panel if BotSpec.parse(o).label == bot]
    panel = [o for o in panel if o not in skipped]  # a bot against itself tells nothing by name
    made = {"command": command(), "commit": commit()}  # the code as it starts
    rows = evaluate(
        args.game, args.bot, panel, args.games, args.workers, args.seed, not args.quiet,
        args.journal,
    )  # fmt: skip
    print(markdown(rows))
    report = {
        "game": args.game,
        "players": 2,
        "bot": bot,
        "games_per_opponent": args.games,
        "seed": args.seed,
        "skipped": skipped,
        **made,
        "opponents": rows,
    }
    path = args.json or default_path(args.game, bot)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"\nwritten to {path}")


if __name__ == "__main__":
    main()
