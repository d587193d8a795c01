"""The wheel, as a user gets it: built from the sdist of a copy of the sources (the build
compiles the catalogs and the compiled cores), installed with the server extra in a fresh venv
(no Babel, no arena extra), and run from a folder outside the project. Slow (a build and an
install from the package index), so it can be left out with ``-m 'not packaging'``; it runs by
default."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

import azul

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]
PROJECT_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE")


def copy_sources(to: Path) -> None:
    """The files a build reads, without compiled catalogs or anything built before."""
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, to / name)
    shutil.copytree(
        ROOT / "src",
        to / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.egg-info", "_core.c", "*.so"),
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Steps:
    """Runs and times each step, and prints the times (pytest -s, or on failure)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.last = self.start

    def done(self, what: str) -> None:
        now = time.perf_counter()
        print(f"{what}: {now - self.last:.1f} s", flush=True)
        self.last = now


def run(command: list, cwd: Path, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    if check:
        assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=2) as answer:
        return answer.status, answer.read()


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    steps = Steps()
    sources = tmp_path / "sources"
    sources.mkdir()
    copy_sources(sources)
    outside = tmp_path / "elsewhere"  # every command runs here, away from the project
    outside.mkdir()
    # the machine's own settings (pip's included), less those that would lead to the sources
    hidden = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    env.update(
        AZUL_CONFIG_DIR=str(tmp_path / "config"),
        AZUL_DATA_DIR=str(tmp_path / "data"),
        AZUL_LANG="en",
        LANG="C.UTF-8",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )

    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--sdist", "--outdir", dist, sources], outside, env)
    (sdist,) = dist.glob("azul_games-*.tar.gz")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, sdist], outside, env)
    (wheel,) = dist.glob("azul_games-*.whl")
    steps.done("build the sdist, and the wheel from it")

    names = set(zipfile.ZipFile(wheel).namelist())
    info = f"azul_games-{azul.__version__}.dist-info"
    for lang in ("fr", "pt"):
        assert f"azul/i18n/locales/{lang}/LC_MESSAGES/azul.mo" in names
    assert "azul/py.typed" in names and "azul/_version.py" in names
    assert f"{info}/licenses/LICENSE" in names
    assert "azul/web/index.html" in names and "azul/sintra/components.toml" in names
    assert "azul/server/levels.json" in names
    assert {"azul/interop/policies/pavilion.npz", "azul/interop/policies/sintra.npz"} <= names
    for game in ("pavilion", "sintra"):
        assert any(n.startswith(f"azul/{game}/_core.") and n.endswith(".so") for n in names)
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert (
        f"\nVersion: {azul.__version__}\n" in metadata and "\nLicense-Expression: MIT\n" in metadata
    )
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and all("extra ==" in line for line in requires)  # no core dependency
    assert any(line.startswith("Requires-Dist: tqdm") and '"arena"' in line for line in requires)
    assert any(line.startswith("Requires-Dist: babel") and '"test"' in line for line in requires)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], outside, env)
    bin_ = venv / "bin"
    run([bin_ / "python", "-m", "pip", "install", "-q", f"{wheel}[server]"], outside, env)
    steps.done("a fresh venv with the wheel and its server extra")

    python, azul_command = bin_ / "python", bin_ / "azul"
    where = run([python, "-c", "import azul; print(azul.__file__)"], outside, env).stdout
    assert Path(where.strip()).is_relative_to(venv)  # the installed package, not the sources
    for absent in ("babel", "tqdm", "openskill"):
        assert run([python, "-c", f"import {absent}"], outside, env, check=False).returncode
    assert run([azul_command, "--version"], outside, env).stdout == f"azul {azul.__version__}\n"
    assert (
        "Summer Pavilion in short" in run([azul_command, "rules", "pavilion"], outside, env).stdout
    )
    french = run([azul_command, "--lang", "fr", "rules", "pavilion"], outside, env).stdout
    assert "tour de défausse" in french
    helped = run([azul_command, "--lang", "pt", "--help"], outside, env).stdout
    assert "uso:" in helped and "mostrar esta ajuda e sair" in helped
    bench = run([azul_command, "--lang", "en", "bench", "--games", "10"], outside, env).stdout
    assert "steps/s" in bench
    compared = [azul_command, "--lang", "en", "bench", "sintra", "--games", "5", "--compare"]
    assert "playouts in C" in run(compared, outside, env).stdout
    match = [azul_command, "match", "pavilion", "random", "greedy", "--games", "2"]
    refused = run(match, outside, env, check=False)
    assert refused.returncode == 2 and "pip install 'azul-games[arena]'" in refused.stderr
    steps.done("version, rules, French, Portuguese help, bench (compiled), match without arena")

    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [azul_command, "serve", "--port", str(port)],
            cwd=outside,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        end = time.time() + 60
        while True:
            try:
                status, body = get(f"{base}/api/games")
                break
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.time() < end, f"the server did not start: {log.read_text()}"
                time.sleep(0.1)
        assert status == 200 and json.loads(body) == []
        status, body = get(f"{base}/api/i18n/fr")
        assert status == 200 and json.loads(body)["messages"]["options"] == "options"
        status, body = get(f"{base}/")
        assert status == 200 and b"<html" in body.lower()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (tmp_path / "data" / "azul.sqlite3").exists()  # the private data folder
    steps.done("azul serve answered")
    print(f"total: {time.perf_counter() - steps.start:.1f} s")


def test_without_a_compiler_the_wheel_runs_on_the_python_engines(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    copy_sources(sources)
    env = {**os.environ, "CC": "false", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # no C compiler
    env.pop("PYTHONPATH", None)
    dist = tmp_path / "dist"
    run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, sources],
        tmp_path,
        env,
    )
    (wheel,) = dist.glob("azul_games-*.whl")
    assert not any(n.endswith(".so") for n in zipfile.ZipFile(wheel).namelist())
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], tmp_path, env)
    run([venv / "bin" / "python", "-m", "pip", "install", "-q", wheel], tmp_path, env)
    compared = [
        venv / "bin" / "azul",
        "--lang",
        "en",
        "bench",
        "sintra",
        "--games",
        "3",
        "--compare",
    ]
    out = run(compared, tmp_path, {**env, "AZUL_CONFIG_DIR": str(tmp_path / "config")}).stdout
    assert "steps/s" in out and "the compiled core is not built" in out
