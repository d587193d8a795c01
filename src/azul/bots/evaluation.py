"""The game's evaluation of a position, as bots use it (each game gives its own through
``Game.strategy()``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from azul.core.api import State, style_error

Evaluation = Callable[[State, int], float]


def evaluator(state: State, search: bool = False) -> Evaluation:
    """The evaluation function of ``state``'s game (``search``: the one for search leaves)."""
    strategy = state.game.strategy()
    return strategy.evaluate_leaf if search else strategy.evaluate


def style_evaluator(state: State, style: str) -> Evaluation:
    """The game's evaluation in the named ``style`` (``Strategy.styles``); OptionError, naming
    the styles the game has, when it has no such style."""
    strategy = state.game.strategy()
    styles = strategy.styles()
    if style not in styles:
        raise style_error(state.game.name, style, styles)
    return partial(strategy.evaluate_style, style)
