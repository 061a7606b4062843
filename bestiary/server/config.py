"""The server's limits in one place: quotas, time budgets, pool sizes, caches.

Every field can be set through ``create_app(limits=Limits(...))`` or, for
``bestiary serve``, an environment variable ``BESTIARY_<FIELD>`` (e.g.
``BESTIARY_TABLES_PER_MINUTE=30``), so an operator tunes them without code.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from dataclasses import dataclass

from ..engine.errors import BadInput


def _cores() -> int:
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Limits:
    # -- work off the event loop (scoring tools, bots) -------------------------
    bot_workers: int = dataclasses.field(default_factory=_cores)  # processes for bots
    tool_workers: int = 1  # processes for the scoring tools
    bot_seconds: float = 10.0  # one bot decision; over it the bot plays a random move
    tool_seconds: float = 5.0  # one scoring-tool request; over it: 503
    queue_seconds: float = 5.0  # how long a tool request waits for a free worker
    max_iterations: int = 2000  # ismcts iterations a remote client may ask for
    # At most this share of the event loop's time goes to bot steps (server/turns.py);
    # 1 lets bots use it all. Bots past it move later; people's moves do not wait.
    bot_share: float = 0.5
    # -- fair shares of the workers (server/fair.py; issue 27: hostile clients) ----
    # The most a bot searches per move, whatever its spec asks (ismcts seconds=).
    max_search_seconds: float = 5.0
    # The most of the bot workers one address, and one client, thinks on at once:
    # whatever a client seats, the others' bots find a worker.
    bot_worker_share: float = 0.5
    # Tool requests (hints, scoring, replays) one client may have under way at
    # once (an address: ip_factor times as many); one more is refused (429).
    tool_calls_per_client: int = 2
    # -- quotas per client --------------------------------------------------------
    # A client is a seat (a socket that said hello with a seat token), else the
    # id a client sends in the X-Bestiary-Client header, else its IP address.
    # One IP address as a whole gets ``ip_factor`` times each quota (several
    # people behind one router), so made-up client ids do not lift the bound.
    tables_per_minute: float = 6.0  # sustained table creations
    table_burst: int = 10  # creations at once
    open_tables_per_client: int = 20  # waiting + playing tables one client created
    sockets_per_client: int = 32  # websockets open at once (per IP address)
    client_messages_per_second: float = 40.0  # over all of a client's sockets
    client_message_burst: int = 80
    socket_messages_per_second: float = 10.0  # one websocket
    socket_message_burst: int = 20
    socket_strikes: int = 50  # refused messages (since it last calmed down) before closing
    ip_factor: float = 8.0  # an IP address's share: this many clients' quotas
    # -- the lobby and memory --------------------------------------------------
    waiting_seconds: float = 6 * 3600.0  # a waiting table expires after this
    sweep_seconds: float = 60.0  # how often expiry runs
    finished_in_memory: int = 32  # finished tables kept live (LRU) for watchers
    max_body_bytes: int = 64 * 1024  # an HTTP request body
    # -- play sockets under hostile clients (issue 27; app.py, live.py) ----------
    # Counted from accept, hello or not: ``sockets_per_client`` per IP address
    # (above) and this many in all.
    sockets_in_all: int = 5000
    hello_seconds: float = 5.0  # a socket that has not said hello by then is closed
    # Bytes of updates waiting for one slow reader; past it the socket is closed
    # ("too slow") and the reader reconnects. Above a long game's whole log (1.5 MB).
    socket_queue_bytes: int = 4 * 1024 * 1024
    sync_burst: int = 2  # syncs one socket may send at once
    sync_seconds: float = 5.0  # then one per this many seconds
    # -- several processes on one PostgreSQL (cluster.py) ------------------------
    lease_seconds: float = 10.0  # a dead process's tables are taken over after this
    # -- the lab inside the server (off unless the operator turns it on: Access) ----
    lab_max_games: int = 10_000  # games one lab run may ask for
    lab_runs_per_client: int = 3  # queued or running lab runs one client may hold

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by ``BESTIARY_<FIELD>`` variables (BadInput if malformed)."""
        env = os.environ if environ is None else environ
        changes: dict[str, int | float] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"BESTIARY_{f.name.upper()}")
            if raw is None:
                continue
            kind = float if f.type in ("float", float) else int
            try:
                value = kind(raw)
            except ValueError:
                raise BadInput(
                    f"BESTIARY_{f.name.upper()} must be a number ({kind.__name__}), "
                    f"not {raw[:20]!r}"
                ) from None
            if value < 0:
                raise BadInput(f"BESTIARY_{f.name.upper()} must be 0 or more")
            changes[f.name] = value
        return cls(**changes)  # type: ignore[arg-type]


LAB_TOKEN_MIN = 16  # characters of an operator's own lab token
_ON = {"1": True, "true": True, "yes": True, "on": True}
_OFF = {"0": False, "false": False, "no": False, "off": False, "": False}


@dataclass(frozen=True)
class Access:
    """What the operator opens beyond the tables, and whom they believe.

    ``lab``: the designer's lab (long simulations on the server's cores) is
    off unless the operator turns it on (``bestiary serve --lab`` or
    ``BESTIARY_LAB=1``); then every lab request needs ``lab_token`` (``--lab-token``
    or ``BESTIARY_LAB_TOKEN``; ``bestiary serve`` prints a random one when
    none is set). ``trusted_proxies``: the addresses or networks (e.g.
    ``127.0.0.1``, ``10.0.0.0/8``) whose ``X-Forwarded-For``/``Forwarded``
    headers name the client (``--trusted-proxy``, ``BESTIARY_TRUSTED_PROXIES``
    comma-separated); from any other peer those headers are ignored, so a
    client cannot pick the address its quotas are kept under."""

    lab: bool = False
    lab_token: str | None = None
    trusted_proxies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.lab_token is not None and len(self.lab_token) < LAB_TOKEN_MIN:
            raise BadInput(
                f"the lab token must be at least {LAB_TOKEN_MIN} characters "
                "(or leave it out: bestiary serve prints a random one)"
            )
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise BadInput(
                    f"trusted proxy {proxy[:60]!r} is not an IP address or network "
                    "(e.g. 127.0.0.1, ::1 or 10.0.0.0/8)"
                ) from None

    def networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return tuple(ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Access:
        """``BESTIARY_LAB``, ``BESTIARY_LAB_TOKEN`` and ``BESTIARY_TRUSTED_PROXIES``
        (BadInput if malformed); unset, the lab is off and no proxy is trusted."""
        env = os.environ if environ is None else environ
        raw = env.get("BESTIARY_LAB", "").strip().lower()
        lab = {**_ON, **_OFF}.get(raw)
        if lab is None:
            raise BadInput(f"BESTIARY_LAB must be 1 or 0 (on or off), not {raw[:20]!r}")
        proxies = tuple(p.strip() for p in env.get("BESTIARY_TRUSTED_PROXIES", "").split(","))
        return cls(
            lab=lab,
            lab_token=env.get("BESTIARY_LAB_TOKEN") or None,
            trusted_proxies=tuple(p for p in proxies if p),
        )
