"""``POST /api/tables/{id}/hint``: the strongest bot's move for your seat.

The search runs in a tool worker process (clients served in turn, each
with a bound on its requests under way: a flood is refused with 429 and a
Retry-After, not queued ahead of others) within a time budget, on a copy of
the table's state, and decides only through the seat's own context (its view,
its legal moves, determinizations of what it cannot see): a hint tells you
nothing your own view does not. Hints are for tables where you play bots only —
at a table with another person a hint would be a second player at your side.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..engine.errors import BadInput, NotYourTurn
from . import jobs
from .config import Limits
from .hub import Hub, NotFound

#: The search's own budget; the worker gets a little more to start and answer.
HINT_SECONDS = 1.0


class HintRequest(BaseModel):
    token: str = Field(max_length=200)


def hint_router(
    hub: Hub, limits: Limits, who: Callable[[Request], tuple[str, str]] | None = None
) -> APIRouter:
    """``who``: a request's (address, client), by which the tool workers serve
    clients in turn and bound each one's requests under way (server/fair.py)."""
    router = APIRouter()

    @router.post("/api/tables/{table_id}/hint", summary="The strongest bot's move for your seat")
    async def hint(table_id: str, req: HintRequest, request: Request) -> dict[str, Any]:
        key = who(request) if who is not None else ()
        # A client over its bound is refused first, before the seat's lookup,
        # the state's copy and the job's pickle: a flood of hints cost the event
        # loop about 12 ms each while it was being refused (issue 27).
        hub.tools.refuse_if_over(key)
        table = hub.get(table_id)
        seat = await hub.seat_of_async(table_id, req.token)
        if seat is None:
            raise NotFound("no seat of this table has that token")
        people = [i for i, s in enumerate(table.row.seats) if s.kind == "human"]
        if people != [seat]:
            raise BadInput("hints are for tables against bots only: another person plays here")
        state = table.state
        if state.over:
            raise BadInput("the game is over")
        if seat not in state.to_act():
            raise NotYourTurn("a hint is for your own turn: you have no decision now")
        return dict(
            await hub.tools.run(
                jobs.hint,
                table.game,
                state.clone(),  # a copy: the live table moves on meanwhile
                seat,
                HINT_SECONDS,
                seconds=HINT_SECONDS + limits.tool_seconds,
                wait=limits.queue_seconds,
                key=key,
            )
        )

    return router
