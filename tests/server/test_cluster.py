"""Several real ``bestiary serve`` processes over one real PostgreSQL.

Issue 14: "several `bestiary serve` processes over one PostgreSQL, with
cross-process push", and "SIGKILL of one process under load: no move lost,
clients reconnect to another process". Each test gets a database of its own
on the server scripts/services.sh starts (BESTIARY_TEST_PG_URL).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bestiary.engine import get_game, replay
from bestiary.engine.record import MatchRecord
from bestiary.server.live import bot_move

from .serving import free_port, serve
from .test_restart import _uninterrupted

PG = os.environ.get("BESTIARY_TEST_PG_URL")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG, reason="BESTIARY_TEST_PG_URL is not set (no PostgreSQL server)"),
]
LEASE = "2"  # seconds: a dead process's tables are taken over after about this


@pytest.fixture
def pg_db() -> Iterator[str]:
    import psycopg

    assert PG is not None
    name = f"bestiary_cluster_{secrets.token_hex(4)}"
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], port: int) -> None:
        self.proc, self.port = proc, port
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws/tables/"


@contextmanager
def servers(db: str, logs: Path, n: int = 2, bot_delay: float = 0.05) -> Iterator[list[Server]]:
    """``n`` processes on one database (started one after the other, so the
    first runs the migrations alone); all stopped at the end."""
    env = {
        "BESTIARY_LEASE_SECONDS": LEASE,
        "BESTIARY_TABLE_BURST": "100",
        # The scripted person moves faster than a person: no rate limit for it.
        "BESTIARY_SOCKET_MESSAGES_PER_SECOND": "1000",
        "BESTIARY_SOCKET_MESSAGE_BURST": "1000",
    }
    out: list[Server] = []
    try:
        for i in range(n):
            port = free_port()
            proc = serve("toy", db, port, bot_delay=bot_delay, env=env, log=logs / f"s{i}.log")
            out.append(Server(proc, port))
        yield out
    finally:
        for s in out:
            if s.proc.poll() is None:
                s.proc.send_signal(signal.SIGTERM)
        for s in out:
            try:
                s.proc.wait(15)
            except subprocess.TimeoutExpired:
                s.proc.kill()
                s.proc.wait(5)


def table(server: Server, game: str, seats: list[str]) -> dict[str, Any]:
    specs = [{"kind": "human"} if s == "human" else {"kind": "bot", "agent": s} for s in seats]
    r = httpx.post(f"{server.base}/api/tables", json={"game": game, "seats": specs}, timeout=30)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(server: Server, table_id: str, seat: int) -> str:
    r = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"seat": seat}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def receive(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout)))


def update(ws: ClientConnection) -> dict[str, Any]:
    while True:
        msg = receive(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "update":
            return msg


def update_at(ws: ClientConnection, moves: int) -> dict[str, Any]:
    """The first update that shows ``moves`` moves. Updates of fewer moves
    may come first and are skipped: the other process hears of a seat taken
    there (its notice) at its own pace and tells its sockets when it does,
    possibly after a move was made. An update of more moves, or none of
    ``moves`` within the timeout, fails: the move must arrive, and alone."""
    while True:
        msg = update(ws)
        assert msg["moves"] <= moves, (msg["moves"], moves)
        if msg["moves"] == moves:
            return msg


def test_a_move_sent_to_one_process_reaches_the_clients_of_the_other(
    pg_db: str, tmp_path: Path
) -> None:
    with servers(pg_db, tmp_path) as (a, b), ExitStack() as stack:
        t = table(a, "toy", ["human", "human"])
        tokens = [join(a, t["id"], 0), join(b, t["id"], 1)]  # joined at either process
        ws_a = stack.enter_context(connect(a.ws + t["id"]))
        ws_b = stack.enter_context(connect(b.ws + t["id"]))
        watcher = stack.enter_context(connect(a.ws + t["id"]))
        ws_a.send(json.dumps({"type": "hello", "token": tokens[0]}))
        ws_b.send(json.dumps({"type": "hello", "token": tokens[1]}))
        watcher.send(json.dumps({"type": "hello"}))
        msgs = [update(ws_a), update(ws_b)]
        seen = update(watcher)
        while not msgs[0]["over"]:
            # Both bid each trick; the bid of the seat on process B must reach
            # the person and the spectator on process A, and vice versa.
            for seat, ws in ((1, ws_b), (0, ws_a)):
                if not msgs[seat]["your_turn"]:
                    continue
                before = msgs[1 - seat]["moves"]
                ws.send(json.dumps({"type": "act", "action": msgs[seat]["legal"][0]}))
                msgs[seat] = update_at(ws, before + 1)
                msgs[1 - seat] = update_at((ws_a, ws_b)[1 - seat], before + 1)
                seen = update_at(watcher, before + 1)
                if msgs[0]["over"]:
                    break
        assert msgs[1]["over"] and msgs[0]["result"] == msgs[1]["result"]
        assert seen["over"] and seen["result"] == msgs[0]["result"]
        rec = httpx.get(f"{b.base}/api/tables/{t['id']}/record", timeout=30).json()
        assert len(rec["moves"]) == 6  # three tricks, two bids each


class Person:
    """A scripted person at one seat: random legal moves, each acknowledged
    (an ``act`` then a ``ping``: the pong comes after the move's outcome)."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.acked: list[str] = []  # moves the server accepted (answered, no error)
        self.pending: str | None = None  # sent, not yet answered when the socket died
        self.rng = random.Random(7)

    def play(self, url: str, stop_after: int | None = None) -> dict[str, Any] | None:
        """Play at ``url`` until the game ends (its last update), or until
        ``stop_after`` moves are acknowledged (None: the socket stays open for
        the caller to break). Raises ConnectionClosed/OSError if the socket dies."""
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            latest: dict[str, Any] | None = None
            refused = False
            while True:
                msg = receive(ws)
                if msg["type"] == "update":
                    latest = msg
                    if msg["over"]:
                        return msg
                elif msg["type"] == "error":
                    assert "too many" not in msg["message"], msg
                    refused = True  # overtaken by a bot's move: not accepted
                elif msg["type"] == "pong":
                    if not refused and self.pending is not None:
                        self.acked.append(self.pending)
                    self.pending, refused = None, False
                    if stop_after is not None and len(self.acked) >= stop_after:
                        self.socket = ws
                        return None
                if self.pending is None and latest is not None and latest["your_turn"]:
                    self.pending = self.rng.choice(latest["legal"])
                    ws.send(json.dumps({"type": "act", "action": self.pending}))
                    ws.send(json.dumps({"type": "ping"}))
                    latest = None


def _bots_played_as_bots(game_id: str, rec: MatchRecord, bots: dict[int, str]) -> None:
    """Every bot move of the record is the move that bot makes at that point:
    the process that took the table over decided exactly as the first would."""
    game = get_game(game_id)
    state = game.new(rec.players, seed=rec.seed, variant=rec.variant, options=rec.options)
    for n, (seat, text) in enumerate(rec.moves):
        if seat in bots:
            assert text == bot_move(game, state, bots[seat], rec.seed, seat, n), (n, seat)
        state.apply_text(seat, text)


def test_sigkill_of_the_owner_under_load_loses_no_move(pg_db: str, tmp_path: Path) -> None:
    game, players = "meat", 2  # random games of about 150 moves
    with servers(pg_db, tmp_path) as (a, b):
        # Load: bot tables on both processes (each runs the ones it created).
        loaded = [table(a if i % 3 else b, game, ["random"] * players) for i in range(6)]
        mine = table(a, game, ["human"] + ["random"] * (players - 1))
        person = Person(join(a, mine["id"], 0))
        assert person.play(a.ws + mine["id"], stop_after=3) is None  # mid-game, at A
        os.kill(a.proc.pid, signal.SIGKILL)  # the owner of the person's table dies
        a.proc.wait(10)
        with pytest.raises((ConnectionClosed, OSError)):
            while True:  # the person's socket at A is dead
                person.socket.recv(10)
        # The person reconnects to the other process with the same token and
        # plays on; B takes the table over when A's lease runs out.
        end = person.play(b.ws + mine["id"])
        assert end is not None and end["over"]
        deadline = time.monotonic() + 180
        infos: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            infos = [httpx.get(f"{b.base}/api/tables/{t['id']}").json() for t in loaded]
            if all(i["status"] == "finished" for i in infos):
                break
            time.sleep(0.5)
        assert [i["status"] for i in infos] == ["finished"] * len(loaded), [
            (i["status"], i["moves"]) for i in infos
        ]
        records = {
            t["id"]: MatchRecord.from_json(
                httpx.get(f"{b.base}/api/tables/{t['id']}/record").json()
            )
            for t in [*loaded, mine]
        }
    # No move lost: every move the server acknowledged is in the record, in order
    # (and at most the one move in flight at the kill besides).
    rec = records[mine["id"]]
    played = [text for seat, text in rec.moves if seat == 0]
    assert played in (person.acked, [*person.acked, person.pending]) or (
        played[: len(person.acked)] == person.acked and len(played) <= len(person.acked) + 1
    )
    assert len(person.acked) > 3  # it played on at B
    assert replay(rec).result.to_json() == end["result"]  # type: ignore[union-attr]
    _bots_played_as_bots(game, rec, dict.fromkeys(range(1, players), "random"))
    # The bot tables (several owned by A) finished exactly as if never interrupted.
    for t in loaded:
        r = records[t["id"]]
        assert r.moves == _uninterrupted(game, t, r.seed)
        assert replay(r).result is not None
