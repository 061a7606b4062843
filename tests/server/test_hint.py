"""POST /api/tables/{id}/hint: the strongest bot's move for your seat (issue 11:
"a "hint" button on the web table: the strongest bot's suggested move for your
seat, from your view only")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import create, hello, join


def test_a_hint_is_a_legal_move_for_your_seat_at_a_table_against_bots(client: TestClient) -> None:
    t = create(client, game="meat", seats=["human", "random"])
    token = join(client, t["id"], 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, token)
        assert msg["your_turn"]
        r = client.post(f"/api/tables/{t['id']}/hint", json={"token": token})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["action"] in msg["legal"]
        assert hint["alternatives"][0]["action"] == hint["action"]
        assert hint["agent"].startswith("ismcts:")


def test_a_hint_needs_your_seat_your_turn_and_no_other_person(client: TestClient) -> None:
    solo = create(client, game="meat", seats=["human", "random"])
    token = join(client, solo["id"], 0)
    wrong = client.post(f"/api/tables/{solo['id']}/hint", json={"token": "not-a-token"})
    assert wrong.status_code == 404 and "token" in wrong.json()["detail"]
    pair = create(client, game="meat", seats=["human", "human"])
    a = join(client, pair["id"], 0)
    join(client, pair["id"], 1, name="bob")
    refused = client.post(f"/api/tables/{pair['id']}/hint", json={"token": a})
    assert refused.status_code == 400
    assert "against bots only" in refused.json()["detail"]
    # A refused hint changes nothing (only people play at this table).
    assert client.get(f"/api/tables/{pair['id']}").json()["moves"] == 0
    assert token
