"""The game server under hostile clients (issue 27), on loopback only: one
client address runs every attack at once while another person plays, and
the person's figures say whether the server still serves them.

It starts its own ``bestiary serve`` on 127.0.0.1 with the server's own
limits (nothing lifted; a fresh SQLite file in a temporary folder unless
``--db`` names a store). The attacker is 127.0.0.1; the people are
127.0.0.2 (another loopback address: their quotas are their own, as another
person's are), in a process of their own, so the attacker's work on the
client side never delays the reading of a person's answer. Attacks, all at
once, each with a scale knob:

1. ``sync`` floods: ``--sync-spectators`` watch a finished table of ~2,000
   moves (bots played it out before the run), send ``sync`` every
   ``--sync-every`` seconds and never read;
2. slow readers: ``--slow-readers`` watch the playing tables (the busy bot
   tables below, and the people's) and never read;
3. lab runs: a 100,000-game lab run of unbounded searches ``--lab-rate``
   times a second, without the operator's token (or with a made-up one);
4. costly bots: ``--costly-tables`` tables of six ``ismcts:seconds=5`` bots;
5. spoofed ``X-Forwarded-For`` (half of them with a fresh client id too) on
   table creations, ``--quota-rate`` a second: quota pressure;
6. ``--idle-sockets`` sockets that never say hello, each opened again
   ``--retry`` seconds after it ends;
7. a hint flood: ``--hint-flooders`` loops asking for hints at the
   attacker's own table;
8. deeply nested messages, ``--nested-rate`` a second on one socket (over
   its message rate: message-quota pressure too); every fifth connection
   says its hello that way;
9. a stranger asks for the rematch of a person's finished table and tries
   to take their seat, and does the same at every finished table it lists.

A sync flood or slow reader holds its socket ``--hold`` seconds, then reads
what came to see how it ended (the close code, e.g. 4413 "too slow") and
connects again; a refused socket (e.g. 4429: all attacker sockets share the
address's socket quota) tries again ``--retry`` seconds later. The counts
say how many each attack got and how each ended.

Before the clock starts, every worker of the server is started (a table
against a ``normal`` bot per bot worker, until the bot has moved once; a
replay for the tool worker when the people ask for hints), as on a server
that has served a while: a fresh worker takes seconds to start. The
people (``--people``, each at a table against one ``normal`` bot, a random
legal move after ``--think`` seconds, a hint every ``--hint-every``
decisions) start ``--head-start`` seconds after the attack and play for
``--seconds`` (``--min-answers``: on, up to a minute more, until they have
that many answers); one of them claims their seat at the rematch the
stranger asked for. The attacks stop when the people are done.

Reported: the people's move round trip (``act`` then ``ping``: the pong
comes after the move's update; as ``load.py``), the bot's answer (the
person's move until the first update after the move's own, when the move
left the person nothing to decide: the bot's first move they see), the
hints' times, every error the people saw, each attack's counts, the
server's RSS (start, peak, end), CPU and log errors (while serving, and
after it was told to stop: requests under way then are cancelled), and the
load average at the start and the end. The targets (issue 27): round trip
p99 < 250 ms and the bot's answer within 2 s.

Exit status 1 when a person saw an error, or the server died or went over
``--max-server-mb`` (then it is killed: the machine comes first).

    python benchmarks/attack.py --seconds 60
    python benchmarks/attack.py --seconds 60 --json --db postgresql://u@127.0.0.1/attack
    python benchmarks/attack.py --seconds 5 --bot-delay 0 --idle-sockets 10 --costly-tables 1

Bounded: at most 600 seconds, 200 sync spectators and slow readers each,
2,000 idle sockets, 64 hint flooders, 80 costly tables, 20 people; every
attacker socket reads into at most ~40 KiB of buffers.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import re
import resource
import secrets
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import load  # benchmarks/load.py: the server's start and stop, the person's play loop
import websockets

HOST = load.HOST  # the server and the attacker
PEOPLE_HOST = "127.0.0.2"  # the people: another loopback address, their own quotas
LIMITS: dict[str, tuple[float, float]] = {
    "seconds": (1, 600),
    "head_start": (0, 60),
    "sync_spectators": (0, 200),
    "slow_readers": (0, 200),
    "idle_sockets": (0, 2000),
    "hint_flooders": (0, 64),
    "costly_tables": (0, 80),
    "busy_tables": (0, 40),
    "people": (1, 20),
    "lab_rate": (0, 100),
    "quota_rate": (0, 200),
    "nested_rate": (0, 200),
    "hold": (1, 120),
    "retry": (0.1, 60),
}
# The attacks' names in the report, in the issue's order.
ATTACKS = (
    "sync",
    "slow_readers",
    "lab",
    "costly_bots",
    "spoofed_quota",
    "idle_sockets",
    "hints",
    "nested",
    "rematch",
)
ROUND_TRIP_TARGET_MS = 250.0
PLAY_ON_S = 60.0  # the most the people play past --seconds for --min-answers
BOT_ANSWER_TARGET_MS = 2000.0

RCVBUF = 4096  # an attacker socket's kernel receive buffer: a reader that never reads
READ_LIMIT = 16 * 1024  # its StreamReader's buffer (asyncio stops reading past twice this)
SMALL = 16 * 1024  # frames up to this size are read whole (answers); bigger ones skipped
CONNECT_S = 10.0  # the most a connection and its upgrade may take
DRAIN_QUIET_S = 2.0  # reading what came: this long with nothing new means still open
DRAIN_S = 20.0  # the most time spent reading what came to one socket

HELLO = json.dumps({"type": "hello"})
SYNC = json.dumps({"type": "sync"})
NESTED = "[" * 2000 + "]" * 2000  # 4,000 bytes: under the message size limit
NESTED_ACT = '{"type": "act", "action": ' + "[" * 1990 + "]" * 1990 + "}"
# 9: the person's finished table (the rematch): M.E.A.T. at one vitality, ~30 moves.
PERSON_TABLE = {
    "game": "meat",
    "options": {"vitality_1v1": 1},
    "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}],
}
WARM_UP_MOST = 8  # bot workers warmed up before the clock
PERSON_PACE_S = 0.1  # between their moves (a move and a ping: two of ten messages a second)
HUGE_LAB_RUN = {
    "game": "meat",
    "seats": ["ismcts:iterations=100000000", "ismcts:iterations=100000000"],
    "games": 100_000,
}


# -- a websocket client that reads only when it chooses ------------------------------
def _frame(text: str) -> bytes:
    """A client's masked text frame."""
    data = text.encode()
    n = len(data)
    head = bytes([0x81])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    mask = os.urandom(4)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    return head + mask + (int.from_bytes(data, "big") ^ key).to_bytes(n, "big")


