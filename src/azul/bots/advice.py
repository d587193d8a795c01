"""Hints for people: the best moves for the player to move, each with what it costs against the
best one in points and why it is good, as the terminal and the table show them."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from azul.bots.base import Candidate
from azul.bots.mcts import MCTSBot
from azul.core.api import State

ITERATIONS = 400  # the hint's search: short, deterministic under its seed
CLAMP = 0.999  # search values this close to +-1 are read as this, so that atanh stays finite


@dataclass(frozen=True)
class Hint:
    """One hinted move. ``behind``: the points it gives up against the best hint (0 for the
    best), exact where the game's endgame solver valued the moves (``exact``), else read off
    the search's values; ``earns``: the points it scores at once; ``sets_up``: what the game's
    evaluation of the mover's prospects gains besides those points (tiles in hand, a star
    nearly done)."""

    action: int
    move: str
    behind: float
    earns: int
    sets_up: float
    exact: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hints(state: State, seed: int = 0, count: int = 3) -> list[Hint]:
    """The ``count`` best moves for the player to move, best first (``Hint``)."""
    bot = MCTSBot(iterations=ITERATIONS, seed=seed)
    exact = state.game.strategy().endgame_values(state)
    if exact is not None:  # round 6 of Summer Pavilion: the points each move ends with
        order = sorted(exact, key=lambda a: exact[a], reverse=True)[:count]
        behind = {a: exact[order[0]] - exact[a] for a in order}
    else:
        best = bot.analyse(state)[:count]
        order = [c.action for c in best]
        behind = _points_behind(best, bot.scale)
    return [_explain(state, a, behind[a], exact is not None) for a in order]


def _points_behind(best: list[Candidate], scale: float) -> dict[int, float]:
    """The search's values in points against the first: a value is a mean of tanh(lead /
    ``scale``), so ``scale * atanh(value)`` reads it back as a lead in points."""

    def points(value: float) -> float:
        return scale * math.atanh(max(-CLAMP, min(CLAMP, value)))

    top = points(best[0].value)
    return {c.action: top - points(c.value) for c in best}


def _explain(state: State, action: int, behind: float, exact: bool) -> Hint:
    seat = state.current_player()
    evaluate = state.game.strategy().evaluate
    after = state.clone()
    after.apply_action(action)
    earns = after.scores()[seat] - state.scores()[seat]
    gained = evaluate(after, seat) - evaluate(state, seat)
    return Hint(
        action=action,
        move=state.action_to_string(action),
        behind=round(max(0.0, behind), 1),
        earns=int(earns),
        sets_up=round(gained - earns, 1),
        exact=exact,
    )
