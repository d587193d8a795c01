"""The first release's tables: games, their seats and their log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        # 32-bit on PostgreSQL until 0002; SQLite's integers always held 64 bits
        sa.Column("seed", sa.Integer().with_variant(sa.BigInteger, "sqlite"), nullable=False),
        sa.Column("watch_token", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for table in ("moves", "seats", "games"):
        op.drop_table(table)
