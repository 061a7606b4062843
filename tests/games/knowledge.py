"""Checks shared by the games' sample tests: two worlds a seat cannot tell
apart must give the same sample, compared over the whole state."""

from __future__ import annotations

from typing import Any

from bestiary.engine.audit import canonical


def picture(st: Any) -> dict[str, object]:
    """Every attribute of a state but its caches, shared tables and event log
    (the log keeps hidden events in any copy; no bot reads it), by name."""
    shot = canonical(st, skip=frozenset(st.CACHES) | st.SHARED | {"game", "log"})
    return dict(shot[2])


def differ(a: dict[str, object], b: dict[str, object]) -> list[str]:
    """The attributes two pictures disagree on."""
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def told(st: Any, seat: int) -> list[object]:
    """The events ``seat`` is told, without their numbers (those count hidden events too)."""
    out: list[object] = []
    for e in st.events_since(0, seat):
        data = e.to_json()
        data.pop("i", None)
        out.append(data)
    return out
