"""128-bit seeds stored as text; tables whose creator chose the seed are marked.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite cannot change a column's type in place: batch mode rebuilds the
    # table (the store turns foreign keys off for the migration).
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.Integer,
            type_=sa.Text,
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        batch.add_column(
            sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_index("ix_tables_game", "tables", ["game"])


def downgrade() -> None:
    op.drop_index("ix_tables_game", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seed_chosen")
        batch.alter_column(
            "seed",
            existing_type=sa.Text,
            type_=sa.Integer,
            existing_nullable=False,
            postgresql_using="seed::integer",
        )
