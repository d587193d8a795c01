"""Reviews being made: claimed by one server process, with how far it is, so that several
processes never make the same review and each can tell its progress.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "review_claims" in sa.inspect(op.get_bind()).get_table_names():
        return  # made by a store that created its tables itself
    op.create_table(
        "review_claims",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("claimed_by", sa.String(64), nullable=False),
        sa.Column("claimed_until", sa.Float, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("review_claims")
