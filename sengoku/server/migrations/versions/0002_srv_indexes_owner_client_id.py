"""Indexes for the newest-first lists, owners of all-AI matches, client ids of actions.

Revision ID: 0002srv
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002srv"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_matches_created", "matches", ["created_at", "id"])
    op.create_index("ix_matches_game_created", "matches", ["game", "created_at", "id"])
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("client_id", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("client_id")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("owner_hash")
    op.drop_index("ix_matches_game_created", "matches")
    op.drop_index("ix_matches_created", "matches")
