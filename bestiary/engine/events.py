"""Events: what happened, and who may know it.

A state appends events to its :class:`EventLog`; ``events_since(n, seat)``
hands a seat only the events it may see. The server sends exactly these, so
an event that carries a hidden card with the wrong visibility is a leak.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

EVERYONE: None = None


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """How a log line names a seat: the table's name for it, else "seat N"
    (translated; seats are numbered from 0 as everywhere in the engine)."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    from bestiary.i18n import core

    return core.gettext("seat {n}").format(n=seat)


def name_seats(names: Sequence[str] | None = None) -> Callable[[str, str], object]:
    """The ``fill`` of ``bestiary.i18n.labels.label_with`` for an action label
    whose ``seat`` group is a seat number: it becomes :func:`seat_label`; any
    other group stays as matched."""

    def fill(key: str, value: str) -> object:
        return seat_label(int(value), names) if key == "seat" else value

    return fill


@dataclass(frozen=True, slots=True)
class Event:
    index: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    # None: everyone (spectators included); otherwise the seats that may see it.
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int | None) -> bool:
        if self.visible_to is None:
            return True
        return seat is not None and seat in self.visible_to

    def to_json(self) -> dict[str, Any]:
        return {"i": self.index, "kind": self.kind, **self.data}


class EventLog:
    """An append-only list of events. Disabled (``enabled = False``) it records
    nothing, which simulation and benchmarks use to skip the work."""

    __slots__ = ("enabled", "events")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.events: list[Event] = []

    def emit(self, kind: str, to: Iterable[int] | None = None, **data: Any) -> None:
        if not self.enabled:
            return
        visible = None if to is None else frozenset(to)
        self.events.append(Event(len(self.events), kind, data, visible))

    def since(self, n: int, seat: int | None) -> list[Event]:
        return [e for e in self.events[n:] if e.visible(seat)]

    def __len__(self) -> int:
        return len(self.events)

    def copy(self) -> EventLog:
        other = EventLog(self.enabled)
        other.events = list(self.events)  # events are immutable: sharing them is safe
        return other
