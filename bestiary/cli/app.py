"""The Typer application, with the last line of defence against a traceback."""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from rich.markup import escape

from .common import err


class App(typer.Typer):
    """``bestiary``: an exception that no command turned into a clear error is
    still one line on stderr (exit 3), never a traceback; ``BESTIARY_DEBUG=1``
    shows the traceback for a bug report."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except Exception as exc:
            if os.environ.get("BESTIARY_DEBUG"):
                raise
            err.print(
                f"[bold red]error:[/] unexpected {type(exc).__name__}: {escape(str(exc))} "
                "(this is a bug; BESTIARY_DEBUG=1 shows where)",
                highlight=False,
                soft_wrap=True,
            )
            sys.exit(3)


app = App(
    help="Bestiary: play, simulate and study monster card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
