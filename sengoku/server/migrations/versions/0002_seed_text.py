"""Seeds as text: the server draws 128-bit seeds, more than an SQL integer column holds.

Revision ID: 0002_seed_text
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_seed_text"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # Not a batch copy: that drops the table, which the other tables' foreign keys forbid.
        # A new column, filled, then put in the old one's place (SQLite 3.35 or newer).
        op.add_column(
            "matches", sa.Column("seed_text", sa.Text(), nullable=False, server_default="0")
        )
        op.execute("UPDATE matches SET seed_text = CAST(seed AS TEXT)")
        op.drop_column("matches", "seed")
        op.alter_column("matches", "seed_text", new_column_name="seed")
        return
    op.alter_column(
        "matches",
        "seed",
        existing_type=sa.BigInteger(),
        type_=sa.Text(),
        existing_nullable=False,
        postgresql_using="seed::text",
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.add_column(
            "matches", sa.Column("seed_int", sa.BigInteger(), nullable=False, server_default="0")
        )
        op.execute("UPDATE matches SET seed_int = CAST(seed AS INTEGER)")
        op.drop_column("matches", "seed")
        op.alter_column("matches", "seed_int", new_column_name="seed")
        return
    op.alter_column(
        "matches",
        "seed",
        existing_type=sa.Text(),
        type_=sa.BigInteger(),
        existing_nullable=False,
        postgresql_using="seed::bigint",
    )
