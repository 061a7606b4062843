"""The play socket under hostile clients (issue 27): ``sync`` that amplified
memory, readers that never read, sockets that never say hello, and messages
nested deeper than the parser goes.

The slow-reader test needs a real server and real sockets (the test client's
socket takes everything at once, so nothing ever waits): it runs uvicorn in a
thread of the test on a loopback port and keeps clients that never read."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bestiary.server import create_app, live
from bestiary.server.config import Limits

from .conftest import create, hello, loadable_games, recv

FAST = {"client_messages_per_second": 1e6, "client_message_burst": 10**6, "table_burst": 10**6}


def _app(tmp_path: Path, bot_delay: float = 0, **limits: Any) -> FastAPI:
    return create_app(
        str(tmp_path / "h.sqlite3"), bot_delay=bot_delay, limits=Limits(**{**FAST, **limits})
    )


def _finished(client: TestClient, seats: list[str] | None = None) -> str:
    """A table the bots played to the end: its id."""
    t = create(client, seats=seats or ["random", "random", "random"])
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.02)
    return str(t["id"])


def _closed(ws: Any, timeout: float = 3.0) -> WebSocketDisconnect:
    """The close that ends ``ws`` (messages before it are skipped)."""
    with pytest.raises(WebSocketDisconnect) as caught:
        while True:
            recv(ws, timeout)
    return caught.value


# -- 1. sync ---------------------------------------------------------------------
def test_thirty_syncs_of_a_finished_table_build_its_whole_log_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27, point 1: "Thirty spectators of a finished table ... send
    sync ... the server grew 157 -> 797 MB in 10 s." The spectators' whole log
    is built once for the table's position and shared: thirty hellos and
    thirty syncs build it once, not sixty times."""
    built: list[tuple[int | None, int]] = []
    real = live.seat_update

    def counted(game: Any, state: Any, seat: int | None, since: int, *a: Any, **k: Any) -> Any:
        built.append((seat, since))
        return real(game, state, seat, since, *a, **k)

    monkeypatch.setattr(live, "seat_update", counted)
    with TestClient(_app(tmp_path)) as client:
        table = _finished(client)
        built.clear()
        with ExitStack() as stack:
            watchers = [
                stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
                for _ in range(30)
            ]
            first = [hello(ws, None) for ws in watchers]
            for ws in watchers:
                ws.send_json({"type": "sync"})
            again = [recv(ws) for ws in watchers]
        assert all(m["type"] == "update" and m["over"] for m in first + again)
        assert all(m == first[0] for m in first + again)  # the same whole log for all
        assert len(first[0]["events"]) > 0
        assert built.count((None, 0)) == 1, built


def test_sync_is_rate_limited_per_socket_and_the_refusal_says_when_to_retry(
    tmp_path: Path,
) -> None:
    """Issue 27: "sync is cheap ... and rate-limited per socket (a refusal
    says when to retry)." With two syncs at once and then one every half
    second, the third in a row is refused with ``retry_after``; the socket
    stays open, and a sync after that wait is answered with the whole log."""
    with TestClient(_app(tmp_path, sync_burst=2, sync_seconds=0.5)) as client:
        table = _finished(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            whole = hello(ws, None)
            for _ in range(2):
                ws.send_json({"type": "sync"})
                assert recv(ws) == whole
            ws.send_json({"type": "sync"})
            refused = recv(ws)
            assert refused["type"] == "error" and "too many syncs" in refused["message"]
            assert 0 < refused["retry_after"] <= 0.5
            assert f"{refused['retry_after']:g} s" in refused["message"]
            ws.send_json({"type": "ping"})
            assert recv(ws) == {"type": "pong"}
            time.sleep(refused["retry_after"] + 0.05)
            ws.send_json({"type": "sync"})
            assert recv(ws) == whole


# -- 2. readers that never read (a real server) ------------------------------------
@contextmanager
def _served(app: FastAPI) -> Iterator[tuple[int, Callable[[Callable[[], Any]], Any]]]:
    """``app`` on a loopback port in a thread: (port, a function that runs a
    callable on the server's event loop and returns what it returned)."""
    # The kernel's buffers of each accepted socket are those of the listening
    # one: small, so a reader that does not read fills them with kilobytes,
    # not megabytes (the kernel's limits for one socket, on loopback).
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve([listener]),))
    thread.start()

    def on_loop(fn: Callable[[], Any]) -> Any:
        async def call() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), loop).result(10)

    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        yield port, on_loop
    finally:
        server.should_exit = True
        thread.join(20)
        listener.close()
        if not thread.is_alive():
            loop.close()


