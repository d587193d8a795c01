"""The HTTP/JSON and WebSocket API (OpenAPI schema at /openapi.json, docs at /docs) and the
browser client's static files."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

import azul
from azul import i18n
from azul.core.errors import AzulError
from azul.server.service import Conflict, Forbidden, Lobby, NotFound
from azul.server.store import Store

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 16 * 1024  # bytes: every request of this API is small


class SeatSpec(BaseModel):
    kind: str = Field(description="'human' (an invite link) or 'bot'")
    bot: str | None = Field(None, description="the bot, e.g. 'heuristic' or 'mcts:time=1'")


class NewGame(BaseModel):
    game: str = Field(description="'pavilion' or 'sintra'")
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec]
    seed: int | None = None


class Move(BaseModel):
    token: str
    action: int | None = Field(None, description="an action id")
    move: str | None = Field(None, description="or the move in notation, e.g. 'F3:R'")


class Token(BaseModel):
    token: str


def _language(request: Request | WebSocket) -> str:
    """The client's language for messages: ``?lang=``, else Accept-Language, else English."""
    wanted = [request.query_params.get("lang")]
    for part in request.headers.get("accept-language", "").split(","):
        wanted.append(part.split(";")[0].strip())
    return next((i18n.supported(t) for t in wanted if i18n.supported(t)), i18n.DEFAULT)


def create_app(database: str | None = None, executor: Executor | None = None) -> FastAPI:
    """The application over the database at ``database`` (an SQLAlchemy URL); bots think in
    ``executor`` (a process pool by default)."""
    lobby = Lobby(Store(database), executor)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        lobby.close()

    app = FastAPI(title="Azul games", version=azul.__version__, lifespan=lifespan)
    app.state.lobby = lobby

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            return JSONResponse({"error": f"the request body is over {MAX_BODY} bytes"}, 413)
        return await call_next(request)

    @app.exception_handler(AzulError)
    async def azul_error(request: Request, exc: AzulError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFound)
            else 403
            if isinstance(exc, Forbidden)
            else (409 if isinstance(exc, Conflict) else 400)
        )
        return JSONResponse({"error": exc.translate(i18n.in_language(_language(request)))}, status)

    @app.get("/api/games")
    async def list_games() -> list[dict]:
        return lobby.store.list_games()

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGame) -> dict:
        seats = [s.model_dump() for s in body.seats]
        return await lobby.create(body.game, body.options, seats, body.seed)

    @app.get("/api/stats")
    async def get_stats() -> dict:
        """Tables in memory, people's moves since the start, and the server's time per move
        (checks, commit and live views, not bots thinking)."""
        return lobby.stats()

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, token: str = Query(...)) -> dict:
        return lobby.view(game_id, token)

    @app.post("/api/games/{game_id}/moves")
    async def post_move(game_id: str, body: Move) -> dict:
        return await lobby.move(game_id, body.token, body.action, body.move)

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, body: Token) -> dict:
        return await lobby.undo(game_id, body.token)

    @app.get("/api/games/{game_id}/svg")
    async def get_svg(
        game_id: str,
        token: str = Query(...),
        patterns: bool = Query(False, description="a pattern per colour (colour-blind mode)"),
        ply: int | None = Query(None, description="the position after this many moves"),
        lang: str = Query("en", description="language of the drawing's words: en, fr or pt"),
    ) -> Response:
        if lang not in i18n.LANGUAGES:
            raise AzulError(f"lang {lang!r}: use one of {', '.join(i18n.LANGUAGES)}")
        svg = lobby.svg(game_id, token, patterns, ply, lang)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/i18n/{lang}")
    async def get_catalog(lang: str) -> dict:
        """The browser client's words in ``lang`` (msgid: text), and the rules summaries."""
        if lang not in i18n.LANGUAGES:
            raise NotFound(f"no language {lang!r}: use one of {', '.join(i18n.LANGUAGES)}")
        return {
            "lang": lang,
            "languages": i18n.LANGUAGES,
            "messages": i18n.catalog(lang),
            "rules": {game: i18n.rules(game, lang) for game in sorted(azul.GAMES)},
        }

    @app.post("/api/games/{game_id}/hint")
    async def post_hint(game_id: str, body: Token) -> list[dict]:
        return await lobby.hint(game_id, body.token)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str, token: str = Query(...)) -> PlainTextResponse:
        return PlainTextResponse(lobby.record(game_id, token), media_type="application/jsonl")

    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str, token: str = Query(...)) -> None:
        try:
            queue, first = lobby.subscribe(game_id, token)
        except AzulError as e:
            await websocket.close(code=4403, reason=str(e)[:120])
            return
        await websocket.accept()
        receiver = asyncio.ensure_future(websocket.receive())
        try:
            await websocket.send_json(first)
            while True:  # views as they come, until the client goes away
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait(
                    {receiver, getter}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    await websocket.send_json(getter.result())
                else:
                    getter.cancel()
                if receiver in done:
                    message = receiver.result()
                    if message["type"] == "websocket.disconnect":
                        break
                    error = await _ws_move(game_id, token, message, _language(websocket))
                    if error is not None:
                        await websocket.send_json({"error": error})
                    receiver = asyncio.ensure_future(websocket.receive())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            receiver.cancel()
            lobby.unsubscribe(game_id, queue)

    async def _ws_move(game_id: str, token: str, message: dict, lang: str) -> str | None:
        """A move sent over the WebSocket, {"action": id} or {"move": text}: the new view
        reaches every listener; an error is answered to this client only."""
        raw = message.get("text") or message.get("bytes") or ""
        if len(raw) > MAX_BODY:
            return f"the message is over {MAX_BODY} bytes"
        try:
            body = json.loads(raw)
            if not isinstance(body, dict) or not body.keys() <= {"action", "move"}:
                return 'a message is {"action": id} or {"move": "F3:R"}'
            await lobby.play(game_id, token, body.get("action"), body.get("move"))
        except json.JSONDecodeError as e:
            return f"the message is not JSON: {e}"
        except AzulError as e:
            return e.translate(i18n.in_language(lang))
        return None

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
