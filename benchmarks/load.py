"""Load benchmark: many concurrent games played over WebSockets against a server.

Every game has two seats held by this script's bots, which choose a random legal move after a
pause (``--think``, the bots' thinking, which is not part of the latency), and ``--spectators``
more connections that only watch. Each move is sent on the seat's WebSocket; the new view comes
back on every connection of the game. At the end the script reports the server's own time per
move (``/api/stats``: checks, commit and live views), the round trip seen by the clients, the
games completed, the server's memory (when it started the server), and checks that nothing was
lost: every move a client saw acknowledged is in the game's stored record.

    python benchmarks/load.py --games 200 --spectators 5   # starts its own server (SQLite)
    python benchmarks/load.py --url http://host:8000       # or drives a running one
    python benchmarks/load.py --workers 2 --database postgresql://user@host/azul
    python benchmarks/load.py --server-python ../old/.venv/bin/python   # an older release

``--server-python`` starts the server with another interpreter (another checkout's venv), so
that one script measures two releases one after the other on the same machine state; only the
limits that release knows are passed to it. ``--deadline`` ends a run that has not finished in
time (a game whose connection broke would otherwise keep its spectators waiting): what was
measured is reported, with the unfinished connections among the errors.

With ``--workers 2`` the started server runs two processes, which share the connections: a
game's two seats and spectators may sit on different processes, so every view also crosses
from one process to the other through PostgreSQL. The server's own time per move is then one
process's, and its memory the sum of its processes'.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import websockets
from tqdm import tqdm

# A benchmark opens many connections and games from one address: lift the limits meant for a
# public server; idle tables leave memory after a few seconds, to measure what that frees.
LIMITS = {
    "creates_per_minute": 1_000_000,
    "sockets_per_client": 1_000_000,
    "sockets_per_game": 1_000,
    "max_connections": 100_000,
    "connections_per_client": 1_000_000,
    "idle_seconds": 3,
}


# no client pings (a late pong under load would close a seat and stall its game), and time
# for 1,400 connections to open at once on a busy machine
CONNECT = {"ping_interval": None, "open_timeout": 120}

# the targets of the server's time per move at --games 200 --spectators 5 (ms)
TARGETS = {"p50": 3.0, "p99": 45.0}


def known_limits(python: str) -> set[str]:
    """The limits the server run by ``python`` knows (an older release knows fewer)."""
    code = (
        "import dataclasses, json; from azul.server.settings import Settings; "
        "print(json.dumps([f.name for f in dataclasses.fields(Settings)]))"
    )
    found = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(found.stdout))


def start_server(
    port: int,
    database: str,
    workers: int = 1,
    limits: dict | None = None,
    wait: float = 30,
    python: str = sys.executable,
) -> subprocess.Popen:
    """An ``azul serve`` process (run by ``python``) answering on ``port`` within ``wait``
    seconds, with ``limits`` (default: LIMITS) as far as that release knows them."""
    cmd = [python, "-m", "azul", "serve", "--port", str(port), "--database", database]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    known = known_limits(python)
    for key, value in (LIMITS if limits is None else limits).items():
        if key in known:
            cmd += ["--limit", f"{key}={value}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.time() + wait
    while time.time() < end:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/stats", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def seat(
    url: str,
    gid: str,
    token: str,
    think: float,
    rng: random.Random,
    trips: list,
    bar,
    details: bool = False,
) -> int:
    """One seat's bot: waits for its turn, thinks, moves; returns the moves it saw stored.
    ``details``: it asks, as the browser table does, for the words, preview and details of
    its legal moves."""
    moved = 0
    sent_at = None
    log: list[dict] = []  # the whole log, kept as the browser keeps it (views send what is new)
    sent_with = 0  # the log's length when the last move was sent
    query = f"token={token}" + ("&details=1" if details else "")
    async with websockets.connect(f"{url}/api/games/{gid}/ws?{query}", **CONNECT) as ws:
        async for message in ws:
            view = json.loads(message)
            if "error" in view:
                raise RuntimeError(f"game {gid}: {view['error']}")
            log = log[: view.get("log_from", 0)] + view["log"]
            # acknowledged: the log has a move of this seat after the ones it had at the send
            # (a view sent again with the same log says nothing new)
            if sent_at is not None and any(e["seat"] == view["you"] for e in log[sent_with:]):
                trips.append(time.perf_counter() - sent_at)
                sent_at = None
                moved += 1
                bar.update()
            if view["over"]:
                return moved
            if view["legal"] and sent_at is None:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at, sent_with = time.perf_counter(), len(log)
                await ws.send(json.dumps({"action": rng.choice(view["legal"])["action"]}))
    raise RuntimeError(f"game {gid}: the connection closed before the end")


async def spectator(url: str, gid: str, token: str) -> int:
    """A spectator: reads every view until the game is over; the number of views it got."""
    views = 0
    async with websockets.connect(f"{url}/api/games/{gid}/ws?token={token}", **CONNECT) as ws:
        async for message in ws:
            views += 1
            if json.loads(message)["over"]:
                return views
    raise RuntimeError(f"game {gid}: a spectator's connection closed before the end")


def rss_mb(pid: int | None) -> float | None:
    """The resident memory of a process and its children (Linux), in MB; bot worker
    processes not counted (they start with the first bot, and none plays here)."""
    if pid is None:
        return None
    total = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    for child in _children(pid):
        total += int((rss_mb(child) or 0) * 1024)
    return round(total / 1024, 1)


def cpu_seconds(pid: int | None) -> float | None:
    """The processor time the server process has used so far (Linux; all its threads, not
    its worker processes): unlike latency, little changed by other work on the machine."""
    if pid is None:
        return None
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


async def run(args: argparse.Namespace, url: str, pid: int | None) -> dict:
    ws_url = url.replace("http", "ws", 1)
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        games = []
        for i in range(args.games):
            res = await client.post(
                "/api/games",
                json={
                    "game": args.game if args.game != "both" else ("pavilion", "sintra")[i % 2],
                    "options": {"players": 2},
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                },
            )
            res.raise_for_status()
            games.append(res.json())
        trips: list[float] = []
        memory = [rss_mb(pid)]
        cpu = cpu_seconds(pid)
        start = time.perf_counter()
        with tqdm(desc="moves", unit="move", disable=args.quiet) as bar:
            jobs = [
                seat(
                    ws_url,
                    g["id"],
                    s["token"],
                    args.think,
                    random.Random(rng.random()),
                    trips,
                    bar,
                    args.details,
                )
                for g in games
                for s in g["seats"]
            ]
            watchers = [
                spectator(ws_url, g["id"], g["watch_token"])
                for g in games
                for _ in range(args.spectators)
            ]
            sampler = asyncio.ensure_future(sample(memory, pid))
            everything = await within(args.deadline, [*jobs, *watchers])
            sampler.cancel()
        wall = time.perf_counter() - start
        if cpu is not None:
            cpu = cpu_seconds(pid) - cpu  # type: ignore[operator]
        results, watched = everything[: len(jobs)], everything[len(jobs) :]
        failures = [r for r in everything if isinstance(r, Exception)]
        moved = [r for r in results if not isinstance(r, Exception)]
        lost = completed = 0
        for i, g in enumerate(games):
            view = (
                await client.get(f"/api/games/{g['id']}", params={"token": g["watch_token"]})
            ).json()
            completed += view["over"]
            seen = sum(x for x in results[2 * i : 2 * i + 2] if not isinstance(x, Exception))
            lost += max(0, seen - len(view["log"]))
        stats = (await client.get("/api/stats")).json()
        evicted = None
        if pid is not None:  # the finished tables are idle now: wait for them to leave memory
            for _ in range(60):
                await asyncio.sleep(1)
                evicted = (await client.get("/api/stats")).json()["tables"]
                if evicted == 0:
                    break
    trips.sort()
    return {
        "games": args.games,
        "completed": completed,
        "workers": args.workers,
        "errors": len(failures),
        "failures": [str(f) for f in failures[:5]],
        "moves": sum(moved),
        "lost": lost,
        "seconds": round(wall, 1),
        "moves_per_second": round(sum(moved) / wall, 1),
        "spectators_per_game": args.spectators,
        "seats_ask_details": args.details,
        "spectator_views": sum(w for w in watched if not isinstance(w, Exception)),
        "server_move_ms": stats["move_ms"],
        "server_cpu_ms_per_move": round(1000 * cpu / sum(moved), 2) if cpu and moved else None,
        "server_rss_mb": {
            "before": memory[0],
            "peak": max((m for m in memory if m is not None), default=None),
            "after_eviction": rss_mb(pid),
            "tables_in_memory_at_the_end": stats["tables"],
            "tables_in_memory_after_eviction": evicted,
        },
        "round_trip_ms": {
            "p50": round(1000 * statistics.median(trips), 2) if trips else None,
            "p99": round(1000 * trips[int(0.99 * (len(trips) - 1))], 2) if trips else None,
        },
    }


async def within(seconds: float, coroutines: list) -> list:
    """Each coroutine's result or exception; those still running after ``seconds`` are
    cancelled and count as errors (TimeoutError)."""
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    await asyncio.wait(tasks, timeout=seconds)
    results: list = []
    for task in tasks:
        if not task.done():
            task.cancel()
            results.append(TimeoutError(f"not finished within {seconds:g} s"))
        elif task.exception() is not None:
            results.append(task.exception())
        else:
            results.append(task.result())
    return results


def targets(result: dict) -> dict:
    """Whether the server's time per move meets the targets (p50 <= 3 ms, p99 <= 45 ms)."""
    move = result["server_move_ms"]
    return {
        f"server_move_{q}_ms <= {limit:g}": move[q] is not None and move[q] <= limit
        for q, limit in TARGETS.items()
    }


