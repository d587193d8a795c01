"""The live connection to a game (a WebSocket): each new view of its audience as it comes, and
moves sent the other way."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.types import Message

from azul import i18n
from azul.core.errors import AzulError
from azul.server.errors import INTERNAL, UNAVAILABLE, TooLarge, TooMany, Unavailable, status_of
from azul.server.guards import Connections
from azul.server.replies import client_of, error_body, invalid, language
from azul.server.routes import lobby_of
from azul.server.schema import LiveMove
from azul.server.store import OUTAGES

router = APIRouter()
log = logging.getLogger("azul.server")


@router.websocket("/api/games/{game_id}/ws")
async def live(websocket: WebSocket, game_id: str, token: str = "", details: bool = False) -> None:
    """Live views (``details=1``: legal moves with their words, preview and details, as HTTP
    views have them), and moves."""
    client = client_of(websocket)
    lang = language(websocket)
    connections: Connections = websocket.app.state.connections
    try:
        connections.enter(client)
    except TooMany as e:
        await websocket.close(code=4429, reason=e.translate(i18n.in_language(lang))[:120])
        return
    try:  # every way out gives the address's slot back
        await _live(websocket, game_id, token, lang, details)
    finally:
        connections.leave(client)


async def _live(websocket: WebSocket, game_id: str, token: str, lang: str, details: bool) -> None:
    """A live connection to a game, once its address has a slot."""
    gettext: Callable[[str], str] = i18n.in_language(lang)
    lobby = lobby_of(websocket)
    try:
        table, listener = await lobby.subscribe(game_id, token, details)
    except AzulError as e:
        code = {404: 4404, 403: 4403, 429: 4429}.get(status_of(e), 4400)
        await websocket.close(code=code, reason=e.translate(gettext)[:120])
        return
    except OUTAGES as e:  # the database is away: the client comes back later (1013)
        log.warning("a live connection to game %s waits for the store: %s", game_id[:40], e)
        await websocket.close(code=1013, reason=gettext(UNAVAILABLE)[:120])
        return
    except Exception:
        log.exception("internal error opening a live connection to game %s", game_id[:40])
        await websocket.close(code=1011, reason=gettext(INTERNAL)[:120])
        return
    await websocket.accept()
    receiver = asyncio.ensure_future(websocket.receive())
    getter = None
    try:
        while True:  # views as they come, until the client goes away
            getter = asyncio.ensure_future(listener.next())
            done, _ = await asyncio.wait({receiver, getter}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                await websocket.send_text(getter.result())
            else:
                getter.cancel()
            if receiver in done:
                message = receiver.result()
                if message["type"] == "websocket.disconnect":
                    break
                error = await _move(websocket, game_id, token, message, lang, details)
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


async def _move(
    websocket: WebSocket, game_id: str, token: str, message: Message, lang: str, details: bool
) -> dict[str, Any] | None:
    """A move sent over the WebSocket, {"action": id} or {"move": text}, with the version
    of the view it was chosen on: the new view reaches every listener; an error (with the
    view now, for a move on an older view) is answered to this client only."""
    lobby = lobby_of(websocket)
    most = lobby.settings.max_body
    raw = message.get("text") or message.get("bytes") or ""
    if len(raw) > most:
        return error_body(TooLarge("the message is over {n} bytes", n=most), lang)
    try:
        body = _live_move(raw)
        await lobby.play(game_id, token, body.action, body.move, body.version, details)
    except AzulError as e:
        return error_body(e, lang)
    except OUTAGES as e:
        log.warning("a WebSocket move in game %s waits for the store: %s", game_id[:40], e)
        return error_body(Unavailable(), lang)
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
        raise invalid(e.errors(), "message") from None
