"""What a hostile client meets before the game logic: a cap on the bytes of a request body
(whatever its framing), rates per client address, and live connections per address."""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from azul.i18n import N_
from azul.server.errors import TooMany
from azul.server.replies import answer, client_of


class BodyLimit:
    """ASGI middleware: read at most ``limit`` bytes of an HTTP request body, counted as they
    arrive (chunked bodies included), and answer 413 beyond that without passing it on."""

    def __init__(self, app: ASGIApp, limit: int, message: Callable[[Scope], str]):
        self.app = app
        self.limit = limit
        self.message = message

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _json(send, 413, {"error": self.message(scope)})
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()  # after the body: wait for the client to go away

        await self.app(scope, replay, send)


async def _json(send: Send, status: int, content: dict[str, Any]) -> None:
    data = json.dumps(content).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


class _Storage(MemoryStorage):
    """limits' memory storage, its expired entries dropped on the event loop at most once a
    second, instead of by a timer thread that it starts again for almost every request (the
    event loop waited for each new thread to start: under a flood of drawings that cost more
    than the rest of a refused request)."""

    SWEEP_SECONDS = 1.0

    def __init__(self) -> None:
        super().__init__()
        self.timer.cancel()
        self.swept = time.monotonic()

    def _MemoryStorage__schedule_expiry(self) -> None:  # what MemoryStorage calls on each hit
        if time.monotonic() - self.swept >= self.SWEEP_SECONDS:
            self.swept = time.monotonic()
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


class Rates:
    """Requests per minute, by kind (creations, hints) and by whom (a client address, or a
    game); over the rate, TooMany with ``message``."""

    def __init__(
        self,
        per_minute: dict[str, int],
        message: str = N_("too many requests from your address: try again in {seconds} s"),
    ):
        self.items = {kind: RateLimitItemPerMinute(n) for kind, n in per_minute.items()}
        self.limiter = MovingWindowRateLimiter(_Storage())
        self.message = message

    def hit(self, kind: str, client: str) -> None:
        """Count one request; TooMany with the seconds to wait when over the rate."""
        item = self.items[kind]
        if not self.limiter.hit(item, kind, client):
            reset = self.limiter.get_window_stats(item, kind, client).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            raise TooMany(self.message, retry_after=wait, seconds=wait)


class RatesFirst:
    """ASGI middleware: drawings, hints and reviews are counted against their address's rate before
    the request is routed or read, and beyond it answered 429 at once, so that a flood of
    refused requests costs the event loop little (the framework's routing and checks were
    most of a refused drawing's cost)."""

    RATED = (
        ("GET", re.compile(r"/api/games/[^/]+/svg"), "draw"),
        ("POST", re.compile(r"/api/games/[^/]+/hint"), "hint"),
        ("GET", re.compile(r"/api/games/[^/]+/review"), "review"),
        ("POST", re.compile(r"/api/games/[^/]+/review"), "review"),
    )

    def __init__(self, app: ASGIApp, rates: Callable[[Scope], Rates]):
        self.app = app
        self.rates = rates

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for method, path, kind in self.RATED:
                if scope["method"] == method and path.fullmatch(scope["path"]):
                    request = Request(scope, receive)
                    try:
                        self.rates(scope).hit(kind, client_of(request))
                    except TooMany as e:
                        await answer(request, e)(scope, receive, send)
                        return
                    break
        await self.app(scope, receive, send)


class Connections:
    """Live connections per client address."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open: Counter[str] = Counter()

    def enter(self, client: str) -> None:
        if self.open[client] >= self.limit:
            raise TooMany("too many live connections from your address", retry_after=60)
        self.open[client] += 1

    def leave(self, client: str) -> None:
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]
