"""Several ``bestiary serve`` processes over one PostgreSQL store.

Who does what:

- **The store is the truth.** Every accepted move is a row ``(table, n)``;
  the primary key lets exactly one writer have each number, so no two
  processes can fork a table's history (:class:`~.store.MoveTaken`).
- **A person's move** is applied by the process their socket is on, against
  its replica of the table; a replica that was behind catches up from the
  store and checks the move again (:meth:`LiveTable.act`). No forwarding hop,
  and a dead owner never blocks people.
- **A table's lease** (a row in ``leases``: owner, expiry by the database's
  clock) names the one process that runs its bots and turn timer. The owner
  renews all its leases every ``lease_seconds / 3``; a table whose lease is
  missing or expired is an orphan, and every process looks for orphans as
  often and claims them with a conditional upsert (one winner), replaying the
  stored moves and waking the bots. Bots are deterministic (their seed is a
  function of the table, the seat and the move number), so if an old owner
  that was merely slow still moves once before it notices, it writes the very
  same move, and the key refuses the duplicate.
- **Push across processes:** each change commits with ``NOTIFY bestiary,
  '<process> <kind> <table> <n>'`` (the payload names a table, nothing of
  its state). Every process ``LISTEN``s; a notice for a table it has live
  makes it read the new moves (or seats) from the store and send its own
  sockets their seat's update, built locally exactly as for its own moves.
  A bot's move is announced just after its commit instead, batched with
  others (``Store.write_move`` says why). After the listening connection
  drops, every live table catches up. An ``undo`` notice (moves from ``n``
  on deleted: ``Store.take_back``) makes a replica read the table again
  whole (``LiveTable.reload``); the live tables take nothing back on a
  shared store yet, since a replica that has not heard of it could still
  write on top of the old history.
- **Reconnecting:** a seat token is valid at every process (it is in the
  store), so a client whose process died reconnects to any other (through the
  load balancer, or the next address it knows) and gets the whole state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .store import CHANNEL, Store

log = logging.getLogger("bestiary.server")

Handler = Callable[[str, str, int], Awaitable[None]]


class Cluster:
    """This process's part: its leases and its ear on the NOTIFY channel.

    ``on_notice(kind, table_id, n)`` is called for every change another
    process announced; ``on_claim(table_id)`` for every table this process
    has just taken over; ``on_lost(table_id)`` for one it no longer holds;
    ``on_resync()`` after the listening connection was lost and back."""

    def __init__(
        self,
        store: Store,
        lease_seconds: float,
        on_notice: Handler,
        on_claim: Callable[[str], Awaitable[None]],
        on_lost: Callable[[str], None],
        on_resync: Callable[[], Awaitable[None]],
    ) -> None:
        self.store = store
        self.node = store.node
        self.lease_seconds = max(1.0, lease_seconds)
        self.owned: set[str] = set()
        self.on_notice, self.on_claim = on_notice, on_claim
        self.on_lost, self.on_resync = on_lost, on_resync
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = asyncio.Event()

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    def claim(self, table_id: str) -> bool:
        """Take a table's lease if it is free or expired (a new table's always is)."""
        if self.store.claim(table_id, self.lease_seconds):
            self.owned.add(table_id)
            return True
        return False

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._leases())]
        # Push must work before the first socket arrives.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), 30)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Leaving cleanly: another process takes the tables over at its next look.
        with contextlib.suppress(Exception):
            self.store.release()
        self.owned.clear()

    # -- leases ------------------------------------------------------------------
    async def _leases(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("renewing or claiming table leases failed")
            await asyncio.sleep(self.lease_seconds / 3)

    async def sweep(self) -> None:
        """Renew this process's leases, drop the ones lost, claim orphans.
        The queries run on the store's threads: the event loop serves the
        tables meanwhile."""
        store = self.store
        held = await store.run(store.renew, self.lease_seconds)
        # A table created meanwhile is ours although the renewal did not see it.
        lost = self.owned - held - await store.run(store.mine, list(self.owned - held))
        for table_id in lost:
            self.on_lost(table_id)  # finished (its lease is deleted) or taken over
        self.owned -= lost
        for table_id in await store.run(store.orphans):
            if await store.run(store.claim, table_id, self.lease_seconds):
                self.owned.add(table_id)
                log.info("took over table %s", table_id)
                try:
                    await self.on_claim(table_id)
                except Exception:
                    log.exception("table %s cannot resume here", table_id)

    # -- push ----------------------------------------------------------------------
    async def _listen(self) -> None:
        import psycopg

        url = self.store.url.replace("postgresql+psycopg://", "postgresql://", 1)
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        await self.on_resync()  # notices may have been missed meanwhile
                    first = False
                    async for note in conn.notifies():
                        await self._dispatch(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for table changes failed (%s); again in 1 s", exc)
                await asyncio.sleep(1.0)

    async def _dispatch(self, payload: str) -> None:
        try:
            node, kind, table_id, n = payload.split(" ")
            count = int(n)
        except ValueError:
            log.warning("malformed notice %r", payload[:80])
            return
        if node == self.node:
            return  # this process made the change and has told its sockets
        try:
            await self.on_notice(kind, table_id, count)
        except Exception:
            log.exception("could not follow a change of table %s", table_id)
