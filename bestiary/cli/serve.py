"""``bestiary serve``: the web app."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from .common import fail, guarded


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="database URL or SQLite path (default: a SQLite file in the user data directory)"
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before moving")] = 0.4,
    agent: Annotated[
        list[str] | None,
        typer.Option(
            "--agent",
            help="offer your own bot as NAME at every game: NAME=module:Object (repeatable; "
            'default: the environment variable BESTIARY_AGENTS="a=m:X,b=n:Y")',
        ),
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="bots think on this Ray cluster (e.g. ray://head:10001, or 'local') "
            "instead of local worker processes"
        ),
    ] = None,
) -> None:
    """Run the web app (its help text: ``HELP["serve"]`` in ``cli/__init__.py``)."""
    if not 0 < port < 65536:
        fail(f"--port must be between 1 and 65535, not {port}")
    if not 0 <= bot_delay <= 60:
        fail(f"--bot-delay must be between 0 and 60 seconds, not {bot_delay:g}")
    try:
        from ..server import run
        from ..server.bots import parse_agent_args
    except ImportError as exc:
        fail(f"the web app needs its extras: pip install 'bestiary[web]' ({exc})")
    items = agent or [a for a in os.environ.get("BESTIARY_AGENTS", "").split(",") if a.strip()]
    agents = guarded(lambda: parse_agent_args(items))
    guarded(
        lambda: run(
            host=host,
            port=port,
            db=db,
            bot_delay=bot_delay,
            agents=agents,
            ray_address=ray_address,
        )
    )
