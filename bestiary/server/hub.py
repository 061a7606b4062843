"""The hub: every live table of this server, created, loaded and joined here.

On start it replays every unfinished table from the store and wakes its
bots, so a restarted server (even after ``kill -9``) carries on exactly
where the stored moves left off. Finished tables load on demand.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..agents.base import make_agent
from ..engine.errors import BadInput, BestiaryError
from ..engine.registry import get_game
from .live import LiveTable, table_info
from .store import SeatRow, Store, TableRow

log = logging.getLogger("bestiary.server")

HUMAN = "human"


class NotFound(BestiaryError):
    """No such table (or no such seat)."""


class Conflict(BestiaryError):
    """The request clashes with the table's state (a seat already taken...)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Hub:
    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.live: dict[str, LiveTable] = {}

    async def start(self) -> None:
        for table_id in self.store.table_ids(("waiting", "playing")):
            try:
                self.get(table_id).wake_bots()
            except BestiaryError as exc:
                log.error("table %s cannot resume: %s", table_id, exc)

    async def stop(self) -> None:
        for table in list(self.live.values()):
            await table.close()
        self.live.clear()

    def get(self, table_id: str) -> LiveTable:
        table = self.live.get(table_id)
        if table is not None:
            return table
        row = self.store.load_table(table_id)
        if row is None:
            raise NotFound(f"no table {table_id!r}")
        game = get_game(row.game)
        table = LiveTable(row, game, self.store, self.bot_delay)
        table.on_idle = self._forget
        self.live[table_id] = table
        return table

    def _forget(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory (the store keeps it)."""
        if self.live.get(table.id) is table:
            del self.live[table.id]

    def create(
        self,
        game_id: str,
        seats: list[Mapping[str, Any]],
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> LiveTable:
        """Check everything (game, players, variant, options, agent specs) before
        anything is stored; raise the engine's error naming what is allowed."""
        game = get_game(game_id)
        options = dict(options or {})
        # A remote client must never make the server read a file of its choosing.
        type(game.ruleset(variant)).refuse_paths(options)
        if seed is None:
            seed = secrets.randbelow(2**31)
        rows: list[SeatRow] = []
        for i, spec in enumerate(seats):
            kind = str(spec.get("kind", HUMAN))
            name = spec.get("name")
            if kind == HUMAN:
                rows.append(SeatRow(i, HUMAN, None, None))
            elif kind == "bot":
                agent = str(spec.get("agent") or "random")
                make_agent(game, agent, 0)  # BadAgentSpec lists the agents
                rows.append(SeatRow(i, "bot", agent, str(name or f"{agent} bot")[:64]))
            else:
                raise BadInput(f"seat {i}: kind {kind!r} is not 'human' or 'bot'")
        game.new(len(rows), seed=seed, variant=variant, options=options)  # validates
        status = "waiting" if any(r.kind == HUMAN for r in rows) else "playing"
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
        )
        self.store.create_table(row)
        table = LiveTable(row, game, self.store, self.bot_delay)
        table.on_idle = self._forget
        self.live[row.id] = table
        table.wake_bots()
        return table

    def join(self, table_id: str, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the first one if ``seat`` is None): (seat, token)."""
        table = self.get(table_id)
        free = table.free_seats()
        if seat is None:
            if not free:
                raise Conflict(f"table {table_id} has no free seat")
            seat = free[0]
        if not 0 <= seat < table.row.players:
            raise NotFound(f"table {table_id} has seats 0 to {table.row.players - 1}")
        if seat not in free:
            raise Conflict(
                f"seat {seat} is not free; free seats: {', '.join(map(str, free)) or 'none'}"
            )
        token = secrets.token_urlsafe(32)
        if not self.store.take_seat(table_id, seat, name, token_hash(token)):
            raise Conflict(f"seat {seat} was just taken")
        table.seat_taken(seat, name)
        return seat, token

    def seat_of(self, table_id: str, token: str) -> int | None:
        return self.store.seat_of_token(table_id, token_hash(token))

    def list(self, status: str | None) -> list[dict[str, Any]]:
        out = []
        for row in self.store.list_tables(status):
            live = self.live.get(row.id)
            if live is not None:
                out.append(live.info())
                continue
            try:
                game = get_game(row.game)
            except BestiaryError:
                game = None
            out.append(table_info(row, game))
        return out