async def sample(memory: list, pid: int | None) -> None:
    """The server's memory every half second."""
    while pid is not None:
        await asyncio.sleep(0.5)
        memory.append(rss_mb(pid))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--game", choices=["pavilion", "sintra", "both"], default="both")
    parser.add_argument(
        "--spectators", type=int, default=0, help="watching connections per game (default 0)"
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a bot waits before moving"
    )
    parser.add_argument(
        "--details",
        action="store_true",
        help="seats ask for their legal moves' words, preview and details (as the browser does)",
    )
    parser.add_argument("--url", help="a running server; by default one is started")
    parser.add_argument("--database", help="the started server's database (default SQLite)")
    parser.add_argument(
        "--workers", type=int, default=1, help="the started server's processes (PostgreSQL)"
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="also write the results here (JSON)")
    parser.add_argument(
        "--server-python",
        default=sys.executable,
        help="the interpreter that runs the started server (another checkout's venv)",
    )
    parser.add_argument(
        "--deadline", type=float, default=900, help="seconds before an unfinished run ends"
    )
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    proc = None
    url = args.url
    if url is None:
        folder = tempfile.mkdtemp(prefix="azul-load-")
        database = args.database or f"sqlite:///{os.path.join(folder, 'load.db')}"
        proc = start_server(args.port, database, args.workers, python=args.server_python)
        url = f"http://127.0.0.1:{args.port}"
    try:
        result = asyncio.run(run(args, url, proc.pid if proc else None))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
    result["targets"] = targets(result)
    print(json.dumps(result, indent=2))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=2)
    return 0 if result["completed"] == args.games and not result["lost"] else 1


if __name__ == "__main__":
    sys.exit(main())
