"""The game server's requests, transport aside: a ``Lobby`` of tables in memory (``tables``),
their bots (``bots``), drawings (``drawings``) and live views (``live``), and what is asked of
one table: views, moves, undos, hints, drawings and records.

Each seat has a secret token; only its holder moves for it. A client only ever receives the
public view of a table.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

from azul.core.api import CHANCE
from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server import clocks, live, lobby
from azul.server.bots import Bots
from azul.server.drawings import Drawings
from azul.server.errors import Conflict, Forbidden, Outdated
from azul.server.guards import Rates
from azul.server.reviews import Reviews
from azul.server.settings import DEFAULT_FILE, Settings
from azul.server.store import CHANCE_SEAT, Stale, Store
from azul.server.table import Listener, Table, bot_turn, check_move, position
from azul.server.tables import Tables, file_options


def hint(
    game: str, options: dict[str, Any], seed: int, actions: list[int], bot_seed: int
) -> list[dict[str, Any]]:
    """In a worker process: the three best moves for the position (``azul.bots.Hint``)."""
    from azul.bots import hints

    return [h.to_json() for h in hints(position(game, options, seed, actions), bot_seed)]


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


class Lobby:
    """Every table of the server, made from and written to the store."""

    def __init__(
        self, store: Store, executor: Executor | None = None, settings: Settings | None = None
    ):
        self.store = store
        self.settings = settings or Settings()
        self.tables = Tables(store, self.settings)
        self.bots = Bots(self.tables, self.settings, executor)
        self.drawings = Drawings(self.settings, executor)
        self.tables.changed = live.post
        self.tables.wake = self.bots.start
        self.reviews = Reviews(self.settings, self.bots.thinking, self.tables, self.bots.me)
        self.move_times = MoveTimes()
        self.hint_rates = Rates(  # by game
            {"hint": self.settings.hints_per_game},
            N_("too many hints in this game: try again in {seconds} s"),
        )

    def warm_up(self) -> None:
        self.drawings.warm_up()
        self.bots.warm_up()

    def close(self) -> None:
        self.bots.close()
        self.drawings.close()
        self.tables.close()

    # -- games ----------------------------------------------------------------------------
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        public: bool = False,
        clock: Any = None,
    ) -> dict[str, Any]:
        """A new game (``lobby.new_game``); the answer holds the people's tokens."""
        made = await lobby.new_game(self.tables, game, options, seats, seed, public, clock)
        return lobby.created(made)

    async def lobby(self) -> list[dict[str, Any]]:
        return await lobby.public_games(self.tables)

    async def join(self, game_id: str, seat: Any, name: Any) -> dict[str, Any]:
        return await lobby.join(self.tables, game_id, seat, name)

    async def name_seat(self, game_id: str, token: str | None, name: Any) -> None:
        await lobby.name_seat(self.tables, game_id, token, name)

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        return await lobby.rematch(self.tables, game_id, token)

    # -- what a table shows -----------------------------------------------------------------
    async def view(self, game_id: str, token: str | None) -> str:
        """A seat's or the spectators' view, as JSON text."""
        async with self.tables.use(game_id) as table:
            return live.view(table, table.seat_of(token))

    async def subscribe(
        self, game_id: str, token: str | None, details: bool = False
    ) -> tuple[Table, Listener]:
        """A live connection to a game: it is posted the first view at once. ``details``: its
        legal moves carry their words, preview and details."""
        async with self.tables.use(game_id) as table:
            seat = table.seat_of(token)
            most = self.settings.sockets_per_game
            return table, live.subscribe(table, seat, most, details)

    def unsubscribe(self, table: Table, listener: Listener) -> None:
        live.unsubscribe(table, listener)

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
        async with self.tables.use(game_id) as table:
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
                names = [live.display_name(s, i, lang) for i in range(len(s.seats))]
                job = (s.game, table.options, s.seed, table.actions(upto))
                known = self.drawings.make(key, job, (patterns, lang, drawn, layout, names))
        return await asyncio.shield(known)

    async def hint(self, game_id: str, token: str | None, client: str = "") -> list[dict[str, Any]]:
        """The hint bot's best moves for the seat to move, thought out in the process pool
        after the bots' moves; TooMany over the game's rate, or when too many hints wait (from
        ``client``, or all)."""
        async with self.tables.use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None or seat != table.state.current_player():
                raise Conflict("hints are for the player to move")
            self.hint_rates.hit("hint", game_id)  # counted once the token is a seat's
            s = table.stored
            job = (s.game, table.options, s.seed, table.actions(), s.seed + len(s.log))
            key = (s.id, s.version)
        try:
            return await self.bots.thinking.hint(client, key, hint, *job)  # type: ignore[no-any-return]
        except BrokenProcessPool:  # its process died: the next hint gets a new one
            self.bots.hinter = None
            raise

    async def review(
        self, game_id: str, token: str | None, client: str = "", start: bool = False
    ) -> dict[str, Any]:
        """A finished game's review: ``{"status": "done", "review": ...}`` once made, else
        how far it is (``running``, ``done`` of ``total`` decisions), or ``none``; ``start``
        begins it (``reviews``). Conflict while the game is being played."""
        async with self.tables.use(game_id) as table:
            table.seat_of(token)
            if not table.state.is_terminal():
                raise Conflict("a game is reviewed once it is over")
            s = table.stored
            job = (s.game, table.options, s.seed, table.actions())
            total = len(table.played)
        made = await self.tables.io(self.store.review, game_id)
        if made is not None:
            return {"status": "done", "review": json.loads(made)}
        progress = await self.reviews.progress(game_id)
        if progress is not None or not start:
            return progress or {"status": "none"}
        return await self.reviews.begin(game_id, client, total, job)

    async def record(self, game_id: str, token: str | None) -> str:
        """The game's record so far: the moves and the draws that happened."""
        from azul.core.records import Record

        async with self.tables.use(game_id) as table:
            table.seat_of(token)
            s = table.stored
            options = live.shown_options(s)
            for option in file_options(s.game):  # the game's own file: none named
                if options.get(option.name) == DEFAULT_FILE:
                    options[option.name] = None
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
        return live.view(table, seat)

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
        async with self.tables.use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None:
                raise Forbidden("a spectator link cannot move")
            check_move(action, move, version)
            async with table.lock:
                if version is not None and version > table.stored.version:
                    await self.tables.refresh(table)  # the client saw a write this copy missed
                try:
                    self._chosen_on(table, seat, version, details)
                    await self._checked_commit(table, seat, action, move)
                except Stale:  # another process wrote first: judge the move on the game now
                    await self.tables.refresh(table)
                    self._chosen_on(table, seat, version, details)
                    await self._checked_commit(table, seat, action, move)
            self.bots.start(table)
        self.move_times.add(time.perf_counter() - start)
        return table, seat

    @staticmethod
    def _chosen_on(table: Table, seat: int, version: int | None, details: bool) -> None:
        """Refuse a move chosen on a view older (or newer) than the table's version."""
        if version is not None and version != table.stored.version:
            raise Outdated(
                "the game changed since the view of version {version}: the move was not played",
                view=live.view(table, seat, details),
                version=version,
            )

    async def _checked_commit(self, table: Table, seat: int, action: Any, move: Any) -> None:
        """Commit a person's move if it is theirs to make, in their time. The caller holds
        the lock."""
        state = table.state
        if state.is_terminal():
            raise Conflict("the game is over")
        if state.current_player() != seat:
            raise Conflict(
                "it is seat {turn}'s turn, not seat {seat}'s",
                turn=state.current_player(),
                seat=seat,
            )
        if table.stored.seats[seat].away:
            raise Conflict("a bot keeps your seat: take it back first")
        clock = table.stored.clock
        if clock is not None and clock.ran_out(seat, clocks.now()):
            self.bots.start(table)  # its timer may not have fired yet
            raise Conflict("your time ran out: a bot plays this move")
        if move is not None:
            action = state.string_to_action(move)
        await self.tables.commit(table, seat, action)

    async def back(self, game_id: str, token: str | None) -> str:
        """Take back your seat from the bot that kept it while you were away; your view."""
        async with self.tables.use(game_id) as table:
            seat = table.seat_of(token)
            async with table.lock:
                s = table.stored
                if seat is None or not s.seats[seat].away or s.clock is None:
                    raise Conflict("no bot keeps your seat")
                state = table.state
                to_move = state.current_player()
                clock = s.clock.back(seat)
                if to_move == seat and not state.is_terminal():  # your clock runs from now
                    clock = clock.started(seat, clocks.now())
                seats = [replace(x, away=False) if x.seat == seat else x for x in s.seats]
                turn = bot_turn(state, seats)
                if not await self.tables.io(self.store.seat_back, s.id, seat, clock, turn):
                    await self.tables.refresh(table)
                    raise Conflict("no bot keeps your seat")
                await self.tables.refresh(table)
            self.bots.start(table)
            return live.view(table, seat)

    async def undo(self, game_id: str, token: str | None) -> str:
        """Take back the seat's last move and the bots' replies since (``Table.undo_point``)."""
        async with self.tables.use(game_id) as table:
            seat = table.seat_of(token)
            async with table.lock:
                point = None if seat is None else table.undo_point(seat)
                if point is None:
                    raise Conflict(
                        "only your own last move (and the bots' replies) can be taken back, "
                        "before another person acts or a piece is drawn"
                    )
                s = table.stored
                before = table.replay(point)
                try:
                    await self.tables.io(
                        self.store.truncate, s.id, point + 1, s.version, bot_turn(before, s.seats)
                    )
                except Stale:  # another process wrote first: the game as it is now, and 409
                    await self.tables.refresh(table)
                    raise
                table.state = before
                del s.log[point:]
                del table.notation[point:]
                table.played = [m for m in table.played if m.index < point]
                s.version += 1
                self.tables.change(table)
            self.bots.start(table)
            return live.view(table, seat)

    def stats(self) -> dict[str, Any]:
        """Tables in memory, people's moves since the start, and how long the server took."""
        times = self.move_times
        return {
            "tables": len(self.tables.kept),
            "moves": times.total,
            "move_ms": {
                "p50": times.quantile(0.5),
                "p99": times.quantile(0.99),
                "max": round(1000 * times.longest, 2) if times.total else None,
            },
        }
