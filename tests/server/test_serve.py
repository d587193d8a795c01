"""``azul serve`` says where it serves only once it listens, and a port already taken gets a
message that names --port."""

import socket
import subprocess
import sys

import httpx
import pytest

from tests.server.test_restart import free_port

pytest.importorskip("uvicorn")


def serve(tmp_path, port: int) -> list[str]:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    return [sys.executable, "-m", "azul", "serve", "--port", str(port), "--database", database]


def test_a_port_taken_is_named_with_the_option_to_choose_another(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(serve(tmp_path, port), capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"cannot serve at 127.0.0.1:{port}" in run.stderr and "--port" in run.stderr
    assert "Azul games at" not in run.stdout and "Traceback" not in run.stderr


def test_it_says_where_it_serves_once_it_listens(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        serve(tmp_path, port), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # the first thing it prints
        assert line.startswith(f"Azul games at http://127.0.0.1:{port}/"), line
        answer = httpx.get(f"http://127.0.0.1:{port}/api/setup", timeout=10)  # at once
        assert answer.status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=60)
