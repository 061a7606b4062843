"""A table in play: the live state (rebuilt by replaying the stored moves),
one asyncio lock that orders every change, the connected seats and the bots.

Every change happens under the lock: parse the text, write the move and
apply it in one transaction, then queue an update for every connection that
the move showed something. Several seats deciding at once therefore never
race: each submission is checked against the state the previous one left.

What a seat may count: a move that shows a seat nothing (another seat's
private placement) sends that seat no message and changes none of its
counters. Each seat's ``moves`` counts only the moves that showed it an
event, and its events are numbered among the events it can see, so hidden
steps cannot be counted from gaps. The public move counter (lobby, table
info) is the spectator's.

Several processes (PostgreSQL, see ``cluster.py``): each process that has a
socket at a table keeps its own replica of it. A person's move is applied by
the process their socket is on; the store's (table, move number) key lets
only one writer have each number, and a writer that lost the race
(:class:`MoveTaken`) catches up from the store and checks the move again.
Only the process holding the table's lease runs its bots and turn timer
(``runs_bots``). Moves stored by others arrive through :meth:`catch_up`.

Undo (issue 26; the rules are in ``takeback.py``): a person alone with bots
may take back their own last move while it revealed nothing and no other
seat made a move they could see; the bots wait their beat (``bot_delay``,
``bestiary serve --bot-delay``) before answering, and that beat is the
window (with a beat of 0 there is none, and the refusal says so). Under
the lock the moves are deleted from the store, the state and the per-seat
counters go back to what they were before the move (a copy kept with it),
the bots' pending step starts again, and each socket that the moves showed
something gets ``reset`` and its whole state anew, with a log line; the
others get nothing (they cannot tell that anything happened). Not on a
shared store: see ``Store.take_back``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import BadRecord, BestiaryError, IllegalAction
from ..engine.protocol import Game, State
from ..engine.undo import reveals_nothing
from .bots import imports, playable
from .chat import ChatRoom
from .config import Limits
from .jobs import bot_move, bot_seed
from .messages import RESET, clock_json, clock_notice, error, seat_update, undo_notice
from .seeds import commitment
from .store import MoveTaken, Store, TableRow
from .takeback import (
    MOVED,
    NO_BEAT,
    NOT_PLAYING,
    PERSON,
    SHARED,
    Reason,
    Step,
    TakeBacks,
    UndoRefused,
)
from .turns import BotTurns
from .workers import Pool

log = logging.getLogger("bestiary.server")

__all__ = ["Connection", "LiveTable", "bot_move", "bot_seed", "rebuild", "table_info"]


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
    """One websocket: a seat (None for a spectator) and its outgoing queue of
    JSON texts (None ends it).

    The queue is bounded in bytes (``limit``; 0: no bound): a reader too slow
    for what it is sent would otherwise grow it without end (issue 27). The
    message that would take it over the bound is not queued: what waits is
    dropped, ``slow`` is set and ``over`` fires, and the socket's endpoint
    closes it (``TOO_SLOW``). A message larger than the bound still goes to
    a socket with nothing waiting (the whole log of a long game). ``queued``
    counts the message being written too, until the socket has taken it."""

    seat: int | None
    client: str = ""
    since: int = 0  # events of the log already considered for this connection
    shown: int = 0  # events this connection has been sent (its own numbering)
    last: str | None = None  # the last update sent, without its events
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    limit: int = 0  # the most bytes that may wait for this socket (0: no bound)
    queued: int = 0  # bytes waiting now (JSON texts are ASCII: characters are bytes)
    peak: int = 0  # the most that ever waited
    slow: bool = False  # went over the bound: its endpoint closes it
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, msg: dict[str, Any]) -> None:
        self.put(json.dumps(msg))

    def put(self, text: str) -> None:
        """Queue one JSON text, or end a socket that cannot take it (see above)."""
        if self.slow:
            return  # closing: nothing more is built up for it
        size = len(text)
        if self.limit and self.queued and self.queued + size > self.limit:
            self.slow = True
            while not self.queue.empty():  # free what waits at once
                dropped = self.queue.get_nowait()
                self.queued -= len(dropped) if dropped is not None else 0
            self.queue.put_nowait(None)
            self.over.set()
            return
        self.queued += size
        self.peak = max(self.peak, self.queued)
        self.queue.put_nowait(text)

    def taken(self, text: str) -> None:
        """The socket took ``text`` (written, or failed): it waits no more."""
        self.queued -= len(text)


class LiveTable:
    def __init__(
        self,
        row: TableRow,
        game: Game,
        store: Store,
        bot_delay: float,
        pool: Pool | None = None,
        limits: Limits | None = None,
        agents: Mapping[str, str] | None = None,
        turns: BotTurns | None = None,
    ) -> None:
        self.row, self.game, self.store = row, game, store
        # The server's queue of bot steps (background work, see turns.py);
        # a table of its own when none is shared.
        self.turns = turns if turns is not None else BotTurns()
        self.bot_delay = bot_delay
        self.pool = pool
        self.limits = limits or Limits()
        self.agents = dict(agents or {})  # the operator's own: NAME -> module:Object
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        # The turn timer: when each person's current decision runs out
        # (time.monotonic()), and the decisions it took: (log position, seat, who may
        # read "the clock ran out" — the seat, and those whose view lists it
        # in to_act).
        self.deadlines: dict[int, float] = {}
        self.ran_out: list[tuple[int, int, frozenset[int | None]]] = []
        # Undo: the moves that may still go back, the undos done (log position,
        # seat, who was told: their log line) and a count of them, which the
        # bots and the turn timer compare to notice that the table went back.
        self.takebacks = TakeBacks()
        self.taken_back: list[tuple[int, int, frozenset[int | None]]] = []
        self.generation = 0
        self.on_idle: Callable[[LiveTable], None] | None = None
        self._follower: asyncio.Task[None] | None = None  # catching up after notices
        self._specs: dict[str | None, str] = {}  # stored agent -> the spec it plays
        self._behind = False
        # Whether this process runs the bots and the turn timer: always with
        # one process; with several, only the holder of the table's lease.
        self.runs_bots = True
        # Who created the table, (address, client): its bots take turns with
        # other clients' bots for the loop and the workers (server/fair.py).
        self.owner: tuple[str, str] = (f"table:{row.id}", "")
        # Table chat (chat.py): in this process's memory only, never stored.
        self.chat = ChatRoom()
        self._rebuild()

    def _rebuild(self) -> None:
        """Replay the stored moves, counting for each seat (None: spectators)
        the moves that showed it an event."""
        self.state = self.game.new(
            self.row.players, seed=self.row.seed, variant=self.row.variant, options=self.row.options
        )
        self.shown_moves: dict[int | None, int] = dict.fromkeys([None, *range(self.row.players)], 0)
        for i, (seat, text) in enumerate(self.row.moves):
            before = self.state.event_count()
            try:
                self.state.apply_text(seat, text)
            except BestiaryError as exc:
                raise BadRecord(
                    f"table {self.row.id}: move {i} ({seat}: {text!r}) does not replay: {exc}"
                ) from None
            self._count_shown(before)

    def _count_shown(self, before: int) -> None:
        new = self.state.log.events[before:]
        for who in self.shown_moves:
            if any(e.visible(who) for e in new):
                self.shown_moves[who] += 1

    # -- public info ---------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def moves(self) -> int:
        return len(self.row.moves)

    def info(self) -> dict[str, Any]:
        return table_info(self.row, self.game, public_moves=self.shown_moves[None])

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == "human" and not s.taken]

    # -- connections ---------------------------------------------------------
    def connect(self, seat: int | None, client: str = "", limit: int = 0) -> Connection:
        """A new socket at the table (``limit``: its queue's bound in bytes,
        ``Connection``), sent everything so far."""
        conn = Connection(seat, client, limit=limit)
        self.connections.add(conn)
        self.resend(conn)
        backlog = self.chat.backlog()  # a reconnecting page sees the chat again
        if backlog is not None:
            conn.send(backlog)
        return conn

    def say(self, conn: Connection, content: dict[str, str]) -> None:
        """A chat message (``chat.parse``'s content) from ``conn``, to every
        socket at the table, the sender's too (its acknowledgement). Who
        wrote it is the socket's seat and the seat's name, or a spectator;
        nothing of the game goes with it."""
        seat = conn.seat
        name = (self.row.seats[seat].name or "player") if seat is not None else "spectator"
        text = json.dumps(self.chat.post(seat, name, content))
        for other in list(self.connections):
            other.put(text)

    def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.queue.put_nowait(None)  # past the bound too: it only ends the writer
        self._maybe_idle()

    def _maybe_idle(self) -> None:
        # Nothing will change any more (or another process runs the table and
        # nobody here watches it): the hub may forget it.
        idle = self.row.status == "finished" or not self.runs_bots
        if not self.connections and idle and self.on_idle is not None:
            self.on_idle(self)

    def resend(self, conn: Connection) -> None:
        """Everything again, from the first event (on connecting and on sync)."""
        conn.since = conn.shown = 0
        conn.last = None
        self._send_updates([conn], self.info())

    def _build(
        self, seat: int | None, since: int, shown: int, table: dict[str, Any]
    ) -> tuple[str, str, int]:
        """(update without events, whole update as JSON text, events carried)."""
        msg = seat_update(
            self.game,
            self.state,
            seat,
            since,
            shown,
            self.shown_moves[seat],
            table,
            clock=self._clock(seat),
            notices=self._notices(seat, since, shown, table),
            can_undo=seat is not None and self.why_no_undo(seat) is None,
        )
        events = msg.pop("events")
        # The clock's seconds change with every build: kept out of the part
        # compared with the last update, so they never cause a message.
        extra = "".join(
            f', "{k}": {json.dumps(msg.pop(k))}' for k in ("clock", "notices") if k in msg
        )
        core = json.dumps(msg)
        return core, f'{core[:-1]}{extra}, "events": {json.dumps(events)}}}', len(events)

    def _send_updates(
        self, conns: list[Connection], table: dict[str, Any], mover: int | None = None
    ) -> None:
        """Queue each connection its update, unless the move showed it nothing.
        The seat that moved always hears back (it knows it moved, and a move
        that changed nothing it can see must still be acknowledged). Connections
        in the same position (spectators, mostly) share one build."""
        built: dict[tuple[int | None, int, int], tuple[str, str, int] | None] = {}
        end = self.state.event_count()
        if self._whole is not None and self._whole[0][1] != end:
            self._whole = None  # the table moved on: the old whole log goes
        for conn in conns:
            key = (conn.seat, conn.since, conn.shown)
            if key not in built:
                if key == (None, 0, 0):
                    built[key] = self._whole_log(table)
                else:
                    built[key] = self._build_or_none(conn.seat, conn.since, conn.shown, table)
            out = built[key]
            conn.since = end
            if out is None:
                conn.send(error("internal server error: this seat's view could not be built"))
                continue
            core, text, carried = out
            if carried == 0 and core == conn.last and (mover is None or conn.seat != mover):
                continue  # nothing new for this seat: not even a message
            conn.shown += carried
            conn.last = core
            conn.put(text)

    # A spectator's whole log (on connecting and on sync), shared: (key, build).
    _whole: tuple[tuple[int, int, str], tuple[str, str, int]] | None = None

    def _whole_log(self, table: dict[str, Any]) -> tuple[str, str, int] | None:
        """A spectator's update from the first event, built once per position
        of the table and shared by every spectator who connects or syncs
        there: thirty syncs of a 2,000-move table built thirty copies of
        megabytes each (issue 27). Seats' updates carry their own clock and
        are not kept."""
        key = (self.moves, self.state.event_count(), json.dumps(table, sort_keys=True, default=str))
        if self._whole is not None and self._whole[0] == key:
            return self._whole[1]
        out = self._build_or_none(None, 0, 0, table)
        self._whole = (key, out) if out is not None else None
        return out

    def _build_or_none(
        self, seat: int | None, since: int, shown: int, table: dict[str, Any]
    ) -> tuple[str, str, int] | None:
        """:meth:`_build`, or None (logged) if the seat's view cannot be built."""
        try:
            return self._build(seat, since, shown, table)
        except Exception:
            log.exception("cannot build the update of table %s for seat %s", self.id, seat)
            return None

    def broadcast(self, mover: int | None = None) -> None:
        self._track_clock(mover)
        if self.connections:  # a bots' table nobody watches: no table info to build
            self._send_updates(list(self.connections), self.info(), mover)

    # -- seats ---------------------------------------------------------------
    def seat_taken(self, seat: int, name: str | None) -> None:
        s = self.row.seats[seat]
        s.taken, s.name = True, name
        self.takebacks.forget()
        if not self.free_seats() and self.row.status == "waiting":
            self.row.status = "playing"
        self.broadcast()
        self.wake_bots()

    async def resign(self, seat: int) -> None:
        """A person leaves for good: a bot (the normal level) plays the seat from
        now on; the seat's sockets watch as spectators, its token stops working."""
        async with self.lock:
            if self.row.status != "playing":
                raise IllegalAction(
                    f"only a game in play can be resigned (this one is {self.row.status})"
                )
            s = self.row.seats[seat]
            name = f"{s.name or 'player'} (resigned; bot)"[:64]
            self.store.hand_to_bot(self.id, seat, "normal", name)
            s.kind, s.agent, s.name = "bot", "normal", name
            self.takebacks.forget()
            self._demote(seat)
            self.broadcast()
        self.wake_bots()

    # -- moves ---------------------------------------------------------------
    async def act(self, seat: int, text: str) -> str:
        """Apply a seat's action given as text; IllegalAction (state unchanged) if not.

        With several processes this replica may be behind the store: a move
        another process stored first (:class:`MoveTaken`), or a refusal by a
        state that has not yet seen the move that made this one legal, sends
        it to the store for the moves it missed, and the move is checked again."""
        for attempt in range(10):
            async with self.lock:
                try:
                    done = await self._apply(seat, text, chosen=True)
                except MoveTaken:
                    await self._catch_up_locked()
                    continue
                except BestiaryError:
                    if self.store.shared and attempt == 0 and await self._catch_up_locked():
                        continue
                    raise
            self.wake_bots()
            return done
        raise IllegalAction("the table changed too often meanwhile; send the move again")

    # -- several processes: catching up with the store -------------------------
    def follow(self) -> None:
        """Another process stored moves here: catch up in the background. One
        catch-up runs at a time per table; notices that arrive meanwhile make
        it look once more (it reads every move it lacks), so a busy table
        costs one query per look, not one per notice, and notices of other
        tables never wait for this one's."""
        self._behind = True
        if self._follower is None:
            self._follower = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        try:
            while self._behind:
                self._behind = False
                await self.catch_up()
        except Exception:
            log.exception("could not follow table %s", self.id)
        finally:
            self._follower = None

    async def catch_up(self) -> None:
        """Apply the moves other processes stored since this replica's last,
        and tell this process's sockets."""
        async with self.lock:
            await self._catch_up_locked()
        self.wake_bots()

    async def refresh(self) -> None:
        """Seats, status and rematch as stored (another process seated
        someone, a person resigned there, the table expired), then the moves."""
        async with self.lock:
            head = await self.store.run(self.store.load_header, self.id)
            if head is not None:
                for old, new in zip(self.row.seats, head.seats, strict=True):
                    if old.kind == "human" and new.kind == "bot":
                        self._demote(old.seat)
                self.row.seats = head.seats
                self.row.rematch = head.rematch
                self.takebacks.forget()
                if self.row.status in ("waiting", "playing"):
                    self.row.status = head.status
                await self._catch_up_locked(quiet=True)
                self.broadcast()
                if self.row.status == "expired":
                    for conn in list(self.connections):
                        self.disconnect(conn)
        self.wake_bots()

    def people_here(self) -> bool:
        """Whether a person plays here through this process (their table's
        store calls go first: see ``Store.run``)."""
        return any(conn.seat is not None for conn in self.connections)

    async def _catch_up_locked(self, quiet: bool = False) -> int:
        """Under the lock: the stored moves this replica lacks, applied; how
        many. A history that does not replay here is reloaded whole."""
        if self.store.shared:  # a query: on the store's threads, not the event loop
            fresh = await self.store.run(
                self.store.moves_from, self.id, self.moves, urgent=self.people_here()
            )
        else:
            fresh = self.store.moves_from(self.id, self.moves)
        if not fresh:
            return 0
        self.takebacks.forget()  # moves made elsewhere: nothing goes back here
        try:
            for seat, text in fresh:
                before = self.state.event_count()
                self.state.apply_text(seat, text)
                self.row.moves.append((seat, text))
                self._count_shown(before)
        except BestiaryError:
            log.exception("table %s: stored moves do not follow this replica; reloading", self.id)
            row = self.store.load_table(self.id)
            if row is not None:
                self.row = row
                self._rebuild()
        if self.row.status == "waiting":
            self.row.status = "playing"  # someone moved: every seat was taken
        if self.state.over and self.state.result is not None:
            self.row.status = "finished"
            self.row.result = self.state.result.to_json()
        if not quiet:
            self.broadcast()
        if self.row.status == "finished":
            self._maybe_idle()
        return len(fresh)

    def _demote(self, seat: int) -> None:
        """The seat's sockets here watch as spectators (its person resigned)."""
        for conn in list(self.connections):
            if conn.seat == seat:
                conn.seat = None
                conn.send(error("you resigned: a bot plays this seat now; you are watching"))
                self.resend(conn)

    # -- undo (takeback.py) -----------------------------------------------------
    def why_no_undo(self, seat: int) -> Reason | None:
        """None when ``seat`` may take its last move back now, else why not."""
        return self._table_refusal(seat) or self.takebacks.why_not(seat)

    def _table_refusal(self, seat: int) -> Reason | None:
        """What the table itself says to any undo by ``seat``."""
        if self.row.status != "playing" or self.state.over:
            return Reason(NOT_PLAYING)
        if self.store.shared:
            return Reason(SHARED)
        others = [s for s in self.row.seats if s.seat != seat]
        if any(s.kind != "bot" for s in others):
            return Reason(PERSON)
        if others and self.bot_delay <= 0:
            return Reason(NO_BEAT)
        return None

    async def undo(self, seat: int) -> None:
        """Take back ``seat``'s last chosen move, with the bots' moves since
        that showed it nothing (they decide again); UndoRefused, nothing
        changed, when the rules in takeback.py do not allow it."""
        async with self.lock:
            reason = self.why_no_undo(seat)
            if reason is not None:
                raise UndoRefused(reason)
            step = self.takebacks.steps[-1]
            if not self.store.take_back(self.id, step.n, self.moves):
                # Never with one process: this table and the store disagree.
                log.error("table %s: the store holds other moves; reloading it", self.id)
                fresh = self.store.load_table(self.id)
                if fresh is not None:
                    self.row = fresh
                    self._rebuild()
                self.takebacks.forget()
                self.generation += 1
                self._whole = None
                for conn in list(self.connections):  # everyone starts again from the store
                    conn.send(RESET)
                    self.resend(conn)
                raise UndoRefused(Reason(MOVED))
            self.takebacks.take(seat)
            if step.deadline is not None:
                self.deadlines[seat] = step.deadline  # no fresh clock by moving and undoing

            def restore() -> None:
                # The copy from before the move and the counters then: no
                # replay, so an undo costs the same in a game of 2,000 moves.
                del self.row.moves[step.n :]
                self.state = step.before
                self.shown_moves = dict(step.shown)

            self._rewind(seat, restore)
            if self.bot_task is not None:  # its beat starts again from now
                self.bot_task.cancel()
                self.bot_task = None
        self.wake_bots()

    async def reload(self, n: int) -> None:
        """Another process took moves ``n`` on back (its notice): this
        replica is read again from the store and its sockets told as after
        an undo here."""
        async with self.lock:
            row = await self.store.run(self.store.load_table, self.id)
            if row is None:
                return
            self.takebacks.forget()
            if n >= self.moves:  # it never had them: only what came since
                await self._catch_up_locked()
                return

            def restore() -> None:
                self.row = row
                self._rebuild()

            self._rewind(self.row.moves[n][0], restore)
        self.wake_bots()

    def _rewind(self, who: int, restore: Callable[[], None]) -> None:
        """Under the lock: ``restore`` puts the table back (its moves, state
        and counters) from after ``who``'s undo. Each viewer the lost moves
        showed something (an event, a change of its view, its choices or
        the public counter) is told: its sockets get ``reset``, then their
        whole state with the log line of the undo. The others get nothing:
        nothing they could see changed."""
        viewers: list[int | None] = [None, *range(self.row.players)]
        table = self.info()
        before = {v: self._core(v, table) for v in viewers}
        counted = dict(self.shown_moves)
        restore()
        self.generation += 1  # a bot or the timer thinking about the old position drops it
        self._whole = None
        end = self.state.event_count()
        self.ran_out = [r for r in self.ran_out if r[0] <= end]
        self.taken_back = [r for r in self.taken_back if r[0] <= end]
        self._track_clock()
        table = self.info()
        told = frozenset(
            v
            for v in viewers
            if v == who
            or counted[v] != self.shown_moves[v]
            or before[v] is None
            or before[v] != self._core(v, table)
        )
        self.taken_back.append((end, who, told))
        for conn in list(self.connections):
            if conn.seat in told:
                conn.send(RESET)
                self.resend(conn)
            else:
                conn.since = end

    def _core(self, seat: int | None, table: dict[str, Any]) -> str | None:
        """What an update to ``seat`` says now but for events, clock and log
        lines: a move after which it (and the seat's counter) is the same
        showed the seat nothing. None if it cannot be built (then it counts
        as changed)."""
        out = self._build_or_none(seat, self.state.event_count(), 0, table)
        return out[0] if out is not None else None

    def _before_move(
        self, seat: int, chosen: bool
    ) -> tuple[tuple[State, dict[int | None, int]] | None, str | None]:
        """Before a move: a copy of the state and the counters to take it
        back to (a person's chosen move, where the table allows undo), or
        the watched seat's update (a bot's move while another seat's move
        may still go back)."""
        if chosen and self._table_refusal(seat) is None:
            return (self.state.clone(), dict(self.shown_moves)), None
        watched = self.takebacks.seat
        if watched is not None and watched != seat and self.row.seats[seat].kind == "bot":
            return None, self._core(watched, self.info())
        return None, None

    def _after_move(
        self,
        seat: int,
        action: Any,
        undo_to: tuple[State, dict[int | None, int]] | None,
        quiet: str | None,
    ) -> None:
        """After a move (before anyone is told): a step that may go back, a
        bot's move that showed the watched seat nothing, or the end of the
        watched seat's window."""
        watched = self.takebacks.seat
        if undo_to is not None:
            before, shown = undo_to
            safe = reveals_nothing(before, self.state, seat, action)
            n, deadline = self.moves - 1, self.deadlines.get(seat)
            self.takebacks.record(Step(seat, before, n, str(action), safe, shown, deadline))
        elif quiet is None or watched is None or self._core(watched, self.info()) != quiet:
            self.takebacks.close()  # the watched seat saw it (or could not be asked)

    def _mark(self) -> tuple[int, int]:
        """Where the table is: its moves and its undos (a bot that thought
        about another position thinks again)."""
        return self.moves, self.generation

    async def _apply(
        self,
        seat: int,
        text: str,
        person: bool = True,
        urgent: bool | None = None,
        chosen: bool = False,
    ) -> str:
        """Under the lock: check, record and apply one move, then tell everyone.
        Nobody hears of a move before it is committed; MoveTaken (state
        unchanged) if another process already stored a move of that number.
        ``chosen``: the person at ``seat`` chose it (it may be taken back)."""
        if self.row.status == "waiting":
            free = ", ".join(map(str, self.free_seats()))
            raise IllegalAction(f"the table is waiting for players to take seat(s) {free}")
        if self.row.status != "playing":
            raise IllegalAction(f"the table is {self.row.status}")
        action = self.state.parse(seat, text)  # raises with the allowed actions
        canonical = str(action)
        n = self.moves
        before = self.state.event_count()
        undo_to, quiet = self._before_move(seat, chosen)
        if self.store.shared:
            await self._apply_shared(
                seat, action, canonical, n, person, person if urgent is None else urgent
            )
        else:
            self._apply_local(seat, action, canonical, n)
        self.row.moves.append((seat, canonical))
        self._count_shown(before)
        if self.state.over and self.state.result is not None:
            self.row.status = "finished"
            self.row.result = self.state.result.to_json()
        self._after_move(seat, action, undo_to, quiet)
        self.broadcast(mover=seat)
        if self.row.status == "finished":
            self._maybe_idle()  # nobody watching the end: memory is freed at once
        return canonical

    def _apply_local(self, seat: int, action: Any, canonical: str, n: int) -> None:
        """SQLite (one process): write, apply and commit inline. A commit in
        WAL mode is a write to the file, shorter than a hop to a thread."""
        try:
            with self.store.recording_move(self.id, n, seat, canonical) as finish:
                self.state.apply(seat, action)
                if self.state.over and self.state.result is not None:
                    finish(self.state.result.to_json())
        except (BestiaryError, MoveTaken):
            raise  # apply refused or the number was taken: nothing written, state unchanged
        except Exception:
            self._reload(f"could not record move {n}")
            raise

    async def _apply_shared(
        self,
        seat: int,
        action: Any,
        canonical: str,
        n: int,
        person: bool = True,
        urgent: bool = True,
    ) -> None:
        """PostgreSQL: the move is applied to a copy of the state, written and
        committed in one call on a store thread (the event loop never waits
        for the database's disk, and a connection is held only while the
        thread writes), and the copy becomes the state once it is stored."""
        state = self.state.clone()
        state.apply(seat, action)  # IllegalAction: nothing written, state unchanged
        result = state.result.to_json() if state.over and state.result is not None else None
        try:
            if not person and not urgent and result is None:
                # A bot's move with nobody here waiting for it: written with
                # other tables' bots' moves in one statement, announced after
                # the commit (Store.write_bot_move).
                await self.store.write_bot_move(self.id, n, seat, canonical)
            else:
                # A bot's move is announced after its commit, batched (see
                # Store.write_move); a person's in its own transaction.
                await self.store.run(
                    self.store.write_move,
                    self.id,
                    n,
                    seat,
                    canonical,
                    result,
                    not person,
                    urgent=urgent,
                )
        except MoveTaken:
            raise
        except Exception:
            self._reload(f"could not record move {n}")
            raise
        self.state = state

    def _reload(self, why: str) -> None:
        log.exception("table %s: %s; reloading it from the store", self.id, why)
        fresh = self.store.load_table(self.id)
        if fresh is not None:
            self.row = fresh
            self._rebuild()
            self.takebacks.forget()
        self.broadcast()

    # -- bots ----------------------------------------------------------------
    def _next_bot_seat(self) -> int | None:
        if not self.runs_bots or self.row.status != "playing" or self.state.over:
            return None
        owed = set(self.state.to_act())
        for s in self.row.seats:  # lowest seat first: the order is deterministic
            if s.kind == "bot" and s.seat in owed:
                return s.seat
        return None

    def wake_bots(self) -> None:
        """Start the bot loop if a bot owes a move and none is running; restart
        the turn timer."""
        if self.bot_task is None and self._next_bot_seat() is not None:
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())
        self._arm_timer()

    # -- the turn timer ---------------------------------------------------------
    def _late_people(self) -> list[int]:
        if self.row.status != "playing" or self.state.over:
            return []
        owed = set(self.state.to_act())
        return [s.seat for s in self.row.seats if s.kind == "human" and s.seat in owed]

    def _track_clock(self, mover: int | None = None) -> None:
        """Start the clock of each person who now owes a decision and stop the
        others'. A seat's clock runs from the moment it owes a move until it
        moves (then it starts again for its next decision); another seat's
        move never resets it, so its deadline tells nothing of hidden moves."""
        if not self.runs_bots or not self.row.turn_seconds:
            self.deadlines.clear()
            return
        late = set(self._late_people())
        if mover is not None:
            self.deadlines.pop(mover, None)
        for seat in [s for s in self.deadlines if s not in late]:
            del self.deadlines[seat]
        due = time.monotonic() + self.row.turn_seconds
        for seat in sorted(late):
            self.deadlines.setdefault(seat, due)

    def _clock(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's own clock (seconds left), while it owes a decision."""
        due = self.deadlines.get(seat) if seat is not None else None
        if due is None or not self.row.turn_seconds:
            return None
        left = due - time.monotonic()
        return clock_json(left, self.row.turn_seconds)

    def _notices(
        self, seat: int | None, since: int, shown: int, table: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """The clock's and the undos' log lines among the events after
        ``since`` that this seat may read, each placed before the event it
        preceded."""
        out = []
        events = self.state.log.events
        for pos, late, audience in self.ran_out:
            if pos >= since and seat in audience:
                at = shown + sum(1 for e in events[since:pos] if e.visible(seat))
                out.append(clock_notice(table, late, at))
        for pos, who, audience in self.taken_back:
            if pos >= since and seat in audience:
                at = shown + sum(1 for e in events[since:pos] if e.visible(seat))
                out.append(undo_notice(table, who, at, yours=seat == who))
        return out

    def _arm_timer(self) -> None:
        """With a turn timer, watch the people who owe a move now: a person
        whose decision is not made in time gets a bot's move (the seat stays
        theirs)."""
        self._track_clock()
        if not self.deadlines:
            return
        if self.timer is None or self.timer.done():
            self.timer = asyncio.get_running_loop().create_task(self._expire_turns())

    async def _expire_turns(self) -> None:
        """Sleep until the first deadline; a seat still owing that decision
        then gets the normal bot's move, and the log says so."""
        try:
            while self.deadlines:
                seat, due = min(self.deadlines.items(), key=lambda kv: kv[1])
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if self.deadlines.get(seat) != due:
                    continue  # it moved meanwhile: its next decision has its own clock
                if seat not in self._late_people():
                    del self.deadlines[seat]  # it owes nothing now (resigned, game over)
                    continue
                mark = self._mark()
                text = await self._bot_decision(seat, "normal")
                async with self.lock:
                    if self._mark() != mark or self.deadlines.get(seat) != due:
                        continue  # the table moved while the bot thought: again
                    log.info("table %s: seat %d ran out of time; a bot moved", self.id, seat)
                    self.ran_out.append((self.state.event_count(), seat, self._told_late(seat)))
                    try:
                        await self._apply(seat, text)
                    except MoveTaken:
                        self.ran_out.pop()
                        await self._catch_up_locked()
                        continue
                self.wake_bots()
        finally:
            if self.timer is asyncio.current_task():
                self.timer = None

    def _told_late(self, seat: int) -> frozenset[int | None]:
        """Who may read that ``seat``'s clock ran out: the seat itself, and each
        viewer (spectators: None) whose view lists it in ``to_act`` (a seat
        deciding in private stays private)."""
        told: set[int | None] = {seat}
        for viewer in [None, *range(self.row.players)]:
            try:
                owed = self.state.view(viewer).get("to_act") or ()
            except Exception:
                continue  # a view that fails is no reason to tell more
            if seat in owed:
                told.add(viewer)
        return frozenset(told)

    async def _bot_loop(self) -> None:
        try:
            while True:
                seat = self._next_bot_seat()
                if seat is None:
                    self.bot_task = None  # no await since the check: wake_bots sees it
                    return
                # Always an await: with no delay and a bot that decides inline,
                # the loop would otherwise never yield and starve the server.
                await asyncio.sleep(self.bot_delay)
                # Think without the lock (people may move meanwhile), then apply
                # only if nothing moved (nor went back): else think again.
                mark = self._mark()
                if seat not in self.state.to_act():
                    continue
                # Background work: wait for a bot turn before each step that
                # holds the event loop (people's messages are read between two).
                await self.turns.wait(self.bot_key)
                if self._mark() != mark or seat not in self.state.to_act():
                    continue
                inline = self._decides_inline(seat)
                text = await self._bot_decision(seat)
                if not inline:  # it thought in a worker: queue again to apply
                    await self.turns.wait(self.bot_key)
                async with self.lock:
                    if self._mark() != mark or seat not in self.state.to_act():
                        continue
                    try:
                        # A bot at a table where people play through this process
                        # holds the lock they wait for: its write goes first too.
                        await self._apply(seat, text, person=False, urgent=self.people_here())
                    except MoveTaken:  # another process stored a move first
                        await self._catch_up_locked()
                        continue
                self._arm_timer()  # a person may owe the next move
        except asyncio.CancelledError:
            if self.bot_task is asyncio.current_task():  # an undo may have started another
                self.bot_task = None
            raise
        except Exception:
            # A store that failed for a moment (a lost connection): try again soon.
            log.exception("the bots of table %s stopped; again in 2 s", self.id)
            if self.bot_task is asyncio.current_task():
                self.bot_task = None
            asyncio.get_running_loop().call_later(2.0, self.wake_bots)

    @property
    def bot_key(self) -> tuple[str, str, str]:
        """Whose bots these are, for taking turns: (address, client, table)."""
        return (*self.owner, self.id)

    def _decides_inline(self, seat: int) -> bool:
        """Whether the seat's bot decides on the event loop (no awaiting)."""
        return self._playable(self.row.seats[seat].agent) == "random" or self.pool is None

    def _playable(self, agent: str | None) -> str:
        """The spec a stored agent plays (``bots.playable``), resolved once per
        agent: every bot move asks twice (inline or not, then the decision)."""
        spec = self._specs.get(agent)
        if spec is None:
            spec = self._specs[agent] = playable(
                self.game,
                agent,
                self.limits.max_iterations,
                self.agents,
                self.row.players,
                self.limits.max_search_seconds,
            )
        return spec

    async def _bot_decision(self, seat: int, agent: str | None = None) -> str:
        """The bot's move for ``seat``: its own bot, or ``agent`` (a person's
        seat whose time ran out)."""
        spec = self._playable(agent or self.row.seats[seat].agent)
        n = self.moves
        if spec != "random" and self.pool is not None:
            try:
                # Search bots think in a worker process, within a time budget.
                out = await self.pool.run(
                    bot_move,
                    self.game,
                    # A copy that shares nothing changing with the live state
                    # (engine/audit.py), pickled at once on this loop (workers.py).
                    self.state.clone(),
                    spec,
                    self.row.seed,
                    seat,
                    n,
                    imports(spec, self.agents),  # only the operator's own agents
                    seconds=self.limits.bot_seconds,
                    key=self.bot_key,  # served in turn with other clients' bots
                )
                return str(out)
            except BestiaryError as exc:
                log.warning("bot %r at table %s: %s; playing a random move", spec, self.id, exc)
        try:
            return bot_move(self.game, self.state, "random", self.row.seed, seat, n)
        except Exception:
            log.exception("bot %r failed at table %s; playing its first legal move", spec, self.id)
            return str(self.state.legal(seat)[0])

    def stop_bots(self) -> None:
        """Another process runs this table's bots from now on (it holds the lease)."""
        self.runs_bots = False
        self.deadlines.clear()
        if self.bot_task is not None:
            self.bot_task.cancel()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    async def close(self) -> None:
        if self._follower is not None:
            self._follower.cancel()
        if self.timer is not None:
            self.timer.cancel()
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.bot_task
        for conn in list(self.connections):
            self.disconnect(conn)


def table_info(row: TableRow, game: Game | None, public_moves: int | None = None) -> dict[str, Any]:
    """The lobby's public picture of a table (no tokens, no hidden state).

    The seed is published as a commitment (its SHA-256) until the game is
    over, and in full afterwards, so anyone can check the deal was fair.
    ``moves`` is the public move counter: it counts only the moves a
    spectator was shown, until the end (then every move is public)."""
    over = row.status == "finished"
    everything = len(row.moves) if row.moves else row.move_count
    moves = everything if over else public_moves
    return {
        "id": row.id,
        "game": row.game,
        "title": game.title if game is not None else row.game,
        "variant": row.variant,
        "options": row.options,
        "players": row.players,
        "status": row.status,
        "seats": [s.public() for s in row.seats],
        "moves": moves,
        "result": row.result,
        "created_at": row.created_at.isoformat(),
        "seed_sha256": commitment(row.seed),
        "seed": str(row.seed) if over else None,
        "seed_chosen": row.seed_chosen,  # a solo table whose player brought the seed
        "turn_seconds": row.turn_seconds,
        "rematch": row.rematch,
    }
