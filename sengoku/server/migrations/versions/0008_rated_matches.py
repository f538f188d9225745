"""Rated or casual: a match chosen rated at its creation stores its players' rating changes
with its result (docs/ratings.md).

Revision ID: 0008_rated_matches
Revises: 0007_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_rated_matches"
down_revision = "0007_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every match before this one was casual. Plain ADD COLUMN, as in 0003 and 0005 (a batch
    # copy would drop a table others point at).
    op.add_column(
        "matches", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("matches", "rated")  # SQLite 3.35 or newer
