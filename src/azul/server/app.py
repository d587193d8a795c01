"""The HTTP/JSON and WebSocket API (OpenAPI schema at /openapi.json, docs at /docs) and the
browser client's static files. Every error is ``{"error": "..."}`` in the client's language."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, Field
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.types import Message, Scope

import azul
from azul import i18n
from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server.connections import configure as configure_connections
from azul.server.errors import Invalid, NotFound, TooLarge, TooMany, responses, status_of
from azul.server.guards import BodyLimit, Connections, Rates
from azul.server.notices import listen
from azul.server.service import MAX_SEED, Lobby, _die_with_parent, title
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


class SeatSpec(BaseModel):
    kind: Literal["human", "open", "bot"] = Field(
        description="'human' (an invite link), 'open' (anyone joins from the lobby) or 'bot'"
    )
    bot: Level | None = Field(None, description="the bot's level (default heuristic)")
    name: str | None = Field(None, max_length=64, description="the player's name")


class NewGame(BaseModel):
    game: GameName = Field(description="the game")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options, e.g. {'players': 3}"
    )
    seats: list[SeatSpec] = Field(min_length=1, max_length=8, description="one per player")
    seed: int | None = Field(
        None,
        ge=0,
        lt=MAX_SEED,
        strict=True,
        description="replay a deal: a seeded game's draws can be computed, and it says so",
    )
    public: bool = Field(False, description="listed in the lobby, to join or to watch")


class Move(BaseModel):
    token: str = _token()
    action: int | None = Field(None, strict=True, description="an action id")
    move: str | None = Field(None, max_length=64, description="or the move in notation, 'F3:R'")


class Token(BaseModel):
    token: str = _token()


class Join(BaseModel):
    seat: int = Field(ge=0, lt=8, description="an open seat")
    name: str | None = Field(None, max_length=64, description="the player's name")


class Choice(BaseModel):
    value: bool | int | float | str | None = Field(description="the value sent in 'options'")
    label: str = Field(description="what people read: an English message to translate")


class ChoiceOption(BaseModel):
    name: str = Field(description="the option's key in 'options' of a new game")
    label: str = Field(description="what people read: an English message to translate")
    values: list[Choice] = Field(description="the values people choose from, the default first")


class GameSetup(BaseModel):
    name: str = Field(description="the game, as named in a new game")
    title: str = Field(description="the game's name for people: an English message to translate")
    players: int = Field(description="the number of players when no option says otherwise")
    options: list[ChoiceOption] = Field(
        description="what people choose at setup, the number of players first; every other "
        "option keeps its default"
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
        found.append(GameSetup(name=name, title=title(name), players=players, options=options))
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
    gettext = i18n.in_language(_language(request))
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else None
    return JSONResponse({"error": error.translate(gettext)}, status_of(error), headers=headers)


def _json(text: str) -> Response:
    """A view, already JSON text (built once for every listener)."""
    return Response(text, media_type="application/json")


def _invalid(exc: RequestValidationError) -> Invalid:
    """The first problem of a request that does not have the documented shape."""
    problem = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or "body"
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
    return create_app(found["database"], settings=Settings(**found["settings"]))


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
        tasks = [
            asyncio.ensure_future(lobby.keep_tidy(min(30.0, settings.idle_seconds / 2))),
            asyncio.ensure_future(lobby.keep_bots_moving(settings.bot_sweep)),
        ]
        if lobby.store.engine.dialect.name == "postgresql":  # other processes may write
            tasks.append(
                asyncio.ensure_future(listen(lobby.store.url, lobby.notice, lobby.refresh_all))
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

    @app.exception_handler(AzulError)
    async def azul_error(request: Request, exc: AzulError) -> JSONResponse:
        return _answer(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _answer(request, _invalid(exc))

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
        return response

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        gettext: Callable[[str], str] = i18n.in_language(_language(request))
        return JSONResponse({"error": gettext("internal error: the server could not answer")}, 500)

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
                },
            },
        },
    )
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        rates.hit("create", _client(request))
        seats = [s.model_dump() for s in body.seats]
        return await lobby.create(body.game, body.options, seats, body.seed, body.public)

    @app.post(
        "/api/games/{game_id}/join", operation_id="join", responses=responses(400, 404, 409, 429)
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

    @app.get("/api/games/{game_id}", operation_id="get_game", responses=responses(403, 404))
    async def get_game(game_id: str, token: str = Query(max_length=64)) -> Response:
        """A seat's or the spectators' view, with the legal moves of the seat to move."""
        return _json(await lobby.view(game_id, token))

    @app.post(
        "/api/games/{game_id}/moves",
        operation_id="post_move",
        responses=responses(400, 403, 404, 409),
    )
    async def post_move(game_id: str, body: Move) -> Response:
        """Play a move; the answer is the seat's new view."""
        return _json(await lobby.move(game_id, body.token, body.action, body.move))

    @app.post(
        "/api/games/{game_id}/undo", operation_id="post_undo", responses=responses(403, 404, 409)
    )
    async def post_undo(game_id: str, body: Token) -> Response:
        """Take back your last move (and the bots' replies since); the seat's new view."""
        return _json(await lobby.undo(game_id, body.token))

    @app.post(
        "/api/games/{game_id}/rematch",
        operation_id="rematch",
        responses=responses(403, 404, 409, 429),
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
        lang: str = Query("en", max_length=8, description="language of the drawing's words"),
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
        responses=responses(403, 404, 409, 429),
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
    async def live(websocket: WebSocket, game_id: str, token: str = "") -> None:
        client = _client(websocket)
        lang = _language(websocket)
        try:
            connections.enter(client)
        except TooMany as e:
            await websocket.close(code=4429, reason=e.translate(i18n.in_language(lang))[:120])
            return
        try:
            table, listener = await lobby.subscribe(game_id, token)
        except AzulError as e:
            connections.leave(client)
            code = {404: 4404, 403: 4403, 429: 4429}.get(status_of(e), 4400)
            await websocket.close(code=code, reason=e.translate(i18n.in_language(lang))[:120])
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
                    error = await _ws_move(game_id, token, message, lang)
                    if error is not None:
                        await websocket.send_json({"error": error})
                    receiver = asyncio.ensure_future(websocket.receive())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            if getter is not None:
                getter.cancel()
            lobby.unsubscribe(table, listener)
            connections.leave(client)

    async def _ws_move(game_id: str, token: str, message: Message, lang: str) -> str | None:
        """A move sent over the WebSocket, {"action": id} or {"move": text}: the new view
        reaches every listener; an error is answered to this client only."""
        gettext: Callable[[str], str] = i18n.in_language(lang)
        raw = message.get("text") or message.get("bytes") or ""
        if len(raw) > settings.max_body:
            return TooLarge("the message is over {n} bytes", n=settings.max_body).translate(gettext)
        try:
            body = json.loads(raw)
            if not isinstance(body, dict) or not body.keys() <= {"action", "move"}:
                raise AzulError('a message is {"action": id} or {"move": "F3:R"}')
            await lobby.play(game_id, token, body.get("action"), body.get("move"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return gettext("the message is not JSON")
        except AzulError as e:
            return e.translate(gettext)
        except Exception:
            log.exception("internal error on a WebSocket move in game %s", game_id)
            return gettext("internal error: the server could not answer")
        return None

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
