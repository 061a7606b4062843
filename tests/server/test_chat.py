"""Table chat (issue 26, "The table, for players"): "for the people and
spectators at a table, with a few quick messages ... and free text (at most
200 characters, trimmed, control characters removed)"; "rate-limited per
socket ... a refusal is an error with retry_after"; "the last 50 messages
are kept in memory per table and sent after hello"; "nothing of chat goes
into the game's record or the store"; "the server adds nothing about the
game (no move numbers)"."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from bestiary.server.chat import HISTORY, MAX_CHAT_CHARS, QUICK, ChatRoom

from .conftest import create, hello, join, recv

# A chat message holds who wrote it, what, and when: nothing of the game.
CHAT_KEYS = {"type", "from", "name", "at"}


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The socket's next message of type ``kind`` (updates are skipped)."""
    while True:
        msg: dict[str, Any] = recv(ws, 10)
        if msg["type"] == kind:
            return msg


def _two_people(client: TestClient) -> tuple[str, list[str]]:
    t = create(client, seats=["human", "human"], seed=3)
    tokens = [join(client, t["id"], 0, "ann"), join(client, t["id"], 1, "bo")]
    return str(t["id"]), tokens


def test_a_message_from_one_seat_reaches_the_other_and_the_spectators(
    client: TestClient,
) -> None:
    """ "the server broadcasts {type: chat, from: <seat or null>, name: <seat
    name or 'spectator'>, text | quick, at} to every socket at the table"."""
    table, tokens = _two_people(client)
    path = f"/ws/tables/{table}"
    with (
        client.websocket_connect(path) as ann,
        client.websocket_connect(path) as bo,
        client.websocket_connect(path) as watcher,
    ):
        hello(ann, tokens[0])
        hello(bo, tokens[1])
        hello(watcher, None)
        ann.send_json({"type": "chat", "text": "hi Bo"})
        for ws in (bo, watcher, ann):  # the sender hears it too: its acknowledgement
            got = _next(ws, "chat")
            assert {k: got[k] for k in ("from", "name", "text")} == {
                "from": 0,
                "name": "ann",
                "text": "hi Bo",
            }
            assert set(got) == CHAT_KEYS | {"text"}, "a chat message says nothing of the game"
            assert got["at"].endswith("Z")
        watcher.send_json({"type": "chat", "quick": "gg"})
        got = _next(ann, "chat")
        assert (got["from"], got["name"], got["quick"]) == (None, "spectator", "gg")
        assert "text" not in got  # the reader's page words it, in the reader's language
    # Nothing of chat is stored: the table's moves are as they were.
    assert client.get(f"/api/tables/{table}").json()["moves"] == 0


def test_the_chat_rate_refuses_with_retry_after_and_sends_nothing(client: TestClient) -> None:
    """ "Rate-limited per socket (e.g. 1 a second, bursts of 3; a refusal is an
    error with retry_after)"."""
    table, tokens = _two_people(client)
    path = f"/ws/tables/{table}"
    with client.websocket_connect(path) as ann, client.websocket_connect(path) as bo:
        hello(ann, tokens[0])
        hello(bo, tokens[1])
        for i in range(4):
            ann.send_json({"type": "chat", "text": f"m{i}"})
        ann.send_json({"type": "ping"})
        answers = []
        while (msg := recv(ann, 10))["type"] != "pong":
            if msg["type"] in ("chat", "error"):
                answers.append(msg)
        assert [m.get("text") for m in answers[:3]] == ["m0", "m1", "m2"]
        refused = answers[3]
        assert refused["type"] == "error" and refused["chat"] == "rate"
        assert 0 < refused["retry_after"] <= 1.0
        assert "at most 3 at once" in refused["message"]
        assert len(answers) == 4
        # The other seat got the three accepted messages and not the fourth.
        bo.send_json({"type": "ping"})
        seen = []
        while (msg := recv(bo, 10))["type"] != "pong":
            if msg["type"] == "chat":
                seen.append(msg["text"])
        assert seen == ["m0", "m1", "m2"]


