"""Quotas keyed on an address the client cannot choose, and a rematch that
keeps the finished table's people in their seats (issue 27, points 5 and 9).

Point 5: "Quotas are keyed on an address the client chooses: 20 creations
with different X-Forwarded-For headers all pass (10 without); the header is
trusted from any peer on loopback." Proxy headers are now believed only from
the proxies the operator names (``--trusted-proxy``, BESTIARY_TRUSTED_PROXIES).

Point 9: "A stranger can take a person's seat in a rematch of a finished
table; the person then gets 409." A rematch now holds each person's seat for
them (their seat token at the finished table claims it); others may take only
seats left open.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from bestiary.server import create_app
from bestiary.server.config import Access
from bestiary.server.proxies import client_address, forwarded_chain

from .conftest import create, hello, join
from .serving import free_port, serve

HUMAN_AND_BOT = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]


def _creations(url: str, n: int) -> list[int]:
    """``n`` table creations, each naming another client address in X-Forwarded-For."""
    return [
        httpx.post(
            f"{url}/api/tables",
            json={"game": "toy", "seats": HUMAN_AND_BOT},
            headers={"X-Forwarded-For": f"203.0.113.{i + 1}"},
        ).status_code
        for i in range(n)
    ]


def test_a_client_cannot_pick_its_quota_key_with_x_forwarded_for(tmp_path: Path) -> None:
    """The served app (uvicorn as `bestiary serve` runs it), no trusted proxy:
    20 creations from one peer, each claiming another address, meet the
    quota of one client (a burst of 10)."""
    port = free_port()
    proc = serve("toy", str(tmp_path / "a.sqlite3"), port)
    try:
        codes = _creations(f"http://127.0.0.1:{port}", 20)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert codes.count(201) == 10 and codes[10:] == [429] * 10


def test_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    """From a proxy the operator names, each forwarded address is its own client."""
    port = free_port()
    env = {"BESTIARY_TRUSTED_PROXIES": "127.0.0.1,::1"}
    proc = serve("toy", str(tmp_path / "b.sqlite3"), port, env=env)
    try:
        codes = _creations(f"http://127.0.0.1:{port}", 20)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert codes == [201] * 20


@pytest.mark.parametrize(
    ("peer", "headers", "client"),
    [
        # not a trusted proxy: its headers are the client's own words, ignored
        ("198.51.100.9", [("x-forwarded-for", "1.2.3.4")], "198.51.100.9"),
        ("127.0.0.1", [("forwarded", "for=1.2.3.4")], "127.0.0.1"),
        # the proxy appends the address it saw: what the client wrote is to its left
        ("10.0.0.2", [("x-forwarded-for", "6.6.6.6, 203.0.113.7")], "203.0.113.7"),
        # two trusted proxies in a row are walked back
        ("10.0.0.2", [("x-forwarded-for", "6.6.6.6, 203.0.113.7, 10.0.0.3")], "203.0.113.7"),
        # Forwarded (RFC 7239) is read first, with ports, quotes and IPv6
        ("10.0.0.2", [("forwarded", 'for="[2001:db8::17]:4711";proto=https')], "2001:db8::17"),
        (
            "10.0.0.2",
            [("forwarded", "for=6.6.6.6, for=192.0.2.60:80"), ("x-forwarded-for", "6.6.6.7")],
            "192.0.2.60",
        ),
        # a proxy that cannot say who sent it the request: the proxy is the client
        ("10.0.0.2", [("forwarded", "for=unknown")], "10.0.0.2"),
        ("10.0.0.2", [], "10.0.0.2"),
    ],
)
def test_proxy_headers_are_read_only_from_trusted_proxies(
    peer: str, headers: list[tuple[str, str]], client: str
) -> None:
    trusted = Access(trusted_proxies=("10.0.0.0/8",)).networks()
    chain = forwarded_chain([(k.encode(), v.encode()) for k, v in headers])
    assert client_address(peer, chain, trusted) == client


def test_the_app_keeps_quotas_under_the_trusted_proxys_client(tmp_path: Path) -> None:
    """The middleware puts the client's address where every quota reads it."""
    from bestiary.server.config import Limits

    app = create_app(
        str(tmp_path / "c.sqlite3"),
        bot_delay=0,
        limits=Limits(table_burst=1, tables_per_minute=0.01),
        access=Access(trusted_proxies=("10.0.0.1",)),
    )
    body = {"game": "toy", "seats": HUMAN_AND_BOT}
    with TestClient(app, client=("10.0.0.1", 5000)) as proxy:
        for who in ("203.0.113.1", "203.0.113.2"):
            assert (
                proxy.post("/api/tables", json=body, headers={"X-Forwarded-For": who}).status_code
                == 201
            )
        again = proxy.post("/api/tables", json=body, headers={"X-Forwarded-For": "203.0.113.1"})
        assert again.status_code == 429
    with TestClient(app, client=("198.51.100.5", 5000)) as stranger:
        codes = [
            stranger.post(
                "/api/tables", json=body, headers={"X-Forwarded-For": f"192.0.2.{i}"}
            ).status_code
            for i in (1, 2)
        ]
        assert codes == [201, 429]  # not a proxy: one client, whatever it claims


