"""A table in play: the live state (rebuilt by replaying the stored moves),
one asyncio lock that orders every change, the connected seats and the bots.

Every change happens under the lock: parse the text, write the move and
apply it in one transaction, then queue an update for every connection.
Several seats deciding at once therefore never race: each submission is
checked against the state the previous one left.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import AgentContext, make_agent
from ..engine.errors import BadRecord, BestiaryError, IllegalAction
from ..engine.protocol import Game, State
from ..engine.rng import Rng
from .messages import error, seat_update
from .store import Store, TableRow

log = logging.getLogger("bestiary.server")


def bot_seed(table_seed: int, seat: int, move: int) -> int:
    """The seed of a bot's decision: a function of the table, the seat and the
    move number only, so a restarted server makes the very same decisions."""
    digest = hashlib.sha256(f"{table_seed}:{seat}:{move}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def bot_move(game: Game, state: State, spec: str, table_seed: int, seat: int, move: int) -> str:
    """The text of the move the bot ``spec`` makes for ``seat`` as move number
    ``move``: a pure function of the match so far, so an uninterrupted server,
    a restarted one and an offline replay all agree."""
    seed = bot_seed(table_seed, seat, move)
    agent = make_agent(game, spec, seed)
    return str(agent.act(AgentContext(state, seat, Rng(seed ^ 0x5EED))))


def rebuild(game: Game, row: TableRow) -> State:
    """The live state of a stored table: a new game and every stored move."""
    state = game.new(row.players, seed=row.seed, variant=row.variant, options=row.options)
    for i, (seat, text) in enumerate(row.moves):
        try:
            state.apply_text(seat, text)
        except BestiaryError as exc:
            raise BadRecord(
                f"table {row.id}: move {i} ({seat}: {text!r}) does not replay: {exc}"
            ) from None
    return state


@dataclass(eq=False)
class Connection:
    """One websocket: a seat (None for a spectator) and its outgoing queue."""

    seat: int | None
    since: int = 0  # events already sent to this connection
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)


class LiveTable:
    def __init__(self, row: TableRow, game: Game, store: Store, bot_delay: float) -> None:
        self.row, self.game, self.store = row, game, store
        self.bot_delay = bot_delay
        self.state = rebuild(game, row)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.on_idle: Callable[[LiveTable], None] | None = None

    # -- public info ---------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def moves(self) -> int:
        return len(self.row.moves)

    def info(self) -> dict[str, Any]:
        return table_info(self.row, self.game)

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == "human" and not s.taken]

    # -- connections ---------------------------------------------------------
    def connect(self, seat: int | None) -> Connection:
        conn = Connection(seat)
        self.connections.add(conn)
        conn.queue.put_nowait(self.safe_update_for(conn))
        return conn

    def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.queue.put_nowait(None)
        if not self.connections and self.row.status == "finished" and self.on_idle is not None:
            self.on_idle(self)  # nothing will change any more: the hub may forget it

    def update_for(self, conn: Connection) -> dict[str, Any]:
        msg = seat_update(self.game, self.state, conn.seat, conn.since, self.moves, self.info())
        conn.since = self.state.event_count()
        return msg

    def safe_update_for(self, conn: Connection) -> dict[str, Any]:
        """``update_for``, or a plain error (logged, no trace to the client) if the
        game fails to build this seat's view: the other seats carry on."""
        try:
            return self.update_for(conn)
        except Exception:
            log.exception("cannot build the update of table %s for seat %s", self.id, conn.seat)
            return error("internal server error: this seat's view could not be built")

    def broadcast(self) -> None:
        for conn in list(self.connections):
            conn.queue.put_nowait(self.safe_update_for(conn))

    # -- seats ---------------------------------------------------------------
    def seat_taken(self, seat: int, name: str | None) -> None:
        s = self.row.seats[seat]
        s.taken, s.name = True, name
        if not self.free_seats() and self.row.status == "waiting":
            self.row.status = "playing"
        self.broadcast()
        self.wake_bots()

    # -- moves ---------------------------------------------------------------
    async def act(self, seat: int, text: str) -> str:
        """Apply a seat's action given as text; IllegalAction (state unchanged) if not."""
        async with self.lock:
            done = self._apply(seat, text)
        self.wake_bots()
        return done

    def _apply(self, seat: int, text: str) -> str:
        """Under the lock: check, record and apply one move, then tell everyone."""
        if self.row.status == "waiting":
            free = ", ".join(map(str, self.free_seats()))
            raise IllegalAction(f"the table is waiting for players to take seat(s) {free}")
        action = self.state.parse(seat, text)  # raises with the allowed actions
        canonical = str(action)
        n = self.moves
        try:
            with self.store.recording_move(self.id, n, seat, canonical) as finish:
                self.state.apply(seat, action)
                if self.state.over and self.state.result is not None:
                    finish(self.state.result.to_json())
        except BestiaryError:
            raise  # apply refused: nothing was written, the state is unchanged
        except Exception:
            # The database refused after the state moved on: rebuild from the store.
            log.exception("could not record move %d of table %s", n, self.id)
            fresh = self.store.load_table(self.id)
            if fresh is not None:
                self.row = fresh
                self.state = rebuild(self.game, fresh)
            self.broadcast()
            raise
        self.row.moves.append((seat, canonical))
        if self.state.over and self.state.result is not None:
            self.row.status = "finished"
            self.row.result = self.state.result.to_json()
        self.broadcast()
        return canonical

    # -- bots ----------------------------------------------------------------
    def _next_bot_seat(self) -> int | None:
        if self.row.status != "playing" or self.state.over:
            return None
        owed = set(self.state.to_act())
        for s in self.row.seats:  # lowest seat first: the order is deterministic
            if s.kind == "bot" and s.seat in owed:
                return s.seat
        return None

    def wake_bots(self) -> None:
        """Start the bot loop if a bot owes a move and none is running."""
        if self.bot_task is None and self._next_bot_seat() is not None:
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        try:
            while True:
                seat = self._next_bot_seat()
                if seat is None:
                    self.bot_task = None  # no await since the check: wake_bots sees it
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                async with self.lock:
                    if seat not in self.state.to_act():
                        continue
                    text = await self._bot_decision(seat)
                    self._apply(seat, text)
        except asyncio.CancelledError:
            self.bot_task = None
            raise
        except Exception:
            log.exception("the bots of table %s stopped", self.id)
            self.bot_task = None

    async def _bot_decision(self, seat: int) -> str:
        spec = self.row.seats[seat].agent or "random"
        try:
            # Search bots may think for a while: keep the server responsive.
            return await asyncio.to_thread(
                bot_move, self.game, self.state, spec, self.row.seed, seat, self.moves
            )
        except Exception:
            log.exception("bot %r failed at table %s; playing its first legal move", spec, self.id)
            return str(self.state.legal(seat)[0])

    async def close(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.bot_task
        for conn in list(self.connections):
            self.disconnect(conn)


def table_info(row: TableRow, game: Game | None) -> dict[str, Any]:
    """The lobby's public picture of a table (no tokens, no hidden state)."""
    return {
        "id": row.id,
        "game": row.game,
        "title": game.title if game is not None else row.game,
        "variant": row.variant,
        "options": row.options,
        "players": row.players,
        "status": row.status,
        "seats": [s.public() for s in row.seats],
        "moves": len(row.moves),
        "result": row.result,
        "created_at": row.created_at.isoformat(),
    }
