"""The HTTP/JSON and WebSocket API (OpenAPI schema at /openapi.json, docs at /docs) and the
browser client's static files. Every error is ``{"error": "..."}`` in the client's language."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
)
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.routing import Match
from starlette.types import Message, Scope

import azul
from azul import i18n
from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server import ratings
from azul.server.connections import configure as configure_connections
from azul.server.errors import (
    INTERNAL,
    Invalid,
    LastResort,
    NotFound,
    Outdated,
    TooLarge,
    TooMany,
    responses,
    status_of,
)
from azul.server.guards import BodyLimit, Connections, Rates
from azul.server.notices import listen
from azul.server.service import MAX_SEED, MOVE_LENGTH, NAME_LENGTH, Lobby, _die_with_parent, title
from azul.server.settings import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, Settings
from azul.server.store import Store

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("azul.server")


def _token() -> Any:
    return Field(max_length=64, description="a seat's or the spectators' secret token")


def _alternatives(names: list[str]) -> str:
    """``'a', 'b' or 'c'``, as pydantic names the values of a Literal."""
    quoted = [repr(n) for n in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _one_of(names: Callable[[], list[str]]) -> Callable[[Any], str]:
    """A check that a value is one of ``names()`` as they are when a request comes, refusing
    it as pydantic refuses a value outside a Literal."""

    def check(value: Any) -> str:
        known = names()
        if not isinstance(value, str) or value not in known:
            raise PydanticCustomError(
                "literal_error", "Input should be {expected}", {"expected": _alternatives(known)}
            )
        return value

    return check


def _listing(names: Callable[[], list[str]]) -> Callable[[JsonDict], None]:
    """The schema's list of the values ``names()`` when the schema is made."""

    def schema(field: JsonDict) -> None:
        field["enum"] = list(names())

    return schema


def _games() -> list[str]:
    return sorted(azul.GAMES)  # a game registered after the app is built is taken too


def _levels() -> list[str]:
    return list(LEVELS)


GameName = Annotated[
    str, BeforeValidator(_one_of(_games)), Field(json_schema_extra=_listing(_games))
]
Level = Annotated[
    str, BeforeValidator(_one_of(_levels)), Field(json_schema_extra=_listing(_levels))
]


def _languages() -> list[str]:
    return list(i18n.LANGUAGES)


Language = Annotated[
    str, BeforeValidator(_one_of(_languages)), Field(json_schema_extra=_listing(_languages))
]


def _seat_counts() -> tuple[int, int]:
    """The fewest and most seats a game of the server has, as the registry is now."""
    counts = set()
    for game in _setup().games:
        players = [o for o in game.options if o.name == "players"]
        values = players[0].values if players else []
        counts |= {v.value for v in values if isinstance(v.value, int)} or {game.players}
    return min(counts), max(counts)


def _seat_count(seats: list[Any]) -> list[Any]:
    fewest, most = _seat_counts()
    if len(seats) < fewest:
        raise PydanticCustomError("too_short", "at least {n} seats", {"n": fewest})
    if len(seats) > most:
        raise PydanticCustomError("too_long", "at most {n} seats", {"n": most})
    return seats


def _seat_bounds(field: JsonDict) -> None:
    field["minItems"], field["maxItems"] = _seat_counts()


class SeatSpec(BaseModel):
    kind: Literal["human", "open", "bot"] = Field(
        description="'human' (an invite link), 'open' (anyone joins from the lobby) or 'bot'"
    )
    bot: Level | None = Field(None, description="the bot's level (default heuristic)")
    name: str | None = Field(None, max_length=NAME_LENGTH, description="the player's name")


class NewGame(BaseModel):
    game: GameName = Field(description="the game")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options, e.g. {'players': 3}"
    )
    seats: Annotated[list[SeatSpec], AfterValidator(_seat_count)] = Field(
        description="one per player", json_schema_extra=_seat_bounds
    )
    seed: int | None = Field(
        None,
        ge=0,
        lt=MAX_SEED,
        strict=True,
        description="replay a deal: a seeded game's draws can be computed, and it says so",
    )
    public: bool = Field(False, description="listed in the lobby, to join or to watch")


