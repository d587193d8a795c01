"""Alembic's environment for the store: migrations run on the connection the store hands over
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` from the command line."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from azul.server.store import Base, engine_url

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
else:  # the alembic command, to write a new revision
    url = context.config.get_main_option("sqlalchemy.url") or ""
    with create_engine(engine_url(url)).connect() as db:
        context.configure(connection=db, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
