"""The server's limits in one place: quotas, time budgets, pool sizes, caches.

Every field can be set through ``create_app(limits=Limits(...))`` or, for
``bestiary serve``, an environment variable ``BESTIARY_<FIELD>`` (e.g.
``BESTIARY_TABLES_PER_MINUTE=30``), so an operator tunes them without code.
"""

from __future__ import annotations

import dataclasses
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
    # -- several processes on one PostgreSQL (cluster.py) ------------------------
    lease_seconds: float = 10.0  # a dead process's tables are taken over after this

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