class LiveMove(BaseModel):
    """A move sent over a live connection (its token names the seat)."""

    model_config = ConfigDict(extra="forbid")
    action: int | None = Field(None, strict=True, description="an action id")
    move: str | None = Field(
        None, max_length=MOVE_LENGTH, description="or the move in notation, 'F3:R'"
    )
    version: int | None = Field(
        None,
        ge=0,
        strict=True,
        description="the version of the view the move was chosen on: a move chosen on an older "
        "view is refused (409, with the view now), never played; without it, the move is "
        "judged on the game as it is",
    )


class Move(LiveMove):
    model_config = ConfigDict(extra="ignore")
    token: str = _token()


class Token(BaseModel):
    token: str = _token()


class Join(BaseModel):
    seat: int = Field(ge=0, lt=8, description="an open seat")
    name: str | None = Field(None, max_length=NAME_LENGTH, description="the player's name")


class Choice(BaseModel):
    value: bool | int | float | str | None = Field(description="the value sent in 'options'")
    label: str = Field(description="what people read: an English message to translate")


class ChoiceOption(BaseModel):
    name: str = Field(description="the option's key in 'options' of a new game")
    label: str = Field(description="what people read: an English message to translate")
    values: list[Choice] = Field(description="the values people choose from, the default first")


class LevelRating(BaseModel):
    rating: int = Field(description="the level's measured rating (openskill, 40 × mu)")
    low: int = Field(description="the low end of its interval of about 95%")
    high: int = Field(description="the high end")
    games: int = Field(description="the games it rests on")


class GameSetup(BaseModel):
    name: str = Field(description="the game, as named in a new game")
    title: str = Field(description="the game's name for people: an English message to translate")
    players: int = Field(description="the number of players when no option says otherwise")
    options: list[ChoiceOption] = Field(
        description="what people choose at setup, the number of players first; every other "
        "option keeps its default"
    )
    ratings: dict[int, dict[str, LevelRating]] = Field(
        default_factory=dict,
        description="the levels measured in this game, by number of players then level",
    )


class LevelChoice(BaseModel):
    name: str = Field(description="the level, as named in a bot seat")
    label: str = Field(description="what people read: an English message to translate")


class Setup(BaseModel):
    games: list[GameSetup] = Field(description="every game of the server, the default first")
    levels: list[LevelChoice] = Field(description="the bots' levels, weakest first")
    default_level: str = Field(description="the level of a bot seat that names none")


def _setup() -> Setup:
    """What a client offers when people set up a table, from the registry as it is now (in the
    order the games were registered: the first is the default)."""
    return _setup_of(tuple((name, azul.GAMES[name]) for name in azul.GAMES))


@lru_cache(maxsize=8)
def _setup_of(games: tuple[tuple[str, type[azul.Game[Any]]], ...]) -> Setup:
    """The setup answer for these registered games, made once (making a game to learn its
    default number of players costs a fraction of a millisecond)."""
    found = []
    for name, game in games:
        options = [ChoiceOption(**o.to_json()) for o in game.setup_options()]
        players = game().info.num_players
        rated = {
            n: {level: LevelRating(**r) for level, r in by_level.items()}
            for n, by_level in ratings.of_game(name).items()
        }
        found.append(
            GameSetup(name=name, title=title(name), players=players, options=options, ratings=rated)
        )
    levels = [LevelChoice(name=n, label=LEVEL_NAMES.get(n, n)) for n in LEVELS]
    return Setup(games=found, levels=levels, default_level=DEFAULT_LEVEL)


# What a validation problem is called in every language, by pydantic's error type.
PROBLEMS = {
    "missing": N_("{where} is missing"),
    "json_invalid": N_("the body is not valid JSON"),
    "int_parsing": N_("{where} must be a whole number"),
    "int_type": N_("{where} must be a whole number"),
    "int_from_float": N_("{where} must be a whole number"),
    "string_type": N_("{where} must be text"),
    "string_too_long": N_("{where} is too long"),
    "bool_parsing": N_("{where} must be true or false"),
    "bool_type": N_("{where} must be true or false"),
    "dict_type": N_("{where} must be an object"),
    "model_attributes_type": N_("{where} must be an object"),
    "list_type": N_("{where} must be a list"),
    "too_long": N_("{where} has too many items"),
    "too_short": N_("{where} has too few items"),
    "literal_error": N_("{where} must be one of {expected}"),
    "greater_than_equal": N_("{where} is too small"),
    "greater_than": N_("{where} is too small"),
    "less_than": N_("{where} is too large"),
    "less_than_equal": N_("{where} is too large"),
}


