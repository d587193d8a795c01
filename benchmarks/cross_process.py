"""How long a move acknowledged by one server process takes to reach a WebSocket client of
another, both over one PostgreSQL database.

    python benchmarks/cross_process.py --database postgresql://user@host/azul --games 10

Starts two server processes (with the load benchmark's limits); for each game, a client watches
it on the first and plays both seats through the second, and the time from each move's
acknowledgement to its view on the watching socket is recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import time

import httpx
import websockets
from load import start_server  # the load benchmark's, in this folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def game(watch: str, play: str, moves: int) -> list[float]:
    """Seconds from each move's acknowledgement on ``play`` to its view on ``watch``."""
    async with httpx.AsyncClient(timeout=30) as client:
        created = await client.post(
            f"{play}/api/games",
            json={"game": "sintra", "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        g = created.json()
        tokens = [s["token"] for s in g["seats"]]
        delays = []
        url = f"ws://{watch[len('http://') :]}/api/games/{g['id']}/ws?token={g['watch_token']}"
        async with websockets.connect(url) as ws:
            await ws.recv()
            for _ in range(moves):
                seen = await client.get(f"{play}/api/games/{g['id']}", params={"token": tokens[0]})
                seat = seen.json()["to_move"]
                if seat is None:
                    break
                view = await client.get(
                    f"{play}/api/games/{g['id']}", params={"token": tokens[seat]}
                )
                action = view.json()["legal"][0]["action"]
                answer = await client.post(
                    f"{play}/api/games/{g['id']}/moves",
                    json={
                        "token": tokens[seat],
                        "action": action,
                        "version": view.json()["version"],
                    },
                )
                acknowledged = time.perf_counter()
                answer.raise_for_status()
                version = answer.json()["version"]
                while json.loads(await ws.recv())["version"] < version:
                    pass
                delays.append(time.perf_counter() - acknowledged)
        return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    args = parser.parse_args()
    ports = [free_port(), free_port()]
    servers = [start_server(port, args.database) for port in ports]
    watch, play = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        delays = []
        for _ in range(args.games):
            delays += asyncio.run(game(watch, play, args.moves))
    finally:
        for proc in servers:
            proc.kill()
    delays.sort()
    p99 = delays[int(0.99 * (len(delays) - 1))]
    print(
        f"{len(delays)} moves: p50 {1000 * statistics.median(delays):.1f} ms, "
        f"p99 {1000 * p99:.1f} ms, max {1000 * delays[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
