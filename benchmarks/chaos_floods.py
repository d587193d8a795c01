"""The chaos benchmark's floods, each from loopback addresses of its own (all of 127.0.0.0/8 is
loopback on Linux; a client socket is bound to its address), and the unrelated game whose
latency they must not spoil.

- ``slowloris``: many half-open HTTP connections from one address, each sending a header line
  every few seconds and never ending its request;
- ``drawings``: concurrent SVG drawings from one address, of positions it chooses at random;
- ``hints``: hints asked for from many addresses, each in its own game.

``probe`` plays, from 127.0.0.1, games of two scripted seats (the load benchmark's players:
the round trip of each move over the WebSocket) and a game against a bot (the time from the
person's move to the bot's reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import statistics
import time
from collections import Counter

import httpx
import websockets
from load import seat  # the load benchmark's player, in this folder
from tqdm import tqdm
from websockets.exceptions import WebSocketException


def quantiles(seconds: list[float]) -> dict:
    """p50 and p99 in milliseconds, as the load benchmark reports them."""
    xs = sorted(seconds)
    if not xs:
        return {"n": 0, "p50": None, "p99": None}
    p99 = xs[math.ceil(0.99 * len(xs)) - 1]  # the nearest rank
    return {
        "n": len(xs),
        "p50": round(1000 * statistics.median(xs), 1),
        "p99": round(1000 * p99, 1),
    }


def why(e: BaseException) -> str:
    """An exception's name, with the HTTP status when it is a refusal."""
    response = getattr(e, "response", None)
    status = getattr(response, "status_code", None)
    return type(e).__name__ + (f" {status}" if status is not None else "")


def client(address: str, timeout: float = 10) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(transport=transport, timeout=timeout)


async def create(http: httpx.AsyncClient, url: str, seats: list[dict], game: str = "sintra"):
    answer = await http.post(f"{url}/api/games", json={"game": game, "seats": seats})
    answer.raise_for_status()
    return answer.json()


async def view_of(http: httpx.AsyncClient, url: str, gid: str, token: str) -> dict:
    answer = await http.get(f"{url}/api/games/{gid}", params={"token": token})
    answer.raise_for_status()
    return answer.json()


# -- the unrelated game -----------------------------------------------------------------------
async def probe(url: str, seconds: float, think: float, seed: int) -> dict:
    """An unrelated game's latencies for ``seconds``: moves (WebSocket round trip, the load
    benchmark's players) and bot replies, with the failures met."""
    trips: list[float] = []
    replies: list[float] = []
    failures: Counter = Counter()
    end = time.monotonic() + seconds
    async with client("127.0.0.1") as http:
        await asyncio.gather(
            _people(http, url, end, think, random.Random(seed), trips, failures),
            _against_bot(http, url, end, think, random.Random(seed + 1), replies, failures),
        )
    return {
        "move_ms": quantiles(trips),
        "bot_reply_ms": quantiles(replies),
        "failed": sum(failures.values()),
        "failures": dict(failures.most_common(6)),
    }


async def _people(http, url, end, think, rng, trips, failures) -> None:
    """Games of two seats played by the load benchmark's players until ``end``."""
    ws_url = url.replace("http", "ws", 1)
    with tqdm(disable=True) as bar:
        while time.monotonic() < end:
            try:
                g = await create(http, url, [{"kind": "human"}, {"kind": "human"}])
                players = [
                    seat(
                        ws_url, g["id"], s["token"], think, random.Random(rng.random()), trips, bar
                    )
                    for s in g["seats"]
                ]
                await asyncio.wait_for(asyncio.gather(*players), end - time.monotonic())
            except TimeoutError:
                return
            except (httpx.HTTPError, WebSocketException, OSError, RuntimeError, ValueError) as e:
                failures[f"move: {why(e)}"] += 1
                await asyncio.sleep(0.2)


async def _against_bot(http, url, end, think, rng, replies, failures) -> None:
    """Games against the default bot until ``end``: the time of each of its replies."""
    while time.monotonic() < end:
        try:
            g = await create(http, url, [{"kind": "human"}, {"kind": "bot"}])
            token = g["seats"][0]["token"]
            ws = f"{url.replace('http', 'ws', 1)}/api/games/{g['id']}/ws?token={token}"
            async with websockets.connect(ws, open_timeout=5, max_size=2**23) as socket:
                await _bot_game(http, url, g["id"], token, socket, end, think, rng, replies)
        except (httpx.HTTPError, WebSocketException, OSError, ValueError, KeyError) as e:
            failures[f"bot game: {why(e)}"] += 1
            await asyncio.sleep(0.2)