def test_chat_counts_in_the_sockets_message_quota(client: TestClient) -> None:
    """ "counted in the socket's existing message quota too": past the socket's
    burst (20), a chat message gets the quota's refusal, not the chat's own."""
    table, tokens = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ann:
        hello(ann, tokens[0])
        for _ in range(24):
            ann.send_json({"type": "chat", "quick": "gg"})
        answers = []
        while len(answers) < 24:
            msg = recv(ann, 10)
            if msg["type"] in ("chat", "error"):
                answers.append(msg)
        slow_down = [m for m in answers if m.get("message") == "too many messages: slow down"]
        assert len(slow_down) >= 3, "the socket's quota refused none of the chat messages"
        assert sum(m["type"] == "chat" for m in answers) == 3  # the chat's own burst


def test_text_over_200_characters_is_refused_and_200_accepted(client: TestClient) -> None:
    """ "free text (at most 200 characters ...)": a clear error saying the limit."""
    table, tokens = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ann:
        hello(ann, tokens[0])
        ann.send_json({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)})
        refused = _next(ann, "error")
        assert refused["chat"] == "length" and refused["limit"] == 200
        assert "at most 200 characters" in refused["message"]
        ann.send_json({"type": "chat", "text": "y" * MAX_CHAT_CHARS})
        assert _next(ann, "chat")["text"] == "y" * 200


def test_control_characters_are_removed_and_the_ends_trimmed(client: TestClient) -> None:
    """ "trimmed, control characters removed" (and the invisible format
    characters: direction overrides that would make a line read backwards,
    zero-width spaces); a line break is a space."""
    table, tokens = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ann:
        hello(ann, tokens[0])
        ann.send_json({"type": "chat", "text": "  a\x00b\x1bc\u202ed\td\x7f\n "})
        assert _next(ann, "chat")["text"] == "abcd d"
        # An emoji joined by ZWJ stays whole; a zero-width space goes.
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
        ann.send_json({"type": "chat", "text": f"gg\u200b {family}"})
        assert _next(ann, "chat")["text"] == f"gg {family}"
        ann.send_json({"type": "chat", "text": " \x00\x07\u200b\n "})
        refused = _next(ann, "error")
        assert refused["chat"] == "empty"


def test_an_unknown_quick_key_is_refused_with_the_allowed_keys(client: TestClient) -> None:
    """ "a quick key unknown is refused with the allowed keys listed"."""
    table, tokens = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ann:
        hello(ann, tokens[0])
        ann.send_json({"type": "chat", "quick": "you_lose"})
        refused = _next(ann, "error")
        assert refused["chat"] == "quick"
        assert refused["allowed"] == list(QUICK)
        assert all(key in refused["message"] for key in QUICK)
        ann.send_json({"type": "chat"})
        assert _next(ann, "error")["chat"] == "shape"
        ann.send_json({"type": "chat", "quick": "gg"})
        assert _next(ann, "chat")["quick"] == "gg"  # the socket stays open


def test_the_history_comes_after_hello(client: TestClient) -> None:
    """ "The last 50 messages are kept in memory per table and sent after hello
    (so a reconnect sees them)"."""
    table, tokens = _two_people(client)
    path = f"/ws/tables/{table}"
    with client.websocket_connect(path) as ann:
        hello(ann, tokens[0])
        ann.send_json({"type": "chat", "text": "first"})
        ann.send_json({"type": "chat", "quick": "thinking"})
        _next(ann, "chat")
        _next(ann, "chat")
    with client.websocket_connect(path) as back:
        assert hello(back, tokens[0])["type"] == "update"  # the game's log comes first
        history = _next(back, "chat_history")["messages"]
        assert [(m["from"], m.get("text"), m.get("quick")) for m in history] == [
            (0, "first", None),
            (0, None, "thinking"),
        ]


def test_a_table_keeps_only_its_last_50_messages() -> None:
    room = ChatRoom()
    for i in range(HISTORY + 7):
        room.post(0, "ann", {"text": str(i)})
    backlog = room.backlog()
    assert backlog is not None
    assert [m["text"] for m in backlog["messages"]] == [str(i) for i in range(7, HISTORY + 7)]
    assert ChatRoom().backlog() is None  # nothing to send at a silent table
