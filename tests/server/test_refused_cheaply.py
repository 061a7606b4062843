"""Issue 27, "while one client runs every attack above at once, another
person's move round trip stays under 250 ms at p99": a hint flood from one
client, refused with 429, still cost the event loop about 12 ms a request
(the seat's lookup, a copy of the state and its pickle came before the
check), enough to stall everyone's moves. A request over its client's bound
is now refused before any of that work."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bestiary.server import workers
from bestiary.server.fair import TooMany
from bestiary.server.workers import WorkerPool


def _nothing() -> None:
    return None


def test_a_call_over_its_clients_bound_is_refused_before_its_job_is_pickled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pickled: list[Any] = []
    real = workers.snapshot

    def counting(fn: Any, args: tuple[Any, ...]) -> bytes:
        pickled.append(args)
        return real(fn, args)

    monkeypatch.setattr(workers, "snapshot", counting)
    pool = WorkerPool(1, "tool", most=(1, 1))  # one call under way per address

    async def go() -> None:
        key = ("10.0.0.1", "hog", "t1")
        pool.slots.under_way.update(pool.slots._prefixes(key))  # one call already under way
        with pytest.raises(TooMany):
            await pool.run(_nothing, "a large state", seconds=1, wait=0, key=key)

    try:
        asyncio.run(go())
    finally:
        pool.close()
    assert pickled == []  # refused at the door: no pickle was made


def test_a_refused_hint_copies_no_state(monkeypatch: pytest.MonkeyPatch, db_path: str) -> None:
    """The hint endpoint checks the client's bound before it copies the table."""
    from fastapi.testclient import TestClient

    from bestiary.server import create_app
    from bestiary.server.config import Limits

    from .conftest import create, join

    limits = Limits(tool_workers=1, tool_seconds=1.0, queue_seconds=0.1)
    with TestClient(create_app(db_path, bot_delay=3600, limits=limits)) as client:
        table = create(client, seats=["human", "random"])
        token = join(client, table["id"], 0)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        live = hub.get(table["id"])
        copies: list[int] = []
        real_clone = type(live.state).clone

        def counting_clone(self: Any) -> Any:
            copies.append(1)
            return real_clone(self)

        def over(key: Any = ()) -> None:
            raise TooMany("you already have 1 requests under way (at most 1 at once)", 1)

        monkeypatch.setattr(type(live.state), "clone", counting_clone)
        monkeypatch.setattr(hub.tools, "refuse_if_over", over)
        r = client.post(f"/api/tables/{table['id']}/hint", json={"token": token})
        assert r.status_code == 429, r.text
        assert "under way" in r.text
        assert copies == []
