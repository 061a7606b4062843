"""The store: tables, seats and moves in SQLite or PostgreSQL (SQLAlchemy 2).

Every accepted move is written in the same transaction that accepts it
(:meth:`Store.recording_move`), so a crash — even ``kill -9`` — loses no
accepted move and never keeps a rejected one. Migrations (Alembic) run on
open.

On PostgreSQL several server processes may share the store (see
``cluster.py``): every change to a table is announced with ``NOTIFY`` in the
transaction that makes it (delivered only if it commits), and the ``leases``
table says which process runs each table's bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..engine.errors import BadInput
from .schema import leases, moves, seats, tables

CHANNEL = "bestiary"  # the NOTIFY channel of table changes
STORE_THREADS = 4  # threads for the store's background calls (catch-ups, lobby, leases)
PEOPLE_THREADS = 4  # threads of their own for people's moves (never queued behind bots)
# Bots' moves on PostgreSQL are written by one thread (:class:`MoveWriter`),
# many tables' moves in one statement and one commit.

MIGRATIONS = Path(__file__).with_name("migrations")

log = logging.getLogger("bestiary.server")


def database_url(db: str | None) -> str:
    """``None`` -> a SQLite file in the user's data directory; a path -> SQLite
    there; ``postgresql://…`` -> PostgreSQL through psycopg 3."""
    if db is None:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("bestiary", appauthor=False))
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / 'bestiary.sqlite3'}"
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if db.startswith(("postgresql+psycopg://", "sqlite://")):
        return db
    if "://" in db:
        raise BadInput(f"unsupported database URL {db!r}; use a SQLite file path or postgresql://…")
    path = Path(db).expanduser()
    if path.parent and not path.parent.exists():
        raise BadInput(f"cannot create the database {db!r}: folder {path.parent} does not exist")
    return f"sqlite:///{path}"


def data_folder(url: str) -> Path:
    """Where the server keeps files beside its database (the lab's runs and
    card files): the SQLite file's folder, else the user's data folder."""
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url.removeprefix("sqlite:///")).parent
    import platformdirs

    return Path(platformdirs.user_data_dir("bestiary", appauthor=False))


class MoveTaken(Exception):
    """Another writer (another server process) already stored this move
    number: the caller's state is behind the store. Nothing was written."""


class PendingMove:
    """A move written but not yet committed (:meth:`Store.begin_move`)."""

    def __init__(self, conn: sa.Connection, txn: sa.RootTransaction, table_id: str) -> None:
        self.conn, self.txn, self.table_id = conn, txn, table_id

    def commit(self, result: dict[str, Any] | None = None) -> None:
        """Commit the move; with the game's ``result`` when it ended the game
        (the table is marked finished and its lease dropped, same transaction)."""
        try:
            if result is not None:
                self.conn.execute(
                    tables.update()
                    .where(tables.c.id == self.table_id)
                    .values(status="finished", result=json.dumps(result), finished_at=_now())
                )
                self.conn.execute(leases.delete().where(leases.c.table_id == self.table_id))
            self.txn.commit()
        finally:
            self.conn.close()

    def rollback(self) -> None:
        try:
            self.txn.rollback()
        finally:
            self.conn.close()


class LocalPendingMove:
    """The same for a SQLite store (one process): the move is written through
    the driver's connection with fixed SQL. Each move went through
    SQLAlchemy's statement building and connection wrapping on the event
    loop; that was most of the cost of writing a move (see benchmarks/LOAD.md,
    "Writing a move on SQLite")."""

    def __init__(self, raw: Any, table_id: str, stamp: Callable[[datetime], Any]) -> None:
        self.raw, self.table_id, self.stamp = raw, table_id, stamp

    def commit(self, result: dict[str, Any] | None = None) -> None:
        try:
            if result is not None:
                cur = self.raw.cursor()
                cur.execute(
                    "UPDATE tables SET status = 'finished', result = ?, finished_at = ? "
                    "WHERE id = ?",
                    (json.dumps(result), self.stamp(_now()), self.table_id),
                )
                cur.execute("DELETE FROM leases WHERE table_id = ?", (self.table_id,))
            self.raw.commit()
        finally:
            self.raw.close()

    def rollback(self) -> None:
        try:
            self.raw.rollback()
        finally:
            self.raw.close()


