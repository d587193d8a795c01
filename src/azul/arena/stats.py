"""Statistics of a set of games: win rates and mean scores with 95% intervals, ratings."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from azul.arena.match import GameResult
from azul.i18n import _

Z95 = 1.959964


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (shared wins count as fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


@dataclass
class BotStats:
    bot: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    mean_margin: float
    seconds_per_move: float
    rating: float | None = None
    rating_sigma: float | None = None
    stars_per_game: float | None = None  # breakdown items named "star" (None: no breakdowns)
    item_points: dict[str, float] = field(default_factory=dict)  # mean points by item a game


def summarize(results: list[GameResult]) -> list[BotStats]:
    """Per bot over every seat it held: wins (a shared win counts 1/k), scores, margins over the
    best other seat, thinking time per decision; plus an openskill rating when available."""
    wins: dict[str, float] = defaultdict(float)
    scores: dict[str, list[float]] = defaultdict(list)
    margins: dict[str, list[float]] = defaultdict(list)
    think: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    stars: dict[str, int] = defaultdict(int)
    scored: dict[str, int] = defaultdict(int)  # games with a score breakdown
    items: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in results:
        for seat, bot in enumerate(r.seats):
            scores[bot].append(r.scores[seat])
            others = [s for i, s in enumerate(r.scores) if i != seat]
            margins[bot].append(r.scores[seat] - max(others))
            if seat in r.winners:
                wins[bot] += 1 / len(r.winners)
            think[bot] += r.think[seat] if r.think else 0.0
            decisions[bot] += r.decisions[seat] if r.decisions else 0
            if r.items:
                scored[bot] += 1
                stars[bot] += r.stars[seat]
                for item, points in r.items[seat].items():
                    items[bot][item] += points
    ratings = rate(results)
    out = []
    for bot in sorted(scores, key=lambda b: -wins[b] / len(scores[b])):
        n = len(scores[bot])
        low, high = wilson(wins[bot], n)
        mean, s_low, s_high = mean_interval(scores[bot])
        mu, sigma = ratings.get(bot, (None, None))
        out.append(
            BotStats(
                bot,
                n,
                wins[bot],
                wins[bot] / n,
                low,
                high,
                mean,
                s_low,
                s_high,
                sum(margins[bot]) / n,
                think[bot] / decisions[bot] if decisions[bot] else 0.0,
                mu,
                sigma,
                stars[bot] / scored[bot] if scored[bot] else None,
                {k: v / scored[bot] for k, v in items[bot].items()},
            )
        )
    return out


def rate(results: list[GameResult]) -> dict[str, tuple[float, float]]:
    """openskill (Plackett-Luce) ratings from every game's ranking; {} without openskill.
    A bot in several seats of one game is rated once, by its best seat."""
    try:
        from openskill.models import PlackettLuce, PlackettLuceRating
    except ImportError:
        return {}
    model = PlackettLuce()
    players: dict[str, PlackettLuceRating] = {}
    for r in results:
        best: dict[str, int] = {}
        for seat, bot in enumerate(r.seats):
            best[bot] = max(best.get(bot, r.scores[seat]), r.scores[seat])
        if len(best) < 2:
            continue
        bots = list(best)
        for b in bots:
            players.setdefault(b, model.rating(name=b))
        teams = [[players[b]] for b in bots]
        new = model.rate(teams, scores=[best[b] for b in bots])
        for b, team in zip(bots, new, strict=True):
            players[b] = team[0]
    return {b: (p.mu, p.sigma) for b, p in players.items()}


def as_rows(stats: list[BotStats]) -> list[dict[str, Any]]:
    return [asdict(s) for s in stats]


def table(stats: list[BotStats]) -> str:
    """The final table, for a terminal, in the current language."""
    words = [_("bot"), _("games"), _("win rate"), _("95% CI"), _("mean score")]
    words += [_("95% CI"), _("margin"), _("s/move"), _("rating")]
    starred = any(s.item_points.get("star") is not None for s in stats)
    if starred:  # the game scores stars: completed stars a game
        words.append(_("stars/game"))
    rows = []
    for s in stats:
        rating = f"{s.rating:6.1f}±{s.rating_sigma:4.1f}" if s.rating is not None else "-"
        rows.append(
            [
                s.bot,
                str(s.games),
                f"{s.win_rate:.1%}",
                f"{s.win_low:.1%}-{s.win_high:.1%}",
                f"{s.mean_score:.1f}",
                f"{s.score_low:.1f}-{s.score_high:.1f}",
                f"{s.mean_margin:.1f}",
                f"{s.seconds_per_move:.3f}",
                rating,
            ]
        )
        if starred:
            rows[-1].append(f"{s.stars_per_game:.2f}" if s.stars_per_game is not None else "-")
    widths = [max(len(row[i]) for row in [words, *rows]) for i in range(len(words))]

    def line(cells: list[str]) -> str:  # the bot's name to the left, figures to the right
        return f"{cells[0]:<{widths[0]}}  " + "  ".join(
            f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True)
        )

    head = line(words)
    return "\n".join([head, "-" * len(head), *(line(row) for row in rows)])
