"""The API's routes by concern, as FastAPI routers that ``azul.server.app`` wires: ``games``
(the lobby: new games, joins, rematches, setup), ``table`` (one game: views, moves, undo,
drawings, hints, records) and ``live`` (the WebSocket)."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from azul.server.guards import Rates
from azul.server.service import Lobby


def lobby_of(connection: HTTPConnection) -> Lobby:
    """The application's lobby."""
    lobby: Lobby = connection.app.state.lobby
    return lobby


def rates_of(connection: HTTPConnection) -> Rates:
    """The application's limits per client and minute."""
    rates: Rates = connection.app.state.rates
    return rates
