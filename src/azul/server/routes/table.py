"""One game's routes: its views, moves, undo, taking a seat back, drawings, hints and record."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response

from azul import i18n
from azul.core.errors import AzulError
from azul.server.errors import responses
from azul.server.links import linked
from azul.server.replies import client_of, json_view
from azul.server.routes import lobby_of, rates_of
from azul.server.schema import (
    HintOut,
    Language,
    Move,
    Refused,
    ReviewOut,
    SeatName,
    Token,
)

router = APIRouter()

REFUSED_MOVE = {
    "model": Refused,
    "description": "not now: not your turn, the game is over, or the move was chosen on an "
    "older view (then the view now comes with the error)",
}


@router.get(
    "/api/games/{game_id}",
    operation_id="get_game",
    responses={**responses(403, 404), **linked("get_game")},
)
async def get_game(game_id: str, request: Request, token: str = Query(max_length=64)) -> Response:
    """A seat's or the spectators' view, with the legal moves of the seat to move."""
    return json_view(await lobby_of(request).view(game_id, token))


@router.post(
    "/api/games/{game_id}/moves",
    operation_id="post_move",
    responses={**responses(400, 403, 404), **linked("post_move"), 409: REFUSED_MOVE},
)
async def post_move(game_id: str, body: Move, request: Request) -> Response:
    """Play a move; the answer is the seat's new view. A move chosen on an older version of
    the view than the game's is refused with 409 and the view now (``view``)."""
    lobby = lobby_of(request)
    return json_view(await lobby.move(game_id, body.token, body.action, body.move, body.version))


@router.post(
    "/api/games/{game_id}/undo",
    operation_id="post_undo",
    responses={**responses(400, 403, 404, 409), **linked("post_undo")},
)
async def post_undo(game_id: str, body: Token, request: Request) -> Response:
    """Take back your last move (and the bots' replies since); the seat's new view."""
    return json_view(await lobby_of(request).undo(game_id, body.token))


@router.post(
    "/api/games/{game_id}/back",
    operation_id="post_back",
    responses={**responses(400, 403, 404, 409), **linked("post_back")},
)
async def post_back(game_id: str, body: Token, request: Request) -> Response:
    """Take back your seat from the bot that kept it after your time ran out twice in a row;
    the seat's new view."""
    return json_view(await lobby_of(request).back(game_id, body.token))


@router.post(
    "/api/games/{game_id}/name",
    operation_id="post_name",
    responses={**responses(400, 403, 404, 409, 429), **linked("post_name")},
)
async def post_name(game_id: str, body: SeatName, request: Request) -> Response:
    """Name your seat, once (an invited friend's seat has no name); the seat's new view."""
    rates_of(request).hit("create", client_of(request))
    lobby = lobby_of(request)
    await lobby.name_seat(game_id, body.token, body.name)
    return json_view(await lobby.view(game_id, body.token))


@router.get(
    "/api/games/{game_id}/svg",
    operation_id="get_svg",
    responses={**responses(400, 403, 404, 429), 200: {"content": {"image/svg+xml": {}}}},
)
async def get_svg(
    game_id: str,
    request: Request,
    token: str = Query(max_length=64),
    patterns: bool = Query(False, description="a pattern per colour (colour-blind mode)"),
    ply: int | None = Query(None, ge=0, le=10_000, description="the position after N moves"),
    lang: Annotated[Language, Query(description="language of the drawing's words")] = "en",
    layout: Literal["wide", "tall"] = Query("wide", description="wide screen or phone"),
    focus: int | None = Query(None, ge=0, lt=8, description="the seat drawn large"),
) -> Response:
    if lang not in i18n.LANGUAGES:
        raise AzulError(
            "lang {lang!r}: use one of {languages}",
            lang=lang,
            languages=", ".join(i18n.LANGUAGES),
        )
    # counted against the address's rate by guards.RatesFirst, before the request was read
    svg = await lobby_of(request).svg(game_id, token, patterns, ply, lang, layout, focus)
    return Response(svg, media_type="image/svg+xml")


@router.post(
    "/api/games/{game_id}/hint",
    operation_id="post_hint",
    responses=responses(400, 403, 404, 409, 429),
)
async def post_hint(game_id: str, body: Token, request: Request) -> list[HintOut]:
    """The three best moves for the seat to move, with what each gives up against the best,
    earns at once and sets up (the address's rate: guards.RatesFirst)."""
    found = await lobby_of(request).hint(game_id, body.token, client_of(request))
    return [HintOut(**h) for h in found]


@router.get(
    "/api/games/{game_id}/review",
    operation_id="get_review",
    responses=responses(403, 404, 409, 429),
)
async def get_review(
    game_id: str, request: Request, token: str = Query(max_length=64)
) -> ReviewOut:
    """A finished game's review: how far it is, or the review once made (409 while the game
    is being played; the address's rate: guards.RatesFirst)."""
    found = await lobby_of(request).review(game_id, token, client_of(request))
    return ReviewOut(**found)


@router.post(
    "/api/games/{game_id}/review",
    operation_id="post_review",
    responses=responses(400, 403, 404, 409, 429),
)
async def post_review(game_id: str, body: Token, request: Request) -> ReviewOut:
    """Ask for a finished game's review: it is made on the bot processes, behind the bots'
    moves, and kept; look at its progress with GET. 429 when too many are being made."""
    found = await lobby_of(request).review(game_id, body.token, client_of(request), start=True)
    return ReviewOut(**found)


@router.get(
    "/api/games/{game_id}/record",
    operation_id="get_record",
    responses={**responses(403, 404), 200: {"content": {"application/jsonl": {}}}},
)
async def get_record(
    game_id: str, request: Request, token: str = Query(max_length=64)
) -> PlainTextResponse:
    """The replayable record so far: the moves and the draws that happened."""
    text = await lobby_of(request).record(game_id, token)
    return PlainTextResponse(text, media_type="application/jsonl")
