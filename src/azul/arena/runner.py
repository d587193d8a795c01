"""Running many games: locally (one process or a pool) or as Ray tasks, with a progress bar;
results come back in schedule order, so every backend gives identical results for the same
seeds (with iteration limits, which do not depend on the machine's speed)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from azul.arena.match import GameResult, play_game
from azul.bots import Limit
from azul.bots.spec import BotSpec
from azul.core.errors import AzulError
from azul.extras import install
from azul.i18n import _

Job = tuple[str, dict[str, Any], list[BotSpec], int, Limit | None]


def _play(job: Job) -> GameResult:
    return play_game(*job)


def run_jobs(
    jobs: list[Job],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: bool = True,
) -> list[GameResult]:
    """Play every job and return the results in job order."""
    results: Iterable[GameResult]
    if backend == "local":
        results = _local(jobs, workers)
    elif backend == "ray":
        results = _ray(jobs, workers, address)
    else:
        raise AzulError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    if progress:
        try:
            from tqdm import tqdm
        except ImportError:
            raise AzulError(
                "matches and tournaments need the arena extra: {command}",
                command=install("arena"),
            ) from None
        results = tqdm(results, total=len(jobs), desc=_("games"), unit=_("game"))
    return list(results)


def _local(jobs: list[Job], workers: int) -> Iterator[GameResult]:
    if workers <= 1:
        yield from map(_play, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_play, jobs)


def _ray(jobs: list[Job], workers: int, address: str | None) -> Iterator[GameResult]:
    try:
        import ray
    except ImportError:
        raise AzulError("the ray backend needs Ray: {command}", command=install("ray")) from None
    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = (
            {"address": address}
            if address
            else {"num_cpus": max(1, workers), "include_dashboard": False}
        )
        ray.init(log_to_driver=False, configure_logging=False, **kwargs)
    try:
        remote = ray.remote(_play)
        refs = [remote.remote(job) for job in jobs]
        for ref in refs:  # in order, as each finishes
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
