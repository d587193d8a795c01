"""Tables of play: games loaded from the store, moves checked and committed, chance drawn, bots
thinking in a process pool, views sent to every connected client.

Several server processes may serve the same games from one PostgreSQL database: the store is
the one truth. A process refreshes its copy of a game when the store tells it another process
wrote (``notices``), and when a write of its own finds the game moved on; a move is applied by
exactly one process (the store compares versions). A bot's turn is computed by the process that
claims it, and every process looks now and then for bot turns nobody holds (``keep_bots_moving``).

Each seat has a secret token; only its holder moves for it. A client only ever receives the
public view of a table. Unless a game was created with a seed, every chance outcome is drawn from
the operating system's generator when it is due and stored in the log with the moves, so nothing
a client can see predicts a future draw.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import random
import re
import secrets
import socket
import time
import unicodedata
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, TypeVarTuple

import orjson

import azul
from azul import i18n
from azul.bots.spec import BotSpec
from azul.core.api import CHANCE, Target
from azul.core.errors import AzulError, IllegalMoveError, OptionError
from azul.server.errors import Conflict, Forbidden, NotFound, Outdated, TooMany
from azul.server.settings import (
    DEFAULT_COMPONENTS,
    DEFAULT_LEVEL,
    LEVEL_NAMES,
    LEVELS,
    Settings,
)
from azul.server.store import CHANCE_SEAT, OUTAGES, Seat, Stale, Store, StoredGame, now
from azul.server.thinking import Thinking

log = logging.getLogger("azul.server")

GAME_ID = re.compile(r"[0-9a-f]{16}")
MAX_SEED = 2**63  # seeds are 0 .. 2**63 - 1
NAME_LENGTH = 24
MOVE_LENGTH = 64  # characters of a move's notation, at most
_SYSTEM = random.SystemRandom()  # the operating system's generator

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def _die_with_parent(server: int) -> None:
    """In a worker process: end when the server ends, even when it is killed (Linux)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != server:  # the server died while this worker was starting
        os._exit(0)


def _position(game: str, options: dict[str, Any], seed: int, actions: list[int]) -> azul.State:
    """A game's position rebuilt from its log."""
    state: azul.State = azul.load_game(game, **options).new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def _think(
    game: str, options: dict[str, Any], seed: int, actions: list[int], bot: str, bot_seed: int
) -> int:
    """In a worker process: the bot's move in the position."""
    return BotSpec.parse(bot).make(bot_seed).choose(_position(game, options, seed, actions))


def _hint(
    game: str, options: dict[str, Any], seed: int, actions: list[int], bot_seed: int
) -> list[dict[str, Any]]:
    """In a worker process: the three best moves for the position."""
    from azul.bots import hints

    best = hints(_position(game, options, seed, actions), bot_seed)
    return [{"action": c.action, "move": c.move, "value": round(c.value, 3)} for c in best]


def _drawing(
    game: str,
    options: dict[str, Any],
    seed: int,
    actions: list[int],
    look: tuple[bool, str, int | None, str, list[str]],
) -> str:
    """In a drawing process: the SVG of the position, ``look`` being (patterns, language,
    the seat drawn large, layout, the players' names)."""
    return _position(game, options, seed, actions).to_svg(*look)


def _background_worker(server: int) -> None:
    """A drawing or hint process ends with the server and yields the processor to it (and
    to the bots)."""
    _die_with_parent(server)
    os.nice(10)


def _draw(state: azul.State) -> int:
    """A chance outcome drawn by the operating system's generator, by its probability."""
    outcomes = state.chance_outcomes()
    return _SYSTEM.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def _bot_turn(state: azul.State, seats: list[Seat]) -> bool:
    """Whether a bot is to move in ``state``."""
    seat = state.current_player()
    return not state.is_terminal() and seat >= 0 and seats[seat].kind == "bot"


def _check_move(action: Any, move: Any, version: Any) -> None:
    """A move's fields as a client sent them: an action id or a notation of at most
    MOVE_LENGTH characters, and perhaps the version of the view it was chosen on."""
    if (action is None) == (move is None):
        raise IllegalMoveError("send either 'action' (an id) or 'move' (the notation)")
    if action is not None and (isinstance(action, bool) or not isinstance(action, int)):
        raise IllegalMoveError("action: an action is a whole number")
    if move is not None and (not isinstance(move, str) or len(move) > MOVE_LENGTH):
        raise IllegalMoveError("move: a move is text of at most {n} characters", n=MOVE_LENGTH)
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version < 0
    ):
        raise IllegalMoveError("version: the version of a view is a whole number")


def _encode(document: Any) -> str:
    """JSON text of a view's parts: orjson, as a view of many legal moves is tens of KB,
    encoded for every move of every game (the standard encoder took most of the server's
    time under load)."""
    return orjson.dumps(document).decode()


def title(game: str) -> str:
    """A game's name for people (an English message the clients translate); its registry
    name for a game without a title or no longer registered."""
    found = azul.GAMES.get(game)
    return (found.title if found is not None else "") or game


