"""Open connections as a real server accepts them: one address holding a thousand half-open
connections is capped and timed out while another address plays; a full server answers JSON
503s; HTTP and WebSocket connections count together against an address's cap. Every client
is on loopback: 127.0.0.1 floods, 127.0.0.2 and 127.0.0.3 are other addresses."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
pytest.importorskip("fastapi")

from tests.server.test_restart import free_port, start  # noqa: E402

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def serve(tmp_path):
    """``serve(*limits)``: a server process over SQLite with ``--limit`` pairs; its URL."""
    running = []

    def launch(*limits: str) -> tuple[str, int]:
        port = free_port()
        extra = [x for pair in limits for x in ("--limit", pair)]
        db = f"sqlite:///{tmp_path / f'c{len(running)}.db'}"
        running.append(start(port, db, log=str(tmp_path / f"c{len(running)}.log"), extra=extra))
        return f"http://127.0.0.1:{port}", port

    yield launch
    for proc in running:
        proc.kill()
        proc.wait()


def client_from(address: str, base: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (a loopback address)."""
    return httpx.Client(
        base_url=base, transport=httpx.HTTPTransport(local_address=address), timeout=10
    )


def half_open(port: int, n: int) -> list[socket.socket]:
    """``n`` connections from 127.0.0.1 that each send part of a request's headers."""
    held = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")  # never finished
        held.append(s)
    return held


def answer_and_close(s: socket.socket, within: float) -> bytes:
    """Everything the server sends on ``s`` until it closes it (or ``within`` seconds)."""
    s.settimeout(within)
    data = b""
    try:
        while chunk := s.recv(4096):
            data += chunk
    except TimeoutError:
        return data + b"<still open>"
    except ConnectionResetError:
        return data + b"<reset>"
    return data


def play(http: httpx.Client, moves: int) -> list[int]:
    """A two-person game played for ``moves`` moves; the status of every request."""
    res = http.post("/api/games", json={"game": "sintra", "seats": HUMANS})
    statuses = [res.status_code]
    game = res.json()
    for _ in range(moves):
        tokens = [s["token"] for s in game["seats"]]
        views = [http.get(f"/api/games/{game['id']}", params={"token": t}) for t in tokens]
        statuses += [v.status_code for v in views]
        seat = views[0].json()["to_move"]
        legal = views[seat].json()["legal"]
        move = {"token": tokens[seat], "action": legal[0]["action"]}
        res = http.post(f"/api/games/{game['id']}/moves", json=move)
        statuses.append(res.status_code)
    return statuses


def test_a_thousand_half_open_connections_leave_another_address_playing(serve):
    base, port = serve("read_seconds=10", "connections_per_client=50")
    held = half_open(port, 1000)
    with client_from("127.0.0.2", base) as other:
        statuses = play(other, 10)
    assert set(statuses) <= {200, 201}, statuses
    with client_from("127.0.0.1", base) as flooder:  # the 50 held ones are still open
        assert flooder.get("/api/games").status_code == 429
    answers = [answer_and_close(s, within=20) for s in held]
    for s in held:
        s.close()
    refused = [a for a in answers if a.startswith(b"HTTP/1.1 429")]
    timed_out = [a for a in answers if a.startswith(b"HTTP/1.1 408")]
    assert len(refused) == 950 and len(timed_out) == 50, {a[:12] for a in answers}
    head, _, body = refused[0].partition(b"\r\n\r\n")
    assert b"retry-after: " in head.lower()
    assert "too many open connections" in json.loads(body)["error"]
    assert "did not arrive in time" in json.loads(timed_out[0].partition(b"\r\n\r\n")[2])["error"]
    with client_from("127.0.0.1", base) as again:  # the address is free again once they closed
        assert again.get("/api/games").status_code == 200


def test_a_full_server_answers_503_in_json(serve):
    base, port = serve("read_seconds=30", "max_connections=5")
    held = half_open(port, 5)
    try:
        with client_from("127.0.0.2", base) as other:
            res = other.get("/api/games")
        assert res.status_code == 503, res.text
        assert int(res.headers["retry-after"]) > 0
        assert "busy" in res.json()["error"]
    finally:
        for s in held:
            s.close()
    time.sleep(0.5)
    with client_from("127.0.0.2", base) as other:
        assert other.get("/api/games").status_code == 200


def test_websockets_and_requests_share_an_address_cap(serve):
    base, port = serve("connections_per_client=3")
    with client_from("127.0.0.2", base) as http:
        game = http.post("/api/games", json={"game": "sintra", "seats": HUMANS}).json()
    url = f"ws://127.0.0.1:{port}/api/games/{game['id']}/ws?token={game['watch_token']}"

    async def scenario() -> tuple[int, int, int]:
        sockets = [await websockets.connect(url, local_addr=("127.0.0.3", 0)) for _ in range(3)]
        with client_from("127.0.0.3", base) as same, client_from("127.0.0.2", base) as other:
            capped = same.get("/api/games").status_code
            elsewhere = other.get("/api/games").status_code
            await sockets[0].close()
            await asyncio.sleep(0.3)
            freed = same.get("/api/games").status_code
        for ws in sockets[1:]:
            await ws.close()
        return capped, elsewhere, freed

    assert asyncio.run(scenario()) == (429, 200, 200)
