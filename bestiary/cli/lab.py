"""The designer's lab on the command line: ``report``, ``compare``, ``sweep``,
``arena``, ``validate``, plus :func:`write_run` for ``simulate --out`` and
:func:`export_cards` for ``cards --export``.

The lab's libraries (pyarrow, DuckDB, matplotlib, OpenSkill) come with the
``lab`` extra; each command imports them when it runs, so the rest of the
CLI starts without them and a missing extra is one clear line.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..i18n import N_, core
from .common import (
    GameArg,
    JsonOpt,
    RotateOpt,
    VariantOpt,
    allow_local_imports,
    check_workers,
    cli_errors,
    emit_json,
    err,
    esc,
    fail,
    interrupts_as_keyboard_interrupt,
    options_of,
    out,
    seat_specs,
    split_seats,
    warn,
)

_ = core.gettext
T = TypeVar("T")

BackendOpt = Annotated[
    str, typer.Option("--backend", help=N_("local (a process pool) or ray (a Ray cluster)"))
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help=N_("Ray cluster address (ray backend; default: local)")),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", help=N_("processes (default: every core; results do not depend on it)")
    ),
]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help=N_("write the HTML page here"))
]
# sweep and arena keep -o for rule options (as simulate does): the page is --output only
PageOpt = Annotated[Path | None, typer.Option("--output", help=N_("write the HTML page here"))]
SeatsOpt = Annotated[str, typer.Option(help=N_("comma-separated agent specs"))]
RuleOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help=N_("rule option name=value"))
]


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        shown = _("{speed:.1f} games/s").format(speed=speed) if speed else _("– games/s")
        return Text(shown, style="cyan")


@contextmanager
def _lab_errors() -> Iterator[None]:
    """Engine errors and a missing ``lab`` extra become one line on stderr."""
    try:
        with cli_errors():
            yield
    except ImportError as exc:
        fail(
            _("the lab needs its extra ({name} is missing): pip install 'bestiary[lab]'").format(
                name=exc.name
            )
        )


def _progress(total: int, label: str, show: bool) -> Any:
    if not show:
        return None
    return Progress(
        TextColumn(esc(label)),
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )


def _with_bar(total: int, label: str, as_json: bool, work: Callable[[Any], T]) -> T:
    bar = _progress(total, label, not as_json and err.is_terminal)
    if bar is None:
        return work(None)
    with bar:
        task = bar.add_task(label, total=total)
        return work(lambda k: bar.advance(task, k))


def _workers(workers: int | None) -> int:
    from ..lab.runs import default_workers

    return check_workers(default_workers() if workers is None else workers)


def _write_page(path: Path, page: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(_("cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc))
    err.print(esc(_("wrote {path}").format(path=path)), highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------- simulate --out
def write_run(
    game_id: str,
    specs: list[str],
    games: int,
    out_path: Path,
    *,
    seed: int = 0,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    rotate: bool = False,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    as_json: bool = False,
) -> None:
    """``bestiary simulate GAME ... --out FILE``: play into a run file (resume/extend)."""
    with _lab_errors():
        from ..lab.runs import RunConfig, run_to_parquet

        n = _workers(workers)
        cfg = RunConfig(game_id, tuple(specs), seed, variant or "", dict(options or {}), rotate)
        # SIGTERM (a scheduler, `kill`) stops the run as Ctrl-C does: the finished
        # games are saved and the command says how to resume, instead of dying
        # with 143 and losing up to a checkpoint's worth of games.
        with interrupts_as_keyboard_interrupt() as caught:
            res = _with_bar(
                games,
                _("simulating {game}").format(game=game_id),
                as_json,
                lambda progress: run_to_parquet(
                    cfg,
                    out_path,
                    games,
                    workers=n,
                    backend=backend,
                    address=address,
                    progress=progress,
                    allow_import=True,
                ),
            )
    if as_json:
        emit_json(res.to_json())
    else:
        line = esc(
            core.ngettext(
                "{path}: {total} game ({played} played now in {seconds:.1f}s, {rate:.1f} games/s)",
                "{path}: {total} games ({played} played now in {seconds:.1f}s, {rate:.1f} games/s)",
                res.total,
            ).format(
                path=res.path,
                total=res.total,
                played=res.played,
                seconds=res.seconds,
                rate=res.games_per_second,
            )
        )
        if res.failed:
            failed = core.ngettext(
                "{n} game failed (a row with an error)",
                "{n} games failed (rows with an error)",
                res.failed,
            ).format(n=res.failed)
            line += f"; [red]{esc(failed)}[/]"
        out.print(line, highlight=False, soft_wrap=True)
    if res.interrupted:
        err.print(
            "[yellow]{word}[/] {text}".format(
                word=esc(_("interrupted:")), text=esc(_("run the same command again to resume"))
            ),
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(128 + (caught[-1] if caught else signal.SIGINT))
    if res.failed:
        # The file keeps the failed games as rows with their error (a report
        # skips them), but a run with failures is not a success: scripts and CI
        # must see it, as `simulate` without --out shows it.
        err.print(
            f"[bold red]{esc(_('failed:'))}[/] "
            + esc(
                core.ngettext(
                    "{n} game of {path} failed; its error is in the file's error column",
                    "{n} games of {path} failed; their errors are in the file's error column",
                    res.failed,
                ).format(n=res.failed, path=res.path.name)
            ),
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(1)


def run(
    game_id: GameArg,
    out_path: Annotated[
        Path, typer.Option("--out", help=N_("run file (Parquet) to write or extend"))
    ],
    games_: Annotated[
        int, typer.Option("--games", "-n", help=N_("games the file should hold"))
    ] = 100,
    seats: SeatsOpt = "",
    seed: Annotated[int, typer.Option(help=N_("seed of game 0"))] = 0,
    variant: VariantOpt = None,
    option: RuleOpt = None,
    cards: Annotated[
        Path | None, typer.Option("--cards", help=N_("a card file of your own"))
    ] = None,
    rotate: RotateOpt = False,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play games into a run file (one row per game); the same command resumes it,
    a larger --games extends it with fresh seeds."""
    from ..engine.registry import get_game

    with _lab_errors():
        game = get_game(game_id)
    opts = options_of(option, cards)
    allow_local_imports()
    specs = seat_specs(seats, game)
    write_run(
        game_id,
        specs,
        games_,
        out_path,
        seed=seed,
        variant=variant,
        options=opts,
        rotate=rotate,
        workers=workers,
        backend=backend,
        address=address,
        as_json=as_json,
    )