class RawSocket:
    """A websocket client on a plain socket with a small receive buffer,
    which reads only when told to: a reader that never reads."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._more(5.0)
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head[:100]

    def _more(self, timeout: float) -> bytes:
        self.sock.settimeout(timeout)
        data = self.sock.recv(1 << 16)
        if not data:
            raise EOFError("the server closed the connection")
        return data

    def read_some(self) -> None:
        """Read what has come (and forget it: a reader that keeps up)."""
        self._more(5.0)

    def send_text(self, text: str) -> None:
        data, mask = text.encode(), os.urandom(4)
        head = bytes([0x81])
        if len(data) < 126:
            head += bytes([0x80 | len(data)])
        else:
            head += bytes([0x80 | 126]) + struct.pack("!H", len(data))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def close_code(self, timeout: float = 10.0) -> int:
        """Read everything now, up to the server's close frame: its code."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self._frame()
            if frame is not None:
                opcode, payload = frame
                if opcode == 0x8:
                    return int(struct.unpack("!H", payload[:2])[0])
                continue
            assert time.monotonic() < deadline, "no close frame came"
            self.buf += self._more(max(0.1, deadline - time.monotonic()))

    def _frame(self) -> tuple[int, bytes] | None:
        if len(self.buf) < 2:
            return None
        opcode, size, at = self.buf[0] & 0x0F, self.buf[1] & 0x7F, 2
        if size == 126:
            if len(self.buf) < 4:
                return None
            size, at = struct.unpack("!H", self.buf[2:4])[0], 4
        elif size == 127:
            if len(self.buf) < 10:
                return None
            size, at = struct.unpack("!Q", self.buf[2:10])[0], 10
        if len(self.buf) < at + size:
            return None
        payload, self.buf = self.buf[at : at + size], self.buf[at + size :]
        return opcode, payload

    def close(self) -> None:
        self.sock.close()


@pytest.mark.skipif("monster-maker" not in loadable_games(), reason="monster-maker does not load")
def test_spectators_that_never_read_are_closed_once_over_the_bound(tmp_path: Path) -> None:
    """Issue 27, point 2: "Twenty spectators that never read, at busy bot
    tables, for 20 s: +72 MB, one socket with 11.2 MB queued, none closed."
    At a table where two bots play as fast as they can, spectators that never
    read are closed with 4413 ("too slow") once their queue would pass the
    bound, and what waited for them never passed it; a spectator that reads
    watches on. Each closed reader, reading at last, finds the close frame."""
    bound = 32 * 1024
    # Bots a moment apart (not at once): the reader shares this process's GIL
    # with the server, and on a loaded machine fell behind bots that never wait.
    app = _app(tmp_path, bot_delay=0.005, socket_queue_bytes=bound)
    with _served(app) as (port, on_loop), httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
        seats = [{"kind": "bot", "agent": "random"}] * 2
        r = http.post("/api/tables", json={"game": "monster-maker", "seats": seats})
        assert r.status_code == 201, r.text
        path = f"/ws/tables/{r.json()['id']}"
        table = app.state.hub.live[r.json()["id"]]
        real_connect = table.connect

        def connect(*a: Any, **k: Any) -> live.Connection:  # every socket's Connection
            conn = real_connect(*a, **k)
            conns.append(conn)
            return conn

        conns: list[live.Connection] = []
        on_loop(lambda: setattr(table, "connect", connect))
        with ExitStack() as stack:
            slow = [RawSocket(port, path) for _ in range(5)]
            reader = RawSocket(port, path)
            for s in [*slow, reader]:
                stack.callback(s.close)
                s.send_text('{"type": "hello"}')
            # The reader reads all the time, in a thread of its own.
            reading = threading.Event()
            reading.set()

            def drain() -> None:
                with suppress(OSError, EOFError):
                    while reading.is_set():
                        reader.read_some()

            drainer = threading.Thread(target=drain, daemon=True)
            drainer.start()
            stack.callback(drainer.join, 10)
            stack.callback(reading.clear)
            deadline = time.monotonic() + 30
            while on_loop(lambda: len(conns)) < len(slow) + 1:  # every hello is in
                assert time.monotonic() < deadline, "the hellos were not answered"
                time.sleep(0.01)
            while on_loop(lambda: len(table.connections)) > 1:  # the one that reads
                assert time.monotonic() < deadline, "the readers that never read are still served"
                time.sleep(0.01)
                if table.state.over:
                    pytest.fail("the game ended before the non-readers were closed")
            watching = on_loop(lambda: list(table.connections))
            assert len(conns) == len(slow) + 1 and len(watching) == 1
            assert not watching[0].slow
            assert all(c.slow for c in conns if c is not watching[0])
            assert all(c.peak <= bound for c in conns), [c.peak for c in conns]
            assert [s.close_code() for s in slow] == [4413] * len(slow)
            # Counted while the reader still reads: once it stops (closing
            # below), the bots play on and it may fairly be closed as slow too.
            sockets = app.state.sockets
            while on_loop(lambda: sockets.closed.get(4413, 0)) < len(slow):
                assert time.monotonic() < deadline, "the slow sockets' closes were not counted"
                time.sleep(0.01)
            assert on_loop(lambda: sockets.closed.get(4413)) == len(slow)
        deadline = time.monotonic() + 10
        while on_loop(lambda: sockets.total):
            assert time.monotonic() < deadline, "the sockets were not let go"
            time.sleep(0.05)


