"""Gating a candidate network: short matches at equal iterations per move on mirrored deals
(every deal played from every seat, ``azul.arena.match.schedule``), one game a job, against the
current best network and against the hand evaluation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from azul.arena.match import play_game, schedule
from azul.arena.stats import wilson
from azul.bots.spec import BotSpec

CANDIDATE = "candidate"  # the label of the candidate's seat in a gate game


@dataclass(frozen=True)
class GateJob:
    game: str
    options: tuple[tuple[str, Any], ...]
    seed: int  # the deal
    seats: tuple[str | None, ...]  # per seat: a network's file, or None for the hand evaluation
    candidate: tuple[int, ...]  # the seats of the candidate
    iterations: int
    hand_iterations: int | None = None  # the hand-evaluated seats' (None: ``iterations``)


def spec(weights: str | None, iterations: int) -> BotSpec:
    """The gate's MCTS on a network (its file) or on the hand evaluation (None)."""
    if weights is None:
        return BotSpec("mcts", (("iterations", iterations), ("eval", "hand")))
    return BotSpec("mcts", (("iterations", iterations), ("eval", "learned"), ("weights", weights)))


def jobs(
    game: str,
    options: dict[str, Any],
    candidate: str,
    opponent: str | None,
    deals: int,
    seed: int,
    iterations: int,
    hand_iterations: int | None = None,
) -> list[GateJob]:
    """The games of one gate match, in schedule order (``hand_iterations``: those of the
    hand-evaluated opponent, when it is given more to match a network's slower search)."""
    mine, theirs = BotSpec(CANDIDATE), BotSpec("opponent")
    out = []
    for deal, seats in schedule([mine, theirs], options["players"], deals, seed):
        mark = tuple(s.name == CANDIDATE for s in seats)
        out.append(
            GateJob(
                game,
                tuple(sorted(options.items())),
                deal,
                tuple(candidate if m else opponent for m in mark),
                tuple(i for i, m in enumerate(mark) if m),
                iterations,
                hand_iterations,
            )
        )
    return out


def play(job: GateJob) -> dict[str, Any]:
    """One gate game: the candidate's share of the win, the scores and the thinking time."""
    seats = seat_specs(job)
    result = play_game(job.game, dict(job.options), seats, job.seed)
    won = sum(1 for s in job.candidate if s in result.winners) / len(result.winners)
    moves = [max(1, d) for d in result.decisions]
    return {
        "seed": job.seed,
        "candidate": list(job.candidate),
        "scores": result.scores,
        "win": won,
        "seconds_per_move": [t / d for t, d in zip(result.think, moves, strict=True)],
    }


def seat_specs(job: GateJob) -> list[BotSpec]:
    """Each seat's MCTS: the networks at ``iterations``, the hand evaluation at
    ``hand_iterations`` if given."""
    hand = job.iterations if job.hand_iterations is None else job.hand_iterations
    return [spec(w, job.iterations if w is not None else hand) for w in job.seats]


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The candidate's win rate with its 95% interval, overall and by seat, and its margin."""
    wins = sum(g["win"] for g in games)
    low, high = wilson(wins, len(games))
    margins = [_margin(g) for g in games]
    by_seat = {}
    for seat in sorted({s for g in games for s in g["candidate"]}):
        mine = [g for g in games if seat in g["candidate"]]
        w = sum(g["win"] for g in mine)
        by_seat[str(seat)] = {"games": len(mine), "win_rate": w / len(mine)}
    return {
        "games": len(games),
        "wins": wins,
        "win_rate": wins / len(games) if games else 0.0,
        "low": low,
        "high": high,
        "margin": sum(margins) / len(margins) if margins else 0.0,
        "by_seat": by_seat,
    }


def _margin(game: dict[str, Any]) -> float:
    scores = game["scores"]
    seat = game["candidate"][0]
    return float(scores[seat] - max(s for i, s in enumerate(scores) if i not in game["candidate"]))
