"""Load test of the game server, on loopback only: N bot tables, M scripted
people playing against bots, P tables of two scripted people (at a person's
pace, each person on another server process when there are several), and
spectators, for a bounded time.

It starts its own ``bestiary serve`` processes on 127.0.0.1 (``--processes``;
a fresh SQLite file in a temporary folder unless ``--db`` names a store;
several processes need a PostgreSQL URL), with the per-client quotas raised
(every client here is 127.0.0.1), and reports:

- moves/s: moves the server accepted over the run (all tables), counted in
  the store (every process's moves, hidden steps included; the lobby shows no
  move counter for another process's unfinished tables);
- move round trip p50/p99: a person's ``act`` until the server has applied it
  and sent the update (an ``act`` then a ``ping``: the pong comes after),
  over the whole run, and the p99 after ``--warmup`` seconds (the start,
  when every table is created, is a burst no real lobby sees: at once by
  default, or spread over ``--ramp`` seconds);
- errors: HTTP failures, error messages and dropped sockets;
- RSS: each server process with its worker processes (peak and at the end);
- CPU seconds used by this client and by each server process (the client
  runs on the same machine: its share is the server's loss);
- the machine's load average at the start and the end (``uptime``).

``--soak MINUTES`` runs that long instead (tables keep finishing and new ones
starting), samples each server process's RSS every ``--sample-every`` seconds
and says whether memory after the first ``--soak-warmup`` seconds (5 minutes)
stays within 10% of what it was then: growth beyond that is a leak.

The client is kept cheap: all-bot tables have no sockets (their ends are
seen by listing the playing tables every few seconds), spectators list the
tables only while they look for one to watch.

    python benchmarks/load.py --tables 100 --humans 10 --spectators 50 --seconds 60
    python benchmarks/load.py --game meat --tables 20 --json
    python benchmarks/load.py --db postgresql://u@127.0.0.1/load --processes 2 \
        --tables 400 --pairs 100 --humans 0 --bot-delay 0.4
    python benchmarks/load.py --soak 30 --tables 50 --humans 5 --spectators 20

Bounded: at most 1000 tables, 200 people, 200 pairs, 2000 spectators, 4
processes, 600 seconds (a soak: 240 minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"  # never anything else: this tool only loads its own server
LIMITS = {
    "tables": 1000,
    "humans": 200,
    "pairs": 200,
    "spectators": 2000,
    "processes": 4,
    "seconds": 600.0,
    "ramp": 600.0,
    "soak": 240.0,
}
SOAK_GROWTH = 0.10  # a soak passes when RSS after the warm-up grows at most this much
BESTIARY = Path(sys.executable).with_name("bestiary")
LIST_EVERY = 5.0  # seconds between two listings of the playing tables (bot tables' ends)
# Every client of this tool is 127.0.0.1: its server's per-client quotas are lifted.
LIFTED_QUOTAS = {
    "BESTIARY_TABLE_BURST": "100000",
    "BESTIARY_TABLES_PER_MINUTE": "100000",
    "BESTIARY_OPEN_TABLES_PER_CLIENT": "100000",
    "BESTIARY_SOCKETS_PER_CLIENT": "100000",
    "BESTIARY_CLIENT_MESSAGES_PER_SECOND": "100000",
    "BESTIARY_CLIENT_MESSAGE_BURST": "100000",
}


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)
    trip_starts: list[float] = field(default_factory=list)  # when each round trip began
    errors: dict[str, int] = field(default_factory=dict)
    spectator_messages: int = 0
    human_moves: int = 0
    stale: int = 0  # moves overtaken by a bot's before they arrived (not errors)
    # A person's move until the bots' first move after it (when it left the
    # person nothing to decide): the first update after the move's own.
    bot_answers: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)  # seconds each hint that came took
    rss_peak_kb: dict[int, int] = field(default_factory=dict)  # per server process
    # (seconds since the start, RSS in KiB) every ``--sample-every`` seconds, per process
    rss_series: dict[int, list[tuple[float, int]]] = field(default_factory=dict)

    def trip(self, sent: float) -> None:
        self.round_trips.append(time.monotonic() - sent)
        self.trip_starts.append(sent)

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


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def start_server(
    db: str,
    port: int,
    bot_delay: float,
    log: Path | None = None,
    quotas: Mapping[str, str] = LIFTED_QUOTAS,
) -> subprocess.Popen[bytes]:
    """``bestiary serve`` on ``port`` once it answers; ``quotas``: environment
    variables over this process's (default: the per-client quotas lifted)."""
    env = {**os.environ, **quotas}
    args = [str(BESTIARY), "serve", "--host", HOST, "--port", str(port), "--db", db]
    args += ["--bot-delay", str(bot_delay)]
    err = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 (the process keeps it)
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=err)
    if log:
        err.close()  # type: ignore[union-attr]
    deadline = time.monotonic() + 180  # a loaded machine starts slowly
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def stop_servers(procs: list[subprocess.Popen[bytes]], wait: float = 20.0) -> None:
    """SIGINT to each (a graceful stop, all at once), then SIGKILL to any
    still running ``wait`` seconds later."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def bot_tables(
    https: list[httpx.AsyncClient],
    game: str,
    players: int,
    bot: str,
    n: int,
    until: float,
    stats: Stats,
    ramp: float = 0.0,
) -> list[str]:
    """Keep ``n`` all-bot tables running until ``until``, created at each
    process in turn (each runs the bots of those it created); every table.
    The first ``n`` are spread over ``ramp`` seconds (0: all at once)."""
    http = https[0]
    seats = [{"kind": "bot", "agent": bot}] * players
    created: list[str] = []
    running: set[str] = set()
    start = time.monotonic()
    while time.monotonic() < until:
        while len(running) < n and time.monotonic() < until:
            if ramp and len(created) < n:
                await asyncio.sleep(start + ramp * len(created) / n - time.monotonic())
            where = https[len(created) % len(https)]
            r = await where.post("/api/tables", json={"game": game, "seats": seats})
            if r.status_code != 201:
                stats.error(f"create {r.status_code}")
                await asyncio.sleep(0.5)
                continue
            running.add(r.json()["id"])
            created.append(r.json()["id"])
        await asyncio.sleep(LIST_EVERY)
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
    base: str,
    http: httpx.AsyncClient,
    game: str,
    players: int,
    until: float,
    stats: Stats,
    *,
    bot: str = "random",
    think: float = 0.0,
    hint_every: int = 0,
    connect: Mapping[str, Any] | None = None,
) -> None:
    """A scripted person: a table against ``bot`` bots, a random legal move
    each turn after ``think`` seconds (0.5x to 1.5x), timing each move's round
    trip and the bots' answer to it; a new table when one ends. Every
    ``hint_every``-th decision (0: never) it asks for a hint first. ``connect``:
    more arguments of ``websockets.connect`` (e.g. ``local_addr``)."""
    rng = random.Random()
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": bot}] * (players - 1)
    decisions = 0
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
        token = j.json()["token"]
        url = f"{base.replace('http', 'ws')}/ws/tables/{table}"
        try:
            async with websockets.connect(url, **(connect or {})) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                # Each move is followed by a ping: the server handles a socket's
                # messages in order, so the pong comes after the move's own
                # update (and any bot updates before it). Round trip: act to pong.
                sent: float | None = None
                latest: dict[str, Any] | None = None
                # The bots' answer: the last move's time and the updates since it
                # (the first is the move's own; when it leaves the person nothing
                # to decide, the next one is the bots').
                acted: float | None = None
                updates = 0
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
                            acted = None
                            await ws.send(json.dumps({"type": "sync"}))
                        else:
                            stats.error(f"ws error: {msg['message'][:60]}")
                    elif msg["type"] == "update":
                        latest = msg
                        if acted is not None:
                            updates += 1
                            if updates == 1 and (msg["your_turn"] or msg["over"]):
                                acted = None  # the person moves again: no bot to wait for
                            elif updates == 2:
                                stats.bot_answers.append(time.monotonic() - acted)
                                acted = None
                        if msg["over"]:
                            break
                    elif msg["type"] == "pong" and sent is not None:
                        stats.trip(sent)
                        sent = None
                    if sent is None and latest is not None and latest["your_turn"]:
                        decisions += 1
                        if hint_every and decisions % hint_every == 0:
                            await _hint(http, table, token, stats)
                        if think:
                            await asyncio.sleep(think * (0.5 + rng.random()))
                        action = rng.choice(latest["legal"])
                        await ws.send(json.dumps({"type": "act", "action": action}))
                        await ws.send(json.dumps({"type": "ping"}))
                        sent = acted = time.monotonic()
                        updates = 0
                        stats.human_moves += 1
                        latest = None  # act again only on news after the pong
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            stats.error(f"socket dropped ({type(exc).__name__})")


async def _hint(http: httpx.AsyncClient, table: str, token: str, stats: Stats) -> None:
    """A hint for the person's seat (their turn): its time, or an error."""
    started = time.monotonic()
    r = await http.post(f"/api/tables/{table}/hint", json={"token": token})
    if r.status_code == 200:
        stats.hints.append(time.monotonic() - started)
    else:
        stats.error(f"hint {r.status_code}: {r.text[:60]}")


