"""Flood benchmark: an unrelated game's latency while one client, or many, floods the server.

A player on 127.0.0.2 plays Summer Pavilion against the heuristic bot over a WebSocket. Its
move latency (the move sent until the view with it comes back) and the bot's reply latency (until
the view where it is the player's turn again) are measured idle, then under each flood:

- ``half-open``: 1,000 connections from 127.0.0.1 that each send part of a request's headers
  and never finish it (opened again whenever the server closes one);
- ``drawings``: 32 concurrent SVG requests from 127.0.0.3, each for a different drawing;
- ``hints``: 20 addresses (127.0.0.10 to 127.0.0.29) asking for hints as fast as they can.

Everything is on loopback, bounded in connections and in time (``--moves`` per phase, and at
most ``--phase-seconds``). The server is started with its default limits, but for new games
(the measured player starts one every 80 moves or so). Each flood runs in a
process of its own, at nice 10, so that its thousand connections do not delay the measured
player's own event loop nor take the processor from the server (which would count the flooding
client's work as the server's). The target: under
each flood, p99 within 3 times its idle value.

    python benchmarks/floods.py                 # every phase, about a minute or two
    python benchmarks/floods.py --moves 40 --out floods.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from load import start_server

FLOODS = ("half-open", "drawings", "hints")
PLAYER = "127.0.0.2"


def client(url: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=30)


async def new_game(http: httpx.AsyncClient, bot: bool = True) -> dict:
    seats = [{"kind": "human"}, {"kind": "bot" if bot else "human"}]
    res = await http.post(
        "/api/games",
        json={"game": "pavilion", "options": {"players": 2, "first_player": 0}, "seats": seats},
    )
    res.raise_for_status()
    return res.json()


async def play(url: str, moves: int, seconds: float) -> dict[str, list[float]]:
    """The player's move and bot-reply latencies over ``moves`` moves (new games as needed)."""
    found: dict[str, list[float]] = {"move": [], "bot": []}
    end = time.monotonic() + seconds
    async with client(url, PLAYER) as http:
        while len(found["move"]) < moves and time.monotonic() < end:
            g = await new_game(http)
            ws_url = f"{url.replace('http', 'ws', 1)}/api/games/{g['id']}/ws"
            ws_url += f"?token={g['seats'][0]['token']}"
            async with websockets.connect(ws_url, local_addr=(PLAYER, 0)) as ws:
                await _moves(ws, found, moves, end)
    return found


async def _moves(ws, found: dict[str, list[float]], moves: int, end: float) -> None:
    sent = replied = None
    async for message in ws:
        view = json.loads(message)
        now = time.perf_counter()
        if "error" in view:
            raise RuntimeError(view["error"])
        if sent is not None and view["log"] and view["log"][-1]["seat"] == 0:
            found["move"].append(now - sent)
            sent, replied = None, now
        if view["over"] or len(found["move"]) >= moves or time.monotonic() > end:
            return
        if view["legal"] and sent is None:
            if replied is not None:
                found["bot"].append(now - replied)
                replied = None
            sent = time.perf_counter()
            await ws.send(json.dumps({"action": view["legal"][0]["action"]}))


async def half_open(port: int, stop: asyncio.Event, n: int = 1000) -> int:
    """``n`` connections from 127.0.0.1 with unfinished headers, reopened when closed."""
    opened = 0

    async def one() -> None:
        nonlocal opened
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=("127.0.0.1", 0)
                )
            except OSError:
                await asyncio.sleep(0.5)
                continue
            opened += 1
            writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
            reader_task = asyncio.ensure_future(reader.read())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reader_task, stopping}, return_when=asyncio.FIRST_COMPLETED)
            reader_task.cancel()
            stopping.cancel()
            writer.close()
            await asyncio.sleep(0.5)  # a refused connection is not retried at once

    await asyncio.gather(*(one() for _ in range(n)))
    return opened


async def drawings(url: str, stop: asyncio.Event, concurrent: int = 32) -> int:
    """``concurrent`` SVG requests at a time from one address, each for another drawing."""
    asked = 0
    async with client(url, "127.0.0.3") as http:
        g = await new_game(http, bot=False)
        looks = [
            {"lang": lang, "layout": layout, "patterns": patterns, "focus": focus}
            for lang in ("en", "fr", "pt")
            for layout in ("wide", "tall")
            for patterns in (0, 1)
            for focus in (0, 1)
        ]

        async def one(i: int) -> None:
            nonlocal asked
            while not stop.is_set():
                look = looks[(i + asked) % len(looks)]
                await http.get(
                    f"/api/games/{g['id']}/svg", params={"token": g["watch_token"], **look}
                )
                asked += 1

        await asyncio.gather(*(one(i) for i in range(concurrent)))
    return asked


