"""What came after the first release: 63-bit seeds, the server's own draws (``seeded``), the
lobby (``public``, open seats, names), finished games and rematches, and bot turns claimed by
one process.

A database made before migrations may hold any of these already (the server used to add
missing columns itself): each is added only where it is missing. Rows written before a column
get its default: those games drew from their seed.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ADDED: dict[str, list[sa.Column[Any]]] = {
    "games": [
        sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("finished", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
    ],
    "seats": [sa.Column("name", sa.String(64), nullable=True)],
}


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    for table, columns in ADDED.items():
        have = {c["name"] for c in found.get_columns(table)}
        for column in columns:
            if column.name not in have:
                op.add_column(table, column)
    seed = next(c for c in found.get_columns("games") if c["name"] == "seed")
    if op.get_bind().dialect.name == "postgresql" and not isinstance(seed["type"], sa.BigInteger):
        op.alter_column("games", "seed", type_=sa.BigInteger)  # was 32-bit


def downgrade() -> None:
    for table, columns in ADDED.items():
        for column in columns:
            op.drop_column(table, column.name)
