"""Several server processes over one PostgreSQL database: moves made through one reach the
clients of the other, a move posted to both at once is applied once, a bot's turn survives the
process computing it being killed, and a restart loses no acknowledged move."""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
pytest.importorskip("fastapi")

from tests.server.test_restart import free_port, start  # noqa: E402

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def servers(postgres_url, tmp_path):
    """Start server processes over one empty PostgreSQL database: ``launch(*extra)`` gives
    (base URL, process)."""
    from tests.server.conftest import empty

    empty(postgres_url)
    running = []

    def launch(*extra):
        port = free_port()
        log = str(tmp_path / f"server{len(running)}.log")
        proc = start(port, postgres_url, log=log, extra=list(extra))
        running.append(proc)
        return f"http://127.0.0.1:{port}", proc

    yield launch
    for proc in running:
        proc.kill()
        proc.wait()


def new_game(base, seats=HUMANS, game="sintra"):
    answer = httpx.post(
        f"{base}/api/games",
        json={"game": game, "options": {"first_player": 0}, "seats": seats},
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def view(base, game, seat=0):
    token = game["seats"][seat]["token"]
    return httpx.get(f"{base}/api/games/{game['id']}", params={"token": token}).json()


def test_a_move_through_one_process_reaches_a_socket_on_the_other(servers):
    a, _ = servers()
    b, _ = servers()
    g = new_game(a)
    token = g["seats"][0]["token"]

    async def watch_and_move():
        async with websockets.connect(f"ws://{a[7:]}/api/games/{g['id']}/ws?token={token}") as ws:
            first = json.loads(await ws.recv())
            action = view(b, g)["legal"][0]["action"]
            moved = await asyncio.to_thread(
                httpx.post,
                f"{b}/api/games/{g['id']}/moves",
                json={"token": token, "action": action},
            )
            acknowledged = time.perf_counter()
            assert moved.status_code == 200, moved.text
            seen = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return first, seen, time.perf_counter() - acknowledged

    first, seen, _latency = asyncio.run(watch_and_move())
    assert seen["version"] > first["version"] and len(seen["log"]) == 1
    assert seen["to_move"] == 1


def test_a_move_posted_to_both_processes_at_once_is_applied_once(servers):
    many = ["--limit", "creates_per_minute=1000"]
    a, _ = servers(*many)
    b, _ = servers(*many)
    games = [new_game(a if i % 2 else b) for i in range(100)]
    for g in games:  # both processes hold every game
        view(a, g), view(b, g)
    moves = []
    for g in games:
        action = view(a, g)["legal"][0]["action"]
        body = {"token": g["seats"][0]["token"], "action": action}
        moves.append((g, body))

    async def post_all():
        async with httpx.AsyncClient(timeout=30) as client:
            posts = [
                client.post(f"{base}/api/games/{g['id']}/moves", json=body)
                for g, body in moves
                for base in (a, b)
            ]
            return await asyncio.gather(*posts)

    answers = [r.status_code for r in asyncio.run(post_all())]
    for i, g in enumerate(games):
        pair = sorted(answers[2 * i : 2 * i + 2])
        assert pair == [200, 409], (g["id"], pair)
        assert len(view(a, g)["log"]) == len(view(b, g)["log"]) == 1


def claimed_by(url, game_id):
    from sqlalchemy import select

    from azul.server.store import GameRow, Store

    with Store(url).engine.connect() as db:
        return db.execute(select(GameRow.claimed_by).where(GameRow.id == game_id)).scalar()


def test_a_bot_turn_survives_the_process_thinking_it_being_killed(servers, postgres_url):
    slow = ["--limit", "bot_time=3", "--limit", "bot_lease=1", "--limit", "bot_sweep=0.3"]
    a, proc_a = servers(*slow)
    b, proc_b = servers(*slow)
    g = new_game(a, [{"kind": "human"}, {"kind": "bot", "bot": "mcts-strong"}], "pavilion")
    token = g["seats"][0]["token"]
    action = view(a, g)["legal"][0]["action"]
    moved = httpx.post(f"{a}/api/games/{g['id']}/moves", json={"token": token, "action": action})
    assert moved.status_code == 200 and moved.json()["to_move"] == 1
    end = time.time() + 10
    while claimed_by(postgres_url, g["id"]) is None and time.time() < end:
        time.sleep(0.05)
    thinker = claimed_by(postgres_url, g["id"])
    assert thinker is not None  # a process holds the bot's turn
    pid = int(thinker.split(":")[1])
    assert pid in (proc_a.pid, proc_b.pid)
    os.kill(pid, signal.SIGKILL)
    other = b if pid == proc_a.pid else a
    end = time.time() + 60
    while time.time() < end:
        seen = view(other, g)
        if seen["to_move"] == 0:
            break
        time.sleep(0.2)
    assert seen["to_move"] == 0 and len(seen["log"]) == 2  # the bot moved, once


def test_a_restart_of_either_process_loses_no_acknowledged_move(servers):
    a, _ = servers()
    b, proc_b = servers()
    g = new_game(a)
    acknowledged = []
    for i in range(6):
        base = (a, b)[i % 2]
        seat = view(base, g, 0)["to_move"]
        legal = view(base, g, seat)["legal"]
        token = g["seats"][seat]["token"]
        answer = httpx.post(
            f"{base}/api/games/{g['id']}/moves",
            json={"token": token, "action": legal[0]["action"]},
        )
        assert answer.status_code == 200, answer.text
        acknowledged = answer.json()["log"]
    proc_b.send_signal(signal.SIGKILL)
    proc_b.wait()
    again, _ = servers()
    assert view(again, g)["log"] == acknowledged == view(a, g)["log"]


def test_several_workers_need_postgresql(tmp_path, servers, postgres_url):
    answer = subprocess.run(
        [sys.executable, "-m", "azul", "serve", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "AZUL_DATA_DIR": str(tmp_path)},
    )
    assert answer.returncode != 0
    assert "--workers 2: several processes need PostgreSQL" in answer.stderr
    base, _ = servers("--workers", "2")
    g = new_game(base)
    assert view(base, g)["to_move"] == 0


def test_the_cross_process_benchmark_runs(postgres_url):
    from pathlib import Path

    from tests.server.conftest import empty

    empty(postgres_url)
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "cross_process.py"
    run = subprocess.run(
        [sys.executable, str(script), "--database", postgres_url, "--games", "1", "--moves", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("3 moves: p50 ")


def _descendants(pid):
    """Every process started by ``pid``, and theirs (Linux)."""
    found = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(x) for x in f.read().split()]
    except OSError:
        return found
    for child in children:
        found += [child, *_descendants(child)]
    return found


def _alive(pid):
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
def test_workers_end_with_their_parent_however_it_ends(servers, how):
    base, proc = servers("--workers", "2")
    g = new_game(base, seats=[{"kind": "human"}, {"kind": "bot"}])  # a bot pool starts too
    assert view(base, g)["to_move"] is not None
    family = _descendants(proc.pid)
    assert len(family) >= 2, family  # the two workers at least
    proc.send_signal(how)
    proc.wait()
    end = time.time() + 20
    while any(_alive(p) for p in family) and time.time() < end:
        time.sleep(0.1)
    assert not [p for p in family if _alive(p)]
    port = int(base.rsplit(":", 1)[1])
    with socket.socket() as s:  # nothing holds the port
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