class _HideTokens(logging.Filter):
    """Access log lines show ``token=***`` instead of a seat's or spectator's token."""

    PATTERN = re.compile(r"(token=)[^&\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.PATTERN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        record.msg = self.PATTERN.sub(r"\1***", str(record.msg))
        return True


def settle_collector() -> None:
    """The garbage collector of a server process, once everything is imported: the objects of
    every import live as long as the server, so they are put out of the collector's reach (a
    full collection no longer scans them), and young objects are collected by 5,000 rather
    than 700. Building a view makes hundreds of short-lived objects, which crossed 700 at
    almost every move; each collection then promoted what a move still held, and the full
    collections this brought paused the event loop for up to 0.1 s under load."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, 10, 10)


def hide_tokens() -> None:
    """Mask tokens in uvicorn's access log (when an operator turns it on)."""
    logging.getLogger("uvicorn.access").addFilter(_HideTokens())


def _language(request: HTTPConnection) -> str:
    """The client's language for messages: ``?lang=``, else Accept-Language, else English."""
    wanted = [request.query_params.get("lang")]
    for part in request.headers.get("accept-language", "")[:200].split(","):
        wanted.append(part.split(";")[0].strip())
    for tag in wanted:
        lang = i18n.supported(tag)
        if lang:
            return lang
    return i18n.DEFAULT


def _client(request: HTTPConnection) -> str:
    """The client's address (behind a proxy: run uvicorn with --forwarded-allow-ips)."""
    return request.client.host if request.client else "unknown"


def _answer(request: Request | WebSocket, error: AzulError) -> JSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else None
    return JSONResponse(_body(error, _language(request)), status_of(error), headers=headers)


def _body(error: AzulError, lang: str) -> dict[str, Any]:
    """An error's answer: its message, and for a move on an old view the view now."""
    body: dict[str, Any] = {"error": error.translate(i18n.in_language(lang))}
    if isinstance(error, Outdated) and error.view is not None:
        body["view"] = json.loads(error.view)
    return body


def _json(text: str) -> Response:
    """A view, already JSON text (built once for every listener)."""
    return Response(text, media_type="application/json")


def _invalid(errors: Sequence[Any], whole: str = "body") -> Invalid:
    """The first problem of a request (or message) that does not have the documented shape."""
    problem = errors[0] if errors else {}
    where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or whole
    template = PROBLEMS.get(problem.get("type", ""), N_("{where} is not valid"))
    expected = str(problem.get("ctx", {}).get("expected", "")).replace(" or ", ", ")
    return Invalid(template, where=where, expected=expected)


def _rules(lang: str) -> dict[str, str]:
    """The rules summary of each game in ``lang``, for the games that have one."""
    summaries = {}
    for name in sorted(azul.GAMES):
        text = azul.GAMES[name].rules_summary(lang)
        if text is not None:
            summaries[name] = text
    return summaries


def _allowed(app: FastAPI, scope: Scope) -> str:
    """The methods some route takes at the request's path (a 405's ``Allow``)."""
    methods: set[str] = set()
    for route in app.router.routes:
        if route.matches(scope)[0] != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods))


def _link(
    operation: str, parameters: dict[str, str], body: dict[str, str] | None = None
) -> dict[str, Any]:
    """An OpenAPI link to ``operation``, its parameters and body from the answer (``$response``)
    or the request (``$request``) it follows, so that clients and API fuzzers play real games."""
    link: dict[str, Any] = {"operationId": operation, "parameters": parameters}
    if body is not None:
        link["requestBody"] = body
        link["x-schemathesis"] = {"merge_body": False}  # the body as given, nothing added
    return link


def _acting(token: str, game: str = "$request.path.game_id") -> dict[str, dict[str, Any]]:
    """Links to what the holder of ``token`` does next in a game: a legal move of the view
    just answered (with its version), a hint, an undo, a rematch, a look at the view."""
    body = {"token": token}
    move = {
        **body,
        "action": "$response.body#/legal/0/action",
        "version": "$response.body#/version",
    }
    return {
        "PostMove": _link("post_move", {"game_id": game}, move),
        "PostHint": _link("post_hint", {"game_id": game}, body),
        "PostUndo": _link("post_undo", {"game_id": game}, body),
        "Rematch": _link("rematch", {"game_id": game}, body),
    }


