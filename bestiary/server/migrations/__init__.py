"""Alembic migrations of the server's store (run on start by ``store.migrate``)."""
