"""Quotas and bounds: table creations per client, open tables, expiry of
waiting tables, request size, option ranges, short error echoes, and a lobby
listing a page at a time with filters."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bestiary.engine import get_game
from bestiary.engine.errors import BadOptions
from bestiary.server import create_app
from bestiary.server.config import Limits

from .conftest import create, join, loadable_games

HUMAN_AND_BOT = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]


def _client(tmp_path: Path, **limits: float) -> TestClient:
    return TestClient(
        create_app(str(tmp_path / "q.sqlite3"), bot_delay=0, limits=Limits(**limits))  # type: ignore[arg-type]
    )


def _new(client: TestClient) -> int:
    return client.post("/api/tables", json={"game": "toy", "seats": HUMAN_AND_BOT}).status_code


def test_table_creations_are_rate_limited_per_client(tmp_path: Path) -> None:
    with _client(tmp_path, table_burst=3, tables_per_minute=0.01) as client:
        assert [_new(client) for _ in range(3)] == [201, 201, 201]
        r = client.post("/api/tables", json={"game": "toy", "seats": HUMAN_AND_BOT})
        assert r.status_code == 429 and "a minute" in r.json()["detail"]
        assert client.get("/api/tables").json()["total"] == 3


def test_open_tables_per_client_are_capped(tmp_path: Path) -> None:
    with _client(tmp_path, open_tables_per_client=2) as client:
        assert [_new(client) for _ in range(2)] == [201, 201]
        r = client.post("/api/tables", json={"game": "toy", "seats": HUMAN_AND_BOT})
        assert r.status_code == 429 and "2 open tables" in r.json()["detail"]


def test_waiting_tables_expire(tmp_path: Path) -> None:
    with _client(tmp_path, waiting_seconds=0, sweep_seconds=0) as client:
        t = create(client, seats=["human", "random"])
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert client.portal.call(_expire, hub) == [t["id"]]  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{t['id']}").json()["status"] == "expired"
        assert client.get("/api/tables", params={"status": "waiting"}).json()["tables"] == []
        r = client.post(f"/api/tables/{t['id']}/join", json={})
        assert r.status_code == 404 and "expired" in r.json()["detail"]
        assert t["id"] not in hub.live


async def _expire(hub: object) -> list[str]:
    return hub.expire()  # type: ignore[attr-defined, no-any-return]


def test_a_large_request_body_is_refused_before_parsing(client: TestClient) -> None:
    huge = b'{"game": "toy", "seats": [], "pad": "' + b"x" * 200_000 + b'"}'
    r = client.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no content-length: counted as it arrives
        for _ in range(20):
            yield b" " * 10_000

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_errors_echo_at_most_a_short_prefix(client: TestClient) -> None:
    value = "9" * 150 + "MARKER"
    seats = [{"kind": "human"}] * 2
    r = client.post(
        "/api/tables", json={"game": "toy", "options": {"tricks": value}, "seats": seats}
    )
    assert r.status_code == 400 and "MARKER" not in r.text and len(r.text) < 300
    r = client.post(
        "/api/tables", json={"game": "toy", "options": {"tricks": "y" * 30_000}, "seats": seats}
    )
    assert r.status_code == 422 and len(r.text) < 1000
    r = client.post("/api/tables", json={"game": "toy", "seats": "z" * 30_000})
    assert r.status_code == 422 and "zzzz" not in r.text


@pytest.mark.skipif("meat" not in loadable_games(), reason="meat does not load")
def test_numeric_options_have_ranges(client: TestClient) -> None:
    """A meat table with vitality 1e9 would never end: refused, naming the range,
    on the server and in the engine (so the command line refuses it too)."""
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    r = client.post(
        "/api/tables", json={"game": "meat", "options": {"vitality_1v1": 1e9}, "seats": seats}
    )
    assert r.status_code == 400 and "allowed: 1 to 200" in r.json()["detail"]
    with pytest.raises(BadOptions, match="out of range"):
        get_game("meat").ruleset(options={"max_rounds": "100000"})
    meat = next(g for g in client.get("/api/games").json()["games"] if g["id"] == "meat")
    vit = next(o for o in meat["options"] if o["name"] == "vitality_1v1")
    assert (vit["min"], vit["max"]) == (1, 200)


def test_the_lobby_lists_a_page_at_a_time_with_filters(fast_client: TestClient) -> None:
    client = fast_client
    waiting = [create(client, seats=["human", "random"])["id"] for _ in range(4)]
    full = create(client, seats=["human", "random"])["id"]
    join(client, full, 0)
    page = client.get("/api/tables", params={"limit": 2}).json()
    assert page["total"] == 5 and len(page["tables"]) == 2
    rest = client.get("/api/tables", params={"limit": 2, "offset": 4}).json()["tables"]
    assert len(rest) == 1
    everything = [
        t["id"]
        for off in (0, 2, 4)
        for t in client.get("/api/tables", params={"limit": 2, "offset": off}).json()["tables"]
    ]
    assert sorted(everything) == sorted([*waiting, full])
    free = client.get("/api/tables", params={"free": "true"}).json()
    assert {t["id"] for t in free["tables"]} == set(waiting) and free["total"] == 4
    taken = client.get("/api/tables", params={"free": "false"}).json()["tables"]
    assert [t["id"] for t in taken] == [full]
    assert client.get("/api/tables", params={"game": "meat"}).json()["total"] == 0
    assert client.get("/api/tables", params={"game": "toy"}).json()["total"] == 5
    assert client.get("/api/tables", params={"limit": 1000}).status_code == 422


def _new_as(client: TestClient, who: str | None) -> int:
    headers = {"X-Bestiary-Client": who} if who else {}
    body = {"game": "toy", "seats": HUMAN_AND_BOT}
    return client.post("/api/tables", json=body, headers=headers).status_code


def test_clients_behind_one_address_each_have_their_quota_up_to_the_address_ceiling(
    tmp_path: Path,
) -> None:
    """Keyed by the client's id where it sends one: two people behind one
    router each create their share; the address as a whole gets ip_factor
    shares, so inventing ids does not lift the bound."""
    with _client(tmp_path, table_burst=2, tables_per_minute=0.01, ip_factor=2) as client:
        assert [_new_as(client, "alice-browser-1") for _ in range(3)] == [201, 201, 429]
        assert [_new_as(client, "bob-browser-22") for _ in range(3)] == [201, 201, 429]
        r = client.post(
            "/api/tables",
            json={"game": "toy", "seats": HUMAN_AND_BOT},
            headers={"X-Bestiary-Client": "made-up-id-333"},
        )
        assert r.status_code == 429 and "your address" in r.json()["detail"]
        assert client.get("/api/tables").json()["total"] == 4


def test_a_malformed_client_id_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        r = client.post(
            "/api/tables",
            json={"game": "toy", "seats": HUMAN_AND_BOT},
            headers={"X-Bestiary-Client": "bad id!"},
        )
        assert r.status_code == 400 and "8 to 64 letters" in r.json()["detail"]
        assert client.get("/api/tables").json()["total"] == 0


def test_socket_and_address_limits_come_from_the_environment() -> None:
    limits = Limits.from_env(
        {
            "BESTIARY_SOCKET_MESSAGES_PER_SECOND": "2.5",
            "BESTIARY_SOCKET_MESSAGE_BURST": "4",
            "BESTIARY_IP_FACTOR": "3",
            "BESTIARY_LEASE_SECONDS": "4",
        }
    )
    assert (limits.socket_messages_per_second, limits.socket_message_burst) == (2.5, 4)
    assert (limits.ip_factor, limits.lease_seconds) == (3, 4)


def test_each_seat_has_its_own_message_quota_within_its_address_share(tmp_path: Path) -> None:
    from .conftest import hello, recv

    limits = Limits(
        client_messages_per_second=0.001,
        client_message_burst=3,
        ip_factor=2,
        table_burst=100,
    )
    app = create_app(str(tmp_path / "q.sqlite3"), bot_delay=0, limits=limits)
    with TestClient(app) as client:
        t = create(client, seats=["human", "human"], seed=3)
        tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
        with (
            client.websocket_connect(f"/ws/tables/{t['id']}") as a,
            client.websocket_connect(f"/ws/tables/{t['id']}") as b,
            client.websocket_connect(f"/ws/tables/{t['id']}") as watcher,
        ):
            hello(a, tokens[0])
            hello(b, tokens[1])
            hello(watcher, None)
            for ws in (a, b):  # one address, two seats: three messages each
                for _ in range(3):
                    ws.send_json({"type": "ping"})
                    assert recv(ws)["type"] == "pong"
            # The address's share (2 x 3) is spent: its spectator is refused.
            watcher.send_json({"type": "ping"})
            msg = recv(watcher)
            assert msg["type"] == "error" and "too many messages" in msg["message"]
