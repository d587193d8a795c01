"""Tables of play: games loaded from the store, moves checked and committed, bots thinking in a
process pool, views sent to every connected client.

Each seat has a secret token; only its holder moves for it. A client only ever receives the
public view of a table, which holds neither the generator's state nor anything else that
predicts future draws.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import azul
from azul.arena.match import BotSpec
from azul.core.errors import AzulError, IllegalMoveError
from azul.server.store import Store, StoredGame


class NotFound(AzulError):
    """An unknown game."""


class Forbidden(AzulError):
    """A token that does not give the right to do this."""


class Conflict(AzulError):
    """A valid request at the wrong moment: not your turn, the game is over."""


@dataclass
class Table:
    stored: StoredGame
    state: azul.State
    movers: list[int]  # seat of each move
    moves: list[str]  # notation of each move, as played
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: bool = False  # a bot task is running for this table
    drew: bool | None = None  # whether a draw happened during the last move (None: unknown)
    listeners: list[tuple[asyncio.Queue, int | None]] = field(default_factory=list)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token plays, None for the spectator token; Forbidden otherwise."""
        for seat in self.stored.seats:
            if token is not None and secrets.compare_digest(seat.token, token):
                return seat.seat
        if token is not None and secrets.compare_digest(self.stored.watch_token, token):
            return None
        raise Forbidden("this link's token does not belong to this game")


def _die_with_parent(server: int) -> None:
    """In a worker process: end when the server ends, even when it is killed (Linux)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != server:  # the server died while this worker was starting
        os._exit(0)


def _position(game: str, options: dict, seed: int, actions: list[int]) -> azul.State:
    """A game's position rebuilt from its record."""
    state = azul.load_game(game, **options).new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def _think(game: str, options: dict, seed: int, actions: list[int], bot: str, bot_seed: int) -> int:
    """In a worker process: the bot's move in the position."""
    return BotSpec.parse(bot).make(bot_seed).choose(_position(game, options, seed, actions))


def _hint(game: str, options: dict, seed: int, actions: list[int], bot_seed: int) -> list:
    """In a worker process: the three best moves for the position."""
    from azul.bots import hints

    best = hints(_position(game, options, seed, actions), bot_seed)
    return [{"action": c.action, "move": c.move, "value": round(c.value, 3)} for c in best]


