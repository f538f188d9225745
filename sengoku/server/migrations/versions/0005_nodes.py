"""Several server processes on one database: the nodes and the node that runs each match.

Revision ID: 0005
Revises: 0004_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
    )
    # Plain ADD COLUMN, as in 0003 (a batch copy would drop a table others point at).
    op.add_column("matches", sa.Column("node", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "node")  # SQLite 3.35 or newer
    op.drop_table("nodes")
