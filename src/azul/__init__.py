"""Azul: Summer Pavilion (and more games of the Azul family) behind one OpenSpiel-shaped API.

>>> import azul
>>> game = azul.load_game("pavilion", players=2)
>>> state = game.new_initial_state(seed=7)
>>> state.apply_action(state.legal_actions()[0])
"""

from __future__ import annotations

from typing import Any

from azul.core.api import CHANCE, TERMINAL, Game, GameInfo, State
from azul.core.errors import AzulError, IllegalMoveError, OptionError, PositionError, RecordError
from azul.core.validate import parse
from azul.pavilion.game import PavilionGame
from azul.sintra.game import SintraGame

__version__ = "0.1.0"

GAMES: dict[str, type[Game]] = {
    PavilionGame.name: PavilionGame,
    SintraGame.name: SintraGame,
}
"""The registry: game name -> Game class."""


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` with its options, e.g. ``load_game("pavilion", players=3)``."""
    cls = GAMES.get(name)
    if cls is None:
        raise OptionError(f"unknown game {name!r}: known games are {', '.join(sorted(GAMES))}")
    return cls(**options)


def load_state(doc: dict | str, seed: int | None = None) -> State:
    """Load any game's position document: the game and options come from the document."""
    doc = parse(doc)
    if not isinstance(doc, dict):
        raise PositionError(f"a position is a JSON object, not {type(doc).__name__}")
    name = doc.get("game")
    if name not in GAMES:
        raise PositionError(f"game: {name!r} is not one of {', '.join(sorted(GAMES))}")
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise PositionError("options: expected an object")
    try:
        game = load_game(name, **options)
    except OptionError as e:
        raise PositionError(f"options: {e}") from None
    return game.state_from_json(doc, seed)


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
    "load_game",
    "load_state",
]
