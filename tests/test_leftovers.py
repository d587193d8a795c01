"""A test session that leaves a program running fails, and names it."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LEAKY = """
import subprocess


def test_starts_a_daemon():
    # the shell forks the sleep away and exits: the sleep's parent is no longer the test
    subprocess.run(["sh", "-c", "sleep 347 >/dev/null 2>&1 &"], check=True)


def test_starts_and_ends_a_program():
    subprocess.run(["sleep", "0.1"], check=True)
"""


def test_a_program_left_running_fails_the_session(tmp_path):
    (tmp_path / "test_leaky.py").write_text(LEAKY)
    options = ["-q", "-n", "0", "-p", "no:cacheprovider", "-p", "tests.conftest"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "AZUL_TEST_GRACE": "1"},
    )
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "the tests left these processes running" in out and "sleep 347" in out, out
    assert "2 passed" in out, out  # the tests themselves passed: the session's end failed
    assert subprocess.run(["pgrep", "-f", "sleep 347"], capture_output=True).returncode == 1