_LOCAL_INSERT_MOVE = (
    "INSERT INTO moves (table_id, n, seat, action, created_at) VALUES (?, ?, ?, ?, ?)"
)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class SeatRow:
    seat: int
    kind: str  # human | bot
    agent: str | None = None
    name: str | None = None
    taken: bool = False
    held: bool = False  # kept for the person of the finished table (a rematch)

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "agent": self.agent,
            "name": self.name,
            "taken": self.taken or self.kind == "bot",
            "held": self.held and not self.taken,
        }


@dataclass
class TableRow:
    id: str
    game: str
    variant: str
    options: dict[str, Any]
    players: int
    seed: int
    status: str
    created_at: datetime
    result: dict[str, Any] | None = None
    seed_chosen: bool = False  # the creator brought the seed (solo tables only)
    turn_seconds: int | None = None  # a bot moves for a person this late
    rematch: str | None = None
    move_count: int | None = None  # for listings, which load no moves
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        # Several processes may share a PostgreSQL store: changes are announced
        # (NOTIFY) and signed with this process's name, to ignore its own.
        self.shared = url.startswith("postgresql")
        self.node = secrets.token_hex(6)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        else:  # the store's threads and the event loop's own reads
            kwargs.update(pool_size=STORE_THREADS + PEOPLE_THREADS + 4, max_overflow=8)
        self._threads: ThreadPoolExecutor | None = None
        self._people: ThreadPoolExecutor | None = None
        try:
            self.engine: Engine = sa.create_engine(url, **kwargs)
        except ImportError as exc:
            raise BadInput(
                f"this database needs a driver that is not installed ({exc}); "
                "for PostgreSQL: pip install 'bestiary[postgres]'"
            ) from None
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.notices = Notices(self.engine)
        self.writer = MoveWriter(self.engine, self.node)
        self._stamp: Callable[[datetime], Any] | None = None  # created_at as SQLite stores it

    # -- lifecycle ----------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        sqlite = self.url.startswith("sqlite")
        with self.engine.connect() as conn:
            if sqlite:  # a rebuilt table (batch migration) must not trip its references
                conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                conn.commit()  # pysqlite sent no BEGIN: the pragma applies now
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()

    def check(self) -> None:
        """Open a connection now, so a wrong URL or a server that is down is
        reported as a clear error before the app starts."""
        try:
            with self.engine.connect():
                pass
        except sa.exc.SQLAlchemyError as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise BadInput(f"cannot open the database: {reason}") from None

    def dispose(self) -> None:
        self.writer.close()
        self.notices.close()
        for threads in (self._threads, self._people):
            if threads is not None:
                threads.shutdown(wait=True)
        self.engine.dispose()

    def _notify(self, conn: sa.Connection, kind: str, table_id: str, n: int = 0) -> None:
        """Announce a change to the other processes (at commit, if it commits).
        The payload names the table, never anything of its state."""
        if self.shared:
            payload = f"{self.node} {kind} {table_id} {n}"
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    # -- tables -------------------------------------------------------------
    def create_table(self, row: TableRow, lease_seconds: float | None = None) -> None:
        """Store a new table; with ``lease_seconds`` (several processes) its
        lease goes to this process in the same transaction, so no other
        process ever sees it without an owner."""
        with self.engine.begin() as conn:
            if lease_seconds is not None:
                conn.execute(
                    leases.insert().values(
                        table_id=row.id, owner=self.node, expires_at=_lease_end(lease_seconds)
                    )
                )
            conn.execute(
                tables.insert().values(
                    id=row.id,
                    game=row.game,
                    variant=row.variant,
                    options=json.dumps(row.options, sort_keys=True),
                    players=row.players,
                    seed=str(row.seed),
                    seed_chosen=row.seed_chosen,
                    turn_seconds=row.turn_seconds,
                    status=row.status,
                    created_at=row.created_at,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "agent": s.agent,
                        "name": s.name,
                        "joined_at": row.created_at if s.kind == "bot" else None,
                        "held": s.held,
                    }
                    for s in row.seats
                ],
            )

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = _header(conn, table_id)
            if row is None:
                return None
            row.moves = [
                (m.seat, m.action)
                for m in conn.execute(
                    sa.select(moves.c.seat, moves.c.action)
                    .where(moves.c.table_id == table_id)
                    .order_by(moves.c.n)
                )
            ]
            return row

    def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        with self.engine.connect() as conn:
            return [
                r.id
                for r in conn.execute(
                    sa.select(tables.c.id)
                    .where(tables.c.status.in_(statuses))
                    .order_by(tables.c.created_at)
                )
            ]

    def list_tables(
        self,
        status: str | None = None,
        game: str | None = None,
        free: bool | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[TableRow], int]:
        """One page of tables, newest first, with seats and move counts (no
        moves), and how many tables match in all. ``free``: only tables with
        (True) or without (False) a free human seat."""
        cond: list[Any] = []
        if status is not None:
            cond.append(tables.c.status == status)
        if game is not None:
            cond.append(tables.c.game == game)
        if free is not None:
            open_seat = (
                sa.select(seats.c.seat)
                .where(
                    seats.c.table_id == tables.c.id,
                    seats.c.kind == "human",
                    seats.c.token_hash.is_(None),
                    seats.c.held == sa.false(),  # a rematch's seat kept for its person
                )
                .exists()
            )
            cond.append(open_seat if free else ~open_seat)
        count = (
            sa.select(sa.func.count(moves.c.n))
            .where(moves.c.table_id == tables.c.id)
            .scalar_subquery()
            .label("move_count")
        )
        with self.engine.connect() as conn:
            total = conn.execute(
                sa.select(sa.func.count()).select_from(tables).where(*cond)
            ).scalar_one()
            q = (
                sa.select(tables, count)
                .where(*cond)
                .order_by(tables.c.created_at.desc(), tables.c.id)
                .limit(limit)
                .offset(offset)
            )
            rows = []
            for t in conn.execute(q):
                row = _table_row(t)
                row.move_count = t.move_count
                rows.append(row)
            if not rows:
                return rows, total
            by_id = {r.id: r for r in rows}
            for s in conn.execute(
                seats.select().where(seats.c.table_id.in_(by_id)).order_by(seats.c.seat)
            ):
                by_id[s.table_id].seats.append(
                    SeatRow(s.seat, s.kind, s.agent, s.name, s.token_hash is not None, s.held)
                )
            return rows, total

    def expire_waiting(self, before: datetime) -> list[str]:
        """Mark tables still waiting for players since before ``before`` as
        expired; their ids. Nothing was played there, so nothing is lost."""
        with self.engine.begin() as conn:
            ids = [
                r.id
                for r in conn.execute(
                    sa.select(tables.c.id).where(
                        tables.c.status == "waiting", tables.c.created_at < before
                    )
                )
            ]
            if ids:
                conn.execute(
                    tables.update()
                    .where(tables.c.id.in_(ids), tables.c.status == "waiting")
                    .values(status="expired", finished_at=_now())
                )
                for table_id in ids:
                    self._notify(conn, "table", table_id)
            return ids

    # -- seats --------------------------------------------------------------
    def take_seat(
        self, table_id: str, seat: int, name: str | None, token_hash: str, held: bool = False
    ) -> bool:
        """Claim a free human seat (atomically: a taken seat stays taken); a
        held seat only with ``held`` (its person, checked by the hub).
        When the last free seat is taken the table starts playing."""
        with self.engine.begin() as conn:
            update = seats.update().where(
                seats.c.table_id == table_id,
                seats.c.seat == seat,
                seats.c.kind == "human",
                seats.c.token_hash.is_(None),
            )
            if not held:
                update = update.where(seats.c.held == sa.false())
            done = conn.execute(
                update.values(token_hash=token_hash, name=name, joined_at=_now())
            ).rowcount
            if not done:
                return False
            free = conn.execute(
                sa.select(sa.func.count())
                .select_from(seats)
                .where(seats.c.table_id == table_id, seats.c.token_hash.is_(None))
                .where(seats.c.kind == "human")
            ).scalar_one()
            if free == 0:
                conn.execute(
                    tables.update()
                    .where(tables.c.id == table_id, tables.c.status == "waiting")
                    .values(status="playing")
                )
            self._notify(conn, "table", table_id)
            return True

    def hand_to_bot(self, table_id: str, seat: int, agent: str, name: str | None = None) -> None:
        """A person's seat becomes a bot's for the rest of the game; its token
        stops working."""
        with self.engine.begin() as conn:
            conn.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(kind="bot", agent=agent, name=name, token_hash=None)
            )
            self._notify(conn, "table", table_id)

    def set_rematch(self, table_id: str, rematch: str) -> str:
        """Record the rematch of a table, once: the rematch id that stands."""
        with self.engine.begin() as conn:
            conn.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.rematch.is_(None))
                .values(rematch=rematch)
            )
            self._notify(conn, "table", table_id)
            return str(
                conn.execute(
                    sa.select(tables.c.rematch).where(tables.c.id == table_id)
                ).scalar_one()
            )

    def seat_of_token(self, table_id: str, token_hash: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(seats.c.seat).where(
                    seats.c.table_id == table_id, seats.c.token_hash == token_hash
                )
            ).scalar_one_or_none()

    # -- moves --------------------------------------------------------------
    def begin_move(
        self, table_id: str, n: int, seat: int, action: str
    ) -> PendingMove | LocalPendingMove:
        """Write move ``n`` in a transaction left open: the caller applies the
        move to its state, then commits (or rolls back). MoveTaken, with
        nothing written, if another writer already has number ``n``."""
        if not self.shared:
            return self._begin_local_move(table_id, n, seat, action)
        conn = self.engine.connect()
        txn = conn.begin()
        try:
            conn.execute(
                moves.insert().values(
                    table_id=table_id, n=n, seat=seat, action=action, created_at=_now()
                )
            )
            self._notify(conn, "move", table_id, n + 1)
        except sa.exc.IntegrityError:
            txn.rollback()
            conn.close()
            raise MoveTaken(f"move {n} of table {table_id} is already stored") from None
        except BaseException:
            txn.rollback()
            conn.close()
            raise
        return PendingMove(conn, txn, table_id)

    def _begin_local_move(self, table_id: str, n: int, seat: int, action: str) -> LocalPendingMove:
        """:meth:`begin_move` on SQLite, through the driver (see LocalPendingMove)."""
        if self._stamp is None:
            kind = moves.c.created_at.type.dialect_impl(self.engine.dialect)
            self._stamp = kind.bind_processor(self.engine.dialect) or (lambda d: d)
        raw = self.engine.raw_connection()
        try:
            raw.cursor().execute(
                _LOCAL_INSERT_MOVE, (table_id, n, seat, action, self._stamp(_now()))
            )
        except sqlite3.IntegrityError:
            raw.rollback()
            raw.close()
            raise MoveTaken(f"move {n} of table {table_id} is already stored") from None
        except BaseException:
            raw.rollback()
            raw.close()
            raise
        return LocalPendingMove(raw, table_id, self._stamp)

    def write_move(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        result: dict[str, Any] | None,
        notice_after: bool = False,
    ) -> None:
        """Write and commit move ``n`` (with the result if it ended the game)
        in one go; MoveTaken, nothing written, if the number is taken.

        On PostgreSQL a move that does not end the game is one statement in
        its own transaction: one round trip instead of four (begin, insert,
        notify, commit). Its notice goes out only if the insert commits:
        in the same statement, or with ``notice_after`` (a bot's move, from
        the process that runs the table's bots) after the commit, batched
        with others by :class:`Notices`.

        Why after: PostgreSQL lets one transaction with a NOTIFY commit at a
        time (a lock on the database until its commit is flushed to disk),
        so moves that notify in their own transaction are written one after
        the other, however many threads write them. A notice lost because
        the process died between the commit and the notice costs nothing:
        the process that takes its tables over replays them from the store,
        and the other replicas read every move they lack at the next notice
        of the table. A person's move keeps its notice in its transaction,
        so the process running the table's bots always hears of it."""
        if result is not None or not self.shared:
            self.begin_move(table_id, n, seat, action).commit(result)
            return
        payload = f"{self.node} move {table_id} {n + 1}"
        params = {"t": table_id, "n": n, "s": seat, "a": action, "c": _now()}
        if not notice_after:
            params.update(ch=CHANNEL, p=payload)
        try:
            with self.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                    _INSERT_MOVE_ONLY if notice_after else _INSERT_MOVE, params
                )
        except sa.exc.IntegrityError:
            raise MoveTaken(f"move {n} of table {table_id} is already stored") from None
        if notice_after:
            self.notices.put(payload)

    async def write_bot_move(self, table_id: str, n: int, seat: int, action: str) -> None:
        """A bot's move that does not end the game (PostgreSQL): written with
        the other tables' bots' moves queued meanwhile, in one statement and
        one commit (:class:`MoveWriter`); returns once it is committed.
        MoveTaken, nothing written, if another writer has number ``n``. Its
        notice goes out after the commit, as with ``write_move(notice_after)``."""
        fut = asyncio.get_running_loop().create_future()
        self.writer.put(table_id, n, seat, action, fut)
        await fut

    async def run(self, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        """A store call on one of the store's threads (PostgreSQL: a commit
        waits for the server's disk; the event loop must not). ``urgent``: a
        person waits for it (their move, their table catching up): it runs on
        threads of its own, never queued behind a burst of bots' moves."""
        if urgent:
            if self._people is None:
                self._people = ThreadPoolExecutor(PEOPLE_THREADS, thread_name_prefix="store-people")
            threads = self._people
        else:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="store")
            threads = self._threads
        return await asyncio.get_running_loop().run_in_executor(threads, fn, *args)

    @contextmanager
    def recording_move(
        self, table_id: str, n: int, seat: int, action: str
    ) -> Iterator[Callable[[dict[str, Any]], None]]:
        """Write move ``n`` and commit only if the body (which applies the move
        to the live state) succeeds. The body may call the yielded function
        with the result when the move ends the game: same transaction."""
        pending = self.begin_move(table_id, n, seat, action)
        results: list[dict[str, Any]] = []
        try:
            yield results.append
        except BaseException:
            pending.rollback()
            raise
        pending.commit(results[0] if results else None)

    def take_back(self, table_id: str, n: int, count: int) -> bool:
        """Delete moves ``n`` on of a table that holds exactly ``count``
        moves (a person took their move back: ``server/takeback.py``), in one
        transaction; False, nothing deleted, when it holds another number
        (a move arrived meanwhile). Other processes hear of it (NOTIFY
        ``undo``, the first move gone) and read their replica again.

        A replica that has not heard yet may still write a move on top of
        the old history, leaving a gap: the insert does not check that its
        predecessor is there. So the live tables take nothing back on a
        shared store (``LiveTable.why_no_undo``)."""
        with self.engine.begin() as conn:
            held = conn.execute(
                sa.select(sa.func.count()).select_from(moves).where(moves.c.table_id == table_id)
            ).scalar_one()
            if held != count or not 0 <= n < count:
                return False
            conn.execute(moves.delete().where(moves.c.table_id == table_id, moves.c.n >= n))
            self._notify(conn, "undo", table_id, n)
            return True

    def moves_from(self, table_id: str, n: int) -> list[tuple[int, str]]:
        """The stored moves of a table from number ``n`` on (catching up)."""
        with self.engine.connect() as conn:
            return [
                (m.seat, m.action)
                for m in conn.execute(
                    sa.select(moves.c.seat, moves.c.action)
                    .where(moves.c.table_id == table_id, moves.c.n >= n)
                    .order_by(moves.c.n)
                )
            ]

    def load_header(self, table_id: str) -> TableRow | None:
        """A table's row and seats without its moves."""
        with self.engine.connect() as conn:
            return _header(conn, table_id)

    def statuses(self, ids: Iterable[str]) -> dict[str, str]:
        with self.engine.connect() as conn:
            return {
                r.id: r.status
                for r in conn.execute(
                    sa.select(tables.c.id, tables.c.status).where(tables.c.id.in_(list(ids)))
                )
            }

    # -- leases (PostgreSQL, several processes) ---------------------------------
    def claim(self, table_id: str, seconds: float) -> bool:
        """Take the lease of a table if nobody holds it, it has expired or it
        is already ours; whether this process holds it now. The database's
        clock decides, so the processes' clocks need not agree."""
        from sqlalchemy.dialects.postgresql import insert

        until = _lease_end(seconds)
        stmt = insert(leases).values(table_id=table_id, owner=self.node, expires_at=until)
        upsert = stmt.on_conflict_do_update(
            index_elements=[leases.c.table_id],
            set_={"owner": stmt.excluded.owner, "expires_at": stmt.excluded.expires_at},
            where=sa.or_(leases.c.expires_at < sa.func.now(), leases.c.owner == self.node),
        ).returning(leases.c.owner)
        with self.engine.begin() as conn:
            return conn.execute(upsert).first() is not None

    def renew(self, seconds: float) -> set[str]:
        """Extend every lease this process still holds; the tables it holds."""
        until = _lease_end(seconds)
        with self.engine.begin() as conn:
            return {
                r.table_id
                for r in conn.execute(
                    leases.update()
                    .where(leases.c.owner == self.node)
                    .values(expires_at=until)
                    .returning(leases.c.table_id)
                )
            }

    def mine(self, table_ids: Iterable[str]) -> set[str]:
        """Which of these tables' leases this process holds now."""
        ids = list(table_ids)
        if not ids:
            return set()
        with self.engine.connect() as conn:
            return {
                r.table_id
                for r in conn.execute(
                    sa.select(leases.c.table_id).where(
                        leases.c.owner == self.node, leases.c.table_id.in_(ids)
                    )
                )
            }

    def release(self, table_ids: Iterable[str] | None = None) -> None:
        """Give up leases (all of this process's by default): another process
        takes them over at its next look for orphans."""
        cond = leases.c.owner == self.node
        if table_ids is not None:
            cond = sa.and_(cond, leases.c.table_id.in_(list(table_ids)))
        with self.engine.begin() as conn:
            conn.execute(leases.delete().where(cond))

    def orphans(self, limit: int = 200) -> list[str]:
        """Unfinished tables whose lease is missing or expired, oldest first."""
        with self.engine.connect() as conn:
            return [
                r.id
                for r in conn.execute(
                    sa.select(tables.c.id)
                    .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
                    .where(
                        tables.c.status.in_(("waiting", "playing")),
                        sa.or_(leases.c.table_id.is_(None), leases.c.expires_at < sa.func.now()),
                    )
                    .order_by(tables.c.created_at)
                    .limit(limit)
                )
            ]


