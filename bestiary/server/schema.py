"""The store's tables (SQLAlchemy Core). Alembic's migrations create them;
this module is what the code reads and writes through.

Event-sourced: a table row holds what ``game.new`` needs (game, variant,
options, players, seed); ``moves`` holds every accepted move in its text
form, numbered from 0. The live state is the replay of those moves.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False, index=True),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("players", Integer, nullable=False),
    # 128-bit seeds (see seeds.py) do not fit an integer column: decimal text.
    Column("seed", Text, nullable=False),
    # The creator brought the seed (solo tables only): shown in the lobby.
    Column("seed_chosen", Boolean, nullable=False, default=False),
    # waiting (free human seats) -> playing -> finished; waiting -> expired
    Column("status", String(16), nullable=False, index=True),
    Column("result", Text, nullable=True),  # JSON, once finished
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # A person who owes a move this long is replaced by a bot for that move.
    Column("turn_seconds", Integer, nullable=True),
    Column("rematch", String(32), nullable=True),  # the table of the rematch, once asked
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("agent", String(200), nullable=True),  # agent spec for bots
    Column("name", String(64), nullable=True),
    # sha256 of the seat token: the token itself is never stored.
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("joined_at", DateTime(timezone=True), nullable=True),
    # A rematch's seat kept for the person who held it at the finished table:
    # only they (through the rematch) may take it.
    Column("held", Boolean, nullable=False, default=False, server_default="0"),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    # The primary key (table, n) makes a second writer of move n fail
    # instead of forking the history.
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(500), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Several server processes on one PostgreSQL: the process named ``owner`` runs
# the table's bots and turn timer until ``expires_at`` (renewed while it
# lives). See cluster.py. Unused with SQLite (one process).
leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