def _answer(payload: bytes) -> str:
    """A short name for a message the server sent (numbers left out, so that
    "try again in 4.2 s" and "… 3.1 s" count as one kind)."""
    try:
        msg = json.loads(payload)
    except ValueError:
        return "not JSON"
    if not isinstance(msg, dict):
        return "not an object"
    if msg.get("type") != "error":
        return str(msg.get("type"))[:20]
    return "error: " + re.sub(r"\d+(\.\d+)?", "N", str(msg.get("message")))[:60]


class RawSocket:
    """A play socket on a plain TCP connection with small buffers: nothing is
    read unless a method reads it, so a reader that never reads is one that
    calls nothing (the server's updates pile up in its buffers)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.pending = 0  # payload bytes of a frame left unread before the next header
        self.read = 0  # payload bytes of the frames begun

    @classmethod
    async def open(cls, port: int, path: str) -> RawSocket:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
            sock.setblocking(False)
            await asyncio.wait_for(loop.sock_connect(sock, (HOST, port)), CONNECT_S)
            reader, writer = await asyncio.open_connection(sock=sock, limit=READ_LIMIT)
        except BaseException:
            sock.close()
            raise
        ws = cls(reader, writer)
        try:
            key = base64.b64encode(os.urandom(16)).decode()
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CONNECT_S)
            if not head.startswith(b"HTTP/1.1 101"):
                raise ConnectionError(f"no upgrade: {head[:40]!r}")
        except BaseException:
            ws.close()
            raise
        return ws

    @property
    def closing(self) -> bool:
        return self.writer.is_closing()

    def send(self, text: str) -> None:
        if not self.closing:
            self.writer.write(_frame(text))

    async def frame(self, timeout: float, skip_big: bool = True) -> tuple[int, bytes | None]:
        """The next frame: (opcode, payload). A payload over SMALL is skipped
        (None); with ``skip_big`` False it is left unread (read past later).
        TimeoutError when no frame starts within ``timeout``."""
        await self._skip(timeout)
        head = await asyncio.wait_for(self.reader.readexactly(2), timeout)
        opcode, size = head[0] & 0x0F, head[1] & 0x7F
        if size == 126:
            size = struct.unpack("!H", await self._exactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await self._exactly(8))[0]
        self.read += size
        if size <= SMALL:
            return opcode, await self._exactly(size)
        self.pending = size
        if skip_big:
            await self._skip(DRAIN_S)
        return opcode, None

    async def _exactly(self, n: int) -> bytes:
        return await asyncio.wait_for(self.reader.readexactly(n), DRAIN_S)

    async def _skip(self, timeout: float) -> None:
        while self.pending:
            chunk = await asyncio.wait_for(self.reader.read(min(self.pending, 1 << 16)), timeout)
            if not chunk:
                raise asyncio.IncompleteReadError(b"", self.pending)
            self.pending -= len(chunk)

    async def ending(self, tally: Counter[str], quiet: float = DRAIN_QUIET_S) -> str:
        """Read everything that came, up to the server's close: "closed CODE",
        "dropped" (the connection ended without a close frame) or "still
        open" (nothing new for ``quiet`` seconds). Small messages are counted by
        kind, bigger ones (whole logs) as "read: big update"."""
        deadline = time.monotonic() + DRAIN_S
        try:
            while (left := deadline - time.monotonic()) > 0:
                try:
                    opcode, payload = await self.frame(min(quiet, left))
                except TimeoutError:
                    return "still open"
                except (asyncio.IncompleteReadError, OSError):
                    return "dropped"
                if opcode == 0x8:
                    code = (
                        struct.unpack("!H", payload[:2])[0]
                        if payload and len(payload) > 1
                        else 1005
                    )
                    return f"closed {code}"
                if opcode == 0x1:
                    tally[f"read: {_answer(payload) if payload is not None else 'big update'}"] += 1
            return "still sending"
        finally:
            tally["bytes read"] += self.read  # by this socket, all told (read once)

    def close(self) -> None:
        self.writer.transport.abort()


async def _opened(port: int, path: str, tally: Counter[str], retry: float) -> RawSocket | None:
    """A new attacker socket, or None (counted, after ``retry`` s) if none opened."""
    try:
        ws = await RawSocket.open(port, path)
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
        tally[f"could not connect ({type(exc).__name__})"] += 1
        await asyncio.sleep(retry)
        return None
    tally["sockets opened"] += 1
    return ws


async def _hold_unread(
    port: int,
    path: str,
    until: float,
    tally: Counter[str],
    hold: float,
    retry: float,
    sync_every: float = 0.0,
) -> None:
    """One socket of a reader that never reads: hello (as a spectator), a look
    at the first answer's header only (a refusal is read whole), then nothing
    read for ``hold`` seconds (a ``sync`` sent every ``sync_every`` s), then
    everything read to see how it ended."""
    ws = await _opened(port, path, tally, retry)
    if ws is None:
        return
    try:
        ws.send(HELLO)
        _, payload = await ws.frame(CONNECT_S, skip_big=False)
        if payload is not None and _answer(payload).startswith("error"):  # refused at once
            tally[f"read: {_answer(payload)}"] += 1
            tally[await ws.ending(tally)] += 1
            await asyncio.sleep(retry)
            return
        end = min(until, time.monotonic() + hold)
        while (left := end - time.monotonic()) > 0 and not ws.closing:
            if sync_every:
                ws.send(SYNC)
                tally["syncs sent"] += 1
            await asyncio.sleep(min(sync_every or left, left))
        tally[await ws.ending(tally)] += 1
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        tally["dropped"] += 1
    finally:
        ws.close()


# -- the attacks ----------------------------------------------------------------------
@dataclass
class Target:
    """What the attacks aim at, made before the run."""

    port: int
    long_table: str  # a finished table of many moves (sync floods, idle sockets)
    long_moves: int
    person_table: str  # a person's finished table (the rematch)
    person_token: str
    hint_table: str = ""  # the attacker's own table, its turn (hint floods)
    hint_token: str = ""
    costly: tuple[str, ...] = ()


async def _spread(n: int, until: float, one: Callable[[], Awaitable[None]]) -> None:
    """``n`` loops of ``one`` until ``until``, their starts spread over a second."""

    async def loop(i: int) -> None:
        await asyncio.sleep(i / max(n, 1))
        while time.monotonic() < until:
            await one()

    await asyncio.gather(*(loop(i) for i in range(n)))


async def sync_flood(
    t: Target, opts: argparse.Namespace, until: float, tally: Counter[str]
) -> None:
    path = f"/ws/tables/{t.long_table}"
    await _spread(
        opts.sync_spectators,
        until,
        lambda: _hold_unread(t.port, path, until, tally, opts.hold, opts.retry, opts.sync_every),
    )


class Lobby:
    """The playing tables, listed at most every LIST_EVERY seconds."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.ids: list[str] = []
        self.at = -load.LIST_EVERY

    async def playing(self) -> list[str]:
        if time.monotonic() - self.at >= load.LIST_EVERY:
            self.at = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                r = await self.http.get("/api/tables", params={"status": "playing", "limit": 100})
                if r.status_code == 200:
                    self.ids = [x["id"] for x in r.json()["tables"]]
        return self.ids