def _clean_name(name: Any, where: str) -> str | None:
    """A player's name: printable text of at most NAME_LENGTH characters, or None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise AzulError("{where}: a name is text", where=where)
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH or any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise AzulError(
            "{where}: a name is at most {n} printable characters", where=where, n=NAME_LENGTH
        )
    return name or None


class MoveTimes:
    """The server's time per move, kept as a histogram of 2% wide buckets (no list to sort)."""

    STEP = math.log(1.02)

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.total = 0
        self.longest = 0.0

    def add(self, seconds: float) -> None:
        bucket = math.floor(math.log(max(seconds, 1e-7)) / self.STEP)
        self.counts[bucket] = self.counts.get(bucket, 0) + 1
        self.total += 1
        self.longest = max(self.longest, seconds)

    def quantile(self, q: float) -> float | None:
        """Milliseconds below which a share ``q`` of the moves took (the bucket's top)."""
        if not self.total:
            return None
        rank = q * self.total
        seen = 0
        for bucket in sorted(self.counts):
            seen += self.counts[bucket]
            if seen >= rank:
                return round(1000 * min(math.exp((bucket + 1) * self.STEP), self.longest), 2)
        return round(1000 * self.longest, 2)


@dataclass
class Listener:
    """A live connection: it is sent the newest view of its audience, older ones are dropped.
    ``details``: whether its legal moves carry their words, preview and details."""

    seat: int | None
    details: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    text: str = ""

    def post(self, text: str) -> None:
        self.text = text
        self.ready.set()

    async def next(self) -> str:
        await self.ready.wait()
        self.ready.clear()
        return self.text


@dataclass(frozen=True)
class Played:
    """A player's move as clients show it: where it is in the log, who, the notation, the words
    (a Message as JSON), what was clicked and where the pieces went."""

    index: int
    seat: int
    move: str
    text: dict[str, Any]
    clicked: list[Target]
    marks: list[Target]

    @classmethod
    def of(cls, state: azul.State, index: int, action: int) -> Played:
        """The move ``action`` about to be played in ``state``."""
        return cls(
            index,
            state.current_player(),
            state.action_to_string(action),
            state.describe_action(action).to_json(),
            state.action_targets(action),
            state.action_marks(action),
        )

    def to_json(self, ply: int) -> dict[str, Any]:
        return {"ply": ply, "seat": self.seat, "move": self.move, "text": self.text}

    @cached_property
    def body(self) -> str:
        """The JSON text of ``to_json`` without its ply and braces, made once: a view lists
        every move of the game, and every view of every version would encode them again."""
        return _encode({"seat": self.seat, "move": self.move, "text": self.text})[1:-1]


@dataclass
class Table:
    stored: StoredGame
    options: dict[str, Any]  # the engine's options
    state: azul.State
    notation: list[str]  # of each log entry
    played: list[Played]  # each player move
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: bool = False  # a bot task is running for this table
    listeners: list[Listener] = field(default_factory=list)
    # JSON text of the views, by audience and whether legal moves carry their details
    views: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    shared: str = ""  # the JSON text of what every audience's view holds, this version
    users: int = 0  # requests using the table now
    used: float = field(default_factory=time.monotonic)
    undo_points: dict[int, int | None] = field(default_factory=dict)  # by seat, this version
    follow: StoredGame | None = None  # the rematch, once there is one
    epoch: int = 0  # the lobby's epoch when the table was last read from the store
    logged: tuple[Played | None, str] = (None, "")  # the log's last move, and its JSON text

    def log_text(self) -> str:
        """The JSON text of the log's entries (without brackets), extended as moves are
        played rather than made again for every version. A move is at the same place in
        every list that holds it (moves are appended, undone from the end, or all read again
        as new objects), so the last move known names the text's moves."""
        last, text = self.logged
        played = self.played
        if not played:
            return ""
        if played[-1] is last:
            return text
        start = 0
        if last is not None:
            try:
                start = next(i for i in range(len(played) - 1, -1, -1) if played[i] is last) + 1
            except StopIteration:
                start, text = 0, ""
        else:
            text = ""
        more = ",".join(f'{{"ply":{n},{m.body}}}' for n, m in enumerate(played[start:], start + 1))
        text = f"{text},{more}" if text else more
        self.logged = (played[-1], text)
        return text

    def seat_of(self, token: Any) -> int | None:
        """The seat a token plays, None for the spectator token; Forbidden otherwise (any
        text: tokens are ASCII, and compare_digest refuses other text)."""
        if isinstance(token, str) and token.isascii():
            for seat in self.stored.seats:
                if seat.kind != "open" and secrets.compare_digest(seat.token, token):
                    return seat.seat
            if secrets.compare_digest(self.stored.watch_token, token):
                return None
        raise Forbidden("this link's token does not belong to this game")

    def kind(self, seat: int) -> str:
        return self.stored.seats[seat].kind

    def actions(self, upto: int | None = None) -> list[int]:
        return [a for _, a in self.stored.log[:upto]]

    def changed(self) -> None:
        self.views.clear()
        self.shared = ""
        self.undo_points.clear()


