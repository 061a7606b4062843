"""Seats for life: resign (a bot takes the seat), a turn timer (a bot moves
for a person who is away), and a rematch everyone asking shares."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from .conftest import create, hello, join, next_update, recv


def _wait(client: TestClient, table: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if info["status"] == status:
            return info
        time.sleep(0.05)
    raise AssertionError(f"the table never became {status}")


def test_resigning_hands_the_seat_to_a_bot_and_ends_the_token(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, tokens[1])
        r = client.post(f"/api/tables/{t['id']}/resign", json={"token": tokens[1]})
        assert r.status_code == 200 and r.json()["seat"] == 1
        assert "you resigned" in recv(ws)["message"]
        assert next_update(ws)["seat"] is None  # watching now
        ws.send_json({"type": "act", "action": "bid 1"})
        assert "spectators cannot act" in recv(ws)["message"]
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["agent"] == "normal"
    again = client.post(f"/api/tables/{t['id']}/resign", json={"token": tokens[1]})
    assert again.status_code == 404
    # Seat 0 plays on against the bot to the end.
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, tokens[0])
        while not msg["over"]:
            if msg["your_turn"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]})
            msg = next_update(ws)
    assert msg["result"] is not None


def test_a_person_out_of_time_gets_a_bots_move(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    r = client.post(
        "/api/tables",
        json={
            "game": "toy",
            "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}],
            "turn_seconds": 10,
        },
    )
    assert r.status_code == 201 and r.json()["turn_seconds"] == 10
    table = hub.live[r.json()["id"]]
    table.row.turn_seconds = 1  # the API's minimum is 10 s: shortened for the test
    join(client, table.id, 0)  # and then never plays
    info = _wait(client, table.id, "finished")
    assert info["seats"][0]["kind"] == "human"  # still the person's seat
    short = {"game": "toy", "seats": [{}, {}], "turn_seconds": 1}
    assert client.post("/api/tables", json=short).status_code == 422


def test_a_rematch_is_one_table_for_everyone_who_asks(client: TestClient) -> None:
    t = create(client, seats=["human", "random", "easy"])
    token = join(client, t["id"], 0)
    assert client.post(f"/api/tables/{t['id']}/rematch").status_code == 409  # not over yet
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, token)
        while not msg["over"]:
            if msg["your_turn"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]})
            msg = next_update(ws)
    first = client.post(f"/api/tables/{t['id']}/rematch")
    second = client.post(f"/api/tables/{t['id']}/rematch")
    assert first.status_code == second.status_code == 200
    new = first.json()
    assert second.json()["id"] == new["id"] != t["id"]
    assert new["status"] == "waiting" and new["seed_sha256"] != t["seed_sha256"]
    assert [(s["kind"], s["agent"], s["taken"]) for s in new["seats"]] == [
        ("human", None, False),
        ("bot", "random", True),
        ("bot", "easy", True),
    ]
    assert client.get(f"/api/tables/{t['id']}").json()["rematch"] == new["id"]
