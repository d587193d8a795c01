"""Matches and tournaments: the schedule, the run, and the results written to disk."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict
from itertools import combinations
from pathlib import Path
from typing import Any

from azul.arena.match import GameResult, schedule
from azul.arena.runner import Job, run_jobs
from azul.arena.stats import BotStats, as_rows, summarize
from azul.bots import Limit
from azul.bots.spec import BotSpec
from azul.core.errors import AzulError
from azul.extras import install


def match_jobs(
    game: str,
    options: dict[str, Any],
    lineup: list[BotSpec],
    players: int,
    games: int,
    seed: int,
    limit: Limit | None,
) -> list[Job]:
    """Jobs for at least ``games`` games: whole deals, each with every seat assignment."""
    per_deal = len(schedule(lineup, players, 1, seed))
    deals = max(1, -(-games // per_deal))
    opts = {**options, "players": players}
    return [(game, opts, seats, s, limit) for s, seats in schedule(lineup, players, deals, seed)]


def tournament_jobs(
    game: str,
    options: dict[str, Any],
    bots: list[BotSpec],
    players: int,
    games: int,
    seed: int,
    limit: Limit | None,
) -> list[Job]:
    """A round robin: a match of ``games`` games between every pair of bots."""
    jobs: list[Job] = []
    for i, (a, b) in enumerate(combinations(bots, 2)):
        jobs += match_jobs(game, options, [a, b], players, games, seed + 100_000 * i, limit)
    return jobs


def run(
    jobs: list[Job],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: bool = True,
) -> tuple[list[GameResult], list[BotStats]]:
    results = run_jobs(jobs, backend, workers, address, progress)
    return results, summarize(results)


def fresh_folder(parent: str | Path, name: str) -> Path:
    """A new folder ``parent/NNN-name``, numbered after the runs already in ``parent``."""
    parent = Path(parent)
    parent.mkdir(parents=True, exist_ok=True)
    numbers = [p.name.split("-")[0] for p in parent.iterdir()]
    number = max((int(n) for n in numbers if n.isdigit()), default=0) + 1
    while True:
        folder = parent / f"{number:03d}-{name}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:  # another run took it meanwhile
            number += 1


def write(
    out: str | Path, results: list[GameResult], stats: list[BotStats], plot: bool = False
) -> list[Path]:
    """results.json (summary and games), games.csv, one record per game under records/, and
    on request scores.png, in ``out``, a new or empty folder (so that runs never mix).
    Returns the files written."""
    out = Path(out)
    if out.is_dir() and any(out.iterdir()):
        raise AzulError(
            "{folder} is not empty: results go to a new or empty folder", folder=str(out)
        )
    (out / "records").mkdir(parents=True, exist_ok=True)
    written = []
    summary = {
        "bots": as_rows(stats),
        "games": [
            {k: v for k, v in asdict(r).items() if k not in ("actions", "moves", "movers")}
            for r in results
        ],
    }
    path = out / "results.json"
    path.write_text(json.dumps(summary, indent=1))
    written.append(path)
    path = out / "games.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "seed", "seat", "bot", "score", "return", "winner", "think_s", "stars"])
        for r in results:
            for seat, bot in enumerate(r.seats):
                w.writerow(
                    [
                        r.game,
                        r.seed,
                        seat,
                        bot,
                        r.scores[seat],
                        r.returns[seat],
                        int(seat in r.winners),
                        round(r.think[seat], 4),
                        r.stars[seat] if r.stars else "",
                    ]
                )
    written.append(path)
    for i, r in enumerate(results):
        r.record().save(out / "records" / f"{i:05d}-seed{r.seed}.jsonl")
    if plot:
        written.append(plot_scores(results, out / "scores.png"))
    return written


def plot_scores(results: list[GameResult], path: Path) -> Path:
    """A PNG of each bot's score distribution (needs matplotlib: the [plot] extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AzulError("plots need matplotlib: {command}", command=install("plot")) from None
    by_bot: dict[str, list[int]] = {}
    for r in results:
        for seat, bot in enumerate(r.seats):
            by_bot.setdefault(bot, []).append(r.scores[seat])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for bot, scores in by_bot.items():
        ax.hist(scores, bins=20, alpha=0.5, label=f"{bot} (mean {sum(scores) / len(scores):.1f})")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{results[0].game}: score distributions over {len(results)} games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
