"""The server's errors and the HTTP status of each: every error is answered as
``{"error": "..."}`` in the client's language."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server.store import Stale

INTERNAL = N_("internal error: the server could not answer")  # a 500, in the client's language
UNAVAILABLE = N_("the database cannot be reached just now: nothing was done, try again in a moment")
log = logging.getLogger("azul.server")


class NotFound(AzulError):
    """An unknown game, page or language."""


class Forbidden(AzulError):
    """A token that does not give the right to do this."""


class Conflict(AzulError):
    """A valid request at the wrong moment: not your turn, the game is over."""


class Outdated(Conflict):
    """A move chosen on an older view of the game; ``view`` is the game now (JSON text)."""

    def __init__(self, message: str = "", view: str | None = None, **fields: Any):
        super().__init__(message, **fields)
        self.view = view


class TooLarge(AzulError):
    """A request body or message over the size limit."""


class TooMany(AzulError):
    """Over a rate or connection limit; ``retry_after`` seconds until it is allowed again."""

    def __init__(self, message: str = "", retry_after: int = 60, **fields: Any):
        super().__init__(message, **fields)
        self.retry_after = retry_after


class Unavailable(TooMany):
    """The database cannot be reached (it restarts, say): nothing was done, try again."""

    def __init__(self, retry_after: int = 2):
        super().__init__(UNAVAILABLE, retry_after=retry_after)


class Invalid(AzulError):
    """A request that does not have the documented shape."""


def status_of(error: AzulError) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    return 400


STATUS: list[tuple[type[AzulError], int]] = [
    (NotFound, 404),
    (Forbidden, 403),
    (Conflict, 409),
    (Stale, 409),
    (TooLarge, 413),
    (Unavailable, 503),
    (TooMany, 429),
    (Invalid, 422),
]


class ErrorBody(BaseModel):
    """What every error response holds."""

    error: str = Field(description="what is wrong, in the client's language")


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of an endpoint's error responses."""
    meaning = {
        400: "a bad request: an illegal move, a bad option, a bad value",
        403: "the token does not allow this",
        404: "no such game",
        409: "not now: not your turn, the game is over, the game changed meanwhile",
        413: "the request body is too large",
        422: "the request does not have the documented shape",
        429: "too many requests from this address: see Retry-After",
        503: "the server is full, or its database cannot be reached: see Retry-After",
    }
    every = {413, 422, 503}  # whatever the endpoint
    return {c: {"model": ErrorBody, "description": meaning[c]} for c in sorted({*codes, *every})}


class LastResort:
    """ASGI middleware: an HTTP request's exception that no handler took is logged once (with
    its traceback) and answered 500 ``{"error"}``, so the connection stays usable; if the
    answer had already begun, the connection is closed."""

    def __init__(self, app: ASGIApp, message: Callable[[Scope], str]):
        self.app = app
        self.message = message

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("internal error on %s %s", scope["method"], scope["path"][:80])
            if started:  # returning unfinished makes the server close the connection
                return
            data = json.dumps({"error": self.message(scope)}).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(data)),
            ]
            await send({"type": "http.response.start", "status": 500, "headers": headers})
            await send({"type": "http.response.body", "body": data})
