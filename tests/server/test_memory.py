"""What stays in memory: finished tables leave (the store keeps them), and
spectators share one view per move."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from .conftest import create, hello, join, next_update


def _wait_finished(client: TestClient, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.05)
    raise AssertionError("the table did not finish")


def test_a_finished_table_nobody_watched_leaves_memory(client: TestClient) -> None:
    """Bots play to the end with nobody connected: the table is dropped from
    memory, and reading it (info, record, replay) does not load it again."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    t = create(client, seats=["random", "random", "random"])
    info = _wait_finished(client, t["id"])
    assert t["id"] not in hub.live
    assert info["moves"] == 9 and info["result"]["winners"]
    assert client.get(f"/api/tables/{t['id']}/record").status_code == 200
    assert client.get(f"/api/tables/{t['id']}/replay").status_code == 200
    assert t["id"] not in hub.live


def test_spectators_share_one_view_per_move(client: TestClient) -> None:
    """Twelve spectators: one move builds the spectator's view once."""
    t = create(client, seats=["human", "human"], seed=2)
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.live[t["id"]]
    calls: list[int | None] = []
    real_view = table.state.view

    def counted(seat: int | None) -> Any:
        calls.append(seat)
        return real_view(seat)

    with ExitStack() as stack:
        player = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
        msg = hello(player, tokens[0])
        watchers = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
            for _ in range(12)
        ]
        for ws in watchers:
            hello(ws, None)
        table.state.view = counted  # type: ignore[method-assign]
        player.send_json({"type": "act", "action": msg["legal"][0]})
        first = [next_update(ws) for ws in watchers]
        assert all(m == first[0] for m in first)
        assert calls.count(None) == 1, calls
    del tokens