async def pair(
    bases: list[str],
    https: list[httpx.AsyncClient],
    index: int,
    game: str,
    players: int,
    think: float,
    until: float,
    stats: Stats,
    delay: float = 0.0,
) -> None:
    """A table of two scripted people (seats 0 and 1; bots in any others), each
    on its own process when there are several, thinking ``think`` seconds
    (0.5x to 1.5x) before each move; a new table when one ends. The first
    table is created after ``delay`` seconds."""
    await asyncio.sleep(delay)
    http = https[index % len(https)]
    seats = [{"kind": "human"}] * 2 + [{"kind": "bot", "agent": "random"}] * (players - 2)
    while time.monotonic() < until:
        r = await http.post("/api/tables", json={"game": game, "seats": seats})
        if r.status_code != 201:
            stats.error(f"create {r.status_code}")
            await asyncio.sleep(1)
            continue
        table = r.json()["id"]
        tokens = []
        for seat in (0, 1):
            j = await http.post(f"/api/tables/{table}/join", json={"seat": seat, "name": "load"})
            if j.status_code != 200:
                stats.error(f"join {j.status_code}")
                break
            tokens.append(j.json()["token"])
        if len(tokens) < 2:
            continue
        homes = [bases[(index + seat) % len(bases)] for seat in (0, 1)]
        await asyncio.gather(
            *(person(homes[s], table, tokens[s], think, until, stats) for s in (0, 1))
        )


