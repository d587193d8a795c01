"""Running a run's jobs (self-play games, gate games): in this process, in a pool of worker
processes, or as Ray tasks. Each result is handed to ``done`` in this process as soon as it
comes back, so that it is saved at once and a killed run loses only the jobs in flight."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from azul.core.errors import AzulError, OptionError
from azul.extras import install

BACKENDS = ("local", "ray")
J = TypeVar("J")
R = TypeVar("R")


def check(backend: str, workers: int) -> None:
    """Refuse an unknown backend or a worker count that is not a positive integer."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers {workers!r} is not a positive integer")


def run(
    func: Callable[[J], R],
    jobs: Sequence[tuple[int, J]],
    done: Callable[[int, R], None],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """Call ``func`` on every (key, job) and ``done(key, result)`` as each one finishes."""
    check(backend, workers)
    if not jobs:
        return
    if backend == "ray":
        _ray(func, jobs, done, workers, address)
    elif workers == 1:
        for key, job in jobs:
            done(key, func(job))
    else:
        _pool(func, jobs, done, workers)


def _pool(
    func: Callable[[J], R], jobs: Sequence[tuple[int, J]], done: Callable[[int, R], None], n: int
) -> None:
    with ProcessPoolExecutor(max_workers=n) as pool:
        pending = {pool.submit(func, job): key for key, job in jobs}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(pending.pop(future), future.result())
        finally:
            for future in pending:
                future.cancel()


def _ray(
    func: Callable[[J], R],
    jobs: Sequence[tuple[int, J]],
    done: Callable[[int, R], None],
    workers: int,
    address: str | None,
) -> None:
    try:
        import ray
    except ImportError:
        raise AzulError("the ray backend needs Ray: {command}", command=install("ray")) from None
    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = (
            {"address": address} if address else {"num_cpus": workers, "include_dashboard": False}
        )
        ray.init(log_to_driver=False, configure_logging=False, **kwargs)
    try:
        remote = ray.remote(func)
        pending = {remote.remote(job): key for key, job in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                done(pending.pop(ref), ray.get(ref))
    finally:
        if started:
            ray.shutdown()
