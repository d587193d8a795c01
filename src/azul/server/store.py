"""Games in a database through SQLAlchemy: SQLite by default, any SQLAlchemy URL otherwise.

A game is its options, seed, seats and move log; a move is acknowledged only after its row is
committed, so a restarted server replays every game to exactly the same position.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from azul.core.errors import AzulError


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # JSON
    seed: Mapped[int] = mapped_column(Integer)
    watch_token: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)  # moves and undos so far


class SeatRow(Base):
    __tablename__ = "seats"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)


class MoveRow(Base):
    __tablename__ = "moves"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict
    seed: int
    watch_token: str
    seats: list[SeatRow]
    actions: list[int]
    version: int


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


def _sqlite_setup(connection, _record) -> None:
    """Write-ahead logging: commits survive the server being killed (not a power cut) and
    readers never wait for a writer."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Store:
    def __init__(self, url: str | None = None):
        self.url = url or default_url()
        self.engine = create_engine(engine_url(self.url))
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_setup)
        Base.metadata.create_all(self.engine)

    def create(
        self, game_id: str, game: str, options: dict, seed: int, watch_token: str, seats: list[dict]
    ) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=game_id,
                    game=game,
                    options=json.dumps(options),
                    seed=seed,
                    watch_token=watch_token,
                    created=datetime.now(UTC).isoformat(),
                )
            )
            for i, seat in enumerate(seats):
                s.add(
                    SeatRow(
                        game_id=game_id,
                        seat=i,
                        kind=seat["kind"],
                        bot=seat.get("bot"),
                        token=seat["token"],
                    )
                )

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = list(
                s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
            )
            moves = list(
                s.scalars(
                    select(MoveRow.action).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
                )
            )
            s.expunge_all()
            return StoredGame(
                row.id,
                row.game,
                json.loads(row.options),
                row.seed,
                row.watch_token,
                seats,
                moves,
                row.version,
            )

    def add_move(self, game_id: str, ply: int, action: int, seat: int) -> None:
        """Commit one move; a second writer of the same ply fails instead of forking the game."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(MoveRow(game_id=game_id, ply=ply, action=action, seat=seat))
                s.execute(
                    update(GameRow).where(GameRow.id == game_id).values(version=GameRow.version + 1)
                )
        except IntegrityError:
            raise AzulError(f"move {ply} of game {game_id} was already played") from None

    def remove_moves_from(self, game_id: str, ply: int) -> None:
        """Take back every move from ``ply`` on (undo)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))
            s.execute(
                update(GameRow).where(GameRow.id == game_id).values(version=GameRow.version + 1)
            )

    def list_games(self, limit: int = 50) -> list[dict]:
        with Session(self.engine) as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created.desc()).limit(limit))
            return [{"id": r.id, "game": r.game, "created": r.created} for r in rows]