async def person(
    base: str, table: str, token: str, think: float, until: float, stats: Stats
) -> None:
    """One scripted person at a table: a random legal move after thinking."""
    rng = random.Random()
    try:
        async with websockets.connect(f"{base.replace('http', 'ws')}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent: float | None = None
            latest: dict[str, Any] | None = None
            while (left := until - time.monotonic()) > 0:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), min(60.0, left)))
                except TimeoutError:
                    if left > 60:
                        stats.error("no message for 60 s")
                    return
                if msg["type"] == "error":
                    stale = ("not a legal action", "no decision to make", "not your turn")
                    if any(text in msg["message"] for text in stale):
                        stats.stale += 1
                    else:
                        stats.error(f"ws error: {msg['message'][:60]}")
                elif msg["type"] == "update":
                    latest = msg
                    if msg["over"]:
                        return
                elif msg["type"] == "pong" and sent is not None:
                    stats.trip(sent)
                    sent = None
                if sent is None and latest is not None and latest["your_turn"]:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    action = rng.choice(latest["legal"])
                    await ws.send(json.dumps({"type": "act", "action": action}))
                    await ws.send(json.dumps({"type": "ping"}))
                    sent = time.monotonic()
                    stats.human_moves += 1
                    latest = None
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
        if len(tasks) >= n:  # everyone is watching: no listing needed
            await asyncio.sleep(1.0)
            continue
        page = await http.get("/api/tables", params={"status": "playing", "limit": 100})
        ids = [t["id"] for t in page.json()["tables"]] if page.status_code == 200 else []
        while ids and len(tasks) < n:
            tasks.add(asyncio.create_task(spectator(base, random.choice(ids), until, stats)))
        await asyncio.sleep(1.0)
    for t in tasks:
        t.cancel()


async def sample_rss(
    pids: list[int], until: float, stats: Stats, every: float = 10.0, start: float = 0.0
) -> None:
    """Each process's peak RSS (sampled every second) and a sample every ``every`` s."""
    last = -every
    while time.monotonic() < until:
        now = time.monotonic()
        record = now - last >= every
        if record:
            last = now
        for pid in pids:
            kb = _rss_kb(pid)
            stats.rss_peak_kb[pid] = max(stats.rss_peak_kb.get(pid, 0), kb)
            if record:
                stats.rss_series.setdefault(pid, []).append((round(now - start, 1), kb))
        await asyncio.sleep(1.0)


