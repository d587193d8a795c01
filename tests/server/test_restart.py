"""A real server process killed with SIGKILL mid-game comes back with every game where it was."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int, url: str, log: str | None = None) -> subprocess.Popen:
    """A server process; its output goes to ``log`` (a file), never to a pipe nobody reads."""
    out = open(log or os.devnull, "w")  # noqa: SIM115 - the process owns it
    proc = subprocess.Popen(
        [sys.executable, "-m", "azul", "serve", "--port", str(port), "--database", url],
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    end = time.time() + 30
    while time.time() < end:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start (log: {log})")


def wait_turn(base, gid, token):
    end = time.time() + 60
    while time.time() < end:
        view = httpx.get(f"{base}/api/games/{gid}", params={"token": token}).json()
        if view["to_move"] == 0 or view["over"]:
            return view
        time.sleep(0.05)
    raise AssertionError("the bot did not move")


def test_kill_9_and_restart(database):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = database
    proc = start(port, url)
    try:
        g = httpx.post(
            f"{base}/api/games",
            json={
                "game": "pavilion",
                "options": {"first_player": 0},
                "seed": 3,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            },
        ).json()
        token = g["seats"][0]["token"]
        for _ in range(3):
            view = wait_turn(base, g["id"], token)
            res = httpx.post(
                f"{base}/api/games/{g['id']}/moves",
                json={"token": token, "action": view["legal"][0]["action"]},
            )
            assert res.status_code == 200
        before = wait_turn(base, g["id"], token)
        assert len(before["log"]) >= 6
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    proc = start(port, url)
    try:
        after = httpx.get(f"{base}/api/games/{g['id']}", params={"token": token}).json()
        assert after == before
        res = httpx.post(
            f"{base}/api/games/{g['id']}/moves",
            json={"token": token, "action": after["legal"][0]["action"]},
        )
        assert res.status_code == 200  # the game goes on
    finally:
        proc.terminate()
        proc.wait()