async def slow_readers(
    t: Target, opts: argparse.Namespace, until: float, tally: Counter[str], lobby: Lobby
) -> None:
    async def one() -> None:
        ids = await lobby.playing()
        if not ids:
            await asyncio.sleep(1.0)
            return
        path = f"/ws/tables/{random.choice(ids)}"
        await _hold_unread(t.port, path, until, tally, opts.hold, opts.retry)

    await _spread(opts.slow_readers, until, one)


async def idle_sockets(
    t: Target, opts: argparse.Namespace, until: float, tally: Counter[str]
) -> None:
    path = f"/ws/tables/{t.long_table}"

    async def one() -> None:
        ws = await _opened(t.port, path, tally, opts.retry)
        if ws is None:
            return
        try:
            # Never a hello: it waits for the server to close it (4408), or
            # reads a refusal (4429) at once.
            tally[await ws.ending(tally, quiet=max(1.0, until - time.monotonic()))] += 1
        finally:
            ws.close()
        await asyncio.sleep(opts.retry)

    await _spread(opts.idle_sockets, until, one)


async def nested_messages(
    t: Target, opts: argparse.Namespace, until: float, tally: Counter[str]
) -> None:
    """One socket at a time sending nested messages (it reads every answer)."""
    path = f"/ws/tables/{t.long_table}"
    connections = 0
    while time.monotonic() < until:
        ws = await _opened(t.port, path, tally, opts.retry)
        if ws is None:
            continue
        connections += 1
        try:
            if connections % 5 == 0:  # a nested hello: refused as any bad hello is
                ws.send(NESTED)
                tally["nested hellos"] += 1
                tally[await ws.ending(tally)] += 1
                continue
            ws.send(HELLO)
            reading = asyncio.create_task(
                ws.ending(tally, quiet=max(1.0, until - time.monotonic()))
            )
            sent = 0
            while time.monotonic() < until and not reading.done() and not ws.closing:
                ws.send(NESTED if sent % 2 == 0 else NESTED_ACT)
                sent += 1
                tally["nested sent"] += 1
                await asyncio.sleep(1.0 / opts.nested_rate)
            if not reading.done():
                reading.cancel()
            else:
                tally[reading.result()] += 1
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            tally["dropped"] += 1
        finally:
            ws.close()
        await asyncio.sleep(opts.retry)


