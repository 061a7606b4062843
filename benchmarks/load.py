"""Load test of the game server, on loopback only: N bot tables, M scripted
people playing against bots, and spectators, for a bounded time.

It starts its own ``bestiary serve`` on 127.0.0.1 (a fresh SQLite file in a
temporary folder unless ``--db`` names one), with the per-client quotas
raised (every client here is 127.0.0.1), and reports:

- moves/s: moves the server accepted over the run (all tables);
- move round trip p50/p99: a person's ``act`` until the server has applied it
  and sent the update (an ``act`` then a ``ping``: the pong comes after);
- errors: HTTP failures, error messages and dropped sockets;
- RSS: the server process and its worker processes (peak and at the end).

    python benchmarks/load.py --tables 100 --humans 10 --spectators 50 --seconds 60
    python benchmarks/load.py --game meat --tables 20 --json

Bounded: at most 500 tables, 200 people, 2000 spectators, 600 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"  # never anything else: this tool only loads its own server
LIMITS = {"tables": 500, "humans": 200, "spectators": 2000, "seconds": 600.0}
BESTIARY = Path(sys.executable).with_name("bestiary")


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    spectator_messages: int = 0
    human_moves: int = 0
    stale: int = 0  # moves overtaken by a bot's before they arrived (not errors)
    rss_peak_kb: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _rss_kb(pid: int) -> int:
    """Resident memory of a process and its children (Linux /proc), in KiB."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    for p in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def start_server(db: str, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        # Every client of this test is 127.0.0.1: lift the per-client quotas.
        "BESTIARY_TABLE_BURST": "100000",
        "BESTIARY_TABLES_PER_MINUTE": "100000",
        "BESTIARY_OPEN_TABLES_PER_CLIENT": "100000",
        "BESTIARY_SOCKETS_PER_CLIENT": "100000",
        "BESTIARY_CLIENT_MESSAGES_PER_SECOND": "100000",
        "BESTIARY_CLIENT_MESSAGE_BURST": "100000",
    }
    args = [str(BESTIARY), "serve", "--host", HOST, "--port", str(port), "--db", db]
    args += ["--bot-delay", str(bot_delay)]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


async def bot_tables(
    http: httpx.AsyncClient, game: str, players: int, bot: str, n: int, until: float, stats: Stats
) -> list[str]:
    """Keep ``n`` all-bot tables running until ``until``; every table created."""
    seats = [{"kind": "bot", "agent": bot}] * players
    created: list[str] = []
    running: set[str] = set()
    while time.monotonic() < until:
        while len(running) < n and time.monotonic() < until:
            r = await http.post("/api/tables", json={"game": game, "seats": seats})
            if r.status_code != 201:
                stats.error(f"create {r.status_code}")
                await asyncio.sleep(0.5)
                continue
            running.add(r.json()["id"])
            created.append(r.json()["id"])
        await asyncio.sleep(1.0)
        page = await http.get("/api/tables", params={"status": "playing", "limit": 100})
        if page.status_code != 200:
            stats.error(f"list {page.status_code}")
            continue
        # A table not among the playing ones (page by page) has finished.
        playing: set[str] = set()
        total = page.json()["total"]
        playing |= {t["id"] for t in page.json()["tables"]}
        for offset in range(100, total, 100):
            more = await http.get(
                "/api/tables", params={"status": "playing", "limit": 100, "offset": offset}
            )
            playing |= {t["id"] for t in more.json()["tables"]}
        running &= playing
    return created


async def human(
    base: str, http: httpx.AsyncClient, game: str, players: int, until: float, stats: Stats
) -> None:
    """A scripted person: a table against bots, a random legal move each turn,
    timing each move's round trip; a new table when one ends."""
    rng = random.Random()
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (players - 1)
    while time.monotonic() < until:
        r = await http.post("/api/tables", json={"game": game, "seats": seats})
        if r.status_code != 201:
            stats.error(f"create {r.status_code}")
            await asyncio.sleep(1)
            continue
        table = r.json()["id"]
        j = await http.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "load"})
        if j.status_code != 200:
            stats.error(f"join {j.status_code}")
            continue
        try:
            async with websockets.connect(f"{base.replace('http', 'ws')}/ws/tables/{table}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": j.json()["token"]}))
                # Each move is followed by a ping: the server handles a socket's
                # messages in order, so the pong comes after the move's own
                # update (and any bot updates before it). Round trip: act to pong.
                sent: float | None = None
                latest: dict[str, Any] | None = None
                while (left := until - time.monotonic()) > 0:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), min(30.0, left)))
                    except TimeoutError:
                        if left > 30:
                            stats.error("no message for 30 s")
                        break
                    if msg["type"] == "error":
                        stale = ("not a legal action", "no decision to make")
                        if any(text in msg["message"] for text in stale):
                            stats.stale += 1  # a bot's move overtook ours: not an error
                            await ws.send(json.dumps({"type": "sync"}))
                        else:
                            stats.error(f"ws error: {msg['message'][:60]}")
                    elif msg["type"] == "update":
                        latest = msg
                        if msg["over"]:
                            break
                    elif msg["type"] == "pong" and sent is not None:
                        stats.round_trips.append(time.monotonic() - sent)
                        sent = None
                    if sent is None and latest is not None and latest["your_turn"]:
                        action = rng.choice(latest["legal"])
                        await ws.send(json.dumps({"type": "act", "action": action}))
                        await ws.send(json.dumps({"type": "ping"}))
                        sent = time.monotonic()
                        stats.human_moves += 1
                        latest = None  # act again only on news after the pong
        except (OSError, TimeoutError, websockets.WebSocketException):
            stats.error("socket dropped")