class Lobby:
    """Every table of the server, made from and written to the store."""

    def __init__(self, store: Store, executor: Executor | None = None):
        self.store = store
        self.executor = executor
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task] = set()
        self.move_times: deque[float] = deque(maxlen=1_000_000)  # seconds per human move

    def _pool(self) -> Executor:
        if self.executor is None:
            # spawned, not forked: a worker must not inherit the server's listening socket
            self.executor = ProcessPoolExecutor(
                max_workers=2,
                initializer=_die_with_parent,
                initargs=(os.getpid(),),
                mp_context=multiprocessing.get_context("spawn"),
            )
        return self.executor

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    # -- creating and loading -----------------------------------------------------------
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
    ) -> dict[str, Any]:
        """A new game; ``seats`` lists {"kind": "human"} or {"kind": "bot", "bot": spec}."""
        g = azul.load_game(game, **options)  # OptionError names a bad option
        if g.info.options.get("explicit_chance"):
            raise AzulError("explicit_chance: the server draws with each game's own generator")
        if len(seats) != g.info.num_players:
            raise AzulError(
                f"seats: {g.info.num_players} players need {g.info.num_players} "
                f"seats, got {len(seats)}"
            )
        clean = []
        for i, seat in enumerate(seats):
            kind = seat.get("kind") if isinstance(seat, dict) else None
            if kind == "human":
                clean.append({"kind": "human", "token": secrets.token_urlsafe(18)})
            elif kind == "bot":
                spec = seat.get("bot", "heuristic")
                if not isinstance(spec, str):
                    raise AzulError(f"seats[{i}].bot: expected a bot name like 'mcts:time=1'")
                BotSpec.parse(spec).make(0)  # an unknown bot or option is refused now
                clean.append({"kind": "bot", "bot": spec, "token": secrets.token_urlsafe(18)})
            else:
                raise AzulError(f"seats[{i}]: kind is 'human' or 'bot'")
        game_id = secrets.token_hex(8)
        seed = secrets.randbelow(2**31) if seed is None else seed
        watch = secrets.token_urlsafe(18)
        self.store.create(game_id, game, dict(g.options), seed, watch, clean)
        self._load(game_id)  # starts the bots if a bot moves first
        return {
            "id": game_id,
            "seats": [
                {
                    "seat": i,
                    "kind": s["kind"],
                    "bot": s.get("bot"),
                    "token": s["token"] if s["kind"] == "human" else None,
                }
                for i, s in enumerate(clean)
            ],
            "watch_token": watch,
        }

    def _load(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is not None:
            return table
        stored = self.store.load(game_id)
        if stored is None:
            raise NotFound("there is no game {game!r}", game=game_id)
        state = azul.load_game(stored.game, **stored.options).new_initial_state(stored.seed)
        movers, moves = [], []
        for a in stored.actions:
            movers.append(state.current_player())
            moves.append(state.action_to_string(a))
            state.apply_action(a)
        table = Table(stored, state, movers, moves)
        self.tables[game_id] = table
        self._start_bots(table)
        return table

    # -- views --------------------------------------------------------------------------
    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        table = self._load(game_id)
        return self._view(table, table.seat_of(token))

    def _view(self, table: Table, seat: int | None) -> dict[str, Any]:
        state = table.state
        position = state.to_json()
        for private in ("rng", "history"):  # the generator predicts future draws
            position.pop(private, None)
        to_move = state.current_player()
        human = {s.seat for s in table.stored.seats if s.kind == "human"}
        legal = []
        if seat is not None and seat == to_move and seat in human:
            legal = [
                {
                    "action": a,
                    "move": state.action_to_string(a),
                    "targets": state.action_targets(a),
                }
                for a in state.legal_actions()
            ]
        return {
            "id": table.stored.id,
            "version": table.stored.version,  # clients keep the newest view they got
            "game": table.stored.game,
            "options": table.stored.options,
            "you": seat,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot} for s in table.stored.seats],
            "to_move": to_move if to_move >= 0 else None,
            "decision": state.decision(),
            "over": state.is_terminal(),
            "scores": state.scores(),
            "winners": state.winners(),
            "breakdown": state.score_breakdown(),
            "log": [
                {"ply": i + 1, "seat": p, "move": m}
                for i, (p, m) in enumerate(zip(table.movers, table.moves, strict=True))
            ],
            "legal": legal,
            "can_undo": seat is not None and self._undo_allowed(table, seat),
            "position": position,
        }

    def svg(
        self,
        game_id: str,
        token: str | None,
        patterns: bool = False,
        ply: int | None = None,
        lang: str = "en",
    ) -> str:
        """The drawing of the table, or of the position after ``ply`` moves (replays)."""
        table = self._load(game_id)
        table.seat_of(token)
        state = table.state
        if ply is not None:
            plies = len(table.stored.actions)
            if not 0 <= ply <= plies:
                raise AzulError("ply {ply}: this game has moves 0..{last}", ply=ply, last=plies)
            state = self._replay(table, ply)
        return state.to_svg(patterns, lang)

    async def hint(self, game_id: str, token: str | None) -> list[dict[str, Any]]:
        """The hint bot's best moves for the seat to move, thought out in the process pool."""
        table = self._load(game_id)
        seat = table.seat_of(token)
        if seat is None or seat != table.state.current_player():
            raise Conflict("hints are for the player to move")
        s = table.stored
        job = (s.game, s.options, s.seed, list(s.actions), s.seed + len(s.actions))
        return await asyncio.get_running_loop().run_in_executor(self._pool(), _hint, *job)

    def record(self, game_id: str, token: str | None) -> str:
        from azul.core.records import Record

        table = self._load(game_id)
        table.seat_of(token)
        s = table.stored
        rec = Record(
            s.game,
            s.options,
            s.seed,
            list(s.actions),
            list(table.moves),
            list(table.movers),
            table.state.scores() if table.state.is_terminal() else None,
        )
        return "\n".join(rec.to_lines()) + "\n"

    # -- moves ----------------------------------------------------------------------------
    async def move(
        self, game_id: str, token: str | None, action: Any = None, move: Any = None
    ) -> dict[str, Any]:
        """Play a human's action (an id or the notation); committed before it is answered."""
        table, seat = await self.play(game_id, token, action, move)
        return self._view(table, seat)

    async def play(
        self, game_id: str, token: str | None, action: Any = None, move: Any = None
    ) -> tuple[Table, int]:
        """Play a human's action and tell every listener; the table and the seat that moved.
        The time it takes (lock, checks, commit, views for the listeners) is recorded."""
        start = time.perf_counter()
        table = self._load(game_id)
        seat = table.seat_of(token)
        async with table.lock:
            state = table.state
            if seat is None:
                raise Forbidden("a spectator link cannot move")
            if state.is_terminal():
                raise Conflict("the game is over")
            if state.current_player() != seat:
                raise Conflict(
                    "it is seat {turn}'s turn, not seat {seat}'s",
                    turn=state.current_player(),
                    seat=seat,
                )
            if (action is None) == (move is None):
                raise IllegalMoveError("send either 'action' (an id) or 'move' (the notation)")
            if move is not None:
                action = state.string_to_action(move)
            self._play(table, seat, action)
        self._start_bots(table)
        self.move_times.append(time.perf_counter() - start)
        return table, seat

    def stats(self) -> dict[str, Any]:
        """Moves played by people since the server started, and how long the server took."""
        times = sorted(self.move_times)

        def ms(q: float) -> float | None:
            return (
                round(1000 * times[min(len(times) - 1, int(q * len(times)))], 2) if times else None
            )

        return {
            "tables": len(self.tables),
            "moves": len(times),
            "move_ms": {"p50": ms(0.5), "p99": ms(0.99), "max": ms(1.0)},
        }

    def _play(self, table: Table, seat: int, action: int) -> None:
        """Apply on a copy, commit, then make the copy the table's state (all or nothing)."""
        after = table.state.clone()
        after.apply_action(action)  # raises with the reason; nothing changed
        drew = after.generator_state() != table.state.generator_state()
        text = table.state.action_to_string(action)
        ply = len(table.stored.actions) + 1
        self.store.add_move(table.stored.id, ply, action, seat)
        table.stored.actions.append(action)
        table.movers.append(seat)
        table.moves.append(text)
        table.state = after
        table.drew = drew
        table.stored.version += 1
        self._broadcast(table)

    def _undo_allowed(self, table: Table, seat: int) -> bool:
        """The seat's own last action, with nobody else acting and no draw since (rules of the
        table, not of the game)."""
        if not table.movers or table.movers[-1] != seat or table.state.is_terminal():
            return False
        if table.drew is None:  # loaded from the store: replay the last move once
            before = self._replay(table, len(table.stored.actions) - 1)
            table.drew = before.generator_state() != table.state.generator_state()
        return not table.drew

    def _replay(self, table: Table, plies: int) -> azul.State:
        s = table.stored
        return _position(s.game, s.options, s.seed, s.actions[:plies])

    async def undo(self, game_id: str, token: str | None) -> dict[str, Any]:
        table = self._load(game_id)
        seat = table.seat_of(token)
        async with table.lock:
            if seat is None or not self._undo_allowed(table, seat):
                raise Conflict(
                    "only your own last action can be taken back, before anyone "
                    "else acts or a piece is drawn"
                )
            plies = len(table.stored.actions) - 1
            self.store.remove_moves_from(table.stored.id, plies + 1)
            table.state = self._replay(table, plies)
            table.drew = None
            del table.stored.actions[plies:]
            del table.movers[plies:]
            del table.moves[plies:]
            table.stored.version += 1
            self._broadcast(table)
        return self._view(table, seat)

    # -- bots -----------------------------------------------------------------------------
    def _start_bots(self, table: Table) -> None:
        if table.thinking:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop yet: bots start when the game is next touched
        table.thinking = True
        task = loop.create_task(self._run_bots(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run_bots(self, table: Table) -> None:
        """Let bots move, each thinking in the process pool, never on the event loop."""
        try:
            await self._bot_turns(table)
        finally:
            table.thinking = False

    async def _bot_turns(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        bots = {s.seat: s.bot for s in table.stored.seats if s.kind == "bot"}
        failures = 0
        while True:
            async with table.lock:
                state = table.state
                seat = state.current_player()
                if state.is_terminal() or seat not in bots:
                    return
                ply = len(table.stored.actions)
                s = table.stored
                job = (s.game, s.options, s.seed, list(s.actions), bots[seat], s.seed * 1000 + ply)
            try:
                action = await loop.run_in_executor(self._pool(), _think, *job)
            except BrokenProcessPool:
                failures += 1  # a worker died: start a new pool and think again
                self.executor = None
                if failures > 3:
                    raise
                continue
            async with table.lock:
                if len(table.stored.actions) != ply:  # someone else moved meanwhile
                    continue
                self._play(table, seat, action)

    # -- live updates -----------------------------------------------------------------------
    def subscribe(self, game_id: str, token: str | None) -> tuple[asyncio.Queue, dict]:
        table = self._load(game_id)
        seat = table.seat_of(token)
        queue: asyncio.Queue = asyncio.Queue(maxsize=64)
        table.listeners.append((queue, seat))
        return queue, self._view(table, seat)

    def unsubscribe(self, game_id: str, queue: asyncio.Queue) -> None:
        table = self.tables.get(game_id)
        if table is not None:
            table.listeners = [(q, s) for q, s in table.listeners if q is not queue]

    def _broadcast(self, table: Table) -> None:
        for queue, seat in list(table.listeners):
            if queue.full():  # a client that stopped reading gets the latest view later
                continue
            queue.put_nowait(self._view(table, seat))
