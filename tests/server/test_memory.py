"""What stays in memory and what each move costs: finished tables leave (the
store keeps them), spectators share one view per move, updates go uncompressed."""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets
from fastapi.testclient import TestClient

from .conftest import create, hello, join, next_update
from .serving import running


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


def test_updates_are_not_compressed_per_socket(tmp_path: Path) -> None:
    """The served app declines per-message deflate: compressing the same update
    once for every spectator cost more than building it (400 spectators held a
    table to 2 moves/s; 6.9 without it, benchmarks/load.py)."""

    async def extensions(url: str) -> str | None:
        async with websockets.connect(url, compression="deflate") as ws:
            return ws.response.headers.get("Sec-WebSocket-Extensions")  # type: ignore[union-attr]

    with running("toy", str(tmp_path / "d.sqlite3")) as base:
        t = httpx.post(
            f"{base}/api/tables", json={"game": "toy", "seats": [{"kind": "human"}] * 2}
        ).json()
        url = base.replace("http", "ws") + f"/ws/tables/{t['id']}"
        assert asyncio.run(extensions(url)) is None