# A move and its notice in one statement (PostgreSQL): the notice goes out
# only if the insert commits, like the one sent in a longer transaction.
_INSERT_MOVE = (
    "WITH m AS (INSERT INTO moves (table_id, n, seat, action, created_at) "
    "VALUES (%(t)s, %(n)s, %(s)s, %(a)s, %(c)s) RETURNING n) "
    "SELECT pg_notify(%(ch)s, %(p)s) FROM m"
)


_INSERT_MOVE_ONLY = (
    "INSERT INTO moves (table_id, n, seat, action, created_at) "
    "VALUES (%(t)s, %(n)s, %(s)s, %(a)s, %(c)s)"
)


_INSERT_MOVES = (
    "INSERT INTO moves (table_id, n, seat, action, created_at) "
    "SELECT * FROM unnest(%(t)s::varchar[], %(n)s::int[], %(s)s::int[], "
    "%(a)s::varchar[], %(c)s::timestamptz[]) "
    "ON CONFLICT (table_id, n) DO NOTHING RETURNING table_id, n"
)


T = TypeVar("T")


class BatchThread(Generic[T]):
    """A queue drained by one thread of its own, started at the first ``put``:
    everything queued while the last batch was handled goes in the next one
    (at most ``BATCH`` items), handed to ``_handle``. ``close`` lets the thread
    finish what was queued before it and waits for it."""

    BATCH = 500
    NAME = "store-batches"

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[T | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _put(self, item: T) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.NAME, daemon=True)
                self._thread.start()
        self._queue.put(item)

    def close(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._handle(batch)
            if stop:
                return

    def _handle(self, batch: list[T]) -> None:
        raise NotImplementedError


class MoveWriter(BatchThread[tuple[Any, ...]]):
    """Bots' moves of many tables written by one thread: everything queued
    while the last commit was on its way goes in one ``INSERT … SELECT FROM
    unnest(…)`` and one (synchronous) commit. A commit waits for the disk;
    with one commit for many moves the store keeps up with hundreds of bots
    per second on one connection and one thread, instead of a pool of
    threads each waiting on its own commit (and taking the interpreter's
    lock from the event loop as each wakes). Each waiting coroutine is told
    only after the commit, all of a batch in one hand-off to the event loop;
    the batch's notices follow from the same thread (see :class:`Notices`).

    A move whose number another writer already stored is skipped (``ON
    CONFLICT DO NOTHING``: the others of the batch are written) and its
    waiter gets MoveTaken. If the statement fails, every waiter of the batch
    gets the error and nothing of the batch is written."""

    BATCH = 1000
    NAME = "store-moves"

    def __init__(self, engine: Engine, node: str) -> None:
        super().__init__()
        self.engine, self.node = engine, node
        self.batches = 0  # statements written so far (for tests and curiosity)

    def put(self, table_id: str, n: int, seat: int, action: str, fut: asyncio.Future[None]) -> None:
        self._put((table_id, n, seat, action, _now(), fut))

    def _handle(self, batch: list[tuple[Any, ...]]) -> None:
        cols: list[list[Any]] = [[], [], [], [], []]
        for item in batch:
            for col, value in zip(cols, item[:5], strict=True):
                col.append(value)
        error: BaseException | None = None
        written: set[tuple[str, int]] = set()
        conn: sa.Connection | None = None
        try:
            conn = self.engine.connect()
            rows = conn.exec_driver_sql(
                _INSERT_MOVES,
                {"t": cols[0], "n": cols[1], "s": cols[2], "a": cols[3], "c": cols[4]},
            ).all()
            conn.commit()
            written = {(r[0], r[1]) for r in rows}
            self.batches += 1
        except Exception as exc:  # nothing of the batch is written
            error = exc
            if conn is not None:
                conn.close()  # rolls back
                conn = None
        # One hand-off to each event loop for the whole batch.
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Any, ...]]] = {}
        for item in batch:
            by_loop.setdefault(item[5].get_loop(), []).append(item)
        for loop, items in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, items, written, error)
        if conn is not None:
            # Then the batch's notices, after its commit, on the same
            # connection and thread (one more transaction, no disk wait).
            with conn:
                payloads = [
                    f"{self.node} move {t} {n + 1}" for t, n, *_ in batch if (t, n) in written
                ]
                if payloads:
                    send_notices(conn, payloads)


