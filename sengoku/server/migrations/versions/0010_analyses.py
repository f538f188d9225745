"""Post-game analyses (issue 38): one row per match and kind, its job's state and its result.

Revision ID: 0010_analyses
Revises: 0009_turn_based

A row is made when an analysis is first asked for (``queued``), a worker moves it to
``running`` and counts its progress, and the result is stored once (``done``): the key
(match, kind) makes a second completion find it stored (docs/analysis.md, "On the server").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_analyses"
down_revision = "0009_turn_based"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("analyses")
