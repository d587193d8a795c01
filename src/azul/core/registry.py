"""The registry of games: each name with the place of its Game class, imported on first use.

The games of this package register themselves in ``azul/__init__.py``; other packages add theirs
with :func:`register` or through the ``azul.games`` entry point group (``name =
"package.module:GameClass"``), so that nothing here knows any game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any

from azul.core.api import Game, State
from azul.core.errors import OptionError, PositionError
from azul.core.validate import parse

ENTRY_POINTS = "azul.games"


class Registry(Mapping[str, type[Game[Any]]]):
    """Game name -> Game class. Names are known at once; a class is imported when looked up."""

    def __init__(self) -> None:
        self._places: dict[str, str | type[Game[Any]]] = {}
        self._scanned = False

    def register(self, name: str, game: str | type[Game[Any]]) -> None:
        """Add (or replace) the game ``name``: its class, or ``"module:Class"`` to import."""
        self._places[name] = game

    def unregister(self, name: str) -> None:
        self._places.pop(name, None)

    def _scan(self) -> None:
        """Add the games that installed packages declare as entry points (once)."""
        if not self._scanned:
            self._scanned = True
            for ep in entry_points(group=ENTRY_POINTS):
                self._places.setdefault(ep.name, ep.value)

    def __getitem__(self, name: str) -> type[Game[Any]]:
        if name not in self._places:
            self._scan()
        place = self._places[name]
        if isinstance(place, str):
            module, _, attr = place.partition(":")
            place = getattr(importlib.import_module(module), attr)
            if not (isinstance(place, type) and issubclass(place, Game)):
                raise OptionError(f"game {name!r}: {module}:{attr} is not a Game class")
            self._places[name] = place
        return place

    def __iter__(self) -> Iterator[str]:
        self._scan()
        return iter(self._places)

    def __len__(self) -> int:
        self._scan()
        return len(self._places)

    def __contains__(self, name: object) -> bool:
        if name not in self._places:
            self._scan()
        return name in self._places


GAMES = Registry()
"""Every game by name (see :class:`Registry`)."""


def load_game(name: str, engine: str | None = None, **options: Any) -> Game[Any]:
    """The game ``name`` with its options, e.g. ``load_game("pavilion", players=3)``. Its
    states run on the game's compiled core wherever it is built; ``engine="python"`` (or the
    environment's ``AZUL_PURE_PYTHON=1``) chooses the Python reference engine, and
    ``engine="compiled"`` insists on the core. Both play identically."""
    if not isinstance(name, str) or name not in GAMES:
        raise OptionError(f"unknown game {name!r}: known games are {', '.join(sorted(GAMES))}")
    game = GAMES[name](**options)
    game.use_engine(engine)
    return game


def load_state(doc: dict[str, Any] | str, seed: int | None = None) -> State:
    """Load any game's position document: the game and options come from the document."""
    doc = parse(doc)
    if not isinstance(doc, dict):
        raise PositionError(f"a position is a JSON object, not {type(doc).__name__}")
    name = doc.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise PositionError(f"game: {name!r} is not one of {', '.join(sorted(GAMES))}")
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise PositionError("options: expected an object")
    try:
        game = load_game(name, **options)
    except OptionError as e:
        raise PositionError(f"options: {e}") from None
    state: State = game.state_from_json(doc, seed)
    return state
