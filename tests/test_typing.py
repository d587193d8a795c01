"""The package type-checks under mypy --strict (it ships py.typed, so its users' checkers read
these annotations)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_is_clean(tmp_path):
    pytest.importorskip("mypy")
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("needs the source tree")
    cache = tmp_path / "mypy-cache"
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "src/azul"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    shutil.rmtree(cache, ignore_errors=True)
    assert run.returncode == 0, run.stdout + run.stderr