def _seat(n: int) -> dict[str, dict[str, Any]]:
    """From a new game, seat ``n``'s view, hint, undo and rematch."""
    token = f"$response.body#/seats/{n}/token"
    game = "$response.body#/id"
    view = _link("get_game", {"game_id": game, "token": token})
    return {f"GetGameOfSeat{n}": view} | {
        f"{name}OfSeat{n}": link
        for name, link in _acting(token, game).items()
        if name != "PostMove"
    }


_NEW_VIEW = {"game_id": "$response.body#/id", "token": "$response.body#/token"}
LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "new_game": _seat(0)
    | _seat(1)
    | {
        "Join": _link(
            "join", {"game_id": "$response.body#/id"}, {"seat": "$response.body#/seats/1/seat"}
        )
    },
    "get_game": _acting("$request.query.token"),
    "post_move": _acting("$request.body#/token")
    | {
        "GetGame": _link(
            "get_game", {"game_id": "$request.path.game_id", "token": "$request.body#/token"}
        )
    },
    "post_undo": _acting("$request.body#/token"),
    "rematch": {"GetGame": _link("get_game", _NEW_VIEW)},
    "join": {"GetGame": _link("get_game", _NEW_VIEW)},
}


def _linked(operation: str) -> dict[int | str, dict[str, Any]]:
    """An operation's answer (200) with its links."""
    return {200: {"description": "Successful Response", "links": LINKS[operation]}}


class Refused(BaseModel):
    """A move refused because it was chosen on an older view: the view now comes with it."""

    error: str = Field(description="what is wrong, in the client's language")
    view: dict[str, Any] | None = Field(
        None, description="the game now, when the move named an older version of its view"
    )


REFUSED_MOVE = {
    "model": Refused,
    "description": "not now: not your turn, the game is over, or the move was chosen on an "
    "older view (then the view now comes with the error)",
}


SERVE_ENVIRONMENT = "AZUL_SERVE"
"""The environment variable through which ``azul serve --workers N`` hands each worker process
its database and settings (JSON)."""


def serve_environment(database: str | None, settings: Settings) -> str:
    """What ``from_environment`` reads back; the calling process is the workers' parent."""
    return json.dumps(
        {"database": database, "settings": dataclasses.asdict(settings), "server": os.getpid()}
    )


def from_environment() -> FastAPI:
    """The application of one worker process of ``azul serve --workers N``. The worker ends
    with the process that started it, even when that one is killed (Linux): no worker is
    left holding the port."""
    found = json.loads(os.environ[SERVE_ENVIRONMENT])
    if "server" in found:
        _die_with_parent(found["server"])
    hide_tokens()
    app = create_app(found["database"], settings=Settings(**found["settings"]))
    settle_collector()
    return app