async def hints(url: str, stop: asyncio.Event, addresses: int = 20) -> int:
    """Hints asked for as fast as possible from ``addresses`` addresses, each in its game."""
    asked = 0

    async def one(address: str) -> None:
        nonlocal asked
        async with client(url, address) as http:
            g = await new_game(http, bot=False)
            token = g["seats"][0]["token"]
            while not stop.is_set():
                res = await http.post(f"/api/games/{g['id']}/hint", json={"token": token})
                asked += 1
                if res.status_code == 429:  # told to wait: as a hostile client, wait little
                    await asyncio.sleep(0.1)

    await asyncio.gather(*(one(f"127.0.0.{10 + i}") for i in range(addresses)))
    return asked


def quantiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"n": 0, "p50": None, "p99": None}
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return {
        "n": len(values),
        "p50": round(1000 * statistics.median(values), 1),
        "p99": round(1000 * p99, 1),
    }


def flood_process(flood: str, url: str, port: int, stopped, sent) -> None:
    """In a process of its own: the flood until ``stopped`` is set; its requests in ``sent``.
    At nice 10: a hostile client runs on its own machine, and here it shares two cores with
    the server, the measured player and the bot, so its own processing would otherwise count
    as the server's slowness (it still floods as fast as it can with the processor it gets)."""
    os.nice(10)

    async def main() -> None:
        stop = asyncio.Event()

        async def watch() -> None:
            while not stopped.is_set():
                await asyncio.sleep(0.1)
            stop.set()

        watching = asyncio.ensure_future(watch())
        if flood == "half-open":
            sent.value = await half_open(port, stop)
        elif flood == "drawings":
            sent.value = await drawings(url, stop)
        else:
            sent.value = await hints(url, stop)
        watching.cancel()

    asyncio.run(main())


async def phase(args: argparse.Namespace, url: str, port: int, flood: str | None) -> dict:
    flooding = None
    if flood is not None:
        stopped, sent = multiprocessing.Event(), multiprocessing.Value("q", 0)
        flooding = multiprocessing.Process(
            target=flood_process, args=(flood, url, port, stopped, sent)
        )
        flooding.start()
        await asyncio.sleep(args.warmup)
    found = await play(url, args.moves, args.phase_seconds)
    if flooding is not None:
        stopped.set()
        await asyncio.get_running_loop().run_in_executor(None, flooding.join, 60)
        if flooding.is_alive():
            flooding.kill()
    return {
        "move_ms": quantiles(found["move"]),
        "bot_ms": quantiles(found["bot"]),
        "flood_requests": sent.value if flooding is not None else 0,
    }


async def run(args: argparse.Namespace, url: str, port: int) -> dict:
    await play(url, 3, args.phase_seconds)  # the bot processes start: not measured
    result = {"idle": await phase(args, url, port, None)}
    for flood in args.floods:
        result[flood] = await phase(args, url, port, flood)
        await asyncio.sleep(args.warmup)  # the server sheds the flood before the next
    idle = result["idle"]
    for flood in args.floods:
        for kind in ("move_ms", "bot_ms"):
            base, now = idle[kind]["p99"], result[flood][kind]["p99"]
            ratio = round(now / base, 2) if base and now is not None else None
            result[flood][kind]["p99_over_idle"] = ratio
            result[flood][kind]["within_3x"] = ratio is not None and ratio <= 3
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="player moves per phase")
    parser.add_argument(
        "--phase-seconds", type=float, default=60, help="most seconds a phase plays"
    )
    parser.add_argument("--warmup", type=float, default=3, help="seconds a flood runs first")
    parser.add_argument("--floods", nargs="*", choices=FLOODS, default=list(FLOODS))
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--out", help="also write the results here (JSON)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="azul-floods-")
    # the default limits, but for new games: the measured player starts a game every 80 moves
    limits = {"creates_per_minute": 1000}
    proc = start_server(args.port, f"sqlite:///{Path(folder) / 'floods.db'}", limits=limits)
    try:
        result = asyncio.run(run(args, f"http://127.0.0.1:{args.port}", args.port))
    finally:
        proc.terminate()
        proc.wait()
    print(json.dumps(result, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
