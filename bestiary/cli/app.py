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

from ..i18n import LANGUAGES, N_, from_environment, normalize, set_language
from ..i18n import core as _core
from .common import err

_ = _core.gettext


class App(typer.Typer):
    """``bestiary``: an exception that no command turned into a clear error is
    still one line on stderr (exit 3), never a traceback; ``BESTIARY_DEBUG=1``
    shows the traceback for a bug report."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        argv = kwargs.get("args") or (args[0] if args else sys.argv[1:])
        set_language(lang_in(list(argv or [])) or from_environment())
        try:
            command = typer.main.get_command(self)
            translate_help(command)  # --help in the chosen language
            translate_framework()  # and the panel titles Typer prints around it
            return command(*args, **kwargs)
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


# The words Typer's help panels print (module constants of typer.rich_utils),
# marked for our catalog.
_TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}


def translate_framework() -> None:
    """Typer's help-panel titles and markers in the current language (Click's
    own usage line and parser errors stay as Click writes them)."""
    import typer.rich_utils

    for name, text in _TYPER_WORDS.items():
        if hasattr(typer.rich_utils, name):
            setattr(typer.rich_utils, name, _(text))


def lang_in(argv: list[str]) -> str | None:
    """The language ``--lang`` names before the command, if it names one we have."""
    for i, word in enumerate(argv):
        if not word.startswith("-"):
            return None  # the command: --lang is a global option, before it
        if word == "--lang" and i + 1 < len(argv):
            return normalize(argv[i + 1])
        if word.startswith("--lang="):
            return normalize(word.partition("=")[2])
    return None


def translate_help(command: Any) -> None:
    """Help texts are English in the code (marked ``N_``): show them translated."""
    if getattr(command, "help", None):
        command.help = _(command.help)
    for param in getattr(command, "params", []):
        if getattr(param, "help", None):
            param.help = _(param.help)
    _translate_help_option(command)
    for sub in (getattr(command, "commands", None) or {}).values():
        translate_help(sub)


def _translate_help_option(command: Any) -> None:
    """Click builds ``--help`` itself ("Show this message and exit."), when a
    command's help is shown: its text goes through our catalog too."""
    build = getattr(command, "get_help_option", None)
    if build is None or getattr(build, "translated", False):
        return

    def get_help_option(ctx: Any) -> Any:
        option = build(ctx)
        if option is not None and option.help:
            option.help = _(option.help)
        return option

    get_help_option.translated = True  # type: ignore[attr-defined]
    command.get_help_option = get_help_option


app = App(
    help=N_("Bestiary: play, simulate and study monster card games."),
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
            help=N_("language of what is printed: en or pl (default: from LANG / BESTIARY_LANG)"),
            callback=_check_lang,
        ),
    ] = None,
) -> None:
    """Bestiary: play, simulate and study monster card games."""
    set_language(lang or from_environment())
