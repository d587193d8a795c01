"""A throwaway PostgreSQL server for the storage tests.

``AZUL_TEST_POSTGRES`` names an existing server (an SQLAlchemy URL); otherwise a private
server is started from the installed PostgreSQL binaries (Debian's ``postgresql`` package,
which ``.ci/run`` installs) in a temporary folder, and stopped afterwards. As root, the server
runs as the ``postgres`` user, since PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from tests.server.test_restart import free_port


def binaries() -> str | None:
    """The folder of initdb and pg_ctl, or None when PostgreSQL is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return os.path.dirname(found[-1])
    pg_ctl = shutil.which("pg_ctl")
    return os.path.dirname(pg_ctl) if pg_ctl else None


@contextmanager
def server() -> Iterator[str]:
    url = os.environ.get("AZUL_TEST_POSTGRES")
    if url:
        yield url
        return
    folder = binaries()
    if folder is None:
        raise FileNotFoundError("PostgreSQL is not installed")
    as_user: list[str] = []
    data = tempfile.mkdtemp(prefix="azul-pg-")
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*args: str) -> None:
        # run from the data folder: the postgres user may not enter the caller's folder
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120, cwd=data)

    run(f"{folder}/initdb", "-D", data, "-U", "azul", "-A", "trust", "--no-sync")
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    run(f"{folder}/pg_ctl", "-D", data, "-o", options, "-l", f"{data}/log", "-w", "start")
    try:
        yield f"postgresql://azul@127.0.0.1:{port}/postgres"
    finally:
        run(f"{folder}/pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(data, ignore_errors=True)