def soak_verdict(
    series: list[tuple[float, int]], warmup: float, growth: float = SOAK_GROWTH
) -> dict[str, Any]:
    """A process's memory over a soak: its RSS at the end of the warm-up (the
    first sample at or after ``warmup`` s), the most after it, and whether
    that stays within ``growth`` (a share) of it."""
    after = [(t, kb) for t, kb in series if t >= warmup]
    if len(after) < 2:
        return {"baseline_mb": None, "max_after_mb": None, "growth_pct": None, "within": None}
    base = after[0][1]
    top = max(kb for _, kb in after)
    pct = 100 * (top - base) / base
    return {
        "baseline_mb": round(base / 1024, 1),
        "max_after_mb": round(top / 1024, 1),
        "end_mb": round(after[-1][1] / 1024, 1),
        "growth_pct": round(pct, 1),
        "within": pct <= 100 * growth,
    }


def store_moves(db: str) -> int:
    """Every move in the store (all processes' tables, hidden steps too)."""
    import sqlalchemy as sa

    from bestiary.server.store import database_url

    engine = sa.create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT COUNT(*) FROM moves")).scalar_one())
    except sa.exc.OperationalError:  # a fresh store before its first migration
        return 0
    finally:
        engine.dispose()


def pct_ms(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0 to 1, nearest rank below) of seconds, in ms."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[int(q * (len(ordered) - 1))], 1)


def _p99_ms(trips: list[float]) -> float | None:
    return pct_ms(trips, 0.99)


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def run(
    opts: argparse.Namespace, bases: list[str], pids: list[int], db: str
) -> dict[str, Any]:
    stats = Stats()
    moves_before = store_moves(db)
    limits = httpx.Limits(max_connections=200)
    load_before = _load()
    cpu_before = _own_cpu_s()
    server_cpu_before = [_cpu_s(p) for p in pids]
    base = bases[0]
    https = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    async with contextlib.AsyncExitStack() as stack:
        for h in https:
            await stack.enter_async_context(h)
        http = https[0]
        games = {g["id"]: g for g in (await http.get("/api/games")).json()["games"]}
        if opts.game not in games:
            raise SystemExit(f"unknown game {opts.game!r}; games: {', '.join(games)}")
        players = opts.players or games[opts.game]["default_players"]
        started = time.monotonic()
        until = started + opts.seconds
        tasks = [
            asyncio.create_task(
                bot_tables(
                    https, opts.game, players, opts.bot, opts.tables, until, stats, opts.ramp
                )
            ),
            asyncio.create_task(sample_rss(pids, until, stats, opts.sample_every, started)),
            *[
                asyncio.create_task(
                    pair(
                        bases,
                        https,
                        i,
                        opts.game,
                        players,
                        opts.think,
                        until,
                        stats,
                        opts.ramp * i / opts.pairs,
                    )
                )
                for i in range(opts.pairs)
            ],
            asyncio.create_task(spectators(base, http, opts.spectators, until, stats)),
            *[
                asyncio.create_task(
                    human(
                        bases[i % len(bases)],
                        https[i % len(bases)],
                        opts.game,
                        players,
                        until,
                        stats,
                    )
                )
                for i in range(opts.humans)
            ],
        ]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.monotonic() - started
        client_cpu = _own_cpu_s() - cpu_before
        server_cpu = [_cpu_s(p) - b for p, b in zip(pids, server_cpu_before, strict=True)]
        for res in results:
            if isinstance(res, BaseException):
                stats.error(f"task {type(res).__name__}")
        # Every move the server accepted, from the store: the lobby's counter
        # is null for another process's unfinished tables (and counts no
        # hidden step), so a listing undercounts with several processes.
        moves = store_moves(db) - moves_before
        trips = sorted(stats.round_trips)
        # After the warm-up: the moves sent once the first tables were all created.
        steady = sorted(
            t
            for t, at in zip(stats.round_trips, stats.trip_starts, strict=True)
            if at >= started + opts.warmup
        )
    return {
        "game": opts.game,
        "players": players,
        "bot_tables": opts.tables,
        "bot": opts.bot,
        "humans": opts.humans,
        "pairs": opts.pairs,
        "think_s": opts.think,
        "spectators": opts.spectators,
        "processes": len(pids),
        "store": "postgresql" if opts.db and opts.db.startswith("postgres") else "sqlite",
        "bot_delay": opts.bot_delay,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "human_moves": stats.human_moves,
        "stale_moves": stats.stale,
        "round_trip_ms_p50": round(1000 * statistics.median(trips), 1) if trips else None,
        "round_trip_ms_p99": round(1000 * trips[int(0.99 * (len(trips) - 1))], 1)
        if trips
        else None,
        "warmup_s": opts.warmup,
        "ramp_s": opts.ramp,
        "round_trip_ms_p99_after_warmup": _p99_ms(steady),
        "spectator_messages": stats.spectator_messages,
        "errors": stats.errors,
        "rss_mb_peak": [round(stats.rss_peak_kb.get(p, 0) / 1024, 1) for p in pids],
        "rss_mb_end": [round(_rss_kb(p) / 1024, 1) for p in pids],
        "client_cpu_s": round(client_cpu, 1),
        "server_cpu_s": [round(c, 1) for c in server_cpu],
        "load_before": load_before,
        "load_after": _load(),
        **(_soak_report(opts, pids, stats) if opts.soak else {}),
    }


