"""The server's process pools (bots and drawings): spawned, and ending with the server."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor


def die_with_parent(server: int) -> None:
    """In a worker process: end when the server ends, even when it is killed (Linux)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != server:  # the server died while this worker was starting
        os._exit(0)


def background(server: int) -> None:
    """A drawing or hint process ends with the server and yields the processor to it (and to
    the bots)."""
    die_with_parent(server)
    os.nice(10)


def pool(count: int, initializer: Callable[[int], None] = die_with_parent) -> Executor:
    """A pool of ``count`` processes that end with this one. Spawned, not forked: a worker
    must not inherit the server's listening socket."""
    return ProcessPoolExecutor(
        max_workers=count,
        initializer=initializer,
        initargs=(os.getpid(),),
        mp_context=multiprocessing.get_context("spawn"),
    )


def kill(executor: Executor) -> None:
    """Stop a pool now, its jobs thinking included."""
    processes = getattr(executor, "_processes", None) or {}
    executor.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):  # a bot thinking now is not waited for
        process.kill()
