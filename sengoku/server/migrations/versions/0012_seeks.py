"""Seeks: standing offers of a game in the lobby, accepted once (docs/api.md "Seeks").

Revision ID: 0012_seeks
Revises: 0010_analyses
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_seeks"
down_revision = "0010_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("slot", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    # One open seek per slot of an owner: the limit of open seeks holds for requests that
    # arrive at once (closed seeks have no slot; NULLs never collide).
    op.create_index("ix_seeks_owner_slot", "seeks", ["owner", "slot"], unique=True)
    op.create_index("ix_seeks_status", "seeks", ["status", "created_at"])
    op.create_index("ix_seeks_account", "seeks", ["account_id"])
    op.create_index("ix_seeks_token_hash", "seeks", ["token_hash"])
    op.create_index("ix_seeks_expires", "seeks", ["expires_at"])


def downgrade() -> None:
    op.drop_table("seeks")
