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


def start(
    port: int, url: str, log: str | None = None, extra: list[str] | None = None
) -> subprocess.Popen:
    """A server process; its output goes to ``log`` (a file), never to a pipe nobody reads."""
    out = open(log or os.devnull, "w")  # noqa: SIM115 - the process owns it
    command = [sys.executable, "-m", "azul", "serve", "--port", str(port), "--database", url]
    proc = subprocess.Popen(
        command + (extra or []),
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    end = time.time() + 90  # a loaded machine running the suite in parallel starts slowly
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
    # a person against a bot (seeded), and meanwhile two bots playing each other with the
    # server's own draws: kill -9 mid-game loses nothing that was acknowledged or seen
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
        bots = httpx.post(
            f"{base}/api/games",
            json={
                "game": "sintra",
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "heuristic"}],
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
        watch = {"token": bots["watch_token"]}
        seen = httpx.get(f"{base}/api/games/{bots['id']}", params=watch).json()["log"]
        assert seen  # the bots are playing
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
        end = time.time() + 120
        while time.time() < end:  # and the bots finish theirs, from where they were
            again = httpx.get(f"{base}/api/games/{bots['id']}", params=watch).json()
            if again["over"]:
                break
            time.sleep(0.2)
        assert again["over"] and again["log"][: len(seen)] == seen
    finally:
        proc.terminate()
        proc.wait()


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def gone(pids: set[int], timeout: float = 30) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if not any(os.path.exists(f"/proc/{p}") and _alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_every_process_the_server_starts_ends_with_it(tmp_path, how):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(port, f"sqlite:///{tmp_path / 'g.db'}")
    try:
        bots = [{"kind": "bot", "bot": "mcts-strong"}, {"kind": "bot", "bot": "mcts-strong"}]
        httpx.post(f"{base}/api/games", json={"game": "sintra", "seats": bots})
        httpx.post(f"{base}/api/games", json={"game": "pavilion", "seats": bots})
        end = time.time() + 30
        while len(descendants(proc.pid)) < 2 and time.time() < end:  # the bots' processes
            time.sleep(0.1)
        children = descendants(proc.pid)
        assert len(children) >= 2
    finally:
        os.kill(proc.pid, how)
        proc.wait(timeout=30)
    assert gone(children)


def claims(url):
    """The bot turns claimed in the store: game id -> the claiming process."""
    from azul.server.store import Store

    store = Store(url)
    try:
        with store.engine.connect() as db:
            from sqlalchemy import text

            rows = db.execute(text("SELECT id, claimed_by FROM games WHERE claimed_by IS NOT NULL"))
            return dict(rows.all())
    finally:
        store.engine.dispose()


def a_bot_thinking(base):
    """A game where a strong bot has just started thinking (its turn claimed): id and token."""
    g = httpx.post(
        f"{base}/api/games",
        json={
            "game": "sintra",
            "options": {"first_player": 0},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts-strong"}],
        },
    ).json()
    token = g["seats"][0]["token"]
    view = httpx.get(f"{base}/api/games/{g['id']}", params={"token": token}).json()
    moved = httpx.post(
        f"{base}/api/games/{g['id']}/moves",
        json={"token": token, "action": view["legal"][0]["action"], "version": view["version"]},
    )
    assert moved.status_code == 200
    return g["id"], token


def test_a_bot_turn_held_by_a_killed_process_is_taken_up_at_once(database):
    # a lease of 10 minutes: only knowing that its holder is gone lets the new process move
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    lease = ["--limit", "bot_lease=600"]
    proc = start(port, database, extra=lease)
    try:
        gid, token = a_bot_thinking(base)
        end = time.time() + 10
        while gid not in claims(database):
            assert time.time() < end, "the bot's turn was not claimed"
            time.sleep(0.02)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert gid in claims(database)  # the dead process's claim is still there
    began = time.time()
    proc = start(port, database, extra=lease)
    try:
        up = time.time()
        view = wait_turn(base, gid, token)
        print(
            f"the server answered {up - began:.2f} s after the restart began; "
            f"the bot moved {time.time() - up:.2f} s later (thinking 1 s)"
        )
        assert len(view["log"]) == 2
    finally:
        proc.terminate()
        proc.wait()


def test_a_clean_shutdown_releases_the_bot_turns_it_held(database):
    port = free_port()
    proc = start(port, database, extra=["--limit", "bot_lease=600"])
    try:
        gid, _ = a_bot_thinking(f"http://127.0.0.1:{port}")
        end = time.time() + 10
        while gid not in claims(database):
            assert time.time() < end, "the bot's turn was not claimed"
            time.sleep(0.02)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert claims(database) == {}