async def lab_runs(http: httpx.AsyncClient, rate: float, until: float, tally: Counter[str]) -> None:
    bearer = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
    n = 0
    while time.monotonic() < until:
        headers = bearer if n % 2 else {}
        with contextlib.suppress(httpx.HTTPError):
            r = await http.post("/api/lab/runs", json=HUGE_LAB_RUN, headers=headers)
            tally[f"run {r.status_code}"] += 1
            if n % 10 == 0:
                listing = await http.get("/api/lab/runs", headers=headers)
                tally[f"list {listing.status_code}"] += 1
        n += 1
        await asyncio.sleep(1.0 / rate)


async def quota_pressure(
    http: httpx.AsyncClient, game: str, rate: float, until: float, tally: Counter[str]
) -> None:
    """Table creations each claiming another address in X-Forwarded-For; every
    other one with a fresh client id as well (ids are each a client: the
    address as a whole is bounded)."""
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    n = 0
    while time.monotonic() < until:
        headers = {"X-Forwarded-For": f"203.0.113.{n % 250 + 1}, 198.51.100.{n % 200 + 1}"}
        kind = "spoofed"
        if n % 2:
            headers["X-Bestiary-Client"] = f"spoof-{secrets.token_hex(6)}"
            kind = "spoofed, new id"
        with contextlib.suppress(httpx.HTTPError):
            r = await http.post("/api/tables", json={"game": game, "seats": seats}, headers=headers)
            tally[f"{kind} {r.status_code}"] += 1
        n += 1
        await asyncio.sleep(1.0 / rate)


async def hint_flood(
    t: Target, opts: argparse.Namespace, http: httpx.AsyncClient, until: float, tally: Counter[str]
) -> None:
    url = f"/api/tables/{t.hint_table}/hint"

    async def one() -> None:
        tally["hints asked"] += 1
        try:
            r = await http.post(url, json={"token": t.hint_token})
            tally[f"hint {r.status_code}"] += 1
        except httpx.HTTPError as exc:
            tally[f"hint {type(exc).__name__}"] += 1
        await asyncio.sleep(0.05)

    await _spread(opts.hint_flooders if t.hint_table else 0, until, one)


async def rematch_stranger(
    t: Target, http: httpx.AsyncClient, until: float, tally: Counter[str]
) -> None:
    """Asks for rematches and tries to take the seats held for their people:
    the person's finished table again and again, and each finished table the
    lobby lists, once."""
    tried: set[str] = set()
    listed = -load.LIST_EVERY
    while time.monotonic() < until:
        targets = [t.person_table]
        if time.monotonic() - listed >= load.LIST_EVERY:
            listed = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                r = await http.get("/api/tables", params={"status": "finished", "limit": 100})
                if r.status_code == 200:
                    targets += [x["id"] for x in r.json()["tables"] if x["id"] not in tried]
        for table in targets:
            tried.add(table)
            with contextlib.suppress(httpx.HTTPError):
                await _grab(http, table, tally)
        await asyncio.sleep(1.0)


async def _grab(http: httpx.AsyncClient, table: str, tally: Counter[str]) -> None:
    r = await http.post(f"/api/tables/{table}/rematch")
    tally[f"rematch {r.status_code}"] += 1
    if r.status_code != 200:
        return
    new = r.json()
    held = [i for i, s in enumerate(new["seats"]) if s.get("held")]
    for body in [{}, *({"seat": i} for i in held)]:
        j = await http.post(f"/api/tables/{new['id']}/join", json=body)
        tally[f"join {j.status_code}"] += 1
        if j.status_code == 200 and j.json()["seat"] in held:
            tally["HELD SEAT TAKEN"] += 1  # the fault this attack looks for


# -- before the run -------------------------------------------------------------------
def _client(base: str, name: str, host: str = HOST) -> httpx.AsyncClient:
    """An HTTP client from ``host`` under its own client id."""
    return httpx.AsyncClient(
        base_url=base,
        timeout=30,
        headers={"X-Bestiary-Client": f"{name}-{secrets.token_hex(4)}"},
        transport=httpx.AsyncHTTPTransport(local_address=host),
    )