# --------------------------------------------------------------------------- report
def report(
    run_file: Annotated[Path, typer.Argument(help=N_("a run file from simulate --out"))],
    output: OutputOpt = None,
    as_json: JsonOpt = False,
    cards_out: Annotated[
        Path | None,
        typer.Option(
            "--cards-out",
            help=N_("also write the card ratings, one row per card and case (.parquet or .csv)"),
        ),
    ] = None,
) -> None:
    """One self-contained HTML page (plots embedded) for a run, or its summary as JSON."""
    with _lab_errors():
        from ..lab.ratings import card_ratings, check_suffix, write_ratings
        from ..lab.report import report_html, summary
        from ..lab.runs import read_played_run

        if cards_out is not None:
            check_suffix(cards_out)  # before the run is read: a typo costs nothing
        table = read_played_run(run_file)
        if cards_out is not None:
            try:
                cards_out.parent.mkdir(parents=True, exist_ok=True)
                write_ratings(card_ratings(table), cards_out)
            except OSError as exc:  # pyarrow's errors for a path are OSErrors
                fail(
                    _("cannot write {path}: {reason}").format(
                        path=cards_out, reason=exc.strerror or exc
                    )
                )
            err.print(esc(_("wrote {path}").format(path=cards_out)), highlight=False)
        if as_json:
            emit_json(summary(table))
        if output is None and not as_json:
            output = run_file.with_suffix(".html")
        if output is not None:
            _write_page(output, report_html(table, f"Bestiary lab: {run_file.name}"))
    if not as_json:
        _print_summary(table)


