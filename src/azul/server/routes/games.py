"""The lobby's routes: the public games, new games, joins and rematches, what people choose at
setup, the server's figures and the client's words."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

import azul
from azul import i18n
from azul.server.errors import NotFound, responses
from azul.server.links import LINKS, linked, watching
from azul.server.replies import client_of
from azul.server.routes import lobby_of, rates_of
from azul.server.schema import Join, NewGame, Setup, Token, setup

router = APIRouter()


@router.get("/api/games", operation_id="list_games", responses=responses())
async def list_games(request: Request) -> list[dict[str, Any]]:
    """The public games, newest first: their open seats to join, and links to watch."""
    return await lobby_of(request).lobby()


@router.post(
    "/api/games",
    status_code=201,
    operation_id="new_game",
    responses={
        **responses(400, 429),
        201: {
            "description": "the new game, with each person's token",
            "links": {
                "GetGame": watching("get_game"),
                "GetSvg": watching("get_svg"),
                "GetRecord": watching("get_record"),
                **LINKS["new_game"],
            },
        },
    },
)
async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
    rates_of(request).hit("create", client_of(request))
    seats = [s.model_dump() for s in body.seats]
    clock = None if body.clock is None else body.clock.model_dump(exclude_none=True)
    lobby = lobby_of(request)
    return await lobby.create(body.game, body.options, seats, body.seed, body.public, clock)


@router.post(
    "/api/games/{game_id}/join",
    operation_id="join",
    responses={**responses(400, 404, 409, 429), **linked("join")},
)
async def join(game_id: str, body: Join, request: Request) -> dict[str, Any]:
    """Take an open seat of a public game: the answer holds the seat's token."""
    rates_of(request).hit("create", client_of(request))
    return await lobby_of(request).join(game_id, body.seat, body.name)


@router.post(
    "/api/games/{game_id}/rematch",
    operation_id="rematch",
    responses={**responses(400, 403, 404, 409, 429), **linked("rematch")},
)
async def post_rematch(game_id: str, body: Token, request: Request) -> dict[str, Any]:
    """A new deal of a finished game with the same seats: its id and your token there (the
    first to ask creates it; the others find it in their views)."""
    rates_of(request).hit("create", client_of(request))
    return await lobby_of(request).rematch(game_id, body.token)


@router.get("/api/setup", operation_id="get_setup", responses=responses())
async def get_setup(request: Request) -> Setup:
    """What people choose to set up a table: each game with its title and options (among them
    the files this server offers for a game's file option, by name), and the bots' levels.
    Titles and labels are English messages: the client translates them with its catalog
    (``/api/i18n/{lang}``)."""
    return setup(lobby_of(request).settings.files)


@router.get("/api/stats", operation_id="stats", responses=responses())
async def get_stats(request: Request) -> dict[str, Any]:
    """Tables in memory, people's moves since the start, and the server's time per move
    (checks, commit and live views, not bots thinking)."""
    return lobby_of(request).stats()


def _rules(lang: str) -> dict[str, str]:
    """The rules summary of each game in ``lang``, for the games that have one."""
    summaries = {}
    for name in sorted(azul.GAMES):
        text = azul.GAMES[name].rules_summary(lang)
        if text is not None:
            summaries[name] = text
    return summaries


@router.get("/api/i18n/{lang}", operation_id="get_catalog", responses=responses(404))
async def get_catalog(lang: str) -> dict[str, Any]:
    """The browser client's words in ``lang`` (msgid: text), and the rules summaries."""
    if lang not in i18n.LANGUAGES:
        raise NotFound(
            "no language {lang!r}: use one of {languages}",
            lang=lang[:20],
            languages=", ".join(i18n.LANGUAGES),
        )
    return {
        "lang": lang,
        "languages": i18n.LANGUAGES,
        "messages": i18n.catalog(lang),
        "rules": _rules(lang),
    }
