"""Indexes for the newest-first lists, owners of all-AI matches, client ids of actions.

Revision ID: 0003
Revises: 0002_seed_text
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_seed_text"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_matches_created", "matches", ["created_at", "id"])
    op.create_index("ix_matches_game_created", "matches", ["game", "created_at", "id"])
    # Plain ADD COLUMN (SQLite has it): a batch copy would drop tables that others' foreign
    # keys point at.
    op.add_column("matches", sa.Column("owner_hash", sa.String(64), nullable=True))
    op.add_column("moves", sa.Column("client_id", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("moves", "client_id")  # SQLite 3.35 or newer
    op.drop_column("matches", "owner_hash")
    op.drop_index("ix_matches_game_created", "matches")
    op.drop_index("ix_matches_created", "matches")