# -- point 9: the rematch ---------------------------------------------------------
async def _play_out(hub: Any, table_id: str) -> None:
    """The people of a table play their first legal action until it is over."""
    table = hub.live.get(table_id)
    if table is None:  # a bots-only table can finish, unwatched, before we look
        assert hub.row(table_id).status == "finished"
        return
    for _ in range(2000):
        if table.row.status == "finished":
            return
        for seat in table.state.to_act():
            if table.row.seats[seat].kind == "human":
                await table.act(seat, str(table.state.legal(seat)[0]))
        await asyncio.sleep(0.01)  # the bots' moves
    raise AssertionError("the table did not finish")


def test_a_rematch_keeps_each_persons_seat_for_them(client: TestClient) -> None:
    """Issue 27: "A rematch seats the finished table's people in their seats first; others
    may take only seats left open": a stranger who asks first gets no seat of
    theirs, and each person gets their own seat back with their old token."""
    t = create(client, seats=["human", "human", "random"])
    tokens = {0: join(client, t["id"], 0), 1: join(client, t["id"], 1)}
    client.portal.call(_play_out, client.app.state.hub, t["id"])  # type: ignore[union-attr, attr-defined]

    new = client.post(f"/api/tables/{t['id']}/rematch").json()  # a stranger asks first
    taken = client.post(f"/api/tables/{new['id']}/join", json={})
    assert taken.status_code == 409 and "held" in taken.json()["detail"]
    assert [s["held"] for s in new["seats"]] == [True, True, False]
    grab = client.post(f"/api/tables/{new['id']}/join", json={"seat": 1})
    assert grab.status_code == 409
    bad = client.post(f"/api/tables/{t['id']}/rematch", json={"token": "not-a-seat-token"})
    assert bad.status_code == 404

    for seat in (1, 0):
        r = client.post(
            f"/api/tables/{t['id']}/rematch", json={"token": tokens[seat], "name": "me"}
        )
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["id"] == new["id"] and body["seat"] == seat and body["token"]
        assert hub_seat(client, new["id"], body["token"]) == seat
    again = client.post(f"/api/tables/{t['id']}/rematch", json={"token": tokens[0]})
    assert again.status_code == 409  # that seat is theirs already: one token per seat
    assert client.get(f"/api/tables/{new['id']}").json()["status"] == "playing"


def hub_seat(client: TestClient, table_id: str, token: str) -> int | None:
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        return hello(ws, token)["seat"]  # type: ignore[no-any-return]


# -- point 11: the load tool's figures ------------------------------------------------
def _load_tool() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"
    spec = importlib.util.spec_from_file_location("bestiary_load_tool", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_load_tool_counts_moves_in_the_store(tmp_path: Path) -> None:
    """Issue 27: "benchmarks/load.py undercounts with several processes:
    unfinished tables on the other process are listed with moves: null and
    counted as 0". It counts the store's moves now, every table's, whichever
    process runs it and whatever the lobby shows of it."""
    load = _load_tool()
    db = str(tmp_path / "load.sqlite3")
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = create(client, seats=["random", "random"])
        hub = client.app.state.hub  # type: ignore[attr-defined]
        client.portal.call(_play_out, hub, t["id"])  # type: ignore[union-attr]
        played = len(hub.row(t["id"]).moves)
        waiting = create(client, seats=["human", "random"])
    assert played > 0 and load.store_moves(db) == played
    assert waiting["moves"] in (0, None)  # a waiting table: nothing played, nothing counted
    assert load.store_moves(str(tmp_path / "none.sqlite3")) == 0  # a store not made yet


def test_a_soak_passes_only_when_memory_stays_within_ten_percent() -> None:
    """Issue 27: "a soak mode: it samples each process's RSS every N seconds
    and prints whether memory after the first 5 minutes stays within 10%"."""
    load = _load_tool()
    mb = 1024
    steady = [(0.0, 50 * mb), (300.0, 100 * mb), (400.0, 108 * mb), (500.0, 104 * mb)]
    verdict = load.soak_verdict(steady, 300.0)
    assert verdict["within"] is True and verdict["baseline_mb"] == 100.0
    assert verdict["growth_pct"] == 8.0  # the start's growth (50 -> 100 MB) is not held against it
    leak = [(300.0, 100 * mb), (400.0, 106 * mb), (500.0, 112 * mb)]
    assert load.soak_verdict(leak, 300.0)["within"] is False
    assert load.soak_verdict(steady, 900.0)["within"] is None  # too short to tell
