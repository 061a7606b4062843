"""The turn clock on the wire (issue 26): "the server must tell each seat the
deadline of the current decision (seconds left ...) in its messages ... and
when the timer expires and a move is made for the player, the log says so
('the clock ran out: a bot moved for Ana' ...), in English and Polish. Check
this does not leak hidden info: a deadline for a seat that is deciding
privately must not tell others that it is that seat's turn if the view would
not."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import create, hello, join, loadable_games, next_update, recv


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    ws.send_json({"type": "ping"})
    out = []
    while (msg := recv(ws))["type"] != "pong":
        out.append(msg)
    return out


def test_a_seat_owing_a_move_is_told_its_seconds_left_and_no_one_else(
    client: TestClient,
) -> None:
    """Seconds left of this seat's own decision, never a server clock time;
    the other seat (deciding in private in the toy game) and spectators get
    no clock at all."""
    t = create(client, seats=["human", "human"], turn_seconds=60)
    tokens = [join(client, t["id"], s, name) for s, name in ((0, "Ana"), (1, "Bo"))]
    with ExitStack() as stack:
        a, b, watcher = (
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}")) for _ in range(3)
        )
        mine, theirs, seen = hello(a, tokens[0]), hello(b, tokens[1]), hello(watcher, None)
        assert mine["your_turn"] and theirs["your_turn"]  # the toy game: both choose at once
        for msg in (mine, theirs):
            assert set(msg["clock"]) == {"seconds_left", "turn_seconds"}
            assert 50 < msg["clock"]["seconds_left"] <= 60 and msg["clock"]["turn_seconds"] == 60
        assert "clock" not in seen
        # Bo chooses (the toy game shows who has chosen, not what): Ana's
        # clock was not restarted by his move, it kept running.
        time.sleep(1.1)
        b.send_json({"type": "act", "action": theirs["legal"][0]})
        own = _until_pong(b)
        assert own and "clock" not in own[-1]  # Bo owes nothing now
        heard = _until_pong(a)
        assert heard and heard[-1]["view"]["chosen"] == [1]
        assert heard[-1]["clock"]["seconds_left"] <= mine["clock"]["seconds_left"] - 1
        assert all("clock" not in m for m in _until_pong(watcher))


def test_without_a_timer_there_is_no_clock(client: TestClient) -> None:
    t = create(client, seats=["human", "random"])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, join(client, t["id"], 0))
        assert msg["your_turn"] and "clock" not in msg and "notices" not in msg


def test_when_the_clock_runs_out_the_log_says_a_bot_moved_in_both_languages(
    client: TestClient,
) -> None:
    """The late seat reads the line, placed before the move's events; the
    other person, whose view does not say whose decision it was, does not."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    t = create(client, seats=["human", "human"], turn_seconds=10)
    hub.live[t["id"]].row.turn_seconds = 1  # the API's minimum is 10 s: shortened for the test
    tokens = [join(client, t["id"], s, name) for s, name in ((0, "Ana"), (1, "Bo"))]
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}")) for _ in range(2)
        )
        first_a, first_b = hello(a, tokens[0]), hello(b, tokens[1])
        b.send_json({"type": "act", "action": first_b["legal"][0]})  # Bo chooses; Ana never does
        notices: list[dict[str, Any]] = []
        for _ in range(20):
            msg = next_update(a)
            notices += msg.get("notices", [])
            if notices:
                break
        else:
            raise AssertionError("no notice came after the clock ran out")
        (n,) = notices
        assert n["kind"] == "clock" and n["seat"] == 0
        assert n["texts"]["en"] == "The clock ran out: a bot moved for Ana."
        assert n["texts"]["pl"] == "Skończył się czas (Ana): ruch wykonał bot."
        shown = len(first_a["events"])
        assert n["at"] >= shown and msg["events"] and msg["events"][0]["event"]["i"] == n["at"]
        # A fresh connection (sync) gets the line again, at the same place.
        a.send_json({"type": "sync"})
        assert next_update(a)["notices"] == [n]
        # Bo's view does not say Ana was deciding: he is not told.
        bo = [m for m in _until_pong(b) if m["type"] == "update"]
        assert not any(m.get("notices") for m in bo)
        b.send_json({"type": "sync"})
        assert "notices" not in next_update(b)


@pytest.mark.skipif("teratozoic" not in loadable_games(), reason="teratozoic does not load")
def test_a_private_placement_under_a_clock_still_sends_the_others_nothing(
    fast_client: TestClient,
) -> None:
    """Teratozoic's private placements reach no other seat: with a turn timer
    too (the clock's seconds never make a message of their own)."""
    client = fast_client
    t = create(client, "teratozoic", ["human", "human"], seed=1, turn_seconds=600)
    tokens = [join(client, t["id"], s) for s in range(2)]
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}")) for _ in range(2)
        )
        last = {"a": hello(a, tokens[0]), "b": hello(b, tokens[1])}
        for _ in range(40):
            mine = last["a"]
            if any(x.startswith("start ") for x in mine["legal"]):
                break
            ws, key = (a, "a") if mine["your_turn"] else (b, "b")
            ws.send_json({"type": "act", "action": last[key]["legal"][0]})
            for sock, k in ((a, "a"), (b, "b")):
                got = _until_pong(sock)
                if got:
                    last[k] = got[-1]
        else:
            raise AssertionError("no private placement came up")
        assert "clock" in last["a"]
        place = next(x for x in last["a"]["legal"] if x.startswith("start "))
        a.send_json({"type": "act", "action": place})
        assert len(_until_pong(a)) == 1
        assert _until_pong(b) == []  # not a byte, clock or not
