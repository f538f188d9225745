"""Puzzles: each signed-in player's puzzle rating per game and their rated attempts
(docs/analysis.md, *Puzzles on the server*).

Revision ID: 0013_puzzles
Revises: 0012_seeks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_puzzles"
down_revision = "0012_seeks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("delta", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_attempts_account", "puzzle_attempts", ["account_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_account", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
