"""``bestiary bench``: random self-play speed (µs per decision, games per second),
clone and determinize µs, ISMCTS iterations per second."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from ..engine.errors import BestiaryError
from ..engine.protocol import Game
from ..engine.registry import all_games, get_game
from ..i18n import N_, core
from ..sim.bench import ISMCTS_SPEC, bench_selfplay
from .common import (
    CardsOpt,
    JsonOpt,
    OptionOpt,
    VariantOpt,
    cli_errors,
    emit_json,
    esc,
    fail,
    guarded,
    options_of,
    out,
    warn,
    warn_broken_games,
)

_ = core.gettext


def bench(
    game_id: Annotated[str | None, typer.Argument(help=N_("game id (default: every game)"))] = None,
    players: Annotated[
        int | None, typer.Option(help=N_("seats (default: the game's usual)"))
    ] = None,
    seconds: Annotated[float, typer.Option(help=N_("seconds per repeat"))] = 1.0,
    repeats: Annotated[int, typer.Option(help=N_("repeats (the median is reported)"))] = 5,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    ismcts: Annotated[
        str,
        typer.Option(help=N_("search timed for iterations/s ('none' skips it)")),
    ] = ISMCTS_SPEC,
    as_json: JsonOpt = False,
) -> None:
    """Time random self-play (µs per decision, games per second), clone() and
    determinize() (µs each) and ISMCTS (iterations per second), and game extras.

    With a game, -o/--cards/--variant measure those rules (e.g. a designer's
    card file); without one, every installed game in one table.
    """
    if not 0 < seconds <= 3600:
        fail(_("--seconds must be more than 0 and at most 3600"))
    if not 1 <= repeats <= 1000:
        fail(_("--repeats must be between 1 and 1000"))
    opts = options_of(option, cards)
    spec: str | None = None if ismcts.strip().casefold() in ("", "none", "off") else ismcts
    if spec is not None and not spec.strip().startswith("ismcts"):
        fail(_("--ismcts takes an ismcts spec, e.g. ismcts:iterations=100,rollout_limit=50"))
    if game_id is None and (opts or variant):
        fail(_("rule options, --cards and --variant differ from game to game: name a game"))
    targets: list[Game]
    if game_id:
        targets = [guarded(lambda: get_game(game_id))]
    else:
        warn_broken_games()
        targets = all_games()
    results: list[dict[str, Any]] = []
    failed: list[str] = []
    for game in targets:
        with cli_errors():
            game.ruleset(variant, opts)  # bad options fail before any timing
        try:
            results.append(_bench_one(game, players, seconds, repeats, variant, opts, spec))
        except BestiaryError as exc:
            if game_id:
                fail(str(exc))
            failed.append(f"{game.id}: {exc}")
        except Exception as exc:  # one game's bug must not hide the other games' figures
            failed.append(f"{game.id}: {type(exc).__name__}: {exc}")
    for problem in failed:
        warn(_("bench failed for {problem}").format(problem=problem))
    if as_json:
        emit_json({"bench": results, "failed": failed})
    else:
        _print_table(results, seconds, repeats)
    if failed:
        raise typer.Exit(1)


def _bench_one(
    game: Game,
    players: int | None,
    seconds: float,
    repeats: int,
    variant: str | None,
    opts: dict[str, Any],
    spec: str | None,
) -> dict[str, Any]:
    res = bench_selfplay(
        game, players, seconds, repeats, variant=variant, options=opts, ismcts=spec
    )
    res["options"] = opts
    res["extra"] = game.bench_extra(game.ruleset(variant, opts))
    return res


def _print_table(results: list[dict[str, Any]], seconds: float, repeats: int) -> None:
    table = Table(
        title=esc(
            _("Random self-play (median of {repeats} × {seconds}s)").format(
                repeats=repeats, seconds=f"{seconds:g}"
            )
        ),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    # Short headings keep the table inside an 80-column terminal; the
    # caption says what each one is.
    table.add_column(esc(_("game")), no_wrap=True)
    for col in ("seats", "µs/dec", "games/s", "dec/game", "clone µs", "det. µs", "it/s"):
        table.add_column(col, justify="right", no_wrap=True, min_width=len(col))
    for r in results:
        its = r["ismcts_iterations_per_second"]
        table.add_row(
            esc(r["game"]),
            str(r["players"]),
            f"{r['us_per_decision']:.1f}",
            f"{r['games_per_second']:.1f}",
            f"{r['decisions_per_game']:.0f}",
            f"{r['clone_us']:.1f}",
            f"{r['determinize_us']:.1f}",
            "-" if its is None else f"{its:.0f}",
        )
    out.print(table)
    spec = next((r["ismcts_spec"] for r in results if r["ismcts_spec"]), None)
    states = results[0]["states_sampled"] if results else 0
    if spec:
        caption = _(
            "µs/dec: µs per decision; dec/game: decisions per game; clone µs and det. µs: "
            "one clone() and one determinize() on {states} states of random self-play; "
            "it/s: ISMCTS iterations per second ({spec})"
        ).format(states=states, spec=spec)
    else:
        caption = _(
            "µs/dec: µs per decision; dec/game: decisions per game; clone µs and det. µs: "
            "one clone() and one determinize() on {states} states of random self-play"
        ).format(states=states)
    out.print(caption, markup=False, highlight=False)
    for r in results:
        if r["extra"]:
            out.print(_("{game} extras:").format(game=r["game"]), markup=False, style="bold")
            out.print(r["extra"])
