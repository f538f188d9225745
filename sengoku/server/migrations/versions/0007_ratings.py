"""Players' ratings: each account's rating in each pool, and each rated match's changes.

Revision ID: 0007_ratings
Revises: 0006_accounts

``account_id`` holds an account's id (the accounts of 0006_accounts), with no foreign key,
as in sengoku/server/db.py's metadata: a deleted account keeps its row, so ids never dangle.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_ratings"
down_revision = "0006_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("system", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("deviation", sa.Float, nullable=True),
        sa.Column("volatility", sa.Float, nullable=True),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_pool", "ratings", ["game", "system", "rating", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("before", sa.Text, nullable=False),
        sa.Column("after", sa.Text, nullable=False),
        sa.Column("delta", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_pool", table_name="ratings")
    op.drop_table("ratings")