class Lobby:
    """Every table of the server, made from and written to the store."""

    def __init__(
        self, store: Store, executor: Executor | None = None, settings: Settings | None = None
    ):
        self.store = store
        self.settings = settings or Settings()
        self.executor = executor
        # SQLite takes one writer at a time, and a second thread would wait in its busy loop
        threads = 1 if store.engine.dialect.name == "sqlite" else 4
        self.io = ThreadPoolExecutor(threads, thread_name_prefix="azul-store")
        self.tables: dict[str, Table] = {}
        self.loading: dict[str, asyncio.Future[Table]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.move_times = MoveTimes()
        # drawings are made in a process of their own (the injected executor in tests), kept
        # for a while by what they show, and a drawing asked for twice at once is made once
        self.drawer: Executor | None = executor
        self.drawings: OrderedDict[tuple[Any, ...], asyncio.Future[str]] = OrderedDict()
        self.drawing = 0  # drawings waiting or being made
        # bots' moves ahead of hints, at most as many jobs thinking as the bots have
        # processes; hints think in a process of their own, at a lower priority (the
        # injected executor in tests)
        self.hinter: Executor | None = executor
        self.thinking = Thinking(
            self._pool,
            self.settings.bot_processes,
            self.settings.hints_queued,
            self.settings.hints_per_client,
            self._hint_pool,
        )
        # Tables read while this process hears every notice of other processes' writes are
        # current; when the store's notices may have been missed (not listening yet, or the
        # listener lost its connection) a table is checked against the store before it is used.
        self.listening = store.engine.dialect.name != "postgresql"  # SQLite: no other writer
        self.epoch = 0  # bumped when listening starts again
        # this process, as bot claims in the store name it: its host, its pid and this boot
        self.me = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"

    def _processes(self, count: int, initializer: Callable[[int], None]) -> Executor:
        """A pool of ``count`` processes that end with this one. Spawned, not forked: a worker
        must not inherit the server's listening socket."""
        return ProcessPoolExecutor(
            max_workers=count,
            initializer=initializer,
            initargs=(os.getpid(),),
            mp_context=multiprocessing.get_context("spawn"),
        )

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = self._processes(self.settings.bot_processes, _die_with_parent)
        return self.executor

    def _hint_pool(self) -> Executor:
        if self.hinter is None:
            # as many processes as hints may think at once (Thinking: one slot fewer than bots)
            count = max(1, self.settings.bot_processes - 1)
            self.hinter = self._processes(count, _background_worker)
        return self.hinter

    def _drawer(self) -> Executor:
        if self.drawer is None:
            self.drawer = self._processes(self.settings.drawing_processes, _background_worker)
        return self.drawer

    def warm_up(self) -> None:
        """Start the drawing process now, so that the first drawing after a start does not
        wait for it to spawn."""
        self._drawer().submit(int)

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        try:  # the bot turns this process held are free for the next one at once
            self.store.release([self.me])
        except OUTAGES as e:
            log.warning("the bot turns of this process could not be released (%s)", e)
        for pool in (self.drawer, self.hinter):
            if pool is not None and pool is not self.executor:
                pool.shutdown(wait=False, cancel_futures=True)
        if self.executor is not None:
            processes = getattr(self.executor, "_processes", None) or {}
            self.executor.shutdown(wait=False, cancel_futures=True)
            for process in list(processes.values()):  # a bot thinking now is not waited for
                process.kill()
        self.io.shutdown(wait=False)

    async def _io(self, function: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a store call in the store's threads: the event loop never waits on the database."""
        return await asyncio.get_running_loop().run_in_executor(self.io, function, *args)

    # -- creating and loading -----------------------------------------------------------
    def _engine_options(self, options: dict[str, Any], seeded: bool) -> dict[str, Any]:
        """The engine's options of a stored game: component sets by name become files; chance
        is explicit (drawn by the server) unless the game is seeded."""
        engine = {k: v for k, v in options.items() if k != "explicit_chance"}
        if "components" in engine:
            engine["components"] = self.settings.component_file(
                engine["components"] or DEFAULT_COMPONENTS
            )
        engine["explicit_chance"] = not seeded
        return engine

    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        public: bool = False,
    ) -> dict[str, Any]:
        """A new game; ``seats`` lists {"kind": "human" | "open" | "bot", "bot": level,
        "name": text}. Without a seed every draw is the operating system's. The answer holds
        the people's tokens (an open seat's is given to whoever joins)."""
        stored = await self._create(game, options, seats, seed, public)
        return {
            "id": stored.id,
            "seeded": stored.seeded,
            "seats": [
                {
                    "seat": r.seat,
                    "kind": r.kind,
                    "bot": r.bot,
                    "name": r.name,
                    "token": r.token if r.kind == "human" else None,
                }
                for r in stored.seats
            ],
            "watch_token": stored.watch_token,
        }

    async def _create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None,
        public: bool,
    ) -> StoredGame:
        """Check, store and open a new game, its setup drawn."""
        if not isinstance(options, dict):
            raise OptionError("options: expected an object")
        if "explicit_chance" in options:
            raise OptionError("explicit_chance: the server decides how chance is drawn")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED
        ):
            raise OptionError("seed: {seed} is not in 0..2**63 - 1", seed=seed)
        seeded = seed is not None
        stored_options = dict(options)
        if "components" in azul.load_game(game).options:  # (an unknown game is named here)
            stored_options["components"] = options.get("components") or DEFAULT_COMPONENTS
        g = azul.load_game(game, **self._engine_options(stored_options, seeded))  # a bad option
        for key, value in g.options.items():  # stored with every default, sets by their name
            if key not in ("explicit_chance", "components"):
                stored_options[key] = value
        engine = self._engine_options(stored_options, seeded)
        if not isinstance(seats, list) or len(seats) != g.info.num_players:
            raise AzulError(
                "seats: {n} players need {n} seats, got {got}",
                n=g.info.num_players,
                got=len(seats) if isinstance(seats, list) else 0,
            )
        rows = [self._seat(i, spec, public) for i, spec in enumerate(seats)]
        state: azul.State = g.new_initial_state(0 if seed is None else seed)
        log: list[tuple[int, int]] = []
        notation: list[str] = []
        self._settle(state, log, notation)
        stored = StoredGame(
            id=secrets.token_hex(8),
            game=game,
            options=stored_options,
            seed=secrets.randbelow(MAX_SEED) if seed is None else seed,
            seeded=seeded,
            public=bool(public),
            finished=False,
            watch_token=secrets.token_urlsafe(18),
            created=now(),
            seats=rows,
            log=log,
            version=0,
            bot_turn=_bot_turn(state, rows),
        )
        await self._io(self.store.create, stored)
        self._open(Table(stored, engine, state, notation, []))  # the bots start if first
        return stored

    def _seat(self, i: int, spec: Any, public: bool) -> Seat:
        where = f"seats[{i}]"
        kind = spec.get("kind") if isinstance(spec, dict) else None
        name = _clean_name(spec.get("name"), where) if isinstance(spec, dict) else None
        token = secrets.token_urlsafe(18)
        if kind == "human":
            return Seat(i, kind, token, name=name)
        if kind == "open":
            if not public:
                raise AzulError(
                    "{where}: an open seat is joined from the lobby: make the game public",
                    where=where,
                )
            return Seat(i, kind, token)
        if kind == "bot":
            level = spec.get("bot") or DEFAULT_LEVEL
            if not isinstance(level, str):
                raise AzulError("{where}.bot: expected a bot level", where=where)
            self.settings.level(level)  # an unknown level is refused with the known ones
            return Seat(i, kind, token, bot=level, name=name)
        raise AzulError("{where}: kind is 'human', 'open' or 'bot'", where=where)

    def _settle(
        self, state: azul.State, log: list[tuple[int, int]], notation: list[str] | None = None
    ) -> None:
        """Draw every chance outcome now due, appending them to ``log`` (and their notation)."""
        while state.is_chance_node():
            outcome = _draw(state)
            if notation is not None:
                notation.append(state.action_to_string(outcome))
            state.apply_action(outcome)
            log.append((CHANCE_SEAT, outcome))

    @asynccontextmanager
    async def _use(self, game_id: Any) -> AsyncIterator[Table]:
        """The table of a game, loaded once however many ask at the same time, and kept in
        memory while anyone uses it."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise NotFound("there is no game {game!r}", game=str(game_id)[:40])
        table = self.tables.get(game_id)
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
        self._open(table)
        return table

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
        if await self._io(self.store.version, table.stored.id) == table.stored.version:
            table.epoch = epoch
        else:
            await self._refresh(table)

    async def _read(self, game_id: str) -> Table:
        """A game's table as the store has it now."""
        epoch = self.epoch
        stored = await self._io(self.store.load, game_id)
        if stored is None:
            raise NotFound("there is no game {game!r}", game=game_id)
        options = self._engine_options(stored.options, stored.seeded)
        state: azul.State = azul.load_game(stored.game, **options).new_initial_state(stored.seed)
        notation, played = [], []
        for i, (seat, a) in enumerate(stored.log):
            if seat != CHANCE_SEAT:
                played.append(Played.of(state, i, a))
            notation.append(state.action_to_string(a))
            state.apply_action(a)
        table = Table(stored, options, state, notation, played, epoch=epoch)
        if stored.rematch is not None:
            table.follow = await self._io(self.store.load, stored.rematch)
        return table

    async def _refresh(self, table: Table) -> None:
        """Bring a table up to the store's version (another process wrote) and tell its
        listeners. The caller holds the table's lock."""
        fresh = await self._read(table.stored.id)
        table.epoch = fresh.epoch
        if fresh.stored.version == table.stored.version:
            return
        table.stored, table.state = fresh.stored, fresh.state
        table.notation, table.played, table.follow = fresh.notation, fresh.played, fresh.follow
        self._changed(table)

    def notice(self, game_id: str, version: int) -> None:
        """The store says game ``game_id`` is at ``version`` (a write, perhaps by another
        process): refresh the table if this process holds an older copy."""
        table = self.tables.get(game_id)
        if table is not None and table.stored.version < version:
            self._spawn(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        async with table.lock:
            await self._refresh(table)
        self._start_bots(table)

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` on the event loop as a task the lobby cancels when it closes."""
        task = asyncio.get_running_loop().create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

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
        for table in list(self.tables.values()):
            await self._catch_up(table)

    async def keep_bots_moving(self, every: float) -> None:
        """At the start and then now and then, take up the bot turns no process holds: games
        left by a process that stopped, or by a restart (a task of the application's
        lifetime)."""
        while True:
            try:
                await self._release_the_gone()
                await self._take_up_bots()
            except OUTAGES as e:
                log.warning("looking for bot turns failed: the store is unavailable (%s)", e)
            except Exception:
                log.exception("looking for bot turns failed")
            await asyncio.sleep(every)

    async def _release_the_gone(self) -> None:
        """Free the bot turns claimed by processes known to be gone, without waiting for their
        leases to lapse."""
        gone = [c for c in await self._io(self.store.claimers) if self._gone(c)]
        if gone:
            freed = await self._io(self.store.release, gone)
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

    async def _take_up_bots(self) -> None:
        for game_id in await self._io(self.store.bot_games, 20):
            table = self.tables.get(game_id)
            if table is None:
                try:
                    async with self._use(game_id):
                        pass  # loading it starts its bots
                except NotFound:
                    continue
            elif not table.thinking:
                await self._catch_up(table)

    def _open(self, table: Table) -> None:
        """Keep a table in memory (making room if need be) and let its bots play."""
        self.tables[table.stored.id] = table
        self._evict()
        self._start_bots(table)

    def _evict(self) -> None:
        """Forget tables nobody uses: idle ones, and the least recently used beyond the cap."""
        limit = time.monotonic() - self.settings.idle_seconds
        idle = [
            t
            for t in self.tables.values()
            if not (t.users or t.listeners or t.thinking or t.lock.locked())
        ]
        idle.sort(key=lambda t: t.used)
        extra = len(self.tables) - self.settings.max_tables
        for i, table in enumerate(idle):
            if i < extra or table.used < limit:
                del self.tables[table.stored.id]

    async def keep_tidy(self, every: float = 30.0) -> None:
        """Evict idle tables now and then (a task of the application's lifetime)."""
        while True:
            await asyncio.sleep(every)
            self._evict()

    # -- views --------------------------------------------------------------------------
    async def view(self, game_id: str, token: str | None) -> str:
        """A seat's or the spectators' view, as JSON text."""
        async with self._use(game_id) as table:
            return self._view(table, table.seat_of(token))

    def _view(self, table: Table, seat: int | None, details: bool = True) -> str:
        """A seat's or the spectators' view as JSON text, built once per change (only the text
        is kept: it is what every listener is sent). What every audience sees alike is
        encoded once per change, and each move of the log once for the game's life.
        ``details``: the legal moves carry their words, preview and details (most of the work
        of a view, and only a client that shows them asks for them)."""
        state = table.state
        details = details and seat is not None and seat == state.current_player()
        known = table.views.get((seat, details))
        if known is not None:
            return known
        position = state.public_view(seat)
        position["options"] = self._shown_options(table.stored)
        own = {
            "you": seat,
            "legal": self._legal(table, seat, details),
            "can_undo": seat is not None and self._undo_point(table, seat) is not None,
            "rematch": self._rematch_link(table, seat),
            "position": position,
        }
        known = table.views[seat, details] = f"{{{self._shared(table)},{_encode(own)[1:-1]}}}"
        return known

    def _shared(self, table: Table) -> str:
        """The JSON text, without braces, of what every audience's view holds."""
        if table.shared:
            return table.shared
        state = table.state
        to_move = state.current_player()
        alike = {
            "id": table.stored.id,
            "version": table.stored.version,  # clients keep the newest view they got
            "game": table.stored.game,
            "title": state.game.title or table.stored.game,  # an English message to translate
            "options": self._shown_options(table.stored),
            "seeded": table.stored.seeded,
            "palette": state.game.palette(),
            "seats": self._seats(table.stored),
            "to_move": to_move if to_move >= 0 else None,
            "decision": state.decision(),
            "over": state.is_terminal(),
            "scores": state.scores(),
            "winners": state.winners(),
            "breakdown": state.score_breakdown(),
            "last": self._last_moves(table),
        }
        table.shared = f'{_encode(alike)[1:-1]},"log":[{table.log_text()}]'
        return table.shared

    @staticmethod
    def _legal(table: Table, seat: int | None, details: bool) -> list[dict[str, Any]]:
        """The legal moves of the seat to move: each one's action, notation and targets, and
        with ``details`` what a client shows of it; none for any other audience."""
        state = table.state
        if seat is None or seat != state.current_player() or table.kind(seat) != "human":
            return []
        actions = state.legal_actions()
        if not details:
            return [
                {"action": a, "move": state.action_to_string(a), "targets": state.action_targets(a)}
                for a in actions
            ]
        return [
            {
                "action": a,
                "move": state.action_to_string(a),
                "targets": state.action_targets(a),
                "details": state.action_details(a),
                "preview": preview,
                "text": state.describe_action(a).to_json(),
            }
            for a, preview in zip(actions, state.action_previews(actions), strict=True)
        ]

    @staticmethod
    def _last_moves(table: Table) -> list[dict[str, Any] | None]:
        """Each seat's last move: its number, what was clicked, where the pieces went."""
        last: list[dict[str, Any] | None] = [None] * len(table.stored.seats)
        missing = len(last)
        for ply in range(len(table.played), 0, -1):  # from the end, until every seat is found
            m = table.played[ply - 1]
            if last[m.seat] is None:
                last[m.seat] = {"ply": ply, "clicked": m.clicked, "marks": m.marks}
                missing -= 1
                if not missing:
                    break
        return last

    @staticmethod
    def _display_name(stored: StoredGame, seat: int, lang: str) -> str:
        """A seat's name in drawings: the player's, else the bot's level, else "seat N"."""
        s = stored.seats[seat]
        gettext: Callable[[str], str] = i18n.in_language(lang)
        if s.name:
            return s.name
        if s.kind == "bot" and s.bot:
            return gettext(LEVEL_NAMES.get(s.bot, s.bot))
        return gettext("seat {seat}").format(seat=seat + 1)  # people count seats from 1

    @staticmethod
    def _shown_options(stored: StoredGame) -> dict[str, Any]:
        return {k: v for k, v in stored.options.items() if k != "explicit_chance"}

    @staticmethod
    def _seats(stored: StoredGame) -> list[dict[str, Any]]:
        return [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in stored.seats
        ]

    async def svg(
        self,
        game_id: str,
        token: str | None,
        patterns: bool = False,
        ply: int | None = None,
        lang: str = "en",
        layout: str = "wide",
        focus: int | None = None,
    ) -> str:
        """The drawing of the table, or of the position after ``ply`` moves (replays), for a
        wide screen or a phone; the viewer's board (or ``focus``'s) is drawn large. Made in
        the drawing process, never on the event loop; kept by (game, version, audience,
        layout, language, patterns, ply)."""
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            if focus is not None and not 0 <= focus < len(table.stored.seats):
                raise AzulError("focus {seat}: there is no such seat", seat=focus)
            plies = len(table.played)
            if ply is not None and not 0 <= ply <= plies:
                raise AzulError("ply {ply}: this game has moves 0..{last}", ply=ply, last=plies)
            s = table.stored
            drawn = seat if focus is None else focus
            key = (s.id, s.version, drawn, ply, layout, lang, patterns)
            known = self.drawings.get(key)
            if known is None:
                upto = table.played[ply].index if ply is not None and ply < plies else None
                names = [self._display_name(s, i, lang) for i in range(len(s.seats))]
                job = (s.game, table.options, s.seed, table.actions(upto))
                known = self._make_drawing(key, job, (patterns, lang, drawn, layout, names))
            else:
                self.drawings.move_to_end(key)
        return await asyncio.shield(known)

    def _make_drawing(
        self,
        key: tuple[Any, ...],
        job: tuple[str, dict[str, Any], int, list[int]],
        look: tuple[bool, str, int | None, str, list[str]],
    ) -> asyncio.Future[str]:
        """Start a drawing in the drawing process and keep it under ``key``; TooMany while
        ``drawings_queued`` are waiting already."""
        if self.drawing >= self.settings.drawings_queued:
            raise TooMany("the server is drawing too much: try again in a moment", retry_after=2)
        self.drawing += 1
        loop = asyncio.get_running_loop()
        made = asyncio.ensure_future(loop.run_in_executor(self._drawer(), _drawing, *job, look))

        def done(future: asyncio.Future[str]) -> None:
            self.drawing -= 1
            if future.cancelled() or future.exception() is not None:
                self.drawings.pop(key, None)  # a failed drawing is tried again next time
            if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
                self.drawer = None  # a drawing process died: a new pool draws next time

        made.add_done_callback(done)
        self.drawings[key] = made
        while len(self.drawings) > self.settings.drawings_kept:
            self.drawings.popitem(last=False)
        return made

    async def hint(self, game_id: str, token: str | None, client: str = "") -> list[dict[str, Any]]:
        """The hint bot's best moves for the seat to move, thought out in the process pool
        after the bots' moves; TooMany when too many hints wait (from ``client``, or all)."""
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None or seat != table.state.current_player():
                raise Conflict("hints are for the player to move")
            s = table.stored
            job = (s.game, table.options, s.seed, table.actions(), s.seed + len(s.log))
            key = (s.id, s.version)
        try:
            return await self.thinking.hint(client, key, _hint, *job)  # type: ignore[no-any-return]
        except BrokenProcessPool:  # its process died: the next hint gets a new one
            self.hinter = None
            raise

    async def record(self, game_id: str, token: str | None) -> str:
        """The game's record so far: the moves and the draws that happened."""
        from azul.core.records import Record

        async with self._use(game_id) as table:
            table.seat_of(token)
            s = table.stored
            options = self._shown_options(s)
            if options.get("components") == DEFAULT_COMPONENTS:
                options["components"] = None
            options["explicit_chance"] = not s.seeded
            rec = Record(
                s.game,
                options,
                s.seed if s.seeded else None,
                table.actions(),
                list(table.notation),
                [CHANCE if seat == CHANCE_SEAT else seat for seat, _ in s.log],
                table.state.scores() if table.state.is_terminal() else None,
                seeded=s.seeded,
            )
            return "\n".join(rec.to_lines()) + "\n"

    async def lobby(self) -> list[dict[str, Any]]:
        """The public games: open seats to join and games to watch, newest first."""
        games = await self._io(self.store.list_public, self.settings.lobby_games)
        return [
            {
                "id": g.id,
                "game": g.game,
                "title": title(g.game),
                "options": self._shown_options(g),
                "seeded": g.seeded,
                "created": g.created,
                "over": g.finished,
                "seats": self._seats(g),
                "open": [s.seat for s in g.seats if s.kind == "open"],
                "watch_token": g.watch_token,
            }
            for g in games
        ]

    async def join(self, game_id: str, seat: Any, name: Any) -> dict[str, Any]:
        """Take an open seat of a public game: its token."""
        name = _clean_name(name, "name")
        async with self._use(game_id) as table:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise AzulError("seat: expected a seat number")
            seats = table.stored.seats
            if not 0 <= seat < len(seats):
                raise AzulError(
                    "seat {seat}: this game has seats 0..{last}", seat=seat, last=len(seats) - 1
                )
            token = secrets.token_urlsafe(18)
            async with table.lock:
                if seats[seat].kind != "open" or not await self._io(
                    self.store.claim, game_id, seat, name, token
                ):
                    raise Conflict("seat {seat} is not open", seat=seat)
                await self._refresh(table)  # the seat, and the version the claim bumped
            return {"id": game_id, "seat": seat, "token": token}

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The next game of a finished one: same game, options and seats, a new deal. The first
        person to ask makes it; everyone then finds their new link in their view."""
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None:
                raise Forbidden("a spectator link cannot start a rematch")
            if not table.state.is_terminal():
                raise Conflict("the game is not over")
            async with table.lock:
                if table.stored.rematch is None:
                    s = table.stored
                    seats = [{"kind": x.kind, "bot": x.bot, "name": x.name} for x in s.seats]
                    made = await self._create(s.game, self._shown_options(s), seats, None, s.public)
                    # False: another process linked one first, which the refresh brings
                    await self._io(self.store.link_rematch, s.id, made.id)
                    await self._refresh(table)
            link = self._rematch_link(table, seat)
            if link is None:  # linked in the store, but not found there when loaded
                raise Conflict("the game changed meanwhile: reload it")
            return link

    def _rematch_link(self, table: Table, seat: int | None) -> dict[str, Any] | None:
        """The link of the next game for this audience: its id and this seat's token there."""
        follow = table.follow
        if follow is None:
            return None
        if seat is None or follow.seats[seat].kind != "human":
            return {"id": follow.id, "token": follow.watch_token}
        return {"id": follow.id, "token": follow.seats[seat].token}

    # -- moves ----------------------------------------------------------------------------
    async def move(
        self,
        game_id: str,
        token: str | None,
        action: Any = None,
        move: Any = None,
        version: Any = None,
    ) -> str:
        """Play a human's action (an id or the notation); committed before it is answered.
        The seat's new view, as JSON text."""
        table, seat = await self.play(game_id, token, action, move, version)
        return self._view(table, seat)

    async def play(
        self,
        game_id: str,
        token: str | None,
        action: Any = None,
        move: Any = None,
        version: Any = None,
        details: bool = True,
    ) -> tuple[Table, int]:
        """Play a human's action and tell every listener; the table and the seat that moved.
        ``version``: the version of the view the move was chosen on; a move chosen on another
        is refused (Outdated, with the view now, its legal moves with their details or not),
        none judges it on the game as it is. The time it takes (lock, checks, commit, views for
        the listeners) is recorded."""
        start = time.perf_counter()
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None:
                raise Forbidden("a spectator link cannot move")
            _check_move(action, move, version)
            async with table.lock:
                if version is not None and version > table.stored.version:
                    await self._refresh(table)  # the client saw a write this copy missed
                try:
                    self._chosen_on(table, seat, version, details)
                    await self._checked_commit(table, seat, action, move)
                except Stale:  # another process wrote first: judge the move on the game now
                    await self._refresh(table)
                    self._chosen_on(table, seat, version, details)
                    await self._checked_commit(table, seat, action, move)
            self._start_bots(table)
        self.move_times.add(time.perf_counter() - start)
        return table, seat

    def _chosen_on(self, table: Table, seat: int, version: int | None, details: bool) -> None:
        """Refuse a move chosen on a view older (or newer) than the table's version."""
        if version is not None and version != table.stored.version:
            raise Outdated(
                "the game changed since the view of version {version}: the move was not played",
                view=self._view(table, seat, details),
                version=version,
            )

    async def _checked_commit(self, table: Table, seat: int, action: Any, move: Any) -> None:
        """Commit a person's move if it is theirs to make. The caller holds the lock."""
        state = table.state
        if state.is_terminal():
            raise Conflict("the game is over")
        if state.current_player() != seat:
            raise Conflict(
                "it is seat {turn}'s turn, not seat {seat}'s",
                turn=state.current_player(),
                seat=seat,
            )
        if move is not None:
            action = state.string_to_action(move)
        await self._commit(table, seat, action)

    async def _commit(self, table: Table, seat: int, action: int) -> None:
        """Apply on a copy, draw what is then due, commit, then make the copy the table's state
        (all or nothing). The caller holds the table's lock."""
        after = table.state.clone()
        after.apply_action(action)  # raises with the reason; nothing changed
        played = Played.of(table.state, len(table.stored.log), action)
        notation = [played.move]
        entries = [(seat, action)]
        self._settle(after, entries, notation)
        s = table.stored
        await self._io(
            self.store.append,
            s.id,
            len(s.log) + 1,
            entries,
            s.version,
            after.is_terminal(),
            _bot_turn(after, s.seats),
        )
        table.played.append(played)
        s.log.extend(entries)
        table.notation.extend(notation)
        table.state = after
        s.version += 1
        s.finished = after.is_terminal()
        self._changed(table)

    def _undo_point(self, table: Table, seat: int) -> int | None:
        """Where the log goes back to when ``seat`` undoes: before its last move, taking back
        the bots' replies since, as long as no other person acted and nothing was drawn."""
        if seat in table.undo_points:
            return table.undo_points[seat]
        point = None
        if not table.state.is_terminal():
            for m in reversed(table.played):
                if m.seat == seat:
                    point = m.index
                    break
                if table.kind(m.seat) != "bot":
                    break
        if point is not None:
            later = table.stored.log[point:]
            if any(s == CHANCE_SEAT for s, _ in later):
                point = None  # the server drew pieces since
            elif (  # did the state's own generator draw?
                not table.options["explicit_chance"]
                and self._replay(table, point).draws() != table.state.draws()
            ):
                point = None
        table.undo_points[seat] = point
        return point

    def _replay(self, table: Table, upto: int | None) -> azul.State:
        s = table.stored
        return _position(s.game, table.options, s.seed, table.actions(upto))

    async def undo(self, game_id: str, token: str | None) -> str:
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            async with table.lock:
                point = None if seat is None else self._undo_point(table, seat)
                if point is None:
                    raise Conflict(
                        "only your own last move (and the bots' replies) can be taken back, "
                        "before another person acts or a piece is drawn"
                    )
                s = table.stored
                before = self._replay(table, point)
                try:
                    await self._io(
                        self.store.truncate, s.id, point + 1, s.version, _bot_turn(before, s.seats)
                    )
                except Stale:  # another process wrote first: the game as it is now, and 409
                    await self._refresh(table)
                    raise
                table.state = before
                del s.log[point:]
                del table.notation[point:]
                table.played = [m for m in table.played if m.index < point]
                s.version += 1
                self._changed(table)
            self._start_bots(table)
            return self._view(table, seat)

    # -- bots -----------------------------------------------------------------------------
    def _start_bots(self, table: Table) -> None:
        if table.thinking:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop yet: bots start when the game is next touched
        table.thinking = True
        self._spawn(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        """Let bots move, each thinking in the process pool, never on the event loop. A failure
        is logged and the turn tried again; a bot that keeps failing plays a random move. The
        store being unavailable is not the bot's failure: the turn waits for it."""
        try:
            failures = outages = 0
            while True:
                try:
                    await self._bot_turns(table, failures)
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

    async def _bot_turns(self, table: Table, failures: int) -> None:
        while True:
            async with table.lock:
                state = table.state
                seat = state.current_player()
                if state.is_terminal() or seat < 0 or table.kind(seat) != "bot":
                    return
                version = table.stored.version
                s = table.stored
                level = s.seats[seat].bot or DEFAULT_LEVEL
                spec = self.settings.level(level if level in LEVELS else DEFAULT_LEVEL)
                job = (
                    s.game,
                    table.options,
                    s.seed,
                    table.actions(),
                    spec,
                    s.seed * 1000 + len(s.log),
                )
                lease = self.settings.bot_lease
                if not await self._io(self.store.claim_bot, s.id, version, self.me, lease):
                    return  # another process is on it; its move will be noticed
            if failures >= 3:  # never leave a game stuck
                action = random.Random(job[-1]).choice(state.legal_actions())
            else:
                try:
                    thinking = asyncio.ensure_future(self.thinking.bot(_think, *job))
                    action = await self._renewing(thinking, s.id, version)
                except BrokenProcessPool:  # a worker died: a new pool thinks again
                    self.executor = None
                    raise
            async with table.lock:
                if table.stored.version != version:  # undone or moved meanwhile: think again
                    continue
                try:
                    await self._commit(table, seat, action)
                except Stale:  # another process moved first (it took the turn over)
                    await self._refresh(table)
                    continue
            failures = 0

    async def _renewing(self, thinking: asyncio.Future[T], game_id: str, version: int) -> T:
        """Wait for a bot's move, renewing this process's claim on the turn meanwhile."""
        lease = self.settings.bot_lease
        while True:
            done, _ = await asyncio.wait({thinking}, timeout=lease / 3)
            if done:
                return thinking.result()
            await self._io(self.store.claim_bot, game_id, version, self.me, lease)

    # -- live updates -----------------------------------------------------------------------
    async def subscribe(
        self, game_id: str, token: str | None, details: bool = False
    ) -> tuple[Table, Listener]:
        """A live connection to a game: it is posted the first view at once. ``details``: its
        legal moves carry their words, preview and details."""
        async with self._use(game_id) as table:
            seat = table.seat_of(token)
            if len(table.listeners) >= self.settings.sockets_per_game:
                raise TooMany("this game has too many live connections", retry_after=60)
            listener = Listener(seat, details)
            table.listeners.append(listener)
            listener.post(self._view(table, seat, details))
            return table, listener

    def unsubscribe(self, table: Table, listener: Listener) -> None:
        if listener in table.listeners:
            table.listeners.remove(listener)
        table.used = time.monotonic()

    def _changed(self, table: Table) -> None:
        """The table changed: forget what was worked out for the old version, and send every
        listener its new view."""
        table.changed()
        for listener in table.listeners:
            listener.post(self._view(table, listener.seat, listener.details))

    def stats(self) -> dict[str, Any]:
        """Tables in memory, people's moves since the start, and how long the server took."""
        times = self.move_times
        return {
            "tables": len(self.tables),
            "moves": times.total,
            "move_ms": {
                "p50": times.quantile(0.5),
                "p99": times.quantile(0.99),
                "max": round(1000 * times.longest, 2) if times.total else None,
            },
        }
