"""Ratings of the server's bot levels: a round robin between them, rated by openskill, written
into the shipped file the lobby reads (src/azul/server/levels.json).

    python benchmarks/levels.py pavilion --players 2 --games 40 --workers 2
    python benchmarks/levels.py sintra --levels random greedy heuristic mcts-fast --games 8

Each pair of levels plays --games games on mirrored deals, with the levels' bot specs as the
server makes them (--bot-time and --bot-iterations are the server's caps). The entry of the
game and number of players is replaced; the others are kept. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from provenance import command, commit

from azul.arena import tournament
from azul.bots.spec import BotSpec
from azul.server import ratings
from azul.server.settings import LEVELS, Settings

SEED = 40_000


def round_robin(
    game: str,
    players: int,
    levels: list[str],
    settings: Settings,
    games: int,
    workers: int,
    seed: int,
    progress: bool,
) -> dict[str, Any]:
    """The entry of the file for one game and number of players."""
    made = {"command": command(), "commit": commit()}  # the code as it starts
    specs = {name: BotSpec.parse(settings.level(name)) for name in levels}
    by_label = {spec.label: name for name, spec in specs.items()}
    if len(by_label) < len(specs):
        raise SystemExit("two levels have the same bot spec under these caps: rate them apart")
    jobs = tournament.tournament_jobs(game, {}, list(specs.values()), players, games, seed, None)
    results, stats = tournament.run(jobs, workers=workers, progress=progress)
    per_level = {specs[by_label[s.bot]].label: s for s in stats}
    if any(s.rating is None for s in stats):
        raise SystemExit("ratings need openskill: pip install -e '.[arena]'")
    order = sorted(levels, key=lambda n: -(per_level[specs[n].label].rating or 0.0))
    return {
        **made,
        "games": len(results),
        "games_per_pair": games,
        "seed": seed,
        "bot_time": settings.bot_time,
        "bot_iterations": settings.bot_iterations,
        "levels": {
            name: {
                "spec": specs[name].label,
                "mu": per_level[specs[name].label].rating,
                "sigma": per_level[specs[name].label].rating_sigma,
                "games": per_level[specs[name].label].games,
                "win_rate": per_level[specs[name].label].win_rate,
                "mean_score": per_level[specs[name].label].mean_score,
            }
            for name in order
        },
    }


def markdown(entry: dict[str, Any]) -> str:
    lines = ["| level | rating (95%) | mu ± sigma | games | win rate | mean score |"]
    lines.append("|---|---|---|---|---|---|")
    for name, r in entry["levels"].items():
        d = ratings.display(r["mu"], r["sigma"])
        figures = f"{r['games']} | {100 * r['win_rate']:.1f}% | {r['mean_score']:.1f}"
        lines.append(
            f"| `{name}` | {d['rating']} ({d['low']}–{d['high']}) "
            f"| {r['mu']:.1f} ± {r['sigma']:.1f} | {figures} |"
        )
    return "\n".join(lines)


def write(path: Path, game: str, players: int, entry: dict[str, Any]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    doc = {
        "format": ratings.FORMAT,
        "version": 1,
        "scale": "shown rating = 40 × mu, interval 40 × (mu ± 2 sigma); openskill Plackett-Luce",
        "games": doc.get("games", {}),
    }
    doc["games"].setdefault(game, {})[str(players)] = entry
    doc["games"] = {g: dict(sorted(e.items())) for g, e in sorted(doc["games"].items())}
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=40, help="games per pair of levels")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED, help="first deal")
    parser.add_argument("--bot-time", type=float, default=Settings().bot_time)
    parser.add_argument("--bot-iterations", type=int, default=None)
    parser.add_argument("--out", type=Path, default=ratings.PATH, help="the ratings file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or len(set(args.levels)) < 2:
        parser.error("--games and --workers must be at least 1, with 2 or more --levels")
    caps = [("bot_time", args.bot_time)]
    if args.bot_iterations is not None:
        caps.append(("bot_iterations", args.bot_iterations))
    settings = Settings().with_limits(caps)
    levels = list(dict.fromkeys(args.levels))
    entry = round_robin(
        args.game,
        args.players,
        levels,
        settings,
        args.games,
        args.workers,
        args.seed,
        not args.quiet,
    )
    print(markdown(entry))
    write(args.out, args.game, args.players, entry)
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
