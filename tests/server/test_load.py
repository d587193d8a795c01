"""The load benchmark's script runs end to end (a small load; the figures are benchmarks)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
from tests.server.test_restart import free_port

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def run_script(tmp_path, *extra):
    """The script's results for 4 quick games (it starts its own server)."""
    out = tmp_path / "load.json"
    port = str(free_port())
    # the script's own deadline ends a stalled run before the timeout, and stops its server
    args = ["--games", "4", "--think", "0", "--quiet", "--port", port, "--out", str(out)]
    args += ["--deadline", "200"]
    run = subprocess.run(
        [sys.executable, str(SCRIPT), *args, *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(out.read_text())


def test_load_script_plays_every_game_and_loses_nothing(tmp_path):
    result = run_script(tmp_path)
    assert result["completed"] == 4 and result["lost"] == 0 and not result["failures"]
    assert result["moves"] > 4 * 40  # whole games, not a few moves
    assert result["server_move_ms"]["p50"] > 0


def test_load_script_with_two_workers_over_postgresql(tmp_path, postgres_url):
    from tests.server.conftest import empty

    empty(postgres_url)
    result = run_script(tmp_path, "--workers", "2", "--spectators", "2", "--database", postgres_url)
    assert result["workers"] == 2 and result["errors"] == 0
    assert result["completed"] == 4 and result["lost"] == 0
    assert result["moves"] > 4 * 40