async def spectator(base: str, table: str, until: float, stats: Stats) -> None:
    try:
        async with websockets.connect(f"{base.replace('http', 'ws')}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                stats.spectator_messages += 1
                if json.loads(raw).get("over"):
                    return
    except (OSError, websockets.WebSocketException):
        stats.error("spectator dropped")


async def spectators(
    base: str, http: httpx.AsyncClient, n: int, until: float, stats: Stats
) -> None:
    """``n`` spectators spread over the playing tables, moving on when one ends."""
    tasks: set[asyncio.Task[None]] = set()
    while time.monotonic() < until:
        tasks = {t for t in tasks if not t.done()}
        page = await http.get("/api/tables", params={"status": "playing", "limit": 100})
        ids = [t["id"] for t in page.json()["tables"]] if page.status_code == 200 else []
        while ids and len(tasks) < n:
            tasks.add(asyncio.create_task(spectator(base, random.choice(ids), until, stats)))
        await asyncio.sleep(1.0)
    for t in tasks:
        t.cancel()


async def sample_rss(pid: int, until: float, stats: Stats) -> None:
    while time.monotonic() < until:
        stats.rss_peak_kb = max(stats.rss_peak_kb, _rss_kb(pid))
        await asyncio.sleep(1.0)


async def run(opts: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    stats = Stats()
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        games = {g["id"]: g for g in (await http.get("/api/games")).json()["games"]}
        if opts.game not in games:
            raise SystemExit(f"unknown game {opts.game!r}; games: {', '.join(games)}")
        players = opts.players or games[opts.game]["default_players"]
        started = time.monotonic()
        until = started + opts.seconds
        tasks = [
            asyncio.create_task(
                bot_tables(http, opts.game, players, opts.bot, opts.tables, until, stats)
            ),
            asyncio.create_task(sample_rss(pid, until, stats)),
            asyncio.create_task(spectators(base, http, opts.spectators, until, stats)),
            *[
                asyncio.create_task(human(base, http, opts.game, players, until, stats))
                for _ in range(opts.humans)
            ],
        ]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.monotonic() - started
        for res in results:
            if isinstance(res, BaseException):
                stats.error(f"task {type(res).__name__}")
        # Every move the server accepted: the record of finished tables, the
        # public counter of the others (hidden steps uncounted: a lower bound).
        moves = 0
        offset = 0
        while True:
            page = (await http.get("/api/tables", params={"limit": 100, "offset": offset})).json()
            moves += sum(t["moves"] or 0 for t in page["tables"])
            offset += 100
            if offset >= page["total"]:
                break
        trips = sorted(stats.round_trips)
    return {
        "game": opts.game,
        "players": players,
        "bot_tables": opts.tables,
        "bot": opts.bot,
        "humans": opts.humans,
        "spectators": opts.spectators,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "human_moves": stats.human_moves,
        "stale_moves": stats.stale,
        "round_trip_ms_p50": round(1000 * statistics.median(trips), 1) if trips else None,
        "round_trip_ms_p99": round(1000 * trips[int(0.99 * (len(trips) - 1))], 1)
        if trips
        else None,
        "spectator_messages": stats.spectator_messages,
        "errors": stats.errors,
        "rss_mb_peak": round(stats.rss_peak_kb / 1024, 1),
        "rss_mb_end": round(_rss_kb(pid) / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="taxonomy")
    ap.add_argument("--players", type=int, default=0, help="seats per table (default: the game's)")
    ap.add_argument("--tables", type=int, default=100, help="all-bot tables kept running")
    ap.add_argument("--bot", default="random", help="their bots (a lobby level or random)")
    ap.add_argument("--humans", type=int, default=10, help="scripted people vs bots")
    ap.add_argument("--spectators", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--bot-delay", type=float, default=0.0)
    ap.add_argument("--db", default=None, help="store (default: a fresh SQLite file)")
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args(argv)
    for name, cap in LIMITS.items():
        if not 0 <= getattr(opts, name) <= cap:
            ap.error(f"--{name} must be 0 to {cap:g}")
    with tempfile.TemporaryDirectory() as tmp:
        db = opts.db or str(Path(tmp) / "load.sqlite3")
        port = _free_port()
        proc = start_server(db, port, opts.bot_delay)
        try:
            report = asyncio.run(run(opts, f"http://{HOST}:{port}", proc.pid))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    if opts.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>20}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
