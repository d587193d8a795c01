"""Time controls: a game's clocks and the running one's deadline, a person's seat a bot keeps
(``away``), and the moves a bot played for a person (``by``: "timeout" or "away").

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ADDED: dict[str, list[sa.Column[Any]]] = {
    "games": [sa.Column("clock", sa.Text, nullable=True), sa.Column("deadline", sa.Float)],
    "seats": [sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false())],
    "moves": [sa.Column("by", sa.String(8), nullable=True)],
}


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    for table, columns in ADDED.items():
        have = {c["name"] for c in found.get_columns(table)}
        for column in columns:
            if column.name not in have:  # made by a store that created its tables itself
                op.add_column(table, column)


def downgrade() -> None:
    for table, columns in ADDED.items():
        for column in columns:
            op.drop_column(table, column.name)