async def _created(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post("/api/tables", json=body)
    if r.status_code != 201:
        raise SystemExit(f"cannot create a table for the attack: {r.status_code} {r.text[:200]}")
    return dict(r.json())


async def _finished(http: httpx.AsyncClient, table: str, seconds: float = 600.0) -> int:
    """Wait for ``table`` to finish: its number of moves."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        info = (await http.get(f"/api/tables/{table}")).json()
        if info["status"] == "finished":
            return int(info["moves"] or 0)
        await asyncio.sleep(0.2)
    raise SystemExit(f"table {table} did not finish in {seconds:g} s")


async def _play_out(
    base: str, table: str, token: str, host: str = PEOPLE_HOST, first_bot_move: bool = False
) -> None:
    """A person from ``host`` plays random legal moves at ``table`` to its end
    (or, with ``first_bot_move``, until a bot has moved after them): each move
    followed by a ping, the next one chosen from the updates after the pong
    (as ``load.human``), within the socket's message rate."""
    url = f"{base.replace('http', 'ws')}/ws/tables/{table}"
    rng = random.Random(1)
    async with websockets.connect(url, local_addr=(host, 0), max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        waiting, latest = False, None  # a pong to come; the last update since the move
        bots_turn = False  # the last update left the person nothing to decide
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "update":
                if msg["over"] or (first_bot_move and bots_turn):
                    return
                latest, bots_turn = msg, not msg["your_turn"]
            elif msg["type"] == "pong":
                waiting = False
                if latest is None:  # the move was refused and nothing came since
                    await ws.send(SYNC)
            elif msg["type"] == "error" and "too many" in msg["message"]:
                # Over the socket's message rate: the move or its ping was
                # dropped. A moment later, the table as it is now.
                await asyncio.sleep(float(msg.get("retry_after", 1.0)))
                waiting, latest = False, None
                await ws.send(SYNC)
            if not waiting and latest is not None and latest["your_turn"]:
                await asyncio.sleep(PERSON_PACE_S)
                action = rng.choice(latest["legal"])
                await ws.send(json.dumps({"type": "act", "action": action}))
                await ws.send(json.dumps({"type": "ping"}))
                waiting, latest = True, None


async def prepare(base: str, port: int, opts: argparse.Namespace) -> Target:
    """The finished tables the attacks need: bots' long game (sync floods) and
    a person's game (the rematch). Played on a server without a bot delay."""
    async with (
        _client(base, "attacker-prepare") as http,
        _client(base, "person-prepare", PEOPLE_HOST) as person,
    ):
        bots = [{"kind": "bot", "agent": "random"}] * opts.sync_players
        long_table = (await _created(http, {"game": opts.sync_game, "seats": bots}))["id"]
        mine = (await _created(person, PERSON_TABLE))["id"]
        joined = await person.post(f"/api/tables/{mine}/join", json={"seat": 0, "name": "Ana"})
        token = joined.json()["token"]
        await _play_out(base, mine, token)
        moves = await _finished(http, long_table)
        await _finished(http, mine)
    return Target(port, long_table, moves, mine, token)


async def warm_up(base: str, game: str, players: int) -> None:
    """Start every bot worker before the clock, as on a server that has been
    serving a while (a fresh worker imports every game first: seconds; on a
    busy machine, tens of seconds). A table against a ``normal`` bot per
    worker, played until the bot has answered once, all at once, from both
    addresses (one address holds at most half the workers); then they wait
    for a move that never comes."""
    workers = int(os.environ.get("BESTIARY_BOT_WORKERS") or os.cpu_count() or 1)
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "normal"}] * (players - 1)

    async def one(i: int) -> None:
        host = (HOST, PEOPLE_HOST)[i % 2]
        async with _client(base, f"warm-up-{i}", host) as http:
            table = (await _created(http, {"game": game, "seats": seats}))["id"]
            joined = await http.post(f"/api/tables/{table}/join", json={"seat": 0})
            await _play_out(base, table, joined.json()["token"], host, first_bot_move=True)

    await asyncio.gather(*(one(i) for i in range(min(workers, WARM_UP_MOST))))


async def arm(t: Target, base: str, opts: argparse.Namespace, tally: Counter[str]) -> Target:
    """The attacker's own tables, made before the clock starts: costly bots
    (one client id per 10: a client's burst), busy bot tables, and a table
    at which it owes a move (hints)."""
    costly: list[str] = []
    seats = [{"kind": "bot", "agent": "ismcts:seconds=5"}] * 6
    for start in range(0, opts.costly_tables, 10):
        async with _client(base, "attacker-costly") as http:
            for _ in range(min(10, opts.costly_tables - start)):
                r = await http.post("/api/tables", json={"game": opts.costly_game, "seats": seats})
                tally[f"costly tables {r.status_code}"] += 1
                if r.status_code == 201:
                    costly.append(r.json()["id"])
    async with _client(base, "attacker-busy") as http:
        bots = [{"kind": "bot", "agent": "random"}] * opts.sync_players
        for _ in range(opts.busy_tables):
            r = await http.post("/api/tables", json={"game": opts.sync_game, "seats": bots})
            tally[f"busy tables {r.status_code}"] += 1
        hint_table = hint_token = ""
        if opts.hint_flooders:
            seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
            hint_table = (await _created(http, {"game": opts.game, "seats": seats}))["id"]
            joined = await http.post(f"/api/tables/{hint_table}/join", json={"seat": 0})
            hint_token = joined.json()["token"]
    t.hint_table, t.hint_token, t.costly = hint_table, hint_token, tuple(costly)
    return t


