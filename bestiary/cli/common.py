"""What every command shares: the consoles, clean errors, options and seat lists.

Everything the CLI prints from outside its own code (messages, card and
player names, option values, agent specs) goes through :func:`esc` or is
printed with markup off: Rich reads ``[words]`` as markup, so unescaped text
loses its brackets, and ``[/red]`` in a name would crash the print.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ..engine.errors import BestiaryError
from ..engine.protocol import Game
from ..engine.registry import broken_games
from ..engine.ruleset import parse_option_args
from ..i18n import N_, core

_ = core.gettext

T = TypeVar("T")

out = Console()
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help=N_("game id (see `bestiary games`)"))]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("print the result as JSON"))]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help=N_("rules variant"))]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help=N_("rule option name=value (repeatable)"))
]
CardsOpt = Annotated[
    Path | None, typer.Option("--cards", help=N_("a card file of your own (games that load cards)"))
]
RotateOpt = Annotated[bool, typer.Option(help=N_("turn the seat list each game"))]
#: The most worker processes a command accepts (--workers).
MAX_WORKERS = 256


def esc(value: object) -> str:
    """``str(value)`` made safe to embed in Rich markup."""
    return escape(str(value))


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr (the message is text, not markup) and exit ``code``."""
    word = _("error:")
    err.print(f"[bold red]{esc(word)}[/] {esc(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def warn(message: str) -> None:
    word = _("warning:")
    err.print(f"[yellow]{esc(word)}[/] {esc(message)}", highlight=False, soft_wrap=True)


def warn_broken_games() -> None:
    """Name every game entry point that does not load; the commands go on without it."""
    for problem in broken_games().values():
        warn(_("{problem} (the other games are not affected)").format(problem=problem))


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn``; turn engine errors into a clear message and exit code 2."""
    with cli_errors():
        return fn()
    raise AssertionError("unreachable")


@contextmanager
def cli_errors() -> Iterator[None]:
    """Engine errors inside become a clear message on stderr and exit code 2.

    So does a RecursionError: the parsers of data files (JSON, TOML) recurse
    once per level of nesting, and a file nested thousands deep is bad input.
    """
    try:
        yield
    except BestiaryError as exc:
        fail(str(exc))
    except RecursionError:
        fail(_("the input is nested too deeply to read (a file or value with thousands of levels)"))


def options_of(option: list[str] | None, cards: Path | None) -> dict[str, Any]:
    opts: dict[str, Any] = guarded(lambda: parse_option_args(option))
    if cards is not None:
        if not cards.is_file():
            fail(_("card file {path} does not exist (or is not a file)").format(path=cards))
        opts["cards"] = str(cards)
    return opts


def split_seats(seats: str) -> list[str]:
    """``"ismcts:iterations=400,c=0.7,random"`` -> ``["ismcts:iterations=400,c=0.7", "random"]``.

    Commas separate seats and also an agent's options; a piece with ``=`` and
    no ``:`` can only be an option, so it stays with the agent before it.
    """
    specs: list[str] = []
    for piece in (p.strip() for p in seats.split(",")):
        if not piece:
            continue
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def seat_specs(seats: str, game: Game) -> list[str]:
    """The agent specs of ``--seats``; none given, a random bot in every seat of
    the game's usual table."""
    return split_seats(seats) or ["random"] * game.default_players


def check_workers(workers: int) -> int:
    """``--workers``, refused outside 1..MAX_WORKERS."""
    if not 1 <= workers <= MAX_WORKERS:
        fail(_("--workers must be between 1 and {most}").format(most=MAX_WORKERS))
    return workers


def allow_local_imports() -> None:
    """Let ``--seats mybot:Agent`` find ``mybot.py`` in the current directory, as
    ``python -m`` would (the ``bestiary`` script's own directory is on the path instead)."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


@contextmanager
def interrupts_as_keyboard_interrupt() -> Iterator[list[int]]:
    """SIGINT and SIGTERM both stop the run the same way (KeyboardInterrupt,
    which the runner turns into partial results); yields the signals caught."""
    caught: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield caught
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
