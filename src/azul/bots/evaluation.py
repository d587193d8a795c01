"""The game's evaluation of a position, as bots use it (each game gives its own through
``Game.strategy()``), and the choice between the hand evaluation and a trained value network
(``azul.learn.net``) at a search's leaves."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from azul.core.api import Game, State, style_error
from azul.core.errors import AzulError, OptionError

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


# -- the learned evaluation -------------------------------------------------------------------

EVALS = ("auto", "learned", "hand")
"""How a search values its leaves: ``learned`` by the game's trained value network (which must
ship for the game and its number of players), ``hand`` by ``Strategy.evaluate_leaf``, ``auto``
by the network wherever one ships, else by hand."""

log = logging.getLogger(__name__)
_SHIPPED: dict[str, Any] = {}  # the shipped networks read so far, by file
_NOTED: set[str] = set()  # the fallbacks already logged


def check_eval(choice: Any) -> str:
    """``choice`` if it is one of ``EVALS``; OptionError naming them otherwise."""
    if choice not in EVALS:
        raise OptionError(f"eval {choice!r} is not one of {', '.join(EVALS)}")
    return str(choice)


def load_weights(path: Any) -> Any:
    """The value network in the file ``path`` (``azul.learn.net.Net``), checked whole; a
    ``Net`` itself is taken as it is."""
    loaded = sys.modules.get("azul.learn.net")  # a Net can only come from there
    if loaded is not None and isinstance(path, loaded.Net):
        return path
    if not isinstance(path, str | os.PathLike):
        raise OptionError(f"weights {path!r} is not a file name")
    if not _has_numpy():
        raise OptionError(f"weights={path}: reading a network needs numpy (pip install numpy)")
    from azul.learn import net

    return net.load(path)


def value_net(game: Game[Any], choice: str, weights: Any = None) -> Any:
    """The value network (``azul.learn.net.Net``) that search leaves use in ``game`` for the
    eval ``choice`` (``EVALS``) and an explicit network ``weights``; None: the hand evaluation.
    A network that does not fit the game, or ``learned`` where none ships, raises AzulError;
    ``auto`` without numpy logs a note once and falls back to the hand evaluation."""
    if choice == "hand":
        return None
    if weights is not None:
        weights.check(game)
        return weights
    players = game.num_players()
    found = game.strategy().value_weights(players)
    if found is None:
        if choice == "learned":
            raise AzulError(
                f"no trained value network ships for {game.name} with {players} players"
            )
        return None
    if not _has_numpy():
        if choice == "learned":
            raise AzulError(f"eval=learned in {game.name} needs numpy (pip install numpy)")
        if game.name not in _NOTED:
            _NOTED.add(game.name)
            log.warning("numpy is not installed: %s's search uses the hand evaluation", game.name)
        return None
    key = str(found)
    if key not in _SHIPPED:
        from azul.learn import net

        with found.open("rb") as f:
            _SHIPPED[key] = net.load(f)
    shipped = _SHIPPED[key]
    shipped.check(game)
    return shipped


def _has_numpy() -> bool:
    return importlib.util.find_spec("numpy") is not None
