"""A move that shows a seat nothing sends it nothing: Teratozoic's private
placements reach no other seat, not even as an empty update or a counter."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import create, hello, join, loadable_games, recv

pytestmark = pytest.mark.skipif(
    "teratozoic" not in loadable_games(), reason="teratozoic does not load"
)


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    ws.send_json({"type": "ping"})
    out = []
    while (msg := recv(ws))["type"] != "pong":
        out.append(msg)
    return out


def test_a_private_placement_reaches_no_other_seat(fast_client: TestClient) -> None:
    client = fast_client
    t = create(client, "teratozoic", ["human", "human"], seed=1)
    tokens = [join(client, t["id"], s) for s in range(2)]
    with ExitStack() as stack:
        a, b, watcher = (
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}")) for _ in range(3)
        )
        last = {"a": hello(a, tokens[0]), "b": hello(b, tokens[1]), "w": hello(watcher, None)}
        # Play the public opening until seat 0 may place a card in private.
        for _ in range(40):
            mine = last["a"]
            if any(x.startswith("start ") for x in mine["legal"]):
                break
            ws, key = (a, "a") if mine["your_turn"] else (b, "b")
            ws.send_json({"type": "act", "action": last[key]["legal"][0]})
            for sock, k in ((a, "a"), (b, "b"), (watcher, "w")):
                got = _until_pong(sock)
                if got:
                    last[k] = got[-1]
        else:
            raise AssertionError("no private placement came up")
        public = client.get(f"/api/tables/{t['id']}").json()["moves"]
        place = next(x for x in last["a"]["legal"] if x.startswith("start "))
        a.send_json({"type": "act", "action": place})
        own = _until_pong(a)
        assert len(own) == 1 and [e["event"]["kind"] for e in own[0]["events"]] == ["placed"]
        assert own[0]["moves"] == last["a"]["moves"] + 1
        assert _until_pong(b) == [] and _until_pong(watcher) == []  # not a byte
        assert client.get(f"/api/tables/{t['id']}").json()["moves"] == public
        # Event numbers have no gaps a seat could count: each seat's run 0, 1, 2, ...
        b.send_json({"type": "sync"})
        seen = [e["event"]["i"] for e in recv(b)["events"]]
        assert seen == list(range(len(seen)))
