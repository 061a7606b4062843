"""Fixtures for the server tests: an app on a fresh SQLite file, the toy game
registered, and small helpers to speak the websocket protocol."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from bestiary.engine import register
from bestiary.engine.errors import BestiaryError
from bestiary.engine.registry import game_ids, get_game
from bestiary.server import create_app
from bestiary.server.config import Limits

from ..engine.toygame import GAME as TOY

register(TOY)


def loadable_games() -> list[str]:
    """Every registered game that loads now (the real games are being written
    in parallel: one that fails to load is skipped, and named in the report)."""
    out = []
    for gid in game_ids():
        try:
            get_game(gid)
        except BestiaryError:
            continue
        out.append(gid)
    return out


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bestiary.sqlite3")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, bot_delay=0)) as c:
        yield c


@pytest.fixture
def fast_client(db_path: str) -> Iterator[TestClient]:
    """No practical rate limit: for tests that play many moves quickly."""
    limits = Limits(client_messages_per_second=1e6, client_message_burst=10**6, table_burst=10**6)
    app = create_app(db_path, bot_delay=0, rate_per_second=1e6, burst=10**6, limits=limits)
    with TestClient(app) as c:
        yield c


def create(
    client: TestClient, game: str = "toy", seats: list[Any] | None = None, **kw: Any
) -> dict[str, Any]:
    """A table through the API; with a ``seed`` for a table several people may
    join (which the API refuses), through the hub, as a trusted caller would."""
    seats = seats if seats is not None else ["human", "random", "random"]
    specs = [{"kind": "human"} if s == "human" else {"kind": "bot", "agent": s} for s in seats]
    if kw.get("seed") is not None and seats.count("human") != 1:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        async def make() -> dict[str, Any]:
            return dict(hub.create(game, specs, **kw).info())

        return dict(client.portal.call(make))  # type: ignore[union-attr]
    body = {"game": game, "seats": specs, **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def join(client: TestClient, table: str, seat: int | None = None, name: str = "ann") -> str:
    r = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def recv(ws: Any, timeout: float = 20.0) -> Any:
    """``ws.receive_json()`` that fails after ``timeout`` seconds instead of
    hanging the test run when an expected message never comes."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    return json.loads(message["text"])


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg: dict[str, Any] = recv(ws)
    return msg


def next_update(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = recv(ws)
        if msg["type"] == "update":
            return msg
