"""Play over the websocket: whole games with bots, illegal and out-of-turn
moves, wrong tokens, malformed messages, reconnecting, spectators, limits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bestiary.engine import get_game, register, replay, unregister
from bestiary.engine.record import MatchRecord

from .conftest import create, hello, join, next_update, recv


def _record(client: TestClient, table: str) -> MatchRecord:
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200
    return MatchRecord.from_json(r.json())


def test_a_whole_game_against_two_bots(client: TestClient) -> None:
    """Issue 6: "play a whole game with bots" — the human plays every turn it
    owes; the bots act on the server; the stored record replays to the result."""
    t = create(client, seats=["human", "random", "ismcts:iterations=20"], seed=11)
    token = join(client, t["id"], 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, token)
        while not msg["over"]:
            if msg["your_turn"]:
                ws.send_json({"type": "act", "action": msg["legal"][-1]})
            msg = next_update(ws)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert t["id"] not in hub.live  # finished and unwatched: forgotten until asked for
    assert msg["result"]["winners"]
    assert msg["table"]["status"] == "finished"
    rec = _record(client, t["id"])
    assert len(rec.moves) == 9  # 3 tricks x 3 seats
    assert replay(rec).result.to_json() == msg["result"]  # type: ignore[union-attr]
    assert client.get(f"/api/tables/{t['id']}").json()["result"] == msg["result"]


def test_two_people_deciding_at_once(client: TestClient) -> None:
    """Issue 6: several seats deciding at once work without races: both bids
    go in, in either order, and the trick resolves once both are in."""
    t = create(client, seats=["human", "human"], seed=3)
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}") as a,
        client.websocket_connect(f"/ws/tables/{t['id']}") as b,
    ):
        ma, mb = hello(a, tokens[0]), hello(b, tokens[1])
        assert ma["your_turn"] and mb["your_turn"]
        bid_b = mb["legal"][0]
        b.send_json({"type": "act", "action": bid_b})
        ma, mb = next_update(a), next_update(b)
        assert ma["your_turn"] and not mb["your_turn"]
        assert mb["view"]["my_choice"] == int(bid_b.split()[1])
        assert ma["view"]["my_choice"] is None  # b's bid stays hidden from a
        assert [e["event"]["kind"] for e in ma["events"]] == ["chose"]
        assert ma["events"][0]["event"]["seat"] == 1 and "card" not in ma["events"][0]["event"]
        a.send_json({"type": "act", "action": ma["legal"][0]})
        ma, mb = next_update(a), next_update(b)
        tricks = [e["event"] for e in ma["events"] if e["event"]["kind"] == "trick"]
        assert tricks and tricks[0]["bids"]["1"] == int(bid_b.split()[1])
        assert ma["your_turn"] and mb["your_turn"]  # the next trick


def test_illegal_and_out_of_turn_moves_are_refused_without_change(client: TestClient) -> None:
    t = create(client, seats=["human", "human"], seed=5)
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, tokens[0])
        not_mine = next(f"bid {c}" for c in range(1, 10) if f"bid {c}" not in msg["legal"])
        ws.send_json({"type": "act", "action": not_mine})
        err = recv(ws)
        assert err["type"] == "error"
        assert f"'{not_mine}' is not a legal action" in err["message"]
        assert "allowed: " + ", ".join(msg["legal"]) in err["message"]
        ws.send_json({"type": "act", "action": msg["legal"][0]})
        after = next_update(ws)
        assert not after["your_turn"]
        ws.send_json({"type": "act", "action": after["view"]["hand"][0] and "bid 1"})
        err = recv(ws)
        assert err["type"] == "error" and "no decision to make now" in err["message"]
        assert "waiting for seat(s) 1" in err["message"]
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["moves"] == 1  # only the legal move was accepted


def test_acting_before_every_seat_is_taken_is_refused(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    token = join(client, t["id"], 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, token)
        assert msg["table"]["status"] == "waiting"
        ws.send_json({"type": "act", "action": msg["legal"][0]})
        err = recv(ws)
        assert err["type"] == "error" and "waiting for players to take seat(s) 1" in err["message"]
        join(client, t["id"], 1, name="bob")
        started = next_update(ws)  # everyone connected hears that the table started
        assert started["table"]["status"] == "playing"
        assert started["table"]["seats"][1]["name"] == "bob"


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    other = create(client, seats=["human", "human"])
    foreign = join(client, other["id"], 0)
    for token in ["guess", foreign, 12]:
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            err = recv(ws)
            assert err["type"] == "error"
            with pytest.raises(WebSocketDisconnect):
                recv(ws)


def test_an_unknown_table_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        err = recv(ws)
        assert err == {"type": "error", "message": "no table 'nope'"}
        with pytest.raises(WebSocketDisconnect) as exc:
            recv(ws)
        assert exc.value.code == 4404


def test_malformed_messages_get_clear_errors_and_no_stack_trace(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, tokens[0])
        cases = {
            "not json": "JSON objects",
            "[1, 2]": '"type"',
            '{"type": 3}': '"type"',
            '{"type": "dance"}': "unknown message type 'dance'",
            '{"type": "act"}': '"act" needs "action"',
            '{"type": "act", "action": 7}': '"act" needs "action"',
            '{"type": "act", "action": "   "}': '"act" needs "action"',
        }
        for raw, expected in cases.items():
            ws.send_text(raw)
            err = recv(ws)
            assert err["type"] == "error" and expected in err["message"], raw
            assert "Traceback" not in err["message"]
        ws.send_json({"type": "ping"})
        assert recv(ws) == {"type": "pong"}
    assert client.get(f"/api/tables/{t['id']}").json()["moves"] == 0


def test_a_message_over_the_size_limit_closes_the_socket(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    token = join(client, t["id"], 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, token)
        ws.send_text(json.dumps({"type": "act", "action": "x" * 5000}))
        err = recv(ws)
        assert "too large" in err["message"]
        with pytest.raises(WebSocketDisconnect) as exc:
            recv(ws)
        assert exc.value.code == 1009


def test_a_flood_of_messages_is_slowed_down(client: TestClient) -> None:
    t = create(client, seats=["human", "human"])
    token = join(client, t["id"], 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, token)
        for _ in range(30):
            ws.send_json({"type": "ping"})
        replies = [recv(ws) for _ in range(30)]
        slowed = [r for r in replies if r["type"] == "error"]
        assert slowed and "slow down" in slowed[0]["message"]
        assert sum(r["type"] == "pong" for r in replies) >= 20


def test_spectators_see_the_public_view_and_cannot_act(client: TestClient) -> None:
    t = create(client, seats=["human", "human"], seed=9)
    tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
    game = get_game("toy")
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}") as spec,
        client.websocket_connect(f"/ws/tables/{t['id']}") as p0,
    ):
        watch = hello(spec, None)
        state = game.new(2, seed=9)
        assert watch["seat"] is None and watch["view"] == state.view(None)
        assert watch["legal"] == [] and not watch["your_turn"]
        assert watch["view"]["hand"] is None
        spec.send_json({"type": "act", "action": "bid 1"})
        assert "spectators cannot act" in recv(spec)["message"]
        m0 = hello(p0, tokens[0])
        p0.send_json({"type": "act", "action": m0["legal"][0]})
        seen = next_update(spec)  # pushed to the spectator too
        assert seen["view"]["chosen"] == [0]
        assert m0["legal"][0].split()[1] not in json.dumps(seen["events"])
    assert tokens  # both seats were taken, so the table was playing


def test_reconnecting_resumes_with_the_whole_log(client: TestClient) -> None:
    """Issue 6: "Reconnecting resumes" — a new socket with the same token gets
    the seat's current view, its legal moves and every event it may see."""
    t = create(client, seats=["human", "human"], seed=4)
    token, other = join(client, t["id"], 0), join(client, t["id"], 1)
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}") as ws,
        client.websocket_connect(f"/ws/tables/{t['id']}") as ws1,
    ):
        msg, msg1 = hello(ws, token), hello(ws1, other)
        ws.send_json({"type": "act", "action": msg["legal"][0]})
        next_update(ws)
        ws1.send_json({"type": "act", "action": msg1["legal"][0]})
        before = next_update(ws)
        assert before["your_turn"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        again = hello(ws, token)
        assert again["view"] == before["view"] and again["legal"] == before["legal"]
        assert again["moves"] == before["moves"]
        kinds = [e["event"]["kind"] for e in again["events"]]
        assert kinds[0] == "dealt" and "trick" in kinds  # the whole log from the start
        ws.send_json({"type": "sync"})
        assert next_update(ws)["events"] == again["events"]


def test_every_connected_seat_hears_every_move(client: TestClient) -> None:
    t = create(client, seats=["human", "human", "human"], seed=2)
    tokens = [join(client, t["id"], s) for s in range(3)]
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}") as a,
        client.websocket_connect(f"/ws/tables/{t['id']}") as b,
        client.websocket_connect(f"/ws/tables/{t['id']}") as c,
    ):
        first = [hello(ws, tok) for ws, tok in zip((a, b, c), tokens, strict=True)]
        a.send_json({"type": "act", "action": first[0]["legal"][0]})
        pushed = [next_update(ws) for ws in (a, b, c)]
        assert [m["moves"] for m in pushed] == [1, 1, 1]
        assert [m["view"]["chosen"] for m in pushed] == [[0], [0], [0]]


