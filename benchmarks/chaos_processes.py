"""The processes of the chaos benchmark: the ``azul serve`` servers it kills and restarts, a
throwaway PostgreSQL it restarts, and the cleanup that leaves none of them running.

The benchmark makes itself a child subreaper (Linux): the processes of a server orphaned by a
kill -9 become its own children, so it can count them, end them and reap them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from cross_process import free_port  # the benchmarks' own, in this folder
from load import start_server

PR_SET_CHILD_SUBREAPER = 36  # prctl(2)


async def off_loop(function: Callable, *args):
    """``function(*args)`` in a daemon thread: the event loop goes on meanwhile, and an
    interrupted run does not wait for it (as it would for an executor's thread)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(result, error) -> None:
        if not future.done():
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

    def work() -> None:
        try:
            outcome = (function(*args), None)
        except BaseException as e:  # handed to the awaiting task, whatever it is
            outcome = (None, e)
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=work, daemon=True).start()
    return await future


def become_subreaper() -> None:
    """Orphaned descendants of this process become its children (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


SERVER_KINDS = ("azul serve", "spawn_main", "resource_tracker")  # see ``what``


def children(pid: int) -> list[int]:
    """The children of each of the threads of ``pid``."""
    found = []
    for path in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            with open(path) as f:
                found += [int(x) for x in f.read().split()]
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[int]:
    """The descendants of ``pid``, recursively."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def what(pid: int) -> str:
    """A short name for a process: what it runs."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().decode(errors="replace").split("\0")
    except OSError:
        return "?"
    text = " ".join(words)
    for known in ("resource_tracker", "spawn_main", "azul serve"):
        if known in text:
            return known
    return os.path.basename(words[0])[:30]


def end(pids: list[int]) -> None:
    """SIGKILL these processes and reap those that are this process's children."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def answers(port: int) -> bool:
    """Whether something accepts connections on the loopback ``port``."""
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Server:
    """An ``azul serve`` (with ``workers`` processes) over ``database``, on a port of its own
    that it keeps across restarts."""

    database: str
    workers: int = 1
    limits: dict | None = None  # None: the load benchmark's
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: float = 90) -> float:
        """Start it; the seconds until it answered. RuntimeError when it did not."""
        began = time.perf_counter()
        try:
            self.proc = start_server(self.port, self.database, self.workers, self.limits, wait)
        except SystemExit:  # the load benchmark's way of saying it did not start
            raise RuntimeError(f"the server on port {self.port} did not start") from None
        if self.proc.poll() is not None:  # another process answered on the port
            raise RuntimeError(f"the server on port {self.port} exited at once")
        return time.perf_counter() - began

    def kill(self, grace: float = 2.0) -> dict:
        """kill -9 the server's main process. Its other processes still running ``grace``
        seconds later are orphans: they are counted (and whether the port still answers),
        then ended, so that a restart can take the port."""
        proc = self.proc
        if proc is None:
            return {"orphans": 0, "orphaned": [], "port_held": False}
        family = descendants(proc.pid)
        proc.kill()
        proc.wait()
        time.sleep(grace)
        orphans = [pid for pid in family if alive(pid)]
        held = answers(self.port)
        names = sorted(what(pid) for pid in orphans)
        end(orphans)
        self.proc = None
        return {"orphans": len(orphans), "orphaned": names, "port_held": held}

    def stop(self) -> None:
        """End it and every process it started, politely first."""
        proc = self.proc
        if proc is None:
            return
        family = descendants(proc.pid)
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        end([pid for pid in family if alive(pid)])
        self.proc = None


def postgres_binaries() -> str | None:
    """The folder of initdb and pg_ctl (Debian's postgresql package), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return os.path.dirname(found[-1])
    pg_ctl = shutil.which("pg_ctl")
    return os.path.dirname(pg_ctl) if pg_ctl else None


class Postgres:
    """A private PostgreSQL server in a temporary folder, on loopback only (as root it runs as
    the ``postgres`` user, since PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        folder = postgres_binaries()
        if folder is None:
            raise RuntimeError("PostgreSQL is not installed (/usr/lib/postgresql/*/bin)")
        self.bin = folder
        self.data = tempfile.mkdtemp(prefix="azul-chaos-pg-")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.running = False

    @property
    def url(self) -> str:
        return f"postgresql://azul@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        # from the data folder: the postgres user may not enter the caller's folder
        command = [*self.as_user, f"{self.bin}/{program}", *args]
        subprocess.run(command, check=True, capture_output=True, timeout=120, cwd=self.data)

    def _pg_ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", f"{self.data}/log", *args)

    def start(self) -> None:
        self._run("initdb", "-D", self.data, "-U", "azul", "-A", "trust", "--no-sync")
        self._pg_ctl("-w", "start")
        self.running = True

    def restart(self) -> float:
        """A fast shutdown (every session is ended) and a start; the seconds it took."""
        began = time.perf_counter()
        self._pg_ctl("-m", "fast", "-w", "restart")
        return time.perf_counter() - began

    def stop(self) -> None:
        if self.running:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                self._pg_ctl("-m", "immediate", "-w", "stop")
            self.running = False
        shutil.rmtree(self.data, ignore_errors=True)


class Processes:
    """Everything the benchmark starts, ended by ``close`` (also after Ctrl-C)."""

    def __init__(self) -> None:
        become_subreaper()
        self.servers: list[Server] = []
        self.databases: list[Postgres] = []
        self.folders: list[str] = []

    def server(self, database: str, workers: int = 1, limits: dict | None = None) -> Server:
        self.servers.append(Server(database, workers, limits))
        return self.servers[-1]

    def start(self, server: Server) -> dict:
        """Start ``server``: the seconds until it answered, and whether a stray process of
        an earlier server held its port (then ended first). On a failure, the processes the
        failed server left are ended too."""
        held = answers(server.port)
        if held:
            end(self.strays())
        try:
            seconds = server.start()
        except RuntimeError:
            end(self.strays())
            raise
        return {"restart_s": round(seconds, 2), "port_held_before": held}

    def strays(self) -> list[int]:
        """Processes of servers that are no longer this benchmark's servers' (adopted
        orphans), with their descendants."""
        known = {s.proc.pid for s in self.servers if s.proc is not None}
        found = []
        for pid in children(os.getpid()):
            if pid not in known and alive(pid) and what(pid) in SERVER_KINDS:
                found += [pid, *descendants(pid)]
        return found

    def postgres(self) -> Postgres:
        pg = Postgres()
        self.databases.append(pg)
        pg.start()
        return pg

    def folder(self) -> str:
        self.folders.append(tempfile.mkdtemp(prefix="azul-chaos-"))
        return self.folders[-1]

    def reap(self) -> None:
        """Reap the adopted orphans that ended by themselves (they would stay zombies)."""
        known = {s.proc.pid for s in self.servers if s.proc is not None}
        for pid in descendants(os.getpid()):
            if pid not in known and not alive(pid):
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)

    def close(self) -> None:
        for server in self.servers:
            server.stop()
        for pg in self.databases:
            pg.stop()
        end([pid for pid in descendants(os.getpid()) if alive(pid)])  # whatever is left
        self.reap()
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)
