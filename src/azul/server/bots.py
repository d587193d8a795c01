"""Bots' turns: each thought out in the process pool, never on the event loop, by the process
that claims the turn in the store; every process looks now and then for bot turns nobody holds
(``keep_moving``), and takes up at once those of processes known to be gone. A bot also plays a
person's move when their clock runs out (a timer at its deadline), and every move of a seat it
keeps for its absent person.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from azul.bots.spec import BotSpec
from azul.server import clocks, processes
from azul.server.errors import NotFound
from azul.server.settings import DEFAULT_LEVEL, LEVELS, Settings
from azul.server.store import OUTAGES, Stale
from azul.server.table import Table, position
from azul.server.tables import Tables
from azul.server.thinking import Thinking

log = logging.getLogger("azul.server")

T = TypeVar("T")


def think(
    game: str, options: dict[str, Any], seed: int, actions: list[int], bot: str, bot_seed: int
) -> int:
    """In a worker process: the bot's move in the position."""
    return BotSpec.parse(bot).make(bot_seed).choose(position(game, options, seed, actions))


class Bots:
    """The bots of every table in memory, and the process pools where they and the hints think
    (bots first: ``thinking``). Hints think in processes of their own, at a lower priority (the
    injected executor in tests)."""

    def __init__(self, tables: Tables, settings: Settings, executor: Executor | None) -> None:
        self.tables = tables
        self.store = tables.store
        self.settings = settings
        self.executor = executor
        self.hinter = executor
        self.thinking = Thinking(
            self._pool,
            settings.bot_processes,
            settings.hints_queued,
            settings.hints_per_client,
            self._hint_pool,
        )
        # this process, as bot claims in the store name it: its host, its pid and this boot
        self.me = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = processes.pool(self.settings.bot_processes)
        return self.executor

    def warm_up(self) -> None:
        """Start the hint process now: the first hint after a start would otherwise wait for
        it to spawn and import the games (seconds, on a busy machine)."""
        self._hint_pool().submit(int)

    def _hint_pool(self) -> Executor:
        if self.hinter is None:
            # as many processes as hints may think at once (Thinking: one slot fewer than bots)
            count = max(1, self.settings.bot_processes - 1)
            self.hinter = processes.pool(count, processes.background)
        return self.hinter

    def close(self) -> None:
        try:  # the bot turns this process held are free for the next one at once
            self.store.release([self.me])
        except OUTAGES as e:
            log.warning("the bot turns of this process could not be released (%s)", e)
        if self.hinter is not None and self.hinter is not self.executor:
            self.hinter.shutdown(wait=False, cancel_futures=True)
        if self.executor is not None:
            processes.kill(self.executor)

    def start(self, table: Table) -> None:
        """Let the table's bots play, if one is to move and none is thinking yet; and when a
        person's clock runs, let a bot play their move the moment it runs out."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop yet: bots start when the game is next touched
        self._arm(table)
        if table.thinking:
            return
        table.thinking = True
        self.tables.spawn(self._run(table))

    def _arm(self, table: Table) -> None:
        """Set the table's timer to its running clock's deadline (or none)."""
        clock = table.stored.clock
        deadline = None if clock is None else clock.deadline()
        if table.timer is not None:
            if table.timer_at == deadline:
                return
            table.timer.cancel()
            table.timer = None
        if deadline is not None:
            delay = max(0.0, deadline - clocks.now()) + 0.01
            game_id = table.stored.id
            due = lambda: self.tables.spawn(self._due(game_id))  # noqa: E731
            table.timer = asyncio.get_running_loop().call_later(delay, due)
            table.timer_at = deadline

    async def _due(self, game_id: str) -> None:
        """A clock ran out: the game's table as it is now (read again if it left memory)
        lets its bot play the move."""
        with contextlib.suppress(NotFound, *OUTAGES):
            async with self.tables.use(game_id) as table:
                table.timer = None
                self.start(table)

    async def _run(self, table: Table) -> None:
        """Let bots move. A failure is logged and the turn tried again; a bot that keeps
        failing plays a random move. The store being unavailable is not the bot's failure: the
        turn waits for it."""
        try:
            failures = outages = 0
            while True:
                try:
                    await self.turns(table, failures)
                    return
                except asyncio.CancelledError:
                    raise
                except OUTAGES as e:
                    outages += 1
                    log.warning("bot turn in game %s waits for the store (%s)", table.stored.id, e)
                    await asyncio.sleep(min(0.1 * 2**outages, 5.0))
                except Exception:
                    failures += 1
                    log.exception(
                        "bot turn failed in game %s (failure %d)", table.stored.id, failures
                    )
                    await asyncio.sleep(min(0.1 * 2**failures, 5.0))
        finally:
            table.thinking = False

    def _job(
        self, table: Table, level: str
    ) -> tuple[str, dict[str, Any], int, list[int], str, int]:
        """What a bot of ``level`` thinks about: the position, and the level's settings."""
        s = table.stored
        spec = self.settings.level(level if level in LEVELS else DEFAULT_LEVEL)
        return (s.game, table.options, s.seed, table.actions(), spec, s.seed * 1000 + len(s.log))

    async def turns(self, table: Table, failures: int) -> None:
        """Play the bots' turns of a table, one after the other, while a bot is to move."""
        while True:
            async with table.lock:
                state = table.state
                seat = state.current_player()
                bot = None if state.is_terminal() or seat < 0 else table.bot_for(seat, clocks.now())
                if bot is None:
                    self._arm(table)  # a person is to move: their clock, if one runs
                    return
                level, by = bot
                version = table.stored.version
                s = table.stored
                job = self._job(table, level)
                lease = self.settings.bot_lease
                if not await self.tables.io(self.store.claim_bot, s.id, version, self.me, lease):
                    return  # another process is on it; its move will be noticed
            if failures >= 3:  # never leave a game stuck
                action = random.Random(job[-1]).choice(state.legal_actions())
            else:
                try:
                    thinking = asyncio.ensure_future(self.thinking.bot(think, *job))
                    action = await self._renewing(thinking, s.id, version)
                except BrokenProcessPool:  # a worker died: a new pool thinks again
                    self.executor = None
                    raise
            async with table.lock:
                if table.stored.version != version:  # undone or moved meanwhile: think again
                    continue
                try:
                    await self.tables.commit(table, seat, action, by)
                except Stale:  # another process moved first (it took the turn over)
                    await self.tables.refresh(table)
                    continue
            failures = 0

    async def _renewing(self, thinking: asyncio.Future[T], game_id: str, version: int) -> T:
        """Wait for a bot's move, renewing this process's claim on the turn meanwhile."""
        lease = self.settings.bot_lease
        while True:
            done, _ = await asyncio.wait({thinking}, timeout=lease / 3)
            if done:
                return thinking.result()
            await self.tables.io(self.store.claim_bot, game_id, version, self.me, lease)

    # -- turns nobody holds -----------------------------------------------------------------
    async def keep_moving(self, every: float) -> None:
        """At the start and then now and then, take up the bot turns no process holds: games
        left by a process that stopped, or by a restart (a task of the application's
        lifetime)."""
        while True:
            try:
                await self._release_the_gone()
                await self._take_up()
            except OUTAGES as e:
                log.warning("looking for bot turns failed: the store is unavailable (%s)", e)
            except Exception:
                log.exception("looking for bot turns failed")
            await asyncio.sleep(every)

    async def _release_the_gone(self) -> None:
        """Free the bot turns claimed by processes known to be gone, without waiting for their
        leases to lapse."""
        gone = [c for c in await self.tables.io(self.store.claimers) if self._gone(c)]
        if gone:
            freed = await self.tables.io(self.store.release, gone)
            log.info("took up %d bot turns of stopped processes %s", freed, ", ".join(gone))

    def _gone(self, claimer: str) -> bool:
        """Whether the process named in a claim has ended. On SQLite only this process can
        exist; on PostgreSQL a process of this host is gone when its pid is (or is this
        process's, reused by this boot)."""
        if claimer == self.me:
            return False
        if self.store.engine.dialect.name == "sqlite":
            return True
        host, _, rest = claimer.partition(":")
        pid = rest.partition(":")[0]
        if host != self.me.partition(":")[0] or not pid.isdigit():
            return False  # another host's: its lease decides
        if int(pid) == os.getpid():
            return True
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except OSError:  # alive, under another user
            return False
        return False

    async def _take_up(self) -> None:
        for game_id in await self.tables.io(self.store.bot_games, 20):
            table = self.tables.kept.get(game_id)
            if table is None:
                try:
                    async with self.tables.use(game_id):
                        pass  # loading it starts its bots
                except NotFound:
                    continue
            elif not table.thinking:
                await self.tables.catch_up(table)
