"""Issue 27, point 12: "Memory grew about 0.8 MB/s per process over 2 minutes
of 500 live tables; whether that is live tables or a leak is not known."

Measured (tracemalloc, a steady number of random-bot tables on one hub):
the growth is the live tables' own (event logs, moves), and it stops when
tables finish and are replaced. One thing did outlive its tables: the ids
of a client's tables, kept for its quota until that client created again,
so every client that came once kept its tables' ids for the life of the
process. A finished table now leaves that count at once.
"""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient

from .conftest import create


def test_a_finished_table_leaves_its_creators_quota_count(client: TestClient) -> None:
    """A client creates a table of bots and never comes back: once the game
    is over and the table left memory, the hub holds nothing of that client."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    headers = {"X-Bestiary-Client": "once-000001"}
    seats = [{"kind": "bot", "agent": "random"}] * 2
    r = client.post("/api/tables", json={"game": "toy", "seats": seats}, headers=headers)
    assert r.status_code == 201, r.text
    table = r.json()["id"]

    async def finished() -> None:
        for _ in range(4000):
            if table not in hub.live:
                return
            await asyncio.sleep(0.005)
        raise AssertionError("the table did not finish")

    client.portal.call(finished)  # type: ignore[union-attr]
    assert hub.info(table)["status"] == "finished"
    assert "id:once-000001" not in hub._created
    assert not any(table in ids for ids in hub._created.values())
    create(client, seats=["random", "random"])  # the quota still counts new tables