# -- the people (a process of their own) ----------------------------------------------
async def people(plan: dict[str, Any]) -> dict[str, Any]:
    """The people's play from PEOPLE_HOST, from ``start_at`` (wall clock) for
    ``seconds``, then on (new tables, at most PLAY_ON_S more) until they have
    ``min_answers`` round trips and bot answers: their figures and errors."""
    await asyncio.sleep(max(0.0, plan["start_at"] - time.time()))
    stats = load.Stats()
    started = time.monotonic()
    until = started + plan["seconds"]
    base, wanted = plan["base"], plan["min_answers"]
    rematch: dict[str, Any] = {}
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(_client(base, f"person-{i}", PEOPLE_HOST))
            for i in range(plan["people"])
        ]
        claim: list[Awaitable[None]] = [_claim(https[0], plan, stats, rematch)]
        while True:
            tasks = [
                load.human(
                    base,
                    http,
                    plan["game"],
                    plan["players"],
                    until,
                    stats,
                    bot="normal",
                    think=plan["think"],
                    hint_every=plan["hint_every"],
                    connect={"local_addr": (PEOPLE_HOST, 0)},
                )
                for http in https
            ]
            for res in await asyncio.gather(*tasks, *claim, return_exceptions=True):
                if isinstance(res, BaseException):
                    stats.error(f"task {type(res).__name__}: {str(res)[:60]}")
            claim = []
            enough = min(len(stats.round_trips), len(stats.bot_answers)) >= wanted
            if enough or stats.errors or until >= started + plan["seconds"] + PLAY_ON_S:
                break
            until = min(time.monotonic() + 2.0, started + plan["seconds"] + PLAY_ON_S)
    trips = stats.round_trips
    return {
        "people": plan["people"],
        "seconds": round(time.monotonic() - started, 1),
        "moves": stats.human_moves,
        "stale_moves": stats.stale,
        "round_trips": len(trips),
        "round_trip_ms_p50": round(1000 * statistics.median(trips), 1) if trips else None,
        "round_trip_ms_p99": load.pct_ms(trips, 0.99),
        "round_trip_ms_max": load.pct_ms(trips, 1.0),
        "bot_answers": len(stats.bot_answers),
        "bot_answer_ms_p50": load.pct_ms(stats.bot_answers, 0.5),
        "bot_answer_ms_p99": load.pct_ms(stats.bot_answers, 0.99),
        "bot_answer_ms_max": load.pct_ms(stats.bot_answers, 1.0),
        "hints": len(stats.hints),
        "hint_ms_max": load.pct_ms(stats.hints, 1.0),
        "rematch": rematch,
        "errors": stats.errors,
    }


async def _claim(
    http: httpx.AsyncClient, plan: dict[str, Any], stats: load.Stats, out: dict[str, Any]
) -> None:
    """The person of the finished table claims their seat at its rematch
    (which the stranger asked for first)."""
    await asyncio.sleep(plan["claim_after"])
    table, token = plan["person_table"], plan["person_token"]
    r = await http.post(f"/api/tables/{table}/rematch", json={"token": token, "name": "Ana"})
    out["status"] = r.status_code
    if r.status_code != 200 or r.json().get("seat") != 0:
        stats.error(f"rematch seat {r.status_code}: {r.text[:60]}")
    else:
        out["seat"] = 0


def _people_main() -> int:
    """The people's process: started first (its imports take a while on a busy
    machine), it waits for its plan on stdin and prints its report."""
    plan = json.loads(sys.stdin.readline())

    async def report() -> None:
        print(json.dumps(await people(plan)), flush=True)
        # The report is out: no closing of sockets and threads to wait for
        # (a server under attack may take long to answer a close).
        os._exit(0)

    load._run_loop(report())
    return 0


def _spawn_people() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--people-process"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )


# -- the run --------------------------------------------------------------------------
async def _watch(
    pid: int, until: float, cap_kb: int, rss: dict[str, int], tally: Counter[str]
) -> None:
    """The server's RSS every second; past ``cap_kb`` the server is killed."""
    while time.monotonic() < until:
        kb = load._rss_kb(pid)
        rss["peak"] = max(rss.get("peak", 0), kb)
        if kb > cap_kb:
            tally["killed over the memory cap"] += 1
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            return
        await asyncio.sleep(1.0)


async def _moves(http: httpx.AsyncClient, tables: tuple[str, ...]) -> int:
    """The moves made at ``tables``, as far as the server says within 10 s."""

    async def one(table: str) -> int:
        with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, TypeError):
            return int((await http.get(f"/api/tables/{table}", timeout=10)).json()["moves"] or 0)
        return 0

    return sum(await asyncio.gather(*(one(table) for table in tables)))


async def run(
    opts: argparse.Namespace,
    base: str,
    t: Target,
    pid: int,
    phases: Phases,
    victim: subprocess.Popen[bytes],
) -> tuple[dict[str, Any], dict[str, Counter[str]]]:
    tallies: dict[str, Counter[str]] = {name: Counter() for name in ATTACKS}
    tallies["server"] = Counter()  # what happened to the server (and the harness)
    t = await arm(t, base, opts, tallies["costly_bots"])
    phases.mark("arm")
    rss = {"start": load._rss_kb(pid)}
    cpu_before, server_cpu_before = load._own_cpu_s(), load._cpu_s(pid)
    started = time.monotonic()
    # The attacks go on until the people are done (then they are stopped).
    until = started + opts.head_start + opts.seconds + PLAY_ON_S + 60.0
    plan = {
        "base": base,
        "game": opts.game,
        "players": opts.players,
        "people": opts.people,
        "think": opts.think,
        "hint_every": opts.hint_every,
        "start_at": time.time() + opts.head_start,
        "seconds": opts.seconds,
        "min_answers": opts.min_answers,
        "claim_after": min(3.0, opts.seconds / 2),
        "person_table": t.person_table,
        "person_token": t.person_token,
    }
    # The people's process reads its plan and plays in threads' time of its own.
    waited = opts.head_start + opts.seconds + 120
    people_report = asyncio.create_task(
        asyncio.to_thread(victim.communicate, (json.dumps(plan) + "\n").encode(), waited)
    )
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(_client(base, "attacker"))
        lobby = Lobby(http)
        attacks = [
            sync_flood(t, opts, until, tallies["sync"]),
            slow_readers(t, opts, until, tallies["slow_readers"], lobby),
            idle_sockets(t, opts, until, tallies["idle_sockets"]),
            hint_flood(t, opts, http, until, tallies["hints"]),
            rematch_stranger(t, http, until, tallies["rematch"]),
        ]
        if opts.lab_rate:
            attacks.append(lab_runs(http, opts.lab_rate, until, tallies["lab"]))
        if opts.quota_rate:
            attacks.append(
                quota_pressure(http, opts.game, opts.quota_rate, until, tallies["spoofed_quota"])
            )
        if opts.nested_rate:
            attacks.append(nested_messages(t, opts, until, tallies["nested"]))
        cap_kb = int(opts.max_server_mb * 1024)
        tasks = [asyncio.create_task(a) for a in attacks]
        watcher = asyncio.create_task(_watch(pid, until, cap_kb, rss, tallies["server"]))
        try:
            out, _ = await people_report
        except subprocess.TimeoutExpired:
            victim.kill()
            out = b""
        # The people are done: so are the attacks (a socket held unread now
        # is not read: its last round is not counted).
        for task in [*tasks, watcher]:
            task.cancel()
        for task, res in zip(
            tasks, await asyncio.gather(*tasks, return_exceptions=True), strict=True
        ):
            if isinstance(res, BaseException) and not isinstance(res, asyncio.CancelledError):
                name = task.get_coro().__name__  # type: ignore[union-attr]
                tallies["server"][f"attack {name} failed: {type(res).__name__}: {res}"[:120]] += 1
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        tallies["costly_bots"]["bot moves at the costly tables"] = await _moves(http, t.costly)
    try:
        person = json.loads(out)
    except ValueError:
        person = {"errors": {"the people's process gave no report": 1}}
    rss["end"] = load._rss_kb(pid)
    report = {
        "victim": person,
        "server": {
            "rss_mb_start": round(rss["start"] / 1024, 1),
            "rss_mb_peak": round(rss.get("peak", 0) / 1024, 1),
            "rss_mb_end": round(rss["end"] / 1024, 1),
            "cpu_s": round(load._cpu_s(pid) - server_cpu_before, 1),
        },
        "attacker_cpu_s": round(load._own_cpu_s() - cpu_before, 1),
    }
    return report, tallies


