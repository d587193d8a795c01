"""What other server processes wrote, as PostgreSQL tells it: ``LISTEN`` on the store's channel
on a connection of its own, each notice ("<game id> <version>") handed to the lobby.

A lost connection is made again; since notices sent meanwhile are lost, the lobby is told when
listening stops, and when it starts again it refreshes every game it holds. Other processes'
writes reach an SQLite store's single process never, so there is nothing to listen to there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from azul.server.store import CHANNEL

log = logging.getLogger("azul.server")


def _conninfo(url: str) -> str:
    """psycopg's connection string for an SQLAlchemy URL of the store."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def listen(
    url: str,
    notice: Callable[[str, int], None],
    listening: Callable[[], Awaitable[None]],
    lost: Callable[[], None],
    retry: float = 1.0,
) -> None:
    """Hand every notice of the store at ``url`` to ``notice(game_id, version)`` until
    cancelled; await ``listening()`` each time the connection listens (the first time too),
    and call ``lost()`` when it is lost."""
    import psycopg

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(_conninfo(url), autocommit=True) as db:
                await db.execute(f"LISTEN {CHANNEL}")
                await listening()
                async for message in db.notifies():
                    game_id, _, version = message.payload.partition(" ")
                    if version.isdigit():
                        notice(game_id, int(version))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the database went away: try again
            lost()
            log.warning("listening for other processes' writes failed (%s); retrying", e)
            await asyncio.sleep(retry)