# -- 6. sockets before hello -----------------------------------------------------------
def test_sockets_are_counted_from_accept_per_client(tmp_path: Path) -> None:
    """Issue 27, point 6: "Sockets before hello are not counted: 300 idle
    sockets that never say hello are each held 20 s." A client's sockets count
    from the moment they open: past its limit the next is refused with 4429
    before it says anything, and a socket that closes frees its place."""
    with TestClient(_app(tmp_path, sockets_per_client=3, hello_seconds=30)) as client:
        table = _finished(client)
        url = f"/ws/tables/{table}"
        with ExitStack() as stack:
            idle = [stack.enter_context(client.websocket_connect(url)) for _ in range(3)]
            with client.websocket_connect(url) as extra:
                msg = recv(extra, 3.0)
                assert msg["type"] == "error" and "at most 3" in msg["message"]
                assert _closed(extra).code == 4429
            sockets = client.app.state.sockets  # type: ignore[attr-defined]
            assert sockets.total == 3
            del idle
        deadline = time.monotonic() + 5
        while sockets.total:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        with client.websocket_connect(url) as again:
            assert hello(again, None)["type"] == "update"


def test_sockets_are_counted_in_all(tmp_path: Path) -> None:
    """Issue 27, point 6: sockets are counted "per client and in all": past
    the server's limit a socket is refused with 4429 whoever opens it."""
    app = _app(tmp_path, sockets_per_client=100, sockets_in_all=2, hello_seconds=30)
    with TestClient(app) as client:
        table = _finished(client)
        url = f"/ws/tables/{table}"
        with (
            client.websocket_connect(url),
            client.websocket_connect(url),
            client.websocket_connect(url) as third,
        ):
            msg = recv(third, 3.0)
            assert msg["type"] == "error" and "all the connections" in msg["message"]
            assert _closed(third).code == 4429


def test_a_socket_that_never_says_hello_is_closed_within_hello_seconds(tmp_path: Path) -> None:
    """Issue 27: "a hello is required within a short time (a few seconds,
    configurable) or the socket is closed with a clear code": 4408."""
    with TestClient(_app(tmp_path, hello_seconds=0.3)) as client:
        table = _finished(client)
        started = time.monotonic()
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            msg = recv(ws, 3.0)
            assert msg["type"] == "error" and msg["message"] == "no hello within 0.3 s"
            assert _closed(ws).code == 4408
        assert time.monotonic() - started < 3.0
        assert client.app.state.sockets.total == 0  # type: ignore[attr-defined]


def test_hello_seconds_and_socket_limits_come_from_the_environment() -> None:
    limits = Limits.from_env(
        {
            "BESTIARY_HELLO_SECONDS": "2.5",
            "BESTIARY_SOCKETS_IN_ALL": "100",
            "BESTIARY_SOCKET_QUEUE_BYTES": "65536",
            "BESTIARY_SYNC_SECONDS": "3",
            "BESTIARY_SYNC_BURST": "1",
        }
    )
    assert (limits.hello_seconds, limits.sockets_in_all) == (2.5, 100)
    assert (limits.socket_queue_bytes, limits.sync_seconds, limits.sync_burst) == (65536, 3, 1)


# -- 8. deeply nested messages -----------------------------------------------------------
NESTED = "[" * 2000 + "]" * 2000  # 4,000 bytes: under the 4 KiB limit


def test_a_deeply_nested_message_gets_the_normal_error_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 27, point 8: "A deeply nested WebSocket message (4 KB) gets
    'internal server error', a 1011 close and a traceback in the log instead
    of the normal error answer." It gets the answer any malformed message
    gets, the socket stays open, and nothing is logged as an error."""
    caplog.set_level(logging.ERROR)
    with TestClient(_app(tmp_path)) as client:
        table = _finished(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            hello(ws, None)
            for nested in (NESTED, '{"type": "act", "action": ' + "[" * 1990 + "]" * 1990 + "}"):
                ws.send_text(nested)
                msg = recv(ws)
                assert msg["type"] == "error" and msg["message"].startswith("messages are JSON")
            ws.send_json({"type": "ping"})
            assert recv(ws) == {"type": "pong"}
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_text(NESTED)  # instead of hello: refused as any bad hello is
            msg = recv(ws)
            assert msg["type"] == "error" and msg["message"].startswith("messages are JSON")
            assert _closed(ws).code == 1008
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
