"""Open connections as uvicorn accepts them: a cap per client address, HTTP and WebSocket
counted together, a time limit to send a whole request, and a JSON 503 when the server is full.

uvicorn has no read timeout for a request's headers or body (its keep-alive timeout only ends
idle connections between requests), and its ``limit_concurrency`` answers a plain-text 503
for every client once any one address holds enough connections. These two small subclasses of
its protocols (``azul serve`` names them as uvicorn's ``http`` and ``ws``) do both:

- a connection from an address already holding ``connections_per_client`` is answered 429
  (JSON, ``Retry-After``) and closed before anything is read;
- a request whose headers and body have not all arrived ``read_seconds`` after the connection
  opened (or after the request began, on a kept-alive connection) is answered 408 and closed;
- beyond ``max_connections`` connections of all kinds, a request is answered 503 (JSON,
  ``Retry-After``).

The address is the TCP peer's: behind a proxy every client shares the proxy's, so there raise
``connections_per_client`` and let the proxy cap its own clients (nginx ``limit_conn``).
Limits are per process, set by ``configure`` (uvicorn makes the protocols itself, so they are
read from here).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from azul.server.settings import Settings

RETRY_SECONDS = 10  # what a refused client is told to wait

_limits = {"per_client": 64, "read_seconds": 10.0, "max_connections": 1000}
OPEN: Counter[str] = Counter()  # open connections by client address, in this process


def configure(settings: Settings) -> None:
    """Take the limits of ``settings`` for the connections accepted from now on."""
    _limits["per_client"] = settings.connections_per_client
    _limits["read_seconds"] = settings.read_seconds
    _limits["max_connections"] = settings.max_connections


def _answer(status: int, reason: str, error: str, retry: bool) -> bytes:
    """A whole HTTP response with a JSON body that closes the connection."""
    body = json.dumps({"error": error}).encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry:
        head.append(f"retry-after: {RETRY_SECONDS}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def _busy(scope: Any, receive: Any, send: Any) -> None:
    """The ASGI answer when the server holds ``max_connections``."""
    body = json.dumps({"error": "the server is busy: try again in a few seconds"}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_SECONDS).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a cap per address and a time limit to send a request."""

    address: str | None = None  # counted in OPEN while set
    timer: asyncio.TimerHandle | None = None
    refused = False  # answered 429 at once: nothing it sends is read

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "unknown"
        if OPEN[address] >= _limits["per_client"]:
            self.refused = True
            self.connections.discard(self)  # nor counted against max_connections meanwhile
            error = "too many open connections from your address"
            transport.write(_answer(429, "Too Many Requests", error, retry=True))
            # closed a moment later, what the client sends meanwhile read and dropped: a close
            # with unread bytes would reset the connection and lose the answer
            self.loop.call_later(1.0, transport.close)
            return
        OPEN[address] += 1
        self.address = address
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self.address is not None:
            OPEN[self.address] -= 1
            if OPEN[self.address] <= 0:
                del OPEN[self.address]
            self.address = None

    def _arm(self) -> None:
        if self.timer is None:
            self.timer = self.loop.call_later(_limits["read_seconds"], self._too_slow)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        """The request did not arrive whole in time (a slow or stalled client): 408, closed."""
        self.timer = None
        if self.cycle is None or not self.cycle.response_started:
            error = "the request did not arrive in time"
            self.transport.write(_answer(408, "Request Timeout", error, retry=False))
        self.transport.close()

    def on_message_begin(self) -> None:
        self._arm()  # a kept-alive connection's next request has its own time
        super().on_message_begin()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def on_headers_complete(self) -> None:
        if len(self.connections) <= _limits["max_connections"]:
            super().on_headers_complete()
            return
        app, self.app = self.app, _busy  # the request is answered 503 instead
        try:
            super().on_headers_complete()
        finally:
            self.app = app

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        if len(self.connections) > _limits["max_connections"]:
            error = "the server is busy: try again in a few seconds"
            self.transport.write(_answer(503, "Service Unavailable", error, retry=True))
            self.transport.close()
            return
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, GuardedWebSockets):  # it is counted as long as it is open
            protocol.address, self.address = self.address, None


class GuardedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted against its address until it closes."""

    address: str | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.address is not None:
            OPEN[self.address] -= 1
            if OPEN[self.address] <= 0:
                del OPEN[self.address]
            self.address = None
        super().connection_lost(exc)