def _print_summary(table: Any) -> None:
    from ..lab.metrics import all_metrics
    from ..lab.report import fmt

    t = Table(title=esc(_("Summary (95% intervals)")))
    t.add_column(esc(_("metric")))
    t.add_column(esc(_("value [interval]")), justify="right")
    t.add_column("n", justify="right")
    for m in all_metrics(table).values():
        if m.section in ("seats", "agents", "outcome", "length", "ludii"):
            t.add_row(esc(m.shown), fmt(m), f"{m.count:g}")
    out.print(t)
    from ..lab.power import report_power

    _print_power(
        [p.to_json() | {"label": p.shown} for p in report_power(all_metrics(table).values())]
    )


# --------------------------------------------------------------------------- compare
def compare(
    run_a: Annotated[Path, typer.Argument(help=N_("the run before the change"))],
    run_b: Annotated[Path, typer.Argument(help=N_("the run after the change"))],
    output: OutputOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What changed (card files, options, seats), then every metric of two runs side by side:
    difference, interval (paired on the same deals), p and q-value."""
    with _lab_errors():
        from ..lab.compare import compare_html, compare_json
        from ..lab.runs import read_played_run

        a, b = read_played_run(run_a), read_played_run(run_b)
        data = compare_json(a, b)
        if output is not None:
            _write_page(output, compare_html(a, b, run_a.name, run_b.name))
    if as_json:
        emit_json(data)
        return
    _print_card_changes(data, run_a.name, run_b.name)
    for w in data["warnings"]:
        warn(w)
    t = Table(
        title=esc(
            _("{b} minus {a}: the changed cards' metrics first, then by q-value").format(
                b=run_b.name, a=run_a.name
            )
        )
    )
    t.add_column(esc(_("metric")), justify="left")
    for col in ("A", "B", _("difference [95%]"), "p", "q", ""):
        t.add_column(esc(col), justify="right")
    for m in data["metrics"][:25]:
        t.add_row(*_compare_cells(m))
    out.print(t)
    _print_power(data.get("games_needed", []))


def _compare_cells(m: dict[str, Any]) -> tuple[str, ...]:
    """One metric of `compare` as table cells: shares in %, differences of
    shares in percentage points (interval too, in the same unit)."""
    prop = m["kind"] == "proportion"
    value = (lambda v: f"{v:.1%}") if prop else (lambda v: f"{v:.3g}")
    delta = (lambda v: f"{100 * v:+.2f} pp") if prop else (lambda v: f"{v:+.3g}")
    pair = m.get("paired")
    diff, low, high, p = (
        (pair["diff"], pair["low"], pair["high"], pair["p_value"])
        if pair
        else (m["diff"], m["low"], m["high"], m["p_value"])
    )
    span = f"{delta(diff)} [{delta(low)}, {delta(high)}]"
    if pair:
        span += " " + _("paired; unpaired [{low}, {high}]").format(
            low=delta(m["low"]), high=delta(m["high"])
        )
    mark = (
        f"[bold red]{esc(_('significant'))}[/]"
        if m["significant"]
        else (f"[yellow]{esc(_('too few games'))}[/]" if m["too_few_games"] else "")
    )
    label = ("★ " if m.get("changed_card") else "") + m["label"]
    return (
        esc(label),
        value(m["a"]),
        value(m["b"]),
        esc(span),
        f"{p:.3g}",
        f"{m['q_value']:.3g}",
        mark,
    )


def _print_card_changes(data: dict[str, Any], name_a: str, name_b: str) -> None:
    changes = data.get("card_changes") or []
    if not changes:
        return
    t = Table(title=esc(_("What changed in the card files ({a} → {b})").format(a=name_a, b=name_b)))
    for col in (_("file"), _("card"), _("field"), "A", "B"):
        t.add_column(esc(col))
    for c in changes[:40]:
        t.add_row(*(esc(str(c[k])) for k in ("file", "card", "field", "a", "b")))
    out.print(t)
    if len(changes) > 40:
        more = len(changes) - 40
        warn(
            core.ngettext(
                "{n} more card change: see --json or the page (-o)",
                "{n} more card changes: see --json or the page (-o)",
                more,
            ).format(n=more)
        )


# --------------------------------------------------------------------------- sweep
def sweep(
    game_id: GameArg,
    option: Annotated[
        str | None, typer.Option("--option", "-o", help=N_("the option to sweep: name=v1,v2,v3"))
    ] = None,
    cards: Annotated[
        str | None, typer.Option("--cards", help=N_("card files to sweep instead: a.toml,b.toml"))
    ] = None,
    fixed: Annotated[
        list[str] | None, typer.Option("--set", help=N_("another option held fixed: name=value"))
    ] = None,
    seats: SeatsOpt = "",
    games_: Annotated[int, typer.Option("--games", "-n", help=N_("games per value"))] = 100,
    seed: Annotated[int, typer.Option(help=N_("seed of game 0 (the same for every value)"))] = 0,
    variant: VariantOpt = None,
    rotate: RotateOpt = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help=N_("folder for the run files"))] = Path(
        "runs/sweep"
    ),
    output: PageOpt = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One run per value of an option (or per card file) and a page plotting each metric
    against the value."""
    from ..engine.registry import get_game

    if (option is None) == (cards is None):
        fail(_("give what to sweep: -o name=v1,v2,v3 or --cards a.toml,b.toml (one of them)"))
    allow_local_imports()
    with _lab_errors():
        from ..lab.sweep import load_sweep, parse_sweep, run_sweep, sweep_html, sweep_json

        game = get_game(game_id)
        if option is not None:
            name, values = parse_sweep(option)
        else:
            name, values = parse_sweep("cards=" + (cards or ""))
            for v in values:
                if not Path(v).is_file():
                    fail(_("card file {path} does not exist (or is not a file)").format(path=v))
        opts = options_of(fixed, None)
        specs = seat_specs(seats, game)
        n = _workers(workers)
        files = _with_bar(
            games_ * len(values),
            _("sweeping {name}").format(name=name),
            as_json,
            lambda progress: run_sweep(
                game_id,
                specs,
                name,
                values,
                games_,
                out_dir,
                seed=seed,
                variant=variant or "",
                options=opts,
                rotate=rotate,
                workers=n,
                backend=backend,
                address=address,
                progress=progress,
                allow_import=True,
            ),
        )
        runs = load_sweep(files)
        page = sweep_html(name, runs, f"Bestiary lab: {game_id}, {name} swept")
    _write_page(output or out_dir / "sweep.html", page)
    if as_json:
        emit_json(sweep_json(name, runs) | {"files": [str(p) for _, p in files]})


# --------------------------------------------------------------------------- arena
def arena(
    game_id: GameArg,
    agents: Annotated[str, typer.Option("--agents", help=N_("agent specs: a,b,c (two or more)"))],
    games_: Annotated[int, typer.Option("--games", "-n", help=N_("games per match-up"))] = 100,
    players: Annotated[
        int | None, typer.Option(help=N_("seats per game (default: the fewest the game allows)"))
    ] = None,
    seed: Annotated[int, typer.Option(help=N_("first seed"))] = 0,
    variant: VariantOpt = None,
    option: RuleOpt = None,
    out_path: Annotated[Path | None, typer.Option("--out", help=N_("also keep the games"))] = None,
    output: PageOpt = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Round robin between agents with seats rotated: OpenSkill ratings with uncertainty."""
    from math import comb

    specs = split_seats(agents)
    allow_local_imports()
    with _lab_errors():
        import pyarrow.parquet as pq

        from ..engine.registry import get_game
        from ..lab.arena import arena_html, arena_json, run_arena

        game = get_game(game_id)
        opts = options_of(option, None)
        n = _workers(workers)
        size = players or min(p for p in game.allowed_players() if p >= 2)
        total = games_ * comb(len(specs), size) if len(specs) >= size else games_
        table = _with_bar(
            total,
            _("arena {game}").format(game=game_id),
            as_json,
            lambda progress: run_arena(
                game_id,
                specs,
                games_,
                players=players,
                seed=seed,
                variant=variant or "",
                options=opts,
                workers=n,
                backend=backend,
                address=address,
                progress=progress,
                allow_import=True,
            ),
        )
        data = arena_json(table)
        if out_path is not None:
            out_path.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, out_path)
        if output is not None:
            _write_page(output, arena_html(table, f"Bestiary lab: {game_id} arena"))
    if as_json:
        emit_json(data)
        return
    title = core.ngettext(
        "{game}: arena, {n} game", "{game}: arena, {n} games", data["games"]
    ).format(game=game.title, n=data["games"])
    t = Table(title=esc(title))
    t.add_column(esc(_("agent")), justify="left")
    for col in (_("skill μ ± 2σ"), _("ordinal"), _("seat-games"), _("win share [95%]")):
        t.add_column(esc(col), justify="right")
    for r in data["ratings"]:
        t.add_row(
            esc(r["agent"]),
            f"{r['mu']:.1f} ± {2 * r['sigma']:.1f}",
            f"{r['ordinal']:.1f}",
            str(r["games"]),
            rf"{r['win_share']:.1%} \[{r['win_low']:.1%}, {r['win_high']:.1%}]",
        )
    out.print(t)


# --------------------------------------------------------------------------- cards
FileFieldOpt = Annotated[
    str, typer.Option("--file", help=N_("which of the game's files (cards, treasures, ...)"))
]


def validate(
    game_id: GameArg,
    card_file: Annotated[Path, typer.Argument(help=N_("the card file to check"))],
    field: FileFieldOpt = "cards",
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List every problem of a card file at once (exit 1 if there is any)."""
    with _lab_errors():
        from ..lab.cards import validate as check

        problems = check(game_id, card_file, field, variant)
    if as_json:
        listed = [p.as_dict() for p in problems]
        emit_json({"file": str(card_file), "problems": listed, "ok": not problems})
    elif not problems:
        out.print(
            esc(_("{path}: no problems").format(path=card_file)), highlight=False, soft_wrap=True
        )
    else:
        for p in problems:
            out.print(f"[red]•[/] {esc(str(p))}", highlight=False, soft_wrap=True)
        count = core.ngettext("{n} problem", "{n} problems", len(problems))
        out.print(esc(count.format(n=len(problems))), highlight=False, soft_wrap=True)
    if problems:
        raise typer.Exit(1)


def export_cards(game_id: str, dest: Path, field: str = "cards", force: bool = False) -> None:
    """``bestiary cards GAME --export FILE``: the shipped set, in the format to edit."""
    with _lab_errors():
        from ..lab.cards import export

        path = export(game_id, dest, field, force)
    err.print(
        esc(
            _("wrote {path} (edit it, then: bestiary validate {game} {path})").format(
                path=path, game=game_id
            )
        ),
        highlight=False,
    )


def cards_export(
    game_id: GameArg,
    dest: Annotated[Path, typer.Argument(help=N_("where to write the editable card file"))],
    field: FileFieldOpt = "cards",
    force: Annotated[bool, typer.Option("--force", help=N_("overwrite an existing file"))] = False,
) -> None:
    """Write the game's shipped card file, in the format to edit."""
    export_cards(game_id, dest, field, force)


# --------------------------------------------------------------------------- power line
def _print_power(powers: list[dict[str, Any]], limit: int = 3) -> None:
    """The first few "how many games" lines under a report's or a comparison's table."""
    for p in powers[:limit]:
        change = (
            _("1 point (1 pp)")
            if p["kind"] == "proportion"
            else _("1% ({delta:.3g})").format(delta=p["delta"])
        )
        text = (
            _(
                "To see a change of {change} in {metric} at 95% confidence and 80% power you "
                "need about {n} games a side (paired on common seeds)."
            )
            if p["paired"]
            else _(
                "To see a change of {change} in {metric} at 95% confidence and 80% power you "
                "need about {n} games a side."
            )
        )
        line = text.format(change=change, metric=p["label"], n=f"{p['games_a_side']:,}")
        out.print(esc(line), highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------- ab
def ab(
    game_id: GameArg,
    seats: Annotated[
        str, typer.Option(help=N_("comma-separated agent specs (both versions)"))
    ] = "",
    seats_b: Annotated[
        str, typer.Option("--seats-b", help=N_("other agent specs for version B"))
    ] = "",
    cards_a: Annotated[
        Path | None, typer.Option("--cards-a", help=N_("card file of version A (default: shipped)"))
    ] = None,
    cards_b: Annotated[
        Path | None, typer.Option("--cards-b", help=N_("card file of version B"))
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help=N_("rule option of both versions: name=value")),
    ] = None,
    option_b: Annotated[
        list[str] | None,
        typer.Option("--option-b", help=N_("rule option of version B only: name=value")),
    ] = None,
    metric: Annotated[
        str, typer.Option("--metric", help=N_("seat0_win, seat1_win, ..., decisive or drawish"))
    ] = "seat0_win",
    alpha: Annotated[float, typer.Option(help=N_("error rate over every look"))] = 0.05,
    margin: Annotated[
        float,
        typer.Option(
            help=N_("also stop when the change is surely smaller than this (0.02 = 2 pp)")
        ),
    ] = 0.0,
    batch: Annotated[int, typer.Option(help=N_("games a side between two looks"))] = 100,
    max_games: Annotated[
        int, typer.Option("--max-games", help=N_("budget: the most games a side"))
    ] = 2000,
    seed: Annotated[int, typer.Option(help=N_("seed of game 0 (both versions)"))] = 0,
    seed_b: Annotated[
        int | None,
        typer.Option("--seed-b", help=N_("another first seed for B (an A/A check of the test)")),
    ] = None,
    variant: VariantOpt = None,
    rotate: RotateOpt = False,
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play versions A and B on common seeds in batches until a metric's change is
    known (an always-valid confidence sequence) or the budget of games is spent."""
    from ..engine.registry import get_game

    with _lab_errors():
        game = get_game(game_id)
    opts_a = options_of(option, cards_a)
    opts_b = options_of(option, cards_b) | options_of(option_b, None)
    allow_local_imports()
    specs = seat_specs(seats, game)
    specs_b = split_seats(seats_b) or specs
    if opts_a == opts_b and specs == specs_b and seed_b in (None, seed):
        fail(
            _(
                "versions A and B are the same: give --cards-b, --option-b or --seats-b "
                "(or --seed-b for an A/A check)"
            )
        )
    with _lab_errors():
        from ..lab.runs import RunConfig
        from ..lab.sequential import check_metric, run_ab

        check_metric(metric)
        n = _workers(workers)
        cfg_a = RunConfig(game_id, tuple(specs), seed, variant or "", opts_a, rotate)
        cfg_b = RunConfig(
            game_id,
            tuple(specs_b),
            seed if seed_b is None else seed_b,
            variant or "",
            opts_b,
            rotate,
        )
        res = _with_bar(
            max_games,
            _("A/B {game}").format(game=game_id),
            as_json,
            lambda progress: run_ab(
                cfg_a,
                cfg_b,
                metric,
                alpha=alpha,
                margin=margin,
                batch=batch,
                budget=max_games,
                workers=n,
                allow_import=True,
                progress=progress,
            ),
        )
    if as_json:
        emit_json(res.to_json())
        return
    t = Table(title=esc(_("{metric}: B minus A, look by look").format(metric=metric)))
    for col in (_("games a side"), _("difference"), _("always-valid interval")):
        t.add_column(esc(col), justify="right")
    for k in res.looks:
        t.add_row(
            str(k.games), f"{100 * k.mean:+.2f} pp", f"[{100 * k.low:+.2f}, {100 * k.high:+.2f}] pp"
        )
    out.print(t)
    games = res.looks[-1].games if res.looks else 0
    verdict = {
        "up": _("B is higher: the change is real (error at most {alpha:.0%} over every look)."),
        "down": _("B is lower: the change is real (error at most {alpha:.0%} over every look)."),
        "same": _("No change larger than ±{margin:.1%} (error at most {alpha:.0%})."),
        "open": _("Not answered within the budget: no change found yet; play more games."),
    }[res.decision]
    out.print(
        esc(
            core.ngettext(
                "{metric}: A {a:.1%}, B {b:.1%} over {n} game a side.",
                "{metric}: A {a:.1%}, B {b:.1%} over {n} games a side.",
                games,
            ).format(metric=metric, a=res.a_mean, b=res.b_mean, n=games)
            + " "
            + verdict.format(alpha=alpha, margin=margin)
        ),
        highlight=False,
        soft_wrap=True,
    )


# --------------------------------------------------------------------------- tune
def tune(
    game_id: GameArg,
    cards: Annotated[Path, typer.Option("--cards", help=N_("the card file to start from (TOML)"))],
    field: Annotated[
        str, typer.Option("--field", help=N_("the integer field to tune: CARD.FIELD"))
    ],
    range_: Annotated[str, typer.Option("--range", help=N_("the values to search: A..B"))],
    target: Annotated[
        str, typer.Option("--target", help=N_("METRIC=VALUE, e.g. 'item:picked:Bober=0.5'"))
    ],
    seats: SeatsOpt = "",
    games_per_step: Annotated[
        int, typer.Option("--games-per-step", help=N_("games played at each value"))
    ] = 500,
    seed: Annotated[int, typer.Option(help=N_("seed of game 0 (the same for every value)"))] = 0,
    variant: VariantOpt = None,
    option: RuleOpt = None,
    rotate: RotateOpt = False,
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help=N_("folder for each value's card file and run"))
    ] = Path("runs/tune"),
    workers: WorkersOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find the value of one card's integer field at which a metric reaches a target
    (bisection, a fixed number of games per value; the metric assumed monotone)."""
    from ..engine.registry import get_game

    with _lab_errors():
        from ..lab.tune import parse_range, parse_target, steps
        from ..lab.tune import tune as run_tune

        game = get_game(game_id)
        lo, hi = parse_range(range_)
        metric, value = parse_target(target)
        if not cards.is_file():
            fail(_("card file {path} does not exist (or is not a file)").format(path=cards))
        opts = options_of(option, None)
        allow_local_imports()
        specs = seat_specs(seats, game)
        n = _workers(workers)
        res = _with_bar(
            games_per_step * steps(lo, hi),
            _("tuning {field}").format(field=field),
            as_json,
            lambda progress: run_tune(
                game_id,
                specs,
                cards,
                field,
                lo,
                hi,
                metric,
                value,
                games_per_step,
                out_dir,
                seed=seed,
                variant=variant or "",
                options=opts,
                rotate=rotate,
                workers=n,
                allow_import=True,
                progress=progress,
            ),
        )
    if as_json:
        emit_json(res.to_json())
        return
    t = Table(
        title=esc(_("{metric} by {field} (95% intervals)").format(metric=metric, field=res.field))
    )
    for col in (_("value"), _("metric [95%]"), "n"):
        t.add_column(esc(col), justify="right")
    for p in res.curve:
        t.add_row(str(p.value), f"{p.estimate:.3g} [{p.low:.3g}, {p.high:.3g}]", str(p.games))
    out.print(t)
    if res.found is None:
        warn(
            _(
                "The target {target:.3g} is not between the values at {lo} and {hi}: widen "
                "--range or check the metric."
            ).format(target=value, lo=lo, hi=hi)
        )
        raise typer.Exit(1)
    low, high = res.interval or (res.found, res.found)
    out.print(
        esc(
            _(
                "{field} = {found} brings {metric} nearest {target:.3g} (values not ruled "
                "out: {low}..{high}); run files in {dir}."
            ).format(
                field=res.field,
                found=res.found,
                metric=metric,
                target=value,
                low=low,
                high=high,
                dir=out_dir,
            )
        ),
        highlight=False,
        soft_wrap=True,
    )
