"""``bestiary simulate``: many games between bots; wins, scores and game statistics.

A long run survives what long runs meet: Ctrl-C or a kill (SIGINT, SIGTERM)
prints the results of the games finished so far; a game that fails is named
by its seed, seats and error (``--keep-going`` plays the others).
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from ..engine.errors import BestiaryError
from ..engine.protocol import Game
from ..engine.registry import get_game
from ..i18n import N_, core
from ..sim.runner import GameFailed, Summary
from ..sim.runner import simulate as run_games
from .common import (
    CardsOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    RotateOpt,
    VariantOpt,
    allow_local_imports,
    check_workers,
    emit_json,
    err,
    esc,
    fail,
    guarded,
    interrupts_as_keyboard_interrupt,
    options_of,
    out,
    seat_specs,
)

_ = core.gettext


def _run(
    run: Callable[[Callable[[int], None] | None], Summary], game_id: str, games: int, bar: bool
) -> Summary:
    if not bar:
        return run(None)
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(esc(_("simulating {game}").format(game=game_id)), total=games)
        return run(lambda k: progress.advance(task, k))


def simulate(
    game_id: GameArg,
    games_: Annotated[int, typer.Option("--games", "-n", help=N_("how many games"))] = 100,
    seats: Annotated[
        str, typer.Option(help=N_("comma-separated agent specs (or module:Agent of your own)"))
    ] = "",
    seed: Annotated[int, typer.Option(help=N_("seed of the first game"))] = 0,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    rotate: RotateOpt = False,
    workers: Annotated[
        int | None,
        typer.Option(
            help=N_(
                "processes to use (results do not depend on it); default 1, "
                "or every core with --out"
            )
        ),
    ] = None,
    keep_going: Annotated[
        bool, typer.Option("--keep-going", help=N_("skip a failing game (named) and play the rest"))
    ] = False,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=N_(
                "run file (Parquet, one row per game) to write, resume or extend; "
                "read it with `bestiary report`"
            ),
        ),
    ] = None,
    backend: Annotated[
        str, typer.Option(help=N_("with --out: local (process pool) or ray"))
    ] = "local",
    address: Annotated[
        str | None, typer.Option(help=N_("with --backend ray: the cluster's address"))
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many games between bots and print wins, scores and game statistics.

    With --out, every game is kept as a row of a run file for the lab
    (`bestiary report`, `bestiary compare`)."""
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards)
    specs = seat_specs(seats, game)
    if games_ < 1:
        fail(_("--games must be at least 1"))
    allow_local_imports()
    if out_file is not None:
        from .lab import write_run

        write_run(
            game_id, specs, games_, out_file, seed=seed, variant=variant, options=opts,
            rotate=rotate, workers=workers, backend=backend, address=address, as_json=as_json,
        )  # fmt: skip
        return
    if backend != "local":
        fail(_("--backend needs --out (the run file the workers write into)"))
    workers = check_workers(1 if workers is None else workers)

    def run(progress: Callable[[int], None] | None) -> Summary:
        return run_games(
            game, specs, games_, seed, variant, opts, rotate, workers, progress,
            keep_going=keep_going, allow_import=True,
        )  # fmt: skip

    with interrupts_as_keyboard_interrupt() as caught:
        try:
            summary = _run(run, game_id, games_, bar=not as_json and err.is_terminal)
        except GameFailed as exc:  # the run's fault, not the command line's: exit 1
            fail(str(exc), code=1)
        except BestiaryError as exc:
            fail(str(exc))
    if as_json:
        emit_json(summary.to_json())
    else:
        print_summary(game, summary, specs)
    _report_end(summary, caught)


def _report_end(summary: Summary, caught: list[int]) -> None:
    for failure in summary.failures:
        err.print(
            f"[bold red]{esc(_('failed:'))}[/] {esc(failure.describe(summary.game))}",
            highlight=False,
            soft_wrap=True,
        )
    if summary.interrupted:
        err.print(
            "[yellow]{word}[/] {text}".format(
                word=esc(_("interrupted:")),
                text=esc(
                    core.ngettext(
                        "{played} of {n} game played",
                        "{played} of {n} games played",
                        summary.requested,
                    ).format(played=summary.games, n=summary.requested)
                ),
            ),
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(128 + (caught[-1] if caught else signal.SIGINT))
    if summary.failures:
        raise typer.Exit(1)


def print_summary(game: Game, summary: Summary, specs: list[str]) -> None:
    template = core.ngettext(
        "{title}: {n} game in {seconds:.1f}s", "{title}: {n} games in {seconds:.1f}s", summary.games
    )
    head = esc(template).format(
        title=f"[bold]{esc(game.title)}[/]", n=summary.games, seconds=summary.seconds
    )
    if summary.interrupted:
        note = _("(interrupted; {requested} asked for)").format(requested=summary.requested)
        head += " " + esc(note)
    out.print(head, highlight=False, soft_wrap=True)
    out.print(_seat_table(summary))
    if summary.rotate or len(set(specs)) > 1:
        out.print(_agent_table(summary))
    if summary.games:
        _print_stats(summary.stats, summary.decisions)


def _seat_table(summary: Summary) -> Table:
    """Rows are seat positions. Without --rotate a seat always holds the same agent,
    so the row names it; with --rotate every agent sits everywhere, so it cannot."""
    table = Table(
        title=_("By seat position (the agents rotate)") if summary.rotate else _("By seat")
    )
    table.add_column(_("seat"), justify="right")
    if not summary.rotate:
        table.add_column(_("agent"), justify="left")
    for col in (_("wins"), _("win rate"), _("mean score")):
        table.add_column(col, justify="right")
    for i, spec in enumerate(summary.seats):
        label = [str(i)] + ([] if summary.rotate else [esc(spec)])
        table.add_row(
            *label,
            f"{summary.wins[i]:g}",
            f"{summary.win_rates()[i]:.1%}",
            f"{summary.mean_scores[i]:.2f}",
        )
    return table


def _agent_table(summary: Summary) -> Table:
    table = Table(title=_("By agent"))
    table.add_column(_("agent"), justify="left")
    for col in (_("seat-games"), _("wins"), _("win rate"), _("mean score")):
        table.add_column(col, justify="right")
    for a, rate in summary.agent_win_rates().items():
        table.add_row(
            esc(a),
            str(summary.agent_seats.get(a, 0)),
            f"{summary.agent_wins[a]:g}",
            f"{rate:.1%}",
            f"{summary.agent_mean_scores.get(a, 0.0):.2f}",
        )
    return table


def _print_stats(stats: Mapping[str, Any], decisions: Mapping[str, float]) -> None:
    table = Table(title=_("Statistics"))
    table.add_column(_("stat"))
    table.add_column(_("value"))
    table.add_row(
        _("decisions per game"),
        _("mean {mean:.1f}, max {max}").format(mean=decisions["mean"], max=decisions["max"]),
    )
    for k, v in stats.items():
        if "mean" in v and "n" in v:
            table.add_row(
                esc(k),
                _("mean {mean:.2f}, median {median:g}, min {min:g}, max {max:g}").format(
                    mean=v["mean"], median=v["median"], min=v["min"], max=v["max"]
                ),
            )
        else:
            total = sum(v.values()) or 1
            table.add_row(
                esc(k), esc(", ".join(f"{name} {c} ({c / total:.0%})" for name, c in v.items()))
            )
    out.print(table)