def _soak_report(opts: argparse.Namespace, pids: list[int], stats: Stats) -> dict[str, Any]:
    verdicts = [soak_verdict(stats.rss_series.get(p, []), opts.soak_warmup) for p in pids]
    known = [v["within"] for v in verdicts if v["within"] is not None]
    return {
        "soak_minutes": opts.soak,
        "soak_warmup_s": opts.soak_warmup,
        "rss_sample_every_s": opts.sample_every,
        "rss_mb_series": [
            [(t, round(kb / 1024, 1)) for t, kb in stats.rss_series.get(p, [])] for p in pids
        ],
        "soak_memory": verdicts,
        # every process within 10% after the warm-up (None: too short to tell)
        "soak_memory_within_10pct": all(known) if known else None,
    }


def _run_loop(main: Any) -> Any:
    """Run the client on uvloop when it is installed (the server's loop too):
    the client shares the machine's CPU with the server, the less it takes
    the better, and its own delays count in every round trip."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="taxonomy")
    ap.add_argument("--players", type=int, default=0, help="seats per table (default: the game's)")
    ap.add_argument("--tables", type=int, default=100, help="all-bot tables kept running")
    ap.add_argument("--bot", default="random", help="their bots (a lobby level or random)")
    ap.add_argument("--humans", type=int, default=10, help="scripted people vs bots")
    ap.add_argument("--pairs", type=int, default=0, help="tables of two scripted people")
    ap.add_argument(
        "--think", type=float, default=1.0, help="seconds a person of a pair thinks (about)"
    )
    ap.add_argument("--processes", type=int, default=1, help="server processes (PostgreSQL)")
    ap.add_argument("--logs", default=None, help="folder for the servers' logs")
    ap.add_argument("--spectators", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--bot-delay", type=float, default=0.0)
    ap.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="seconds at the start (every table being created at once) left out of "
        "round_trip_ms_p99_after_warmup; the other percentiles count the whole run",
    )
    ap.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the first bot tables and pairs' tables are created "
        "(0: all at once, a burst no real lobby sees); keep it within --warmup",
    )
    ap.add_argument("--db", default=None, help="store (default: a fresh SQLite file)")
    ap.add_argument(
        "--soak",
        type=float,
        default=0.0,
        help="minutes of a soak run (instead of --seconds): is memory steady?",
    )
    ap.add_argument(
        "--soak-warmup",
        type=float,
        default=300.0,
        help="seconds of a soak before the memory it is held to is taken (default 5 min)",
    )
    ap.add_argument(
        "--sample-every", type=float, default=10.0, help="seconds between two RSS samples"
    )
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args(argv)
    for name, cap in LIMITS.items():
        if not 0 <= getattr(opts, name) <= cap:
            ap.error(f"--{name} must be 0 to {cap:g}")
    if opts.processes < 1:
        ap.error("--processes must be 1 or more")
    if opts.sample_every < 1:
        ap.error("--sample-every must be 1 second or more")
    if opts.soak:
        opts.seconds = 60 * opts.soak
    if opts.processes > 1 and not (opts.db or "").startswith("postgres"):
        ap.error("several processes share a PostgreSQL store: give --db postgresql://…")
    with tempfile.TemporaryDirectory() as tmp:
        db = opts.db or str(Path(tmp) / "load.sqlite3")
        procs: list[subprocess.Popen[bytes]] = []
        bases: list[str] = []
        try:
            for i in range(opts.processes):  # one after the other: one migrates
                port = _free_port()
                log = Path(opts.logs) / f"server{i}.log" if opts.logs else None
                procs.append(start_server(db, port, opts.bot_delay, log))
                bases.append(f"http://{HOST}:{port}")
            report = _run_loop(run(opts, bases, [p.pid for p in procs], db))
        finally:
            stop_servers(procs)
    if opts.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>20}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
