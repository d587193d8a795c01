"""Games in a database through SQLAlchemy: SQLite by default, any SQLAlchemy URL otherwise.

A game is its options, seats and log: the players' actions and every chance outcome, in order,
so a restarted server replays every game to exactly the same position without a seed. An entry is
acknowledged only after its row is committed. Every write compares the game's version and bumps
it in the same transaction, so a write based on an outdated position changes nothing.

Several server processes may share one PostgreSQL database. Every write there also sends a
notification on the ``azul_games`` channel (``NOTIFY``, delivered at commit) with the game's id
and new version, so the other processes refresh their copy and tell their clients; and a bot's
turn is computed by the one process that claims it (``claim_bot``) for a lease it renews, which
another process takes over once it has expired (the first one crashed).

The store is synchronous. The server calls PostgreSQL from worker threads, never on its event
loop; SQLite, a local file whose commits in WAL mode do not wait for the disk, on the loop.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    false,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import (
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import ConnectionPoolEntry

from azul.core.errors import AzulError
from azul.server import clocks
from azul.server.clocks import Clock

CHANCE_SEAT = -1  # the seat column of a chance outcome in the log
CHANNEL = "azul_games"  # PostgreSQL notifications: "<game id> <version>" after each write
# what the store raises when the database cannot be reached (down, restarting, out of connections)
OUTAGES = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # JSON: the game's options, as the engine takes them
    seed: Mapped[int] = mapped_column(BigInteger)  # seeded games: the draws; all: the bots' seeds
    seeded: Mapped[bool] = mapped_column(Boolean, default=True)  # draws follow from the seed
    public: Mapped[bool] = mapped_column(Boolean, default=False)  # listed in the lobby
    finished: Mapped[bool] = mapped_column(Boolean, default=False)  # the game is over
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game
    watch_token: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)  # writes to the game so far
    bot_turn: Mapped[bool] = mapped_column(Boolean, default=False)  # a bot is to move
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)  # its process
    claimed_until: Mapped[float | None] = mapped_column(Float, nullable=True)  # lease, epoch s
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: clocks.Clock; untimed
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)  # the running clock's


class SeatRow(Base):
    __tablename__ = "seats"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human", "bot" or "open" (anyone may join)
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # a bot keeps the person's seat (the server default: rows written before the column)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MoveRow(Base):
    __tablename__ = "moves"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # CHANCE_SEAT for a chance outcome
    by: Mapped[str | None] = mapped_column(String(8), nullable=True)  # a person's move a bot
    # played: "timeout" (the person's time ran out) or "away" (a bot keeps the seat)


class ReviewRow(Base):
    __tablename__ = "reviews"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    review: Mapped[str] = mapped_column(Text)  # JSON: azul.review's Review.to_json()
    created: Mapped[str] = mapped_column(String(40))


class ReviewClaimRow(Base):
    __tablename__ = "review_claims"  # a review being made, by the one process that claims it
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    claimed_by: Mapped[str] = mapped_column(String(64))
    claimed_until: Mapped[float] = mapped_column(Float)  # lease, epoch s
    done: Mapped[int] = mapped_column(Integer)  # decisions reviewed so far
    total: Mapped[int] = mapped_column(Integer)


class Stale(AzulError):
    """A write based on a version of the game that is no longer the latest."""


@dataclass
class Seat:
    seat: int
    kind: str  # "human", "bot" or "open"
    token: str
    bot: str | None = None  # a bot level
    name: str | None = None
    away: bool = False  # a person's seat that a bot keeps until they are back


def _seat(row: SeatRow) -> Seat:
    return Seat(row.seat, row.kind, row.token, row.bot, row.name, bool(row.away))


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seeded: bool
    public: bool
    finished: bool
    watch_token: str
    created: str
    seats: list[Seat]
    log: list[tuple[int, int]]  # (seat or CHANCE_SEAT, action) in order
    version: int
    rematch: str | None = None  # the id of the game that followed this one
    bot_turn: bool = False  # a bot is to move
    clock: Clock | None = None  # the time control and clocks of a timed game
    by: dict[int, str] = field(default_factory=dict)  # by ply: the person's moves a bot played


def data_dir() -> Path:
    """Where the server keeps its games by default: ``AZUL_DATA_DIR``, else the user's data
    directory."""
    if os.environ.get("AZUL_DATA_DIR"):
        return Path(os.environ["AZUL_DATA_DIR"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("azul-games"))


def default_url() -> str:
    """An SQLite file in the server's data directory."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'azul.sqlite3'}"


