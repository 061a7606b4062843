"""Fair deals: 128-bit seeds nobody chose, a commitment published at the
start, the seed revealed with the record at the end, and never before."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from bestiary.engine import get_game
from bestiary.server.store import MIGRATIONS, Store, database_url

from .conftest import hello, join, recv


def test_seeds_are_128_bit_and_never_chosen_by_a_table_others_join(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seats = [{"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/tables", json={"game": "toy", "seats": seats, "seed": 7})
    assert r.status_code == 400 and "solo table" in r.json()["detail"]
    assert client.get("/api/tables").json()["total"] == 0
    ids = [
        client.post("/api/tables", json={"game": "toy", "seats": seats}).json()["id"]
        for _ in range(6)
    ]
    bits = [hub.live[i].row.seed.bit_length() for i in ids]
    assert max(bits) > 100 and len({hub.live[i].row.seed for i in ids}) == 6
    solo = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    r = client.post("/api/tables", json={"game": "toy", "seats": solo, "seed": 7})
    assert r.status_code == 201 and r.json()["seed_chosen"] is True
    assert client.get(f"/api/tables/{ids[0]}").json()["seed_chosen"] is False


def test_the_seed_is_committed_at_the_start_and_revealed_only_at_the_end(
    client: TestClient,
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "bot"}]
    created = client.post("/api/tables", json={"game": "toy", "seats": seats}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seed = str(hub.live[created["id"]].row.seed)
    wire: list[str] = [json.dumps(created)]
    token = join(client, created["id"], 0)
    wire.append(client.get(f"/api/tables/{created['id']}").text)
    wire.append(client.get("/api/tables").text)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        msg: dict[str, Any] = hello(ws, token)
        while msg.get("over") is not True:
            wire.append(json.dumps(msg))
            if msg.get("your_turn"):
                ws.send_json({"type": "act", "action": msg["legal"][0]})
            msg = recv(ws)
    assert all(seed not in text for text in wire), "the seed left the server before the end"
    assert created["seed"] is None
    record = client.get(f"/api/tables/{created['id']}/record").json()
    info = client.get(f"/api/tables/{created['id']}").json()
    assert str(record["seed"]) == seed == info["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == created["seed_sha256"]
    assert record["seed_sha256"] == created["seed_sha256"]


def test_the_engine_deals_from_a_128_bit_seed_reproducibly() -> None:
    game = get_game("toy")
    big = 2**127 + 12345
    assert game.new(3, seed=big).view(0) == game.new(3, seed=big).view(0)
    views = {json.dumps(game.new(3, seed=big + k).view(0)) for k in range(8)}
    assert len(views) > 1


def test_the_migration_keeps_old_integer_seeds(tmp_path: Path) -> None:
    """A store at revision 0001 (integer seeds) upgrades in place: its tables
    keep their seeds and new ones hold 128-bit seeds."""
    url = database_url(str(tmp_path / "old.sqlite3"))
    store = Store(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(
            sa.text(
                "INSERT INTO tables (id, game, variant, options, players, seed, status, "
                "created_at) VALUES ('t1', 'toy', 'standard', '{}', 2, 2147483000, "
                "'playing', :now)"
            ),
            {"now": datetime.now(UTC)},
        )
        conn.execute(sa.text("INSERT INTO seats (table_id, seat, kind) VALUES ('t1', 0, 'bot')"))
        conn.execute(sa.text("INSERT INTO seats (table_id, seat, kind) VALUES ('t1', 1, 'bot')"))
    store.migrate()
    row = store.load_table("t1")
    assert row is not None and row.seed == 2147483000 and not row.seed_chosen
    assert [s.kind for s in row.seats] == ["bot", "bot"]
    row.id, row.seed = "t2", 2**128 - 1
    store.create_table(row)
    again = store.load_table("t2")
    assert again is not None and again.seed == 2**128 - 1
    store.dispose()
