"""The hub: every live table of this server, created, loaded and joined here.

On start it replays every unfinished table from the store and wakes its
bots, so a restarted server (even after ``kill -9``) carries on exactly
where the stored moves left off. Finished tables stay in memory only while
someone watches them (and at most ``Limits.finished_in_memory`` of those,
least recently used first out); the lobby, records and replays read the
store. Waiting tables expire after ``Limits.waiting_seconds``.

On PostgreSQL several processes may serve the same tables: the hub then
claims the tables nobody runs instead of waking all of them, and follows the
changes other processes announce (``cluster.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ..agents.base import make_agent
from ..engine.errors import BadInput, BestiaryError
from ..engine.registry import get_game
from .bots import check_spec, imports, playable
from .cluster import Cluster
from .config import Limits
from .limits import ClientBuckets
from .live import LiveTable, table_info
from .raypool import RayPool
from .seeds import new_seed
from .store import SeatRow, Store, TableRow
from .turns import BotTurns
from .workers import Pool, WorkerPool

log = logging.getLogger("bestiary.server")

HUMAN = "human"


class NotFound(BestiaryError):
    """No such table (or no such seat)."""


class Conflict(BestiaryError):
    """The request clashes with the table's state (a seat already taken...)."""


class Quota(BestiaryError):
    """A client asked for more than its share (HTTP 429)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Hub:
    def __init__(
        self,
        store: Store,
        bot_delay: float,
        limits: Limits | None = None,
        agents: Mapping[str, str] | None = None,
        ray_address: str | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        # The operator's own agents (NAME -> module:Object), already checked
        # (bots.operator_agents): seated by NAME, imported only from here.
        self.agents = dict(agents or {})
        self.live: OrderedDict[str, LiveTable] = OrderedDict()
        # One queue of bot steps for every table: bots are background work.
        self.turns = BotTurns(min(1.0, max(0.05, self.limits.bot_share)))
        lim = self.limits
        # Bots think in local worker processes, or on Ray actors (serve --ray-address),
        # served by (address, client, table) in turn; one address, and one client,
        # holds at most bot_worker_share of them at once (server/fair.py).
        share = max(1, math.ceil(lim.bot_worker_share * max(1, lim.bot_workers)))
        caps = (share, share, None)
        self.bots: Pool = (
            RayPool(lim.bot_workers, "bot", ray_address, caps)
            if ray_address
            else WorkerPool(lim.bot_workers, "bot", caps)
        )
        # Tools (hints, scoring, replays): by (address, client) in turn, and a
        # client with tool_calls_per_client requests under way is refused more.
        per_client = max(1, lim.tool_calls_per_client)
        per_address = max(per_client, round(lim.ip_factor * per_client))
        self.tools = WorkerPool(lim.tool_workers, "tool", most=(per_address, per_client))
        self._creations = ClientBuckets(lim.tables_per_minute / 60, lim.table_burst)
        self._ip_creations = ClientBuckets(
            lim.ip_factor * lim.tables_per_minute / 60, round(lim.ip_factor * lim.table_burst)
        )
        self._created: dict[str, set[str]] = {}  # client (or IP) -> tables it created, maybe open
        self._sweeper: asyncio.Task[None] | None = None
        self._creating: set[str] = set()  # tables being stored (counted as open)
        self.cluster: Cluster | None = None
        if store.shared:
            self.cluster = Cluster(
                store,
                self.limits.lease_seconds,
                on_notice=self._notice,
                on_claim=self._claimed,
                on_lost=self._lost,
                on_resync=self._resync,
            )

    async def start(self) -> None:
        self.expire()
        if self.sweeps():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        if self.cluster is not None:
            await self.cluster.start()  # claims the tables nobody runs, then keeps at it
            return
        for table_id in self.store.table_ids(("waiting", "playing")):
            try:
                self.get(table_id).wake_bots()
            except BestiaryError as exc:
                log.error("table %s cannot resume: %s", table_id, exc)

    def sweeps(self) -> bool:
        return self.limits.sweep_seconds > 0

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        # Stop the bots' loops, then kill the workers: a bot deep in thought must
        # not hold up shutdown, and a loop whose worker dies under it would log
        # the death as a failure ("the bots of table … stopped") at every table.
        for table in list(self.live.values()):
            table.stop_bots()
        self.bots.close()
        self.tools.close()
        for table in list(self.live.values()):
            await table.close()
        self.live.clear()
        if self.cluster is not None:
            await self.cluster.stop()  # gives up the leases: others take over now

    # -- several processes (cluster.py) -----------------------------------------
    def owns(self, table_id: str) -> bool:
        """Whether this process runs the table's bots (always, with one process)."""
        return self.cluster is None or self.cluster.owns(table_id)

    async def _notice(self, kind: str, table_id: str, n: int) -> None:
        """Another process changed a table: follow it if it is live here."""
        table = self.live.get(table_id)
        if table is None:
            return  # not loaded here: whoever loads it later reads the store
        if kind == "move":
            if n > table.moves:
                table.follow()  # in the background: the next notice need not wait
        elif kind == "undo":
            await table.reload(n)  # moves from n on were taken back there
        else:
            await table.refresh()
            if table.row.status == "expired":
                self.live.pop(table_id, None)

    async def _claimed(self, table_id: str) -> None:
        """This process took the table over: replay it and wake its bots."""
        table = self.live.get(table_id)
        if table is None:
            self.get(table_id).wake_bots()
            return
        table.runs_bots = True
        await table.refresh()

    def _lost(self, table_id: str) -> None:
        table = self.live.get(table_id)
        if table is not None and table.row.status != "finished":
            log.warning("lost the lease of table %s (this process was too slow)", table_id)
            table.stop_bots()

    async def _resync(self) -> None:
        for table in list(self.live.values()):
            await table.refresh()

    # -- live tables ---------------------------------------------------------
    def _table(self, row: TableRow, owner: tuple[str, str] | None = None) -> LiveTable:
        """``owner``: the (address, client) that created the table, whose share
        of the bot workers its bots use; a table loaded from the store (its
        creator is not stored) counts as a client of its own."""
        table = LiveTable(
            row,
            get_game(row.game),
            self.store,
            self.bot_delay,
            self.bots,
            self.limits,
            self.agents,
            turns=self.turns,
        )
        table.on_idle = self._forget
        table.owner = owner or (f"table:{row.id}", "")
        table.runs_bots = self.owns(row.id)
        self.live[row.id] = table
        self._trim()
        return table

    def get(self, table_id: str) -> LiveTable:
        """The live table (loaded from the store if need be): for playing and watching."""
        if table_id in self.live:
            return self._loaded(table_id, None)
        return self._loaded(table_id, self.store.load_table(table_id))

    async def get_async(self, table_id: str) -> LiveTable:
        """:meth:`get`, loading a table that is not live off the event loop
        on PostgreSQL."""
        if table_id in self.live or not self.store.shared:
            return self.get(table_id)
        return self._loaded(table_id, await self.store.run(self.store.load_table, table_id))

    def _loaded(self, table_id: str, row: TableRow | None) -> LiveTable:
        """The live table, else one made from its stored ``row`` (loaded
        meanwhile by someone else: the live one wins)."""
        table = self.live.get(table_id)
        if table is not None:
            self.live.move_to_end(table_id)
            return table
        if row is None:
            raise NotFound(f"no table {table_id[:40]!r}")
        if row.status == "expired":
            raise NotFound(f"table {table_id} expired before anyone joined it")
        return self._table(row)

    def row(self, table_id: str) -> TableRow:
        """A table's stored row without loading it live (info, records, replays)."""
        table = self.live.get(table_id)
        if table is not None:
            return table.row
        row = self.store.load_table(table_id)
        if row is None:
            raise NotFound(f"no table {table_id[:40]!r}")
        return row

    def info(self, table_id: str) -> dict[str, Any]:
        table = self.live.get(table_id)
        if table is not None:
            return table.info()
        row = self.row(table_id)
        return table_info(row, _game_or_none(row.game))

    def _forget(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory (the store keeps it)."""
        if self.live.get(table.id) is table:
            log.debug("table %s leaves memory (%s)", table.id, table.row.status)
            del self.live[table.id]
        self._disown(table)

    def _disown(self, table: LiveTable) -> None:
        """A finished (or expired) table leaves its creator's count of open
        tables at once. Otherwise the ids stayed until that client created
        again: every client that ever came and never returned kept its last
        tables' ids for the life of the process (issue 27, point 12)."""
        if table.row.status not in ("finished", "expired"):
            return  # still open (another process runs it): it still counts
        for key in set(table.owner):
            held = self._created.get(key)
            if held is not None:
                held.discard(table.id)
                if not held:
                    del self._created[key]

    def _trim(self) -> None:
        """Keep at most ``finished_in_memory`` unwatched finished tables (loaded
        for a socket that never said hello, say), least recently used out."""
        idle = [
            t
            for t in self.live.values()
            if (t.row.status == "finished" or not t.runs_bots) and not t.connections
        ]
        for table in idle[: max(0, len(idle) - self.limits.finished_in_memory)]:
            del self.live[table.id]
            self._disown(table)

    # -- expiry --------------------------------------------------------------
    def expire(self) -> list[str]:
        """Expire tables that waited for players too long; their ids."""
        before = datetime.now(UTC) - timedelta(seconds=self.limits.waiting_seconds)
        ids = self.store.expire_waiting(before)
        for table_id in ids:
            table = self.live.pop(table_id, None)
            if table is not None:
                table.row.status = "expired"
                table.broadcast()
                for conn in list(table.connections):
                    table.disconnect(conn)
                self._disown(table)
        return ids

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                self.expire()
            except Exception:
                log.exception("expiring waiting tables failed")

    # -- creating and joining --------------------------------------------------
    def create(
        self,
        game_id: str,
        seats: list[Mapping[str, Any]],
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        client: str = "",
        turn_seconds: int | None = None,
        ip: str = "",
    ) -> LiveTable:
        """Check everything (game, players, variant, options, agent specs, the
        client's quota) before anything is stored; raise the engine's error
        naming what is allowed. A ``seed`` is taken as given (remote clients
        may only bring one for a solo table: the API checks) and marked."""
        row = self._new_row(game_id, seats, variant, options, seed, client, turn_seconds, ip)
        try:
            self._store_new(row)
        finally:
            self._creating.discard(row.id)
        return self._register(row, (ip or client, client or ip))

    async def create_async(
        self,
        game_id: str,
        seats: list[Mapping[str, Any]],
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        client: str = "",
        turn_seconds: int | None = None,
        ip: str = "",
    ) -> LiveTable:
        """:meth:`create`, with the store's write off the event loop on
        PostgreSQL (the loop would otherwise wait for the database)."""
        row = self._new_row(game_id, seats, variant, options, seed, client, turn_seconds, ip)
        try:
            await self._db(self._store_new, row)
        finally:
            self._creating.discard(row.id)
        return self._register(row, (ip or client, client or ip))

    async def _db(self, fn: Any, *args: Any) -> Any:
        """A store call: on the store's threads with PostgreSQL, inline with SQLite."""
        if self.store.shared:
            return await self.store.run(fn, *args)
        return fn(*args)

    def _new_row(
        self,
        game_id: str,
        seats: list[Mapping[str, Any]],
        variant: str | None,
        options: Mapping[str, Any] | None,
        seed: int | None,
        client: str,
        turn_seconds: int | None,
        ip: str,
    ) -> TableRow:
        """A new table's row, checked (game, seats, options, quota), not stored yet."""
        game = get_game(game_id)
        options = dict(options or {})
        # A remote client must never make the server read a file of its choosing.
        type(game.ruleset(variant)).refuse_paths(options)
        rows: list[SeatRow] = []
        for i, spec in enumerate(seats):
            kind = str(spec.get("kind", HUMAN))
            name = spec.get("name")
            if kind == HUMAN:
                # held: a rematch keeps the seat for the finished table's person
                rows.append(SeatRow(i, HUMAN, None, None, held=bool(spec.get("held"))))
            elif kind == "bot":
                agent = check_spec(
                    game,
                    str(spec.get("agent") or "normal"),
                    self.limits.max_iterations,
                    self.agents,
                    self.limits.max_search_seconds,
                )
                runs = playable(
                    game,
                    agent,
                    self.limits.max_iterations,
                    self.agents,
                    len(seats),
                    self.limits.max_search_seconds,
                )
                make_agent(game, runs, 0, allow_import=imports(runs, self.agents))
                rows.append(SeatRow(i, "bot", agent, str(name or f"{agent} bot")[:64]))
            else:
                raise BadInput(f"seat {i}: kind {kind[:20]!r} is not 'human' or 'bot'")
        humans = sum(r.kind == HUMAN for r in rows)
        chosen = seed is not None
        seed = new_seed() if seed is None else seed
        game.new(len(rows), seed=seed, variant=variant, options=options)  # validates
        self._check_quota(client, ip)
        status = "waiting" if humans else "playing"
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game.id,
            variant=variant or game.default_variant,
            options=options,
            players=len(rows),
            seed=seed,
            status=status,
            created_at=datetime.now(UTC),
            seats=rows,
            seed_chosen=chosen,
            turn_seconds=turn_seconds,
        )
        for key in {client, ip} - {""}:  # counted at once: a creation under way is open
            self._created.setdefault(key, set()).add(row.id)
        self._creating.add(row.id)
        return row

    def _store_new(self, row: TableRow) -> None:
        if self.cluster is not None:  # a new table: its creator's process runs it
            self.store.create_table(row, lease_seconds=self.cluster.lease_seconds)
        else:
            self.store.create_table(row)

    def _register(self, row: TableRow, owner: tuple[str, str]) -> LiveTable:
        if self.cluster is not None:
            self.cluster.owned.add(row.id)
        table = self._table(row, owner if any(owner) else None)
        table.wake_bots()
        return table

    def _open(self, key: str) -> int:
        held = self._created.pop(key, set())
        # Tables that are not live here: their status in one query (several processes).
        away = {t for t in held if t not in self._creating and t not in self.live}
        if self.cluster is None:
            away = set()  # with one process an unfinished table is always live
        stored = self.store.statuses(away) if away else {}
        mine = {
            t
            for t in held
            if (stored.get(t) in ("waiting", "playing") if t in away else self._is_open(t))
        }
        if mine:
            self._created[key] = mine
        return len(mine)

    def _check_quota(self, client: str, ip: str = "") -> None:
        """The client's quota, and its IP address's (``ip_factor`` times as
        much) when the client named itself apart from its address."""
        lim = self.limits
        if client:
            held = self._open(client)
            if held >= lim.open_tables_per_client:
                raise Quota(
                    f"you have {held} open tables (the limit); finish or wait for one "
                    "before creating another"
                )
        if ip and ip != client:
            held = self._open(ip)
            if held >= lim.ip_factor * lim.open_tables_per_client:
                raise Quota(
                    f"your address has {held} open tables (the limit); finish or wait for one "
                    "before creating another"
                )
        if client and not self._creations.allow(client):
            raise Quota(
                f"too many tables created; at most {lim.tables_per_minute:g} a minute "
                f"(bursts of {lim.table_burst})"
            )
        if ip and ip != client and not self._ip_creations.allow(ip):
            raise Quota(
                "too many tables created from your address; at most "
                f"{lim.ip_factor * lim.tables_per_minute:g} a minute"
            )

    def rematch(self, table_id: str, client: str = "", ip: str = "") -> LiveTable:
        """The rematch of a finished table: the same game, variant, options,
        bots and turn timer, a fresh seed, and each person's seat held for
        them (:meth:`claim_rematch`; nobody else may join it). Asked twice
        (by each player), it is the same table."""
        row = self.row(table_id)
        if row.status != "finished":
            raise Conflict("a rematch opens when the game is over")
        if row.rematch is not None:
            return self.get(row.rematch)
        seats: list[Mapping[str, Any]] = [
            {"kind": "human", "held": s.taken}
            if s.kind == "human"
            else {"kind": "bot", "agent": s.agent}
            for s in row.seats
        ]
        table = self.create(
            row.game,
            seats,
            variant=row.variant,
            options=row.options,
            client=client,
            turn_seconds=row.turn_seconds,
            ip=ip,
        )
        row.rematch = self.store.set_rematch(table_id, table.id)
        return self.get(row.rematch)

    def claim_rematch(
        self, table_id: str, token: str, name: str | None, client: str = "", ip: str = ""
    ) -> tuple[LiveTable, int, str]:
        """The rematch of ``table_id`` (made now if nobody asked yet) and the
        seat held there for the person whose seat ``token`` was at the
        finished table: (rematch, seat, the seat's new token). The seat's
        name stays theirs unless ``name`` is given."""
        seat = self.seat_of(table_id, token)
        if seat is None:
            raise NotFound("that token holds no seat at this table")
        before = self.row(table_id).seats[seat]
        table = self.rematch(table_id, client, ip)
        held = table.row.seats[seat]
        if held.taken:
            raise Conflict(
                f"seat {seat} of the rematch is yours already; open it with the token you got then"
            )
        if held.kind != HUMAN or not held.held:
            raise Conflict(f"seat {seat} of the rematch is not held for you")
        new = secrets.token_urlsafe(32)
        name = name or before.name
        if not self.store.take_seat(table.id, seat, name, token_hash(new), held=True):
            raise Conflict(f"seat {seat} of the rematch was just taken")
        table.seat_taken(seat, name)
        return table, seat, new

    async def resign(self, table_id: str, token: str) -> int:
        """The seat of ``token`` is handed to a bot for the rest of the game."""
        seat = self.seat_of(table_id, token)
        if seat is None:
            raise NotFound("that token holds no seat at this table")
        await self.get(table_id).resign(seat)
        return seat

    def _is_open(self, table_id: str) -> bool:
        if table_id in self._creating:
            return True
        table = self.live.get(table_id)
        if table is not None:
            return table.row.status in ("waiting", "playing")
        if self.cluster is None:
            return False  # with one process an unfinished table is always live
        return self.store.statuses([table_id]).get(table_id) in ("waiting", "playing")

    def join(self, table_id: str, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the first one if ``seat`` is None): (seat, token)."""
        table = self.get(table_id)
        seat, token = self._seat_to_take(table, seat)
        if not self.store.take_seat(table_id, seat, name, token_hash(token)):
            raise Conflict(f"seat {seat} was just taken")
        table.seat_taken(seat, name)
        return seat, token

    async def join_async(
        self, table_id: str, seat: int | None, name: str | None
    ) -> tuple[int, str]:
        """:meth:`join`, with the store's calls off the event loop on PostgreSQL."""
        table = await self.get_async(table_id)
        seat, token = self._seat_to_take(table, seat)
        if not await self._db(self.store.take_seat, table_id, seat, name, token_hash(token)):
            raise Conflict(f"seat {seat} was just taken")
        table = self.live.get(table_id) or table
        table.seat_taken(seat, name)
        return seat, token

    def _seat_to_take(self, table: LiveTable, seat: int | None) -> tuple[int, str]:
        table_id = table.id
        # A rematch's seat held for the finished table's person is theirs alone.
        held = [s for s in table.free_seats() if table.row.seats[s].held]
        free = [s for s in table.free_seats() if s not in held]
        if seat is None:
            if not free:
                why = (
                    f" (seats {', '.join(map(str, held))} are held for the players of the "
                    "finished game: they take them through its rematch)"
                    if held
                    else ""
                )
                raise Conflict(f"table {table_id} has no free seat{why}")
            seat = free[0]
        if seat in held:
            raise Conflict(
                f"seat {seat} is held for its player from the finished game; "
                f"free seats: {', '.join(map(str, free)) or 'none'}"
            )
        if not 0 <= seat < table.row.players:
            raise NotFound(f"table {table_id} has seats 0 to {table.row.players - 1}")
        if seat not in free:
            raise Conflict(
                f"seat {seat} is not free; free seats: {', '.join(map(str, free)) or 'none'}"
            )
        return seat, secrets.token_urlsafe(32)

    def seat_of(self, table_id: str, token: str) -> int | None:
        return self.store.seat_of_token(table_id, token_hash(token))

    async def seat_of_async(self, table_id: str, token: str) -> int | None:
        return await self._db(self.store.seat_of_token, table_id, token_hash(token))

    async def list(
        self,
        status: str | None,
        *,
        game: str | None = None,
        free: bool | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the lobby. On PostgreSQL the query runs on the store's
        threads: the event loop does not wait for the database server."""
        query = (self.store.list_tables, status, game, free, limit, offset)
        if self.store.shared:
            rows, total = await self.store.run(*query)
        else:
            rows, total = query[0](*query[1:])
        out = []
        for row in rows:
            live = self.live.get(row.id)
            out.append(
                live.info() if live is not None else table_info(row, _game_or_none(row.game))
            )
        return out, total


def _game_or_none(game_id: str) -> Any:
    try:
        return get_game(game_id)
    except BestiaryError:
        return None
