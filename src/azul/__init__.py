"""Azul: Summer Pavilion and Azul: Stained Glass of Sintra behind one OpenSpiel-shaped API.

>>> import azul
>>> game = azul.load_game("pavilion", players=2)
>>> state = game.new_initial_state(seed=7)
>>> state.apply_action(state.legal_actions()[0])

Games are found by name in ``azul.GAMES`` and imported when first loaded; another package adds
its own with ``azul.GAMES.register(name, "module:GameClass")`` or an ``azul.games`` entry point.
"""

from __future__ import annotations

from azul._version import __version__ as __version__
from azul.core.api import CHANCE, TERMINAL, Game, GameInfo, State, Strategy
from azul.core.errors import AzulError, IllegalMoveError, OptionError, PositionError, RecordError
from azul.core.registry import GAMES, load_game, load_state

GAMES.register("pavilion", "azul.pavilion.game:PavilionGame")
GAMES.register("sintra", "azul.sintra.game:SintraGame")

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "AzulError",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "OptionError",
    "PositionError",
    "RecordError",
    "State",
    "Strategy",
    "load_game",
    "load_state",
]
