"""The tables a server process keeps in memory, equal to the store's games, and the commit of a
move to both.

Several server processes may serve the same games from one PostgreSQL database: the store is
the one truth. A process refreshes its copy of a game when the store tells it another process
wrote (``notices``), and when a write of its own finds the game moved on; a move is applied by
exactly one process (the store compares versions).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar, TypeVarTuple

import azul
from azul.core.api import FileOption
from azul.server import clocks
from azul.server.errors import NotFound
from azul.server.settings import Settings
from azul.server.store import CHANCE_SEAT, Store
from azul.server.table import Played, Table, bot_turn, clock_after, settle

GAME_ID = re.compile(r"[0-9a-f]{16}")

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def _nothing(table: Table) -> None:
    pass


def file_options(game: str) -> tuple[FileOption, ...]:
    """A game's options that name a file (none for a game no longer registered)."""
    return azul.GAMES[game].file_options() if game in azul.GAMES else ()


class Tables:
    """The tables in memory, by game id, read from and written to the store. ``changed`` is
    told of every table that changed (to send its views), ``wake`` of every table whose bots
    may have a turn."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        # PostgreSQL is across a connection: its calls run in threads, and the event loop never
        # waits on it. SQLite is a local file whose commits, in WAL mode, do not wait for the
        # disk: its calls run on the event loop, where a move's commit takes about a
        # millisecond and a thread's hand-offs took several (docs/benchmarks.md, Server load).
        self.inline = store.engine.dialect.name == "sqlite"
        self.threads = ThreadPoolExecutor(4, thread_name_prefix="azul-store")
        self.kept: dict[str, Table] = {}
        self.loading: dict[str, asyncio.Future[Table]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.changed: Callable[[Table], None] = _nothing
        self.wake: Callable[[Table], None] = _nothing
        # Tables read while this process hears every notice of other processes' writes are
        # current; when the store's notices may have been missed (not listening yet, or the
        # listener lost its connection) a table is checked against the store before it is used.
        self.listening = store.engine.dialect.name != "postgresql"  # SQLite: no other writer
        self.epoch = 0  # bumped when listening starts again

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.threads.shutdown(wait=False)

    async def io(self, function: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a store call: on the event loop for SQLite, in the store's threads otherwise."""
        if self.inline:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(self.threads, function, *args)

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` on the event loop as a task cancelled when the tables close."""
        task = asyncio.get_running_loop().create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def engine_options(self, game: str, options: dict[str, Any], seeded: bool) -> dict[str, Any]:
        """The engine's options of a stored game: files named by the players become the
        operator's paths; chance is explicit (drawn by the server) unless the game is seeded."""
        engine = {k: v for k, v in options.items() if k != "explicit_chance"}
        for option in file_options(game):
            if option.name in engine:
                engine[option.name] = self.settings.file(option.kind, engine[option.name])
        engine["explicit_chance"] = not seeded
        return engine

    # -- in memory ----------------------------------------------------------------------
    @asynccontextmanager
    async def use(self, game_id: Any) -> AsyncIterator[Table]:
        """The table of a game, loaded once however many ask at the same time, and kept in
        memory while anyone uses it."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise NotFound("there is no game {game!r}", game=str(game_id)[:40])
        table = self.kept.get(game_id)
        if table is None:
            loading = self.loading.get(game_id)
            if loading is None:
                loading = asyncio.ensure_future(self._load(game_id))
                self.loading[game_id] = loading
                loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
            table = await asyncio.shield(loading)
        table.users += 1
        try:
            if not self._current(table):
                async with table.lock:
                    await self._resync(table)
            yield table
        finally:
            table.users -= 1
            table.used = time.monotonic()

    async def _load(self, game_id: str) -> Table:
        table = await self._read(game_id)
        self.open(table)
        return table

    def open(self, table: Table) -> None:
        """Keep a table in memory (making room if need be) and let its bots play."""
        self.kept[table.stored.id] = table
        self.evict()
        self.wake(table)

    def evict(self) -> None:
        """Forget tables nobody uses: idle ones, and the least recently used beyond the cap."""
        limit = time.monotonic() - self.settings.idle_seconds
        idle = [
            t
            for t in self.kept.values()
            if not (t.users or t.listeners or t.thinking or t.lock.locked())
        ]
        idle.sort(key=lambda t: t.used)
        extra = len(self.kept) - self.settings.max_tables
        for i, table in enumerate(idle):
            if i < extra or table.used < limit:
                del self.kept[table.stored.id]

    async def keep_tidy(self, every: float = 30.0) -> None:
        """Evict idle tables now and then (a task of the application's lifetime)."""
        while True:
            await asyncio.sleep(every)
            self.evict()

    # -- equal to the store ---------------------------------------------------------------
    def _current(self, table: Table) -> bool:
        """Whether the table is known to be the store's game: read since this process last
        started listening, and the listener still hears every write."""
        return self.listening and table.epoch == self.epoch

    async def _resync(self, table: Table) -> None:
        """Check a table against the store, and refresh it if another process wrote. The caller
        holds the table's lock."""
        if self._current(table):
            return
        epoch = self.epoch
        if await self.io(self.store.version, table.stored.id) == table.stored.version:
            table.epoch = epoch
        else:
            await self.refresh(table)

    async def _read(self, game_id: str) -> Table:
        """A game's table as the store has it now."""
        epoch = self.epoch
        stored = await self.io(self.store.load, game_id)
        if stored is None:
            raise NotFound("there is no game {game!r}", game=game_id)
        options = self.engine_options(stored.game, stored.options, stored.seeded)
        state: azul.State = azul.load_game(stored.game, **options).new_initial_state(stored.seed)
        notation, played = [], []
        for i, (seat, a) in enumerate(stored.log):
            if seat != CHANCE_SEAT:
                played.append(Played.of(state, i, a, stored.by.get(i + 1)))
            notation.append(state.action_to_string(a))
            state.apply_action(a)
        table = Table(stored, options, state, notation, played, epoch=epoch)
        if stored.rematch is not None:
            table.follow = await self.io(self.store.load, stored.rematch)
        return table

    async def refresh(self, table: Table) -> None:
        """Bring a table up to the store's version (another process wrote) and tell its
        listeners. The caller holds the table's lock."""
        fresh = await self._read(table.stored.id)
        table.epoch = fresh.epoch
        if fresh.stored.version == table.stored.version:
            return
        table.stored, table.state = fresh.stored, fresh.state
        table.notation, table.played, table.follow = fresh.notation, fresh.played, fresh.follow
        self.change(table)

    def change(self, table: Table) -> None:
        """The table changed: forget what was worked out for the old version, and say so."""
        table.changed()
        self.changed(table)

    def notice(self, game_id: str, version: int) -> None:
        """The store says game ``game_id`` is at ``version`` (a write, perhaps by another
        process): refresh the table if this process holds an older copy. A table being read
        may have been read before the write: it is looked at again once it is kept."""
        loading = self.loading.get(game_id)
        if loading is not None:
            loading.add_done_callback(lambda _: self.notice(game_id, version))
            return
        table = self.kept.get(game_id)
        if table is not None and table.stored.version < version:
            self.spawn(self.catch_up(table))

    async def catch_up(self, table: Table) -> None:
        async with table.lock:
            await self.refresh(table)
        self.wake(table)

    def lost(self) -> None:
        """The store's notices are no longer heard: tables are checked before they are used."""
        self.listening = False

    async def listening_again(self) -> None:
        """The store's notices are heard (again): every table read before may have missed some,
        so each is refreshed."""
        self.listening = True
        self.epoch += 1
        await self.refresh_all()

    async def refresh_all(self) -> None:
        """Refresh every table in memory (notifications may have been missed)."""
        for table in list(self.kept.values()):
            await self.catch_up(table)

    # -- writing ----------------------------------------------------------------------------
    async def commit(self, table: Table, seat: int, action: int, by: str | None = None) -> None:
        """Apply on a copy, draw what is then due, commit, then make the copy the table's state
        (all or nothing). ``by``: why a bot plays a person's move ("timeout", "away"). The
        caller holds the table's lock."""
        after = table.state.clone()
        after.apply_action(action)  # raises with the reason; nothing changed
        played = Played.of(table.state, len(table.stored.log), action, by)
        notation = [played.move]
        entries = [(seat, action)]
        settle(after, entries, notation)
        s = table.stored
        clock, away = clock_after(s, after, seat, by, clocks.now())
        seats = [replace(x, away=True) if x.seat == away else x for x in s.seats]
        await self.io(
            self.store.append,
            s.id,
            len(s.log) + 1,
            entries,
            s.version,
            after.is_terminal(),
            bot_turn(after, seats),
            clock,
            by,
            away,
        )
        table.played.append(played)
        if by is not None:
            s.by[len(s.log) + 1] = by
        s.log.extend(entries)
        s.seats, s.clock = seats, clock
        table.notation.extend(notation)
        table.state = after
        s.version += 1
        s.finished = after.is_terminal()
        self.change(table)
