"""What the server tells one seat (or a spectator): built only from what the
protocol gives that seat — ``view(seat)``, ``events_since(n, seat)``,
``legal(seat)`` and, once the game is over, the result.

This module is the whole of what leaves the server about a match in
progress, so the leak tests check it message by message.
"""

from __future__ import annotations

import logging
from typing import Any

from ..engine.events import Event
from ..engine.protocol import Game, State

log = logging.getLogger("bestiary.server")


def describe(game: Game, event: Event) -> str:
    """The game's readable line for an event (a plain fallback if the hook fails)."""
    try:
        return str(game.describe_event(event))
    except Exception:  # a game's describe hook must not break play
        log.exception("describe_event failed for %s event %s", game.id, event.kind)
        return event.kind


def event_json(game: Game, event: Event) -> dict[str, Any]:
    return {"event": event.to_json(), "text": describe(game, event)}


def seat_update(
    game: Game,
    state: State,
    seat: int | None,
    since: int,
    shown: int,
    moves: int,
    table: dict[str, Any],
) -> dict[str, Any]:
    """The update for ``seat`` (None: spectator) carrying its events after log
    index ``since``.

    Events are numbered among those this seat can see (``shown`` were sent
    before), so gaps never betray hidden events; ``moves`` is this seat's own
    counter of the moves that showed it something; ``table`` the lobby's
    public table info.
    """
    legal = [str(a) for a in state.legal(seat)] if seat is not None and not state.over else []
    result = state.result if state.over else None
    events = []
    for k, e in enumerate(state.events_since(since, seat)):
        item = event_json(game, e)
        item["event"]["i"] = shown + k
        events.append(item)
    return {
        "type": "update",
        "seat": seat,
        "moves": moves,
        "view": state.view(seat),
        "events": events,
        "legal": legal,
        "your_turn": bool(legal),
        "over": state.over,
        "result": result.to_json() if result is not None else None,
        "table": table,
    }


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}
