"""What each seat has seen happen, kept whole for the ``log`` command.

A game's own render shows only the last few events; the terminal keeps every
event line a seat may see, prints all of those since its last decision, and
pages back through the rest on request, so no duel or battle goes untold.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.events import Event
from ..engine.protocol import Game, State
from .cardtext import plain


def readable(event: Event, names: Sequence[str] | None = None) -> str:
    """An event of a game that has no describer, in words rather than Python data."""
    parts = ", ".join(f"{k.replace('_', ' ')} {plain(v)}" for k, v in event.data.items())
    return f"{event.kind.replace('_', ' ')}: {parts}" if parts else event.kind.replace("_", " ")


class History:
    """Every described event per seat, and how much of it the seat has read."""

    def __init__(self, game: Game, names: Sequence[str] | None = None) -> None:
        self.game = game
        self.names = names  # how log lines call each seat (``events.seat_label``)
        own = type(game).describe_event is not Game.describe_event
        self.describe = game.describe_event if own else readable
        self.lines: dict[int | None, list[str]] = {}
        self._origin: dict[int | None, list[int]] = {}  # the event index of each line
        self._events: dict[int | None, list[Event]] = {}  # the event of each line
        self._read_to: dict[int | None, int] = {}  # events of the log already described
        self._shown: dict[int | None, int] = {}  # lines the seat has already been shown

    def _describe(self, state: State, seat: int | None) -> None:
        start = self._read_to.get(seat, 0)
        lines = self.lines.setdefault(seat, [])
        origin = self._origin.setdefault(seat, [])
        events = self._events.setdefault(seat, [])
        for event in state.events_since(start, seat):
            try:
                text = self.describe(event, self.names)
            except TypeError:  # a game written before describers took the seats' names
                try:
                    text = self.describe(event)
                except Exception:
                    text = event.kind
            except Exception:  # a game's describer must not cost the player the log
                text = event.kind
            parts = text.splitlines() or [""]
            lines.extend(parts)
            origin.extend([event.index] * len(parts))
            events.extend([event] * len(parts))
        self._read_to[seat] = state.event_count()

    def rewind(self, events: int) -> None:
        """Forget the lines of events ``events`` and later (an undone move's)."""
        for seat, origin in self._origin.items():
            keep = sum(1 for i in origin if i < events)
            del origin[keep:]
            del self.lines[seat][keep:]
            del self._events[seat][keep:]
            self._read_to[seat] = min(self._read_to.get(seat, 0), events)
            self._shown[seat] = min(self._shown.get(seat, 0), keep)

    def new_lines(self, state: State, seat: int | None) -> list[str]:
        """Every line since ``seat`` was last shown the log (all of them, untruncated)."""
        self._describe(state, seat)
        lines = self.lines[seat]
        fresh = lines[self._shown.get(seat, 0) :]
        self._shown[seat] = len(lines)
        return fresh

    def event_at(self, seat: int | None, line: int) -> Event | None:
        """The event that log line ``line`` (numbered from 1) tells of."""
        events = self._events.get(seat, [])
        return events[line - 1] if 1 <= line <= len(events) else None

    def last(self, state: State, seat: int | None, n: int | None) -> list[tuple[int, str]]:
        """The last ``n`` lines (all when None), numbered from 1 for paging."""
        self._describe(state, seat)
        lines = self.lines[seat]
        start = 0 if n is None else max(0, len(lines) - n)
        return [(i + 1, lines[i]) for i in range(start, len(lines))]