async def _bot_game(http, url, gid, token, socket, end, think, rng, replies) -> None:
    moved_at = None  # when the person's move was answered, the bot to reply
    mine = 0  # the ply of that move
    while time.monotonic() < end:
        try:
            view = json.loads(await asyncio.wait_for(socket.recv(), end - time.monotonic()))
        except TimeoutError:
            return
        if "error" in view:
            raise ValueError(view["error"])
        if moved_at is not None and any(e["seat"] == 1 and e["ply"] > mine for e in view["log"]):
            replies.append(time.monotonic() - moved_at)
            moved_at = None
        if view["over"]:
            return
        if view["legal"] and moved_at is None:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            action = rng.choice(view["legal"])["action"]
            answer = await http.post(
                f"{url}/api/games/{gid}/moves", json={"token": token, "action": action}
            )
            answer.raise_for_status()
            after = answer.json()
            if after["to_move"] == 1:
                moved_at, mine = time.monotonic(), len(after["log"])


# -- the floods -------------------------------------------------------------------------------
async def slowloris(port: int, address: str, count: int, drip: float, stop, ready) -> dict:
    """``count`` connections from ``address`` that send a header line every ``drip`` seconds
    and never finish their request (one the server ends is opened again a second later);
    ``ready`` is set once each was tried, and how many were held then is reported."""
    tally: Counter = Counter()
    held = 0

    async def hold(i: int) -> None:
        nonlocal held
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0)), 5
            )
        except (OSError, TimeoutError):
            tally["refused"] += 1
            return
        tally["opened"] += 1
        held += 1
        try:
            writer.write(b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            n = 0
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    data = await asyncio.wait_for(reader.read(1024), drip)
                    tally["closed by the server" if not data else "answered by the server"] += 1
                    return
                n += 1
                writer.write(f"X-Drip-{n}: {i}\r\n".encode())
                await writer.drain()
        except OSError:
            tally["reset by the server"] += 1
        finally:
            held -= 1
            writer.close()

    async def keep(i: int) -> None:
        await asyncio.sleep(0.002 * i)  # opened in a ramp, not all in one instant
        while not stop.is_set():
            await hold(i)
            await asyncio.sleep(1)

    tasks = [asyncio.ensure_future(keep(i)) for i in range(count)]
    began = time.monotonic()
    while tally["opened"] + tally["refused"] < count and time.monotonic() < began + 30:
        await asyncio.sleep(0.1)
    await asyncio.sleep(drip + 1)  # a drip, for the server's timeouts to show
    tally["held when measured"] = held
    ready.set()
    await asyncio.gather(*tasks)
    return dict(tally)


async def drawings(url: str, address: str, count: int, stop, ready) -> dict:
    """``count`` concurrent loops of SVG drawings from ``address``, of random plies, layouts
    and patterns of one game played a little first."""
    tally: Counter = Counter()
    rng = random.Random(7)
    async with client(address, timeout=20) as http:
        g = await create(http, url, [{"kind": "human"}, {"kind": "human"}])
        tokens = [s["token"] for s in g["seats"]]
        plies = 0
        for _ in range(16):  # some moves, so there are positions to draw
            token = tokens[(await view_of(http, url, g["id"], tokens[0]))["to_move"]]
            mine = await view_of(http, url, g["id"], token)
            body = {"token": token, "action": rng.choice(mine["legal"])["action"]}
            plies += (await http.post(f"{url}/api/games/{g['id']}/moves", json=body)).is_success

        async def draw() -> None:
            while not stop.is_set():
                params = {
                    "token": g["watch_token"],
                    "ply": rng.randrange(plies + 1),
                    "layout": rng.choice(["wide", "tall"]),
                    "patterns": rng.choice(["true", "false"]),
                }
                try:
                    answer = await http.get(f"{url}/api/games/{g['id']}/svg", params=params)
                    tally[answer.status_code] += 1
                except httpx.HTTPError as e:
                    tally[type(e).__name__] += 1
                    await asyncio.sleep(0.1)

        ready.set()
        await asyncio.gather(*(draw() for _ in range(count)))
    return {str(k): v for k, v in tally.items()}


async def hints(url: str, addresses: list[str], stop, ready, per_address: int = 3) -> dict:
    """From each address, in a game of its own, ``per_address`` loops asking for hints (after
    a refusal for too many, a pause of half a second)."""
    tally: Counter = Counter()

    async def ask(http: httpx.AsyncClient, gid: str, token: str) -> None:
        while not stop.is_set():
            try:
                answer = await http.post(f"{url}/api/games/{gid}/hint", json={"token": token})
                tally[answer.status_code] += 1
                if answer.status_code == 429:
                    await asyncio.sleep(0.5)
            except httpx.HTTPError as e:
                tally[type(e).__name__] += 1
                await asyncio.sleep(0.1)

    async def flood(address: str) -> None:
        async with client(address, timeout=20) as http:
            g = await create(http, url, [{"kind": "human"}, {"kind": "human"}])
            view = await view_of(http, url, g["id"], g["watch_token"])
            token = g["seats"][view["to_move"]]["token"]
            await asyncio.gather(*(ask(http, g["id"], token) for _ in range(per_address)))

    async def started() -> None:
        await asyncio.sleep(1)
        ready.set()

    await asyncio.gather(started(), *(flood(a) for a in addresses))
    return {str(k): v for k, v in tally.items()}