def create_app(
    database: str | None = None,
    executor: Executor | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The application over the database at ``database`` (an SQLAlchemy URL); bots think in
    ``executor`` (a process pool by default); ``settings`` are the operator's limits."""
    settings = settings or Settings()
    configure_connections(settings)
    lobby = Lobby(Store(database), executor, settings)
    rates = Rates(
        {
            "create": settings.creates_per_minute,
            "hint": settings.hints_per_minute,
            "draw": settings.drawings_per_minute,
        }
    )
    connections = Connections(settings.sockets_per_client)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.warm_up()
        tasks = [
            asyncio.ensure_future(lobby.keep_tidy(min(30.0, settings.idle_seconds / 2))),
            asyncio.ensure_future(lobby.keep_bots_moving(settings.bot_sweep)),
        ]
        if lobby.store.engine.dialect.name == "postgresql":  # other processes may write
            tasks.append(
                asyncio.ensure_future(
                    listen(lobby.store.url, lobby.notice, lobby.listening_again, lobby.lost)
                )
            )
        yield
        for task in tasks:
            task.cancel()
        lobby.close()

    app = FastAPI(title="Azul games", version=azul.__version__, lifespan=lifespan)
    app.state.lobby = lobby

    def too_large(scope: Scope) -> str:
        limit = TooLarge("the request body is over {n} bytes", n=settings.max_body)
        return limit.translate(i18n.in_language(_language(HTTPConnection(scope))))

    app.add_middleware(BodyLimit, limit=settings.max_body, message=too_large)

    def internal(scope: Scope) -> str:
        return i18n.in_language(_language(HTTPConnection(scope)))(INTERNAL)

    app.add_middleware(LastResort, message=internal)  # outside the others: it catches theirs

    @app.exception_handler(AzulError)
    async def azul_error(request: Request, exc: AzulError) -> JSONResponse:
        return _answer(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _answer(request, _invalid(exc.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            error: AzulError = NotFound("there is no such page: {path}", path=request.url.path[:80])
        elif exc.status_code == 405:
            error = AzulError("{method} is not allowed here", method=request.method)
        else:
            error = AzulError("the request was refused ({status})", status=exc.status_code)
        response = _answer(request, error)
        response.status_code = exc.status_code
        if exc.status_code == 405:  # every method of the path, not the first route's only
            response.headers["Allow"] = _allowed(app, request.scope)
        return response

    def ask(gid: str) -> dict[str, Any]:
        """The OpenAPI link from a new game to its views (for clients and API fuzzers)."""
        return {
            "operationId": gid,
            "parameters": {
                "game_id": "$response.body#/id",
                "token": "$response.body#/watch_token",
            },
        }

    @app.get("/api/games", operation_id="list_games", responses=responses())
    async def list_games() -> list[dict[str, Any]]:
        """The public games, newest first: their open seats to join, and links to watch."""
        return await lobby.lobby()

    @app.post(
        "/api/games",
        status_code=201,
        operation_id="new_game",
        responses={
            **responses(400, 429),
            201: {
                "description": "the new game, with each person's token",
                "links": {
                    "GetGame": ask("get_game"),
                    "GetSvg": ask("get_svg"),
                    "GetRecord": ask("get_record"),
                    **LINKS["new_game"],
                },
            },
        },
    )
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        rates.hit("create", _client(request))
        seats = [s.model_dump() for s in body.seats]
        return await lobby.create(body.game, body.options, seats, body.seed, body.public)

    @app.post(
        "/api/games/{game_id}/join",
        operation_id="join",
        responses={**responses(400, 404, 409, 429), **_linked("join")},
    )
    async def join(game_id: str, body: Join, request: Request) -> dict[str, Any]:
        """Take an open seat of a public game: the answer holds the seat's token."""
        rates.hit("create", _client(request))
        return await lobby.join(game_id, body.seat, body.name)

    @app.get("/api/setup", operation_id="get_setup", responses=responses())
    async def get_setup() -> Setup:
        """What people choose to set up a table: each game with its title and options, and the
        bots' levels. Titles and labels are English messages: the client translates them with
        its catalog (``/api/i18n/{lang}``)."""
        return _setup()

    @app.get("/api/stats", operation_id="stats", responses=responses())
    async def get_stats() -> dict[str, Any]:
        """Tables in memory, people's moves since the start, and the server's time per move
        (checks, commit and live views, not bots thinking)."""
        return lobby.stats()

    @app.get(
        "/api/games/{game_id}",
        operation_id="get_game",
        responses={**responses(403, 404), **_linked("get_game")},
    )
    async def get_game(game_id: str, token: str = Query(max_length=64)) -> Response:
        """A seat's or the spectators' view, with the legal moves of the seat to move."""
        return _json(await lobby.view(game_id, token))

    @app.post(
        "/api/games/{game_id}/moves",
        operation_id="post_move",
        responses={**responses(400, 403, 404), **_linked("post_move"), 409: REFUSED_MOVE},
    )
    async def post_move(game_id: str, body: Move) -> Response:
        """Play a move; the answer is the seat's new view. A move chosen on an older version of
        the view than the game's is refused with 409 and the view now (``view``)."""
        return _json(await lobby.move(game_id, body.token, body.action, body.move, body.version))

    @app.post(
        "/api/games/{game_id}/undo",
        operation_id="post_undo",
        responses={**responses(400, 403, 404, 409), **_linked("post_undo")},
    )
    async def post_undo(game_id: str, body: Token) -> Response:
        """Take back your last move (and the bots' replies since); the seat's new view."""
        return _json(await lobby.undo(game_id, body.token))

    @app.post(
        "/api/games/{game_id}/rematch",
        operation_id="rematch",
        responses={**responses(400, 403, 404, 409, 429), **_linked("rematch")},
    )
    async def post_rematch(game_id: str, body: Token, request: Request) -> dict[str, Any]:
        """A new deal of a finished game with the same seats: its id and your token there (the
        first to ask creates it; the others find it in their views)."""
        rates.hit("create", _client(request))
        return await lobby.rematch(game_id, body.token)

    @app.get(
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
        rates.hit("draw", _client(request))
        svg = await lobby.svg(game_id, token, patterns, ply, lang, layout, focus)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/i18n/{lang}", operation_id="get_catalog", responses=responses(404))
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

    @app.post(
        "/api/games/{game_id}/hint",
        operation_id="post_hint",
        responses=responses(400, 403, 404, 409, 429),
    )
    async def post_hint(game_id: str, body: Token, request: Request) -> list[dict[str, Any]]:
        """A bot's three best moves for the seat to move."""
        rates.hit("hint", _client(request))
        return await lobby.hint(game_id, body.token, _client(request))

    @app.get(
        "/api/games/{game_id}/record",
        operation_id="get_record",
        responses={**responses(403, 404), 200: {"content": {"application/jsonl": {}}}},
    )
    async def get_record(game_id: str, token: str = Query(max_length=64)) -> PlainTextResponse:
        """The replayable record so far: the moves and the draws that happened."""
        text = await lobby.record(game_id, token)
        return PlainTextResponse(text, media_type="application/jsonl")

    @app.websocket("/api/games/{game_id}/ws")
    async def live(
        websocket: WebSocket, game_id: str, token: str = "", details: bool = False
    ) -> None:
        """Live views (``details=1``: legal moves with their words, preview and details, as
        HTTP views have them), and moves."""
        client = _client(websocket)
        lang = _language(websocket)
        try:
            connections.enter(client)
        except TooMany as e:
            await websocket.close(code=4429, reason=e.translate(i18n.in_language(lang))[:120])
            return
        try:  # every way out gives the address's slot back
            await _live(websocket, game_id, token, lang, details)
        finally:
            connections.leave(client)

    async def _live(
        websocket: WebSocket, game_id: str, token: str, lang: str, details: bool
    ) -> None:
        """A live connection to a game, once its address has a slot."""
        gettext: Callable[[str], str] = i18n.in_language(lang)
        try:
            table, listener = await lobby.subscribe(game_id, token, details)
        except AzulError as e:
            code = {404: 4404, 403: 4403, 429: 4429}.get(status_of(e), 4400)
            await websocket.close(code=code, reason=e.translate(gettext)[:120])
            return
        except Exception:  # the store is down, say: an internal error, logged once
            log.exception("internal error opening a live connection to game %s", game_id[:40])
            await websocket.close(code=1011, reason=gettext(INTERNAL)[:120])
            return
        await websocket.accept()
        receiver = asyncio.ensure_future(websocket.receive())
        getter = None
        try:
            while True:  # views as they come, until the client goes away
                getter = asyncio.ensure_future(listener.next())
                done, _ = await asyncio.wait(
                    {receiver, getter}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    await websocket.send_text(getter.result())
                else:
                    getter.cancel()
                if receiver in done:
                    message = receiver.result()
                    if message["type"] == "websocket.disconnect":
                        break
                    error = await _ws_move(game_id, token, message, lang, details)
                    if error is not None:
                        await websocket.send_json(error)
                    receiver = asyncio.ensure_future(websocket.receive())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            if getter is not None:
                getter.cancel()
            lobby.unsubscribe(table, listener)

    async def _ws_move(
        game_id: str, token: str, message: Message, lang: str, details: bool
    ) -> dict[str, Any] | None:
        """A move sent over the WebSocket, {"action": id} or {"move": text}, with the version
        of the view it was chosen on: the new view reaches every listener; an error (with the
        view now, for a move on an older view) is answered to this client only."""
        raw = message.get("text") or message.get("bytes") or ""
        if len(raw) > settings.max_body:
            return _body(TooLarge("the message is over {n} bytes", n=settings.max_body), lang)
        try:
            body = _live_move(raw)
            await lobby.play(game_id, token, body.action, body.move, body.version, details)
        except AzulError as e:
            return _body(e, lang)
        except Exception:
            log.exception("internal error on a WebSocket move in game %s", game_id[:40])
            return {"error": i18n.in_language(lang)(INTERNAL)}
        return None

    def _live_move(raw: str | bytes) -> LiveMove:
        """A live connection's message read as a move; AzulError names what is wrong."""
        try:
            return LiveMove.model_validate_json(raw)
        except ValidationError as e:
            kind = e.errors()[0]["type"]
            if kind == "json_invalid":
                raise AzulError("the message is not JSON") from None
            if kind in ("model_type", "extra_forbidden"):
                raise AzulError('a message is {"action": id} or {"move": "F3:R"}') from None
            raise _invalid(e.errors(), "message") from None

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
