"""The HTTP/JSON and WebSocket API (OpenAPI schema at /openapi.json, docs at /docs) and the
browser client's static files. Every error is ``{"error": "..."}`` in the client's language.

This module wires the application: the lobby, the limits, the error answers and the routes
(``azul.server.routes``)."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.routing import Match
from starlette.types import Scope

import azul
from azul import i18n
from azul.core.errors import AzulError
from azul.server.connections import configure as configure_connections
from azul.server.errors import INTERNAL, LastResort, NotFound, TooLarge, Unavailable
from azul.server.guards import BodyLimit, Connections, Rates, RatesFirst
from azul.server.notices import listen
from azul.server.processes import die_with_parent
from azul.server.replies import answer, hide_tokens, invalid, language
from azul.server.routes import games, live, table
from azul.server.service import Lobby
from azul.server.settings import Settings
from azul.server.store import OUTAGES, Store

WEB = Path(__file__).resolve().parent.parent / "web"

log = logging.getLogger("azul.server")

SERVE_ENVIRONMENT = "AZUL_SERVE"
"""The environment variable through which ``azul serve --workers N`` hands each worker process
its database and settings (JSON)."""


def serve_environment(database: str | None, settings: Settings) -> str:
    """What ``from_environment`` reads back; the calling process is the workers' parent."""
    return json.dumps(
        {"database": database, "settings": dataclasses.asdict(settings), "server": os.getpid()}
    )


def settle_collector() -> None:
    """The garbage collector of a server process, once everything is imported: the objects of
    every import live as long as the server, so they are put out of the collector's reach (a
    full collection no longer scans them), and young objects are collected by 5,000 rather
    than 700. Building a view makes hundreds of short-lived objects, which crossed 700 at
    almost every move; each collection then promoted what a move still held, and the full
    collections this brought paused the event loop for up to 0.1 s under load.

    The interpreter also hands over between threads every 0.5 ms rather than 5 ms: a store
    thread (PostgreSQL) waiting for the event loop's thread would otherwise hold up a move by
    5 ms at each of its hand-offs."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, 10, 10)
    sys.setswitchinterval(0.0005)


def from_environment() -> FastAPI:
    """The application of one worker process of ``azul serve --workers N``. The worker ends
    with the process that started it, even when that one is killed (Linux): no worker is
    left holding the port."""
    found = json.loads(os.environ[SERVE_ENVIRONMENT])
    if "server" in found:
        die_with_parent(found["server"])
    hide_tokens()
    app = create_app(found["database"], settings=Settings(**found["settings"]))
    settle_collector()
    return app


ROUTERS = (games.router, table.router, live.router)


def _allowed(app: FastAPI, scope: Scope) -> str:
    """The methods some route takes at the request's path (a 405's ``Allow``): the routers'
    own routes are asked, as the application may hold them behind an included router."""
    methods: set[str] = set()
    for route in [*app.router.routes, *(r for router in ROUTERS for r in router.routes)]:
        if hasattr(route, "methods") and route.matches(scope)[0] != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods))


def _lifespan(
    lobby: Lobby, settings: Settings
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The lobby's tasks while the application runs, and its end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.warm_up()
        tasks = [
            asyncio.ensure_future(lobby.tables.keep_tidy(min(30.0, settings.idle_seconds / 2))),
            asyncio.ensure_future(lobby.bots.keep_moving(settings.bot_sweep)),
        ]
        if lobby.store.engine.dialect.name == "postgresql":  # other processes may write
            tables = lobby.tables
            heard = listen(lobby.store.url, tables.notice, tables.listening_again, tables.lost)
            tasks.append(asyncio.ensure_future(heard))
        yield
        for task in tasks:
            task.cancel()
        lobby.close()

    return lifespan


def _answer_errors(app: FastAPI, settings: Settings) -> None:
    """Every error as JSON in the client's language: the game's, a request of the wrong shape,
    a body too large, no such page or method, and anything unforeseen (500)."""

    def too_large(scope: Scope) -> str:
        limit = TooLarge("the request body is over {n} bytes", n=settings.max_body)
        return limit.translate(i18n.in_language(language(HTTPConnection(scope))))

    app.add_middleware(BodyLimit, limit=settings.max_body, message=too_large)
    app.add_middleware(RatesFirst, rates=lambda scope: scope["app"].state.rates)

    def internal(scope: Scope) -> str:
        return i18n.in_language(language(HTTPConnection(scope)))(INTERNAL)

    app.add_middleware(LastResort, message=internal)  # outside the others: it catches theirs

    @app.exception_handler(AzulError)
    async def azul_error(request: Request, exc: AzulError) -> JSONResponse:
        return answer(request, exc)

    async def outage(request: Request, exc: Exception) -> JSONResponse:
        """The database is away (it restarts, say): 503, not an internal error."""
        log.warning(
            "the store is unavailable on %s %s: %s", request.method, request.url.path[:80], exc
        )
        return answer(request, Unavailable())

    for kind in OUTAGES:
        app.add_exception_handler(kind, outage)

    @app.exception_handler(RequestValidationError)
    async def not_valid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return answer(request, invalid(exc.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            error: AzulError = NotFound("there is no such page: {path}", path=request.url.path[:80])
        elif exc.status_code == 405:
            error = AzulError("{method} is not allowed here", method=request.method)
        else:
            error = AzulError("the request was refused ({status})", status=exc.status_code)
        response = answer(request, error)
        response.status_code = exc.status_code
        if exc.status_code == 405:  # every method of the path, not the first route's only
            response.headers["Allow"] = _allowed(app, request.scope)
        return response


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
    app = FastAPI(title="Azul games", version=azul.__version__, lifespan=_lifespan(lobby, settings))
    app.state.lobby = lobby
    app.state.rates = Rates(
        {
            "create": settings.creates_per_minute,
            "hint": settings.hints_per_minute,
            "draw": settings.drawings_per_minute,
            "review": settings.reviews_per_minute,
        }
    )
    app.state.connections = Connections(settings.sockets_per_client)
    _answer_errors(app, settings)
    for router in ROUTERS:
        app.include_router(router)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
