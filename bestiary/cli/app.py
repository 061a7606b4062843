"""The Typer application, with the last line of defence against a traceback.

``--lang en|pl`` (before the command: ``bestiary --lang pl play taxonomy``) sets
the language of everything the commands print; without it the terminal's own
(``BESTIARY_LANG``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) decides.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..i18n import LANGUAGES, from_environment, normalize, set_language
from ..i18n import core as _core
from .common import err

_ = _core.gettext


class App(typer.Typer):
    """``bestiary``: an exception that no command turned into a clear error is
    still one line on stderr (exit 3), never a traceback; ``BESTIARY_DEBUG=1``
    shows the traceback for a bug report."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        set_language(from_environment())
        try:
            return super().__call__(*args, **kwargs)
        except Exception as exc:
            if os.environ.get("BESTIARY_DEBUG"):
                raise
            err.print(
                "[bold red]{error}[/] {text}".format(
                    error=escape(_("error:")),
                    text=escape(
                        _(
                            "unexpected {kind}: {message}"
                            " (this is a bug; BESTIARY_DEBUG=1 shows where)"
                        ).format(kind=type(exc).__name__, message=str(exc))
                    ),
                ),
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


def _check_lang(value: str | None) -> str | None:
    if value is not None and normalize(value) is None:
        raise typer.BadParameter(
            _("{lang} is not a language here; choose one of: {choices}").format(
                lang=repr(value[:20]), choices=", ".join(LANGUAGES)
            )
        )
    return value


@app.callback()
def options(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="language of what is printed: en or pl (default: from LANG / BESTIARY_LANG)",
            callback=_check_lang,
        ),
    ] = None,
) -> None:
    """Bestiary: play, simulate and study monster card games."""
    set_language(lang or from_environment())
