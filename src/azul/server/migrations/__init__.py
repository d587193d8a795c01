"""The store's schema, migrated with Alembic: ``upgrade`` brings any database to the newest
revision, on the connection (and in the transaction) it is given.

A database made before the store used Alembic has the tables but no ``alembic_version``: it is
stamped with the first release's revision, whose successor adds each later column only where it
is missing. A new revision: ``alembic -c src/azul/server/migrations/alembic.ini revision -m
"what changes"`` (with ``sqlalchemy.url`` pointing at a database at the newest revision).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
FIRST_RELEASE = "0001"  # the revision of a database made before migrations


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration of the store, working on ``connection``."""
    found = Config()
    found.set_main_option("script_location", str(HERE))
    found.attributes["connection"] = connection
    return found


def upgrade(connection: Connection) -> None:
    """Bring the database of ``connection`` to the newest revision (within its transaction:
    the caller commits, and holds whatever lock keeps other processes out meanwhile)."""
    tables = set(inspect(connection).get_table_names())
    if "games" in tables and "alembic_version" not in tables:
        command.stamp(config(connection), FIRST_RELEASE)
    command.upgrade(config(connection), "head")
