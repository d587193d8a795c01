"""The game's evaluation of a position, as bots use it (each game gives its own through
``Game.strategy()``)."""

from __future__ import annotations

from collections.abc import Callable

from azul.core.api import State

Evaluation = Callable[[State, int], float]


def evaluator(state: State, search: bool = False) -> Evaluation:
    """The evaluation function of ``state``'s game (``search``: the one for search leaves)."""
    strategy = state.game.strategy()
    return strategy.evaluate_leaf if search else strategy.evaluate
