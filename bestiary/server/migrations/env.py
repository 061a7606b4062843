"""Alembic environment: the store hands over its open connection."""

from __future__ import annotations

from alembic import context

from bestiary.server.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