class Phases(dict[str, float]):
    """Seconds each phase of the harness took (start, prepare, arm, run, stop)."""

    def __init__(self) -> None:
        super().__init__()
        self.at = time.monotonic()

    def mark(self, name: str) -> None:
        now = time.monotonic()
        self[f"{name}_s"] = round(self.get(f"{name}_s", 0.0) + now - self.at, 1)
        self.at = now


def _log_errors(log: Path, stopped_at: int) -> dict[str, Any]:
    """Tracebacks and ERROR lines in the server's log (a crash, a 1011): those
    written while it served, and those written after it was told to stop at
    byte ``stopped_at`` (requests still under way then are cancelled)."""
    try:
        text = log.read_bytes()
    except OSError:
        return {"errors": None, "first": []}

    def bad(part: bytes) -> list[str]:
        lines = part.decode(errors="replace").splitlines()
        return [ln for ln in lines if "Traceback" in ln or " ERROR" in ln or "ERROR:" in ln]

    serving, stopping = bad(text[:stopped_at]), bad(text[stopped_at:])
    return {
        "errors": len(serving),
        "warnings": text[:stopped_at].count(b"WARNING"),
        "first": serving[:5],
        "errors_at_stop": len(stopping),
        "first_at_stop": stopping[:3],
    }


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def harness(opts: argparse.Namespace) -> dict[str, Any]:
    """Start the people's process and the server, prepare, attack: the report."""
    _check_host()
    _raise_open_files(opts)
    victim = _spawn_people()
    try:
        return _harness(opts, victim)
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()


async def _ready(base: str, port: int, opts: argparse.Namespace, target: Target | None) -> Target:
    """The served server warmed up, and the finished tables made here too
    unless another server made them already."""

    async def made() -> Target:
        ready = target or await prepare(base, port, opts)
        ready.port = port
        if opts.hint_every:  # the tool worker too (the people's hints): a replay
            async with _client(base, "warm-up-tools") as http:
                r = await http.get(f"/api/tables/{ready.person_table}/replay")
                if r.status_code != 200:
                    raise SystemExit(f"the warm-up replay failed: {r.status_code} {r.text[:200]}")
        return ready

    ready, _ = await asyncio.gather(made(), warm_up(base, opts.game, opts.players))
    return ready


def _harness(opts: argparse.Namespace, victim: subprocess.Popen[bytes]) -> dict[str, Any]:
    load_before = load._load()
    phases = Phases()
    with tempfile.TemporaryDirectory() as tmp:
        db = opts.db or str(Path(tmp) / "attack.sqlite3")
        log = Path(opts.logs) / "server.log" if opts.logs else Path(tmp) / "server.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        target: Target | None = None
        if opts.bot_delay > 0:  # the long game played out quickly on a server without a delay
            port = load._free_port()
            proc = load.start_server(db, port, 0.0, log, quotas={})
            try:
                target = load._run_loop(prepare(f"http://{HOST}:{port}", port, opts))
            finally:
                load.stop_servers([proc])
            phases.mark("prepare")
        port = load._free_port()
        base = f"http://{HOST}:{port}"
        proc = load.start_server(db, port, opts.bot_delay, log, quotas={})
        try:
            phases.mark("start")
            target = load._run_loop(_ready(base, port, opts, target))
            phases.mark("prepare")
            report, tallies = load._run_loop(run(opts, base, target, proc.pid, phases, victim))
            phases.mark("run")
        finally:
            alive, stopped_at = proc.poll() is None, _size(log)
            load.stop_servers([proc], opts.stop_wait)
            phases.mark("stop")
        report["server"]["alive"] = alive
        report["server"]["log"] = _log_errors(log, stopped_at)
    person = report["victim"]
    p99, answer = person.get("round_trip_ms_p99"), person.get("bot_answer_ms_max")
    return {
        "seconds": opts.seconds,
        "head_start_s": opts.head_start,
        "game": opts.game,
        "store": "postgresql" if (opts.db or "").startswith("postgres") else "sqlite",
        "bot_delay": opts.bot_delay,
        **report,
        "targets": {
            "round_trip_p99_under_250_ms": p99 is not None and p99 < ROUND_TRIP_TARGET_MS,
            "bot_answer_max_under_2_s": answer is not None and answer < BOT_ANSWER_TARGET_MS,
        },
        "attacks": {
            name: dict(sorted(c.items())) for name, c in tallies.items() if name != "server"
        },
        "sync_table_moves": target.long_moves,
        "incidents": dict(tallies["server"]),
        "scale": {k: getattr(opts, k) for k in LIMITS if k not in ("seconds", "head_start")},
        "load_before": load_before,
        "load_after": load._load(),
        "phases": dict(phases),
    }


