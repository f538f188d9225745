"""Turn-based play: an account's optional e-mail address, for "it is your turn" mails.

Revision ID: 0009_turn_based
Revises: 0008_rated_matches

The address is set by the player on the account page (``POST /api/account/email``) and used
only by the e-mail hook of sengoku/server/mail.py (off unless an operator configures SMTP).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_turn_based"
down_revision = "0008_rated_matches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("email", sa.String(254), nullable=True))


def downgrade() -> None:
    # SQLite drops a column only by copying the table (Alembic's batch mode)
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("email")