class _BrokenViewGame(type(get_game("toy"))):  # type: ignore[misc]
    """The toy game, but seat 1's view raises (a bug in a game's view)."""

    id = "toy-broken-view"

    def create(self, players: int, seed: int, rules: Any) -> Any:
        state = super().create(players, seed, rules)
        original = state.view

        def view(seat: int | None) -> dict[str, Any]:
            if seat == 1:
                raise KeyError("secret internals")
            return original(seat)

        state.view = view  # type: ignore[method-assign]
        return state


def test_a_failing_view_reaches_no_client_as_a_stack_trace(client: TestClient) -> None:
    """Issue 6: "no stack traces to clients" — the seat whose view fails gets a
    plain error; the other seat plays on."""
    register(_BrokenViewGame())
    try:
        t = create(client, "toy-broken-view", ["human", "human"], seed=1)
        tokens = [join(client, t["id"], 0), join(client, t["id"], 1)]
        with (
            client.websocket_connect(f"/ws/tables/{t['id']}") as a,
            client.websocket_connect(f"/ws/tables/{t['id']}") as b,
        ):
            ma = hello(a, tokens[0])
            mb = hello(b, tokens[1])
            assert mb == {
                "type": "error",
                "message": "internal server error: this seat's view could not be built",
            }
            a.send_json({"type": "act", "action": ma["legal"][0]})
            assert next_update(a)["moves"] == 1
            assert "secret internals" not in json.dumps(recv(b))
    finally:
        unregister("toy-broken-view")
