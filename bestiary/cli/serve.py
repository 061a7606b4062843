"""``bestiary serve``: the web app."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from ..i18n import N_
from .common import fail, guarded

if TYPE_CHECKING:
    from ..server.config import Access


def serve(
    host: Annotated[str, typer.Option(help=N_("address to listen on"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("port"))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "database URL or SQLite path (default: a SQLite file in the user data directory)"
            )
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(help=N_("seconds a bot waits before moving (a person may undo meanwhile)")),
    ] = 0.8,
    agent: Annotated[
        list[str] | None,
        typer.Option(
            "--agent",
            help=N_(
                "offer your own bot as NAME at every game: NAME=module:Object (repeatable; "
                'default: the environment variable BESTIARY_AGENTS="a=m:X,b=n:Y")'
            ),
        ),
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "bots think on this Ray cluster (e.g. ray://head:10001, or 'local') "
                "instead of local worker processes"
            )
        ),
    ] = None,
    lab: Annotated[
        bool | None,
        typer.Option(
            "--lab/--no-lab",
            help=N_(
                "turn the designer's lab on at /lab, behind a token (default: the "
                "environment variable BESTIARY_LAB=1, else off)"
            ),
        ),
    ] = None,
    lab_token: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "the lab's bearer token, at least 16 characters (default: "
                "BESTIARY_LAB_TOKEN, else a random one printed at start)"
            )
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help=N_(
                "believe X-Forwarded-For/Forwarded only from this address or network "
                "(repeatable; default: BESTIARY_TRUSTED_PROXIES=a,b; else from nobody)"
            ),
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
    access = guarded(lambda: _access(lab, lab_token, trusted_proxy))
    guarded(
        lambda: run(
            host=host,
            port=port,
            db=db,
            bot_delay=bot_delay,
            agents=agents,
            ray_address=ray_address,
            access=access,
        )
    )


def _access(lab: bool | None, token: str | None, proxies: list[str] | None) -> Access:
    """The environment's settings (config.Access), the flags given over them."""
    from ..server.config import Access

    env = Access.from_env()
    return Access(
        lab=env.lab if lab is None else lab,
        lab_token=token or env.lab_token,
        trusted_proxies=tuple(proxies) if proxies else env.trusted_proxies,
    )