def engine_url(url: str) -> str:
    """``postgresql://`` URLs use the psycopg driver (the ``postgres`` extra)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_setup(connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    """Write-ahead logging: commits survive the server being killed (not a power cut) and
    readers never wait for a writer."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


MIGRATION_LOCK = 0x617A756C  # the PostgreSQL advisory lock the processes migrate under ("azul")


def _migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic), one process at a time: on PostgreSQL
    under an advisory lock held until the migration commits, so processes started together on
    an empty database never race to create the tables; SQLite serves one process."""
    from azul.server import migrations

    with engine.begin() as db:
        if engine.dialect.name == "postgresql":
            db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        migrations.upgrade(db)


class Store:
    def __init__(self, url: str | None = None):
        self.url = url or default_url()
        # hide_parameters: a failed statement's log line never shows tokens
        self.engine = create_engine(engine_url(self.url), hide_parameters=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_setup)
        _migrate(self.engine)

    def create(self, stored: StoredGame) -> None:
        """A new game with its seats and its first log entries (the setup's draws)."""
        with Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=stored.id,
                    game=stored.game,
                    options=json.dumps(stored.options),
                    seed=stored.seed,
                    seeded=stored.seeded,
                    public=stored.public,
                    finished=stored.finished,
                    watch_token=stored.watch_token,
                    created=stored.created,
                    version=stored.version,
                    bot_turn=stored.bot_turn,
                    **_clock_values(stored.clock),
                )
            )
            s.flush()
            s.add_all(
                SeatRow(
                    game_id=stored.id,
                    seat=x.seat,
                    kind=x.kind,
                    bot=x.bot,
                    token=x.token,
                    name=x.name,
                    away=x.away,
                )
                for x in stored.seats
            )
            s.add_all(
                MoveRow(game_id=stored.id, ply=ply, action=a, seat=seat)
                for ply, (seat, a) in enumerate(stored.log, 1)
            )
            self._notify(s.connection(), stored.id, stored.version)

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = [
                _seat(r)
                for r in s.scalars(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
                )
            ]
            log, by = [], {}
            for ply, seat, action, bot in s.execute(
                select(MoveRow.ply, MoveRow.seat, MoveRow.action, MoveRow.by)
                .where(MoveRow.game_id == game_id)
                .order_by(MoveRow.ply)
            ):
                log.append((seat, action))
                if bot is not None:
                    by[ply] = bot
            stored = _stored(row, seats, log)
            stored.by = by
            return stored

    def append(
        self,
        game_id: str,
        ply: int,
        entries: list[tuple[int, int]],
        version: int,
        finished: bool = False,
        bot_turn: bool = False,
        clock: Clock | None = None,
        by: str | None = None,
        away: int | None = None,
    ) -> None:
        """Commit ``entries`` as plies ``ply``, ``ply + 1``, ... if the game is still at
        ``version``; Stale (and nothing written) otherwise. ``bot_turn``: a bot is to move
        next (any claim on the previous turn ends); ``clock``: the clocks after the move;
        ``by``: why a bot played the first entry, a person's move; ``away``: a seat a bot
        keeps from now on."""
        rows = [
            {"game_id": game_id, "ply": ply + i, "action": a, "seat": seat, "by": None}
            for i, (seat, a) in enumerate(entries)
        ]
        if rows:
            rows[0]["by"] = by
        try:
            with self.engine.begin() as db:  # Core, not the ORM: a move is on every hot path
                self._bump(db, game_id, version, finished, bot_turn, clock)
                db.execute(insert(MoveRow), rows)
                if away is not None:
                    db.execute(
                        update(SeatRow)
                        .where(SeatRow.game_id == game_id, SeatRow.seat == away)
                        .values(away=True)
                    )
        except IntegrityError:
            raise Stale(
                "move {ply} of game {game} was already played", ply=ply, game=game_id
            ) from None

    def version(self, game_id: str) -> int | None:
        """The game's version in the store now; None if there is no such game."""
        with self.engine.connect() as db:
            found = db.execute(select(GameRow.version).where(GameRow.id == game_id))
            return found.scalar_one_or_none()

    def truncate(
        self,
        game_id: str,
        ply: int,
        version: int,
        bot_turn: bool = False,
        clock: Clock | None = None,
    ) -> None:
        """Take back every entry from ``ply`` on (undo), if the game is still at ``version``."""
        with self.engine.begin() as db:
            self._bump(db, game_id, version, False, bot_turn, clock)
            db.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))

    def _bump(
        self,
        db: Connection,
        game_id: str,
        version: int,
        finished: bool,
        bot_turn: bool,
        clock: Clock | None = None,
    ) -> None:
        done = db.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.version == version)
            .values(
                version=version + 1,
                finished=finished,
                bot_turn=bot_turn and not finished,
                claimed_by=None,
                claimed_until=None,
                **({} if clock is None else _clock_values(clock)),
            )
        )
        if done.rowcount != 1:
            raise Stale("the game changed meanwhile: reload it")
        self._notify(db, game_id, version + 1)

    def _notify(self, db: Connection, game_id: str, version: int) -> None:
        """Tell the other server processes (PostgreSQL: sent when the transaction commits)."""
        if self.engine.dialect.name == "postgresql":
            db.execute(
                text("SELECT pg_notify(:c, :m)"), {"c": CHANNEL, "m": f"{game_id} {version}"}
            )

    # -- bot turns: computed by the one process that claims them ------------------------
    def claim_bot(self, game_id: str, version: int, me: str, lease: float) -> bool:
        """Claim the bot's turn at ``version`` for process ``me`` until ``lease`` seconds from
        now (a bot's turn, or a person's whose time ran out); False when the game moved on or
        another process holds an unexpired claim."""
        now = time.time()
        with self.engine.begin() as db:
            done = db.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.version == version,
                    _bot_to_move(),
                    or_(
                        GameRow.claimed_until.is_(None),
                        GameRow.claimed_until < now,
                        GameRow.claimed_by == me,
                    ),
                )
                .values(claimed_by=me, claimed_until=now + lease)
            )
            return done.rowcount == 1

    def claimers(self) -> list[str]:
        """The processes holding an unexpired claim on a bot's turn."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(GameRow.claimed_by)
                .where(GameRow.claimed_by.is_not(None), GameRow.claimed_until >= time.time())
                .distinct()
            )
            return [r[0] for r in rows if r[0] is not None]

    def release(self, claimers: list[str]) -> int:
        """End every claim of these processes (gone, or stopping), on bot turns and reviews:
        the number of games whose bot turn was claimed."""
        if not claimers:
            return 0
        with self.engine.begin() as db:
            db.execute(delete(ReviewClaimRow).where(ReviewClaimRow.claimed_by.in_(claimers)))
            done = db.execute(
                update(GameRow)
                .where(GameRow.claimed_by.in_(claimers))
                .values(claimed_by=None, claimed_until=None)
            )
            return done.rowcount

    def bot_games(self, limit: int) -> list[str]:
        """Games where a bot is to move (or a person whose time ran out) and no process holds
        a live claim (never claimed, or its claimer stopped renewing it)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(GameRow.id)
                .where(
                    _bot_to_move(),
                    or_(GameRow.claimed_until.is_(None), GameRow.claimed_until < time.time()),
                )
                .limit(limit)
            )
            return [r[0] for r in rows]

    def link_rematch(self, game_id: str, rematch: str) -> bool:
        """Record the game that follows ``game_id``; False if one already does."""
        with self.engine.begin() as db:
            done = db.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch.is_(None))
                .values(rematch=rematch, version=GameRow.version + 1)
                .returning(GameRow.version)
            )
            row = done.first()
            if row is not None:
                self._notify(db, game_id, row[0])
            return row is not None

    def claim(
        self, game_id: str, seat: int, name: str | None, token: str, clock: Clock | None = None
    ) -> bool:
        """Give an open seat to a person (``clock``: the clocks then, if the game is timed);
        False when it is not open (any more)."""
        open_seat = [SeatRow.kind == "open"]
        game = {} if clock is None else _clock_values(clock)
        return self._change_seat(
            game_id, seat, open_seat, game, kind="human", name=name, token=token
        )

    def seat_back(self, game_id: str, seat: int, clock: Clock, bot_turn: bool) -> bool:
        """A person takes back the seat a bot kept (the clocks and whether a bot is to move
        then); False when no bot keeps it."""
        away = [SeatRow.kind == "human", SeatRow.away.is_(True)]
        game = {**_clock_values(clock), "bot_turn": bot_turn}
        return self._change_seat(game_id, seat, away, game, away=False)

    def name_seat(self, game_id: str, seat: int, name: str) -> bool:
        """Give a person's seat that has no name yet its name; False when it has one."""
        unnamed = [SeatRow.kind == "human", SeatRow.name.is_(None)]
        return self._change_seat(game_id, seat, unnamed, {}, name=name)

    def _change_seat(
        self, game_id: str, seat: int, when: list[Any], game: dict[str, Any], **values: Any
    ) -> bool:
        """Change a seat if it is as ``when`` says (and its game's columns as ``game`` says),
        in a new version of its game that the other processes are told of; False when it is
        not."""
        with self.engine.begin() as db:
            done = db.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, *when)
                .values(**values)
            )
            if done.rowcount != 1:
                return False
            bumped = db.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(version=GameRow.version + 1, **game)
                .returning(GameRow.version)
            ).scalar_one()
            self._notify(db, game_id, bumped)
            return True

    def review(self, game_id: str) -> str | None:
        """The JSON text of a finished game's review, if it was made."""
        with Session(self.engine) as s:
            row = s.get(ReviewRow, game_id)
            return None if row is None else row.review

    def save_review(self, game_id: str, review: str) -> None:
        """Keep a game's review and end its claim; one made meanwhile by another process stays
        (they are equal: a review is the same under the same settings)."""
        try:
            with Session(self.engine) as s, s.begin():
                if s.get(ReviewRow, game_id) is None:
                    s.add(ReviewRow(game_id=game_id, review=review, created=now()))
                s.execute(delete(ReviewClaimRow).where(ReviewClaimRow.game_id == game_id))
        except IntegrityError:  # the other process saved it first
            pass

    # -- reviews being made: by the one process that claims them ------------------------
    def claim_review(self, game_id: str, me: str, lease: float, done: int, total: int) -> bool:
        """Claim (or renew) the making of a game's review for process ``me`` until ``lease``
        seconds from now, ``done`` of ``total`` decisions made; False when another process
        holds an unexpired claim."""
        now = time.time()
        values = {"claimed_by": me, "claimed_until": now + lease, "done": done, "total": total}
        with self.engine.begin() as db:
            taken = db.execute(
                update(ReviewClaimRow)
                .where(
                    ReviewClaimRow.game_id == game_id,
                    or_(ReviewClaimRow.claimed_until < now, ReviewClaimRow.claimed_by == me),
                )
                .values(**values)
            )
            if taken.rowcount == 1:
                return True
        try:
            with self.engine.begin() as db:
                db.execute(insert(ReviewClaimRow).values(game_id=game_id, **values))
            return True
        except IntegrityError:  # claimed by another process, and not expired
            return False

    def review_claim(self, game_id: str) -> tuple[int, int] | None:
        """How far the review being made by some process is: (done, total); None if none is
        (never begun, made, or its maker stopped renewing its claim)."""
        with self.engine.connect() as db:
            row = db.execute(
                select(ReviewClaimRow.done, ReviewClaimRow.total).where(
                    ReviewClaimRow.game_id == game_id,
                    ReviewClaimRow.claimed_until >= time.time(),
                )
            ).first()
            return None if row is None else (row[0], row[1])

    def unclaim_review(self, game_id: str, me: str) -> None:
        """End ``me``'s claim on a review it could not make (the next request starts again)."""
        with self.engine.begin() as db:
            db.execute(
                delete(ReviewClaimRow).where(
                    ReviewClaimRow.game_id == game_id, ReviewClaimRow.claimed_by == me
                )
            )

    def list_public(self, limit: int = 50) -> list[StoredGame]:
        """The newest games listed in the lobby, without their logs."""
        with Session(self.engine) as s:
            rows = list(
                s.scalars(
                    select(GameRow)
                    .where(GameRow.public.is_(True))
                    .order_by(GameRow.created.desc())
                    .limit(limit)
                )
            )
            ids = [r.id for r in rows]
            seats: dict[str, list[Seat]] = {i: [] for i in ids}
            for seat in s.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
            ):
                seats[seat.game_id].append(_seat(seat))
            return [_stored(r, seats[r.id], []) for r in rows]


def _stored(row: GameRow, seats: list[Seat], log: list[tuple[int, int]]) -> StoredGame:
    return StoredGame(
        row.id,
        row.game,
        json.loads(row.options),
        row.seed,
        row.seeded,
        row.public,
        row.finished,
        row.watch_token,
        row.created,
        seats,
        log,
        row.version,
        row.rematch,
        row.bot_turn,
        None if row.clock is None else Clock.from_json(json.loads(row.clock)),
    )


def _bot_to_move() -> Any:
    """Where a bot is to move: a bot's seat, a seat a bot keeps, or a person's time ran out."""
    return or_(GameRow.bot_turn.is_(True), GameRow.deadline <= clocks.now())


def _clock_values(clock: Clock | None) -> dict[str, Any]:
    """A game's clock columns: the clocks as JSON, and the running one's deadline."""
    if clock is None:
        return {"clock": None, "deadline": None}
    return {"clock": json.dumps(clock.to_json()), "deadline": clock.deadline()}


def now() -> str:
    return datetime.now(UTC).isoformat()