def failed(report: dict[str, Any]) -> bool:
    """Whether a person saw an error, the server did not last the run (or was
    killed over its memory cap) or an attack failed (a fault of this tool)."""
    server = report["server"]
    return bool(report["victim"].get("errors")) or not server["alive"] or bool(report["incidents"])


def _check_host() -> None:
    try:
        with socket.socket() as s:
            s.bind((PEOPLE_HOST, 0))
    except OSError as exc:
        raise SystemExit(
            f"the people need the loopback address {PEOPLE_HOST} (Linux has all of "
            f"127.0.0.0/8): {exc}"
        ) from None


def _raise_open_files(opts: argparse.Namespace) -> None:
    """Enough file descriptors for every attacker socket at once (and a margin)."""
    need = opts.sync_spectators + opts.slow_readers + opts.idle_sockets + opts.hint_flooders + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            raise SystemExit(f"{need} open files needed; the limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = ap.add_argument
    add("--seconds", type=float, default=60.0, help="the people play this long")
    add("--head-start", type=float, default=3.0, help="seconds of attack before they start")
    add("--game", default="taxonomy", help="the people's game (and the hint table's)")
    add("--players", type=int, default=2, help="seats at a person's table (one normal bot: 2)")
    add("--people", type=int, default=3, help="people, each at a table against a normal bot")
    add("--think", type=float, default=0.5, help="seconds a person thinks (0.5x to 1.5x)")
    add("--hint-every", type=int, default=10, help="a person asks a hint every N decisions")
    add(
        "--min-answers",
        type=int,
        default=0,
        help="the people play on past --seconds (at most 60 s) until they have this many "
        "round trips and bot answers",
    )
    add("--bot-delay", type=float, default=0.4, help="the server's (bestiary serve's default)")
    add("--db", default=None, help="store (default: a fresh SQLite file)")
    add("--logs", default=None, help="folder for the server's log (default: a temporary one)")
    add("--max-server-mb", type=float, default=3072.0, help="kill the server past this RSS")
    add("--sync-spectators", type=int, default=30, help="1: sync floods of a finished table")
    add("--sync-every", type=float, default=1.0, help="seconds between a flooder's syncs")
    add("--sync-game", default="monster-maker", help="the long finished game (and busy tables')")
    add("--sync-players", type=int, default=4, help="its seats (4 random bots: ~1,900 moves)")
    add("--slow-readers", type=int, default=20, help="2: spectators that never read")
    add("--hold", type=float, default=10.0, help="seconds a non-reader holds a socket unread")
    add("--lab-rate", type=float, default=5.0, help="3: huge lab runs a second (no token)")
    add("--costly-tables", type=int, default=10, help="4: tables of six ismcts:seconds=5 bots")
    add("--costly-game", default="meat", help="their game (six seats)")
    add("--busy-tables", type=int, default=4, help="random-bot tables for the slow readers")
    add("--quota-rate", type=float, default=20.0, help="5: spoofed table creations a second")
    add("--idle-sockets", type=int, default=300, help="6: sockets that never say hello")
    add(
        "--retry",
        type=float,
        default=5.0,
        help="seconds before an attacker socket reconnects (5: as long as a hello is awaited)",
    )
    add("--hint-flooders", type=int, default=8, help="7: loops asking for hints")
    add("--nested-rate", type=float, default=20.0, help="8: nested messages a second")
    add(
        "--stop-wait",
        type=float,
        default=20.0,
        help="seconds the server may take to stop (it waits 3 s for requests under way)",
    )
    add("--json", action="store_true")
    add("--people-process", action="store_true", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if not opts.people_process:
        for name, (low, high) in LIMITS.items():
            if not low <= getattr(opts, name) <= high:
                ap.error(f"--{name.replace('_', '-')} must be {low:g} to {high:g}")
        if not 2 <= opts.sync_players <= 6 or not 2 <= opts.players <= 6:
            ap.error("--players and --sync-players must be 2 to 6")
        if opts.bot_delay < 0 or opts.think < 0 or opts.hint_every < 0 or opts.sync_every <= 0:
            ap.error("--bot-delay, --think and --hint-every must be 0 or more; --sync-every over 0")
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = parse(argv)
    if opts.people_process:
        return _people_main()
    report = harness(opts)
    if opts.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>20}: {v}")
    return 1 if failed(report) else 0


if __name__ == "__main__":
    raise SystemExit(main())
