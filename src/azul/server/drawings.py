"""Drawings of tables: made in a process of their own at a lower priority, never on the event
loop, kept for a while by what they show, and a drawing asked for twice at once made once."""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from azul.server import processes
from azul.server.errors import TooMany
from azul.server.settings import Settings
from azul.server.table import position

Job = tuple[str, dict[str, Any], int, list[int]]  # game, engine options, seed, actions
Look = tuple[bool, str, int | None, str, list[str]]


def drawing(game: str, options: dict[str, Any], seed: int, actions: list[int], look: Look) -> str:
    """In a drawing process: the SVG of the position, ``look`` being (patterns, language,
    the seat drawn large, layout, the players' names)."""
    return position(game, options, seed, actions).to_svg(*look)


def _worker(server: int) -> None:
    """A drawing process ends with the server and yields the processor to it."""
    processes.die_with_parent(server)
    os.nice(10)


class Drawings:
    """The drawing process (an injected executor in tests) and the drawings kept."""

    def __init__(self, settings: Settings, executor: Executor | None) -> None:
        self.settings = settings
        self.executor = executor
        self.given = executor  # an injected one (tests) is the bots' too, stopped with them
        self.kept: OrderedDict[tuple[Any, ...], asyncio.Future[str]] = OrderedDict()
        self.waiting = 0  # drawings waiting or being made

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = processes.pool(self.settings.drawing_processes, _worker)
        return self.executor

    def warm_up(self) -> None:
        """Start the drawing process now, so that the first drawing after a start does not
        wait for it to spawn."""
        self._pool().submit(int)

    def close(self) -> None:
        if self.executor is not None and self.executor is not self.given:
            self.executor.shutdown(wait=False, cancel_futures=True)

    def get(self, key: tuple[Any, ...]) -> asyncio.Future[str] | None:
        """The drawing kept under ``key``, if any (kept the longest from now)."""
        known = self.kept.get(key)
        if known is not None:
            self.kept.move_to_end(key)
        return known

    def make(self, key: tuple[Any, ...], job: Job, look: Look) -> asyncio.Future[str]:
        """Start a drawing in the drawing process and keep it under ``key``; TooMany while
        ``drawings_queued`` are waiting already."""
        if self.waiting >= self.settings.drawings_queued:
            raise TooMany("the server is drawing too much: try again in a moment", retry_after=2)
        self.waiting += 1
        loop = asyncio.get_running_loop()
        made = asyncio.ensure_future(loop.run_in_executor(self._pool(), drawing, *job, look))

        def done(future: asyncio.Future[str]) -> None:
            self.waiting -= 1
            if future.cancelled() or future.exception() is not None:
                self.kept.pop(key, None)  # a failed drawing is tried again next time
            if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
                self.executor = None  # a drawing process died: a new pool draws next time

        made.add_done_callback(done)
        self.kept[key] = made
        while len(self.kept) > self.settings.drawings_kept:
            self.kept.popitem(last=False)
        return made