def _settle(
    items: list[tuple[Any, ...]], written: set[tuple[str, int]], error: BaseException | None
) -> None:
    """On the event loop: tell each waiter of a batch how its move went."""
    for table_id, n, _seat, _action, _at, fut in items:
        if fut.done():  # cancelled (its table closed)
            continue
        if error is not None:
            fut.set_exception(error)
        elif (table_id, n) in written:
            fut.set_result(None)
        else:
            fut.set_exception(MoveTaken(f"move {n} of table {table_id} is already stored"))


class Notices(BatchThread[str]):
    """Notices of committed changes, sent by a thread of their own in batches:
    one transaction (one turn of PostgreSQL's NOTIFY lock) for all the notices
    queued meanwhile, committed without waiting for the disk
    (``synchronous_commit`` off: a notice holds nothing that must survive a
    crash; the moves it announces are already committed)."""

    BATCH = 500
    NAME = "store-notices"

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine

    def put(self, payload: str) -> None:
        self._put(payload)

    def _handle(self, batch: list[str]) -> None:
        with self.engine.connect() as conn:
            send_notices(conn, batch)


def send_notices(conn: sa.Connection, payloads: list[str]) -> None:
    """Send notices of committed changes in one transaction committed without
    waiting for the disk; a failure is logged (the replicas read every move
    they lack at the table's next notice)."""
    try:
        conn.exec_driver_sql("SET LOCAL synchronous_commit TO off")
        conn.exec_driver_sql(
            "SELECT pg_notify(%(ch)s, p) FROM unnest(%(ps)s::text[]) AS p",
            {"ch": CHANNEL, "ps": payloads},
        )
        conn.commit()
    except Exception:
        log.exception("could not send %d table notices", len(payloads))
        conn.rollback()


def _lease_end(seconds: float) -> Any:
    """``seconds`` from now by the database's clock (PostgreSQL)."""
    return sa.func.now() + sa.func.make_interval(0, 0, 0, 0, 0, 0, seconds)


def _table_row(t: Any) -> TableRow:
    return TableRow(
        id=t.id,
        game=t.game,
        variant=t.variant,
        options=json.loads(t.options),
        players=t.players,
        seed=int(t.seed),
        status=t.status,
        created_at=_aware(t.created_at),
        result=json.loads(t.result) if t.result else None,
        seed_chosen=bool(t.seed_chosen),
        turn_seconds=t.turn_seconds,
        rematch=t.rematch,
    )


def _header(conn: Any, table_id: str) -> TableRow | None:
    """A table's row and its seats (no moves), or None if there is no such table."""
    t = conn.execute(tables.select().where(tables.c.id == table_id)).first()
    if t is None:
        return None
    row = _table_row(t)
    row.seats = [
        SeatRow(s.seat, s.kind, s.agent, s.name, s.token_hash is not None, s.held)
        for s in conn.execute(
            seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)
        )
    ]
    return row


def _aware(when: datetime) -> datetime:
    """SQLite hands datetimes back without their zone; they were written in UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
