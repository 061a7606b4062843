"""Web play: the FastAPI app, lobby, store and websocket protocol.

``run`` is what ``bestiary serve`` calls.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from .app import create_app
from .config import Access

__all__ = ["create_app", "run"]


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_delay: float = 0.8,
    agents: Mapping[str, str] | None = None,
    ray_address: str | None = None,
    access: Access | None = None,
) -> None:
    """Serve the app (lobby, tables, API) until interrupted. ``agents``: the
    operator's own bots, ``{"NAME": "module:Object"}`` (``serve --agent``);
    ``access``: the lab and the trusted proxies (``serve --lab``,
    ``--trusted-proxy``; default: the environment, :meth:`Access.from_env`)."""
    import uvicorn

    from .limits import MAX_MESSAGE_BYTES

    # The server's own log (take-overs, bots that failed) beside uvicorn's.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    server_log = logging.getLogger("bestiary")
    if not server_log.handlers:
        server_log.addHandler(handler)
        server_log.setLevel(logging.INFO)
    given = access or Access.from_env()
    app = create_app(
        db,
        bot_delay=bot_delay,
        agents=agents,
        ray_address=ray_address,
        freeze_gc=True,
        access=given,
    )
    app.state.store.check()  # a clear error now rather than a trace at start-up
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    store = _safe(app.state.store.url)
    print(f"Bestiary: open http://{shown}:{port}/  (store: {store})", flush=True)
    for name, spec in app.state.hub.agents.items():
        print(f"Bestiary: agent {name} = {spec} (offered for every game)", flush=True)
    access = app.state.access
    if access.lab:
        print(f"Bestiary: the lab is on at http://{shown}:{port}/lab", flush=True)
        if not given.lab_token:  # the operator chose none: this run's, shown to them alone
            print(f"Bestiary: lab token (for this run only): {access.lab_token}", flush=True)
    for proxy in access.trusted_proxies:
        print(f"Bestiary: client addresses from proxy headers sent by {proxy}", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE_BYTES * 4,
        log_level="info",
        # Open sockets must not keep the server up after SIGINT/SIGTERM.
        timeout_graceful_shutdown=3,
        # Compressing each update once per socket cost more than building it:
        # 400 spectators held a table to 2 moves/s with it, and updates are small.
        ws_per_message_deflate=False,
        # Proxy headers are read by the app, from the operator's proxies only
        # (proxies.py); uvicorn's own reading would believe any loopback peer.
        proxy_headers=False,
    )


def _safe(url: str) -> str:
    """The store URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}@{host}"
    return url
