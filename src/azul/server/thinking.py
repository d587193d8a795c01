"""The order in which the bot processes think: bots' moves first, then hints, and never more
waiting than the limits allow.

At most ``slots`` jobs are thinking at once (the pools' own queues stay empty), and hints
hold at most ``slots - 1`` of them, so a game's bot never waits behind more than the hints
already thinking. Hints may think in a pool of their own (``hint_pool``, the server's runs
at a lower priority), so that a flood of hints leaves the processor to the bots.

Waiting hints are bounded in all (``hints_queued``) and per client address
(``hints_per_client``); a hint asked for again while the same one is waiting or thinking (the
same game at the same version) is the same job. Beyond a bound a hint is refused (TooMany:
429 with ``Retry-After``). Bots' moves are not bounded here: a game has at most one bot
thinking, and the games in memory are bounded (``max_tables``).
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from azul.server.errors import TooMany

RETRY_SECONDS = 5  # what a refused hint is told to wait


@dataclass
class _Job:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]
    hint: bool = False
    client: str = ""
    key: Hashable = None


@dataclass
class Thinking:
    """The bot processes' jobs, in order: ``pool()`` gives the executor when one is due."""

    pool: Callable[[], Executor]
    slots: int
    hints_queued: int
    hints_per_client: int
    hint_pool: Callable[[], Executor] | None = None  # where hints think (default: ``pool``)
    bots: deque[_Job] = field(default_factory=deque)
    hints: deque[_Job] = field(default_factory=deque)
    running: int = 0
    running_hints: int = 0
    by_client: Counter[str] = field(default_factory=Counter)  # hints waiting or thinking
    by_key: dict[Hashable, asyncio.Future[Any]] = field(default_factory=dict)

    async def bot(self, function: Callable[..., Any], *args: Any) -> Any:
        """A bot's move, thought ahead of every waiting hint."""
        job = _Job(function, args, asyncio.get_running_loop().create_future())
        self.bots.append(job)
        self._dispatch()
        return await job.done

    async def hint(
        self, client: str, key: Hashable, function: Callable[..., Any], *args: Any
    ) -> Any:
        """A hint for ``client``; the same ``key`` waiting or thinking already is shared."""
        known = self.by_key.get(key)
        if known is not None:
            return await asyncio.shield(known)
        if len(self.hints) >= self.hints_queued or self.by_client[client] >= self.hints_per_client:
            raise TooMany(
                "the bots are busy: ask for a hint again in {seconds} s",
                retry_after=RETRY_SECONDS,
                seconds=RETRY_SECONDS,
            )
        job = _Job(function, args, asyncio.get_running_loop().create_future(), True, client, key)
        self.by_client[client] += 1
        self.by_key[key] = job.done
        job.done.add_done_callback(lambda _: self._forget(job))
        self.hints.append(job)
        self._dispatch()
        return await asyncio.shield(job.done)

    def _forget(self, job: _Job) -> None:
        self.by_key.pop(job.key, None)
        self.by_client[job.client] -= 1
        if self.by_client[job.client] <= 0:
            del self.by_client[job.client]

    def _dispatch(self) -> None:
        """Start waiting jobs while there are free slots: bots first."""
        while self.running < self.slots:
            job = self._next()
            if job is None:
                return
            self.running += 1
            self.running_hints += job.hint
            loop = asyncio.get_running_loop()
            pool = self.hint_pool if job.hint and self.hint_pool is not None else self.pool
            try:
                thinking = loop.run_in_executor(pool(), job.function, *job.args)
            except Exception as e:  # a broken pool: the caller sees why
                self._finish(job)
                job.done.set_exception(e)
                continue
            thinking.add_done_callback(functools.partial(self._settle, job))

    def _next(self) -> _Job | None:
        while self.bots:
            job = self.bots.popleft()
            if not job.done.done():  # a bot's wait cancelled (its game closed)
                return job
        if self.running_hints >= max(1, self.slots - 1):
            return None
        while self.hints:
            job = self.hints.popleft()
            if not job.done.done():
                return job
        return None

    def _finish(self, job: _Job) -> None:
        self.running -= 1
        self.running_hints -= job.hint

    def _settle(self, job: _Job, thinking: asyncio.Future[Any]) -> None:
        self._finish(job)
        if not job.done.done():
            if thinking.cancelled():
                job.done.cancel()
            elif thinking.exception() is not None:
                job.done.set_exception(thinking.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(thinking.result())
        self._dispatch()
