"""The ``bestiary`` command: play, simulate, replay, inspect and benchmark games."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from .agents.base import AgentContext, make_agent
from .engine.errors import BadInput, BestiaryError
from .engine.protocol import Game, State
from .engine.record import Match, MatchRecord, replay_steps
from .engine.registry import all_games, game_ids, get_game
from .engine.rng import Rng
from .engine.ruleset import parse_option_args

T = TypeVar("T")

app = typer.Typer(
    help="Bestiary: play, simulate and study monster card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="game id (see `bestiary games`)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the result as JSON")]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help="rules variant")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="rule option name=value (repeatable)")
]
CardsOpt = Annotated[
    Path | None, typer.Option("--cards", help="a card file of your own (games that load cards)")
]


def fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn``; turn engine errors into a clear message and exit code 2."""
    with cli_errors():
        return fn()
    raise AssertionError("unreachable")


@contextmanager
def cli_errors() -> Iterator[None]:
    """Engine errors inside become a clear message on stderr and exit code 2."""
    try:
        yield
    except BestiaryError as exc:
        fail(str(exc))


def options_of(option: list[str] | None, cards: Path | None) -> dict[str, Any]:
    opts: dict[str, Any] = guarded(lambda: parse_option_args(option))
    if cards is not None:
        if not cards.exists():
            fail(f"card file {cards} does not exist")
        opts["cards"] = str(cards)
    return opts


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


# --------------------------------------------------------------------------- games
@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the games, their variants, options and bots."""
    infos = []
    for gid in game_ids():
        try:
            infos.append(get_game(gid).info())
        except BestiaryError as exc:
            infos.append({"id": gid, "error": str(exc)})
    if as_json:
        emit_json({"games": infos})
        return
    table = Table(title="Games")
    for col in ("id", "title", "players", "variants", "bots"):
        table.add_column(col)
    for info in infos:
        if "error" in info:
            table.add_row(info["id"], f"[red]{info['error']}[/]", "", "", "")
            continue
        table.add_row(
            info["id"],
            info["title"],
            ",".join(map(str, info["players"])),
            ", ".join(info["variants"]),
            ", ".join(info["agents"]),
        )
    out.print(table)


# --------------------------------------------------------------------------- play
def _prompt_human(game: Game, state: State, seat: int, seen: dict[int, int]) -> str:
    view = state.view(seat)
    events = state.events_since(seen.get(seat, 0), seat)
    seen[seat] = state.event_count()
    out.print(game.render(view, events))
    legal = list(state.legal(seat))
    out.print(f"[bold]Seat {seat}[/], your move:")
    for i, a in enumerate(legal, 1):
        out.print(f"  [cyan]{i:>2}[/] {a}", highlight=False)
    while True:
        try:
            text = input("> ").strip()
        except EOFError:
            fail("input ended before the game did")
        if not text:
            continue
        if text in ("quit", "exit"):
            raise typer.Exit(1)
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return str(legal[n - 1])
            out.print(f"[red]{n} is not a choice; enter 1 to {len(legal)} or an action's text[/]")
            continue
        try:
            return str(state.parse(seat, text))
        except BestiaryError as exc:
            out.print(f"[red]{exc}[/]", highlight=False)


@app.command()
def play(
    game_id: GameArg,
    seats: Annotated[str, typer.Option(help="comma-separated: human or an agent spec")] = "",
    seed: Annotated[int | None, typer.Option(help="random seed (default: time)")] = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    record: Annotated[Path | None, typer.Option(help="save the match record here")] = None,
    delay: Annotated[float, typer.Option(help="seconds to pause after each bot move")] = 0.0,
    as_json: JsonOpt = False,
) -> None:
    """Play a game in the terminal against bots (or friends, hot-seat)."""
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards)
    specs = [s.strip() for s in seats.split(",") if s.strip()] or (
        ["human"]
        + ["heuristic" if "heuristic" in game.agents() else "random"] * (game.default_players - 1)
    )
    if seed is None:
        seed = int(time.time()) % 1_000_000
    with cli_errors():
        match = Match.start(game, len(specs), seed=seed, variant=variant, options=opts, seats=specs)
    with cli_errors():
        bots = {
            i: make_agent(game, s, seed * 1009 + i + 1) for i, s in enumerate(specs) if s != "human"
        }
    rngs = [Rng(seed * 7919 + i + 13) for i in range(len(specs))]
    seen: dict[int, int] = {}
    state = match.state
    if not as_json:
        out.print(f"[bold]{game.title}[/] — seed {seed}, seats: {', '.join(specs)}")
    while not state.over:
        owed = state.to_act()
        humans = [s for s in owed if s not in bots]
        seat = humans[0] if humans else owed[0]
        if seat in bots:
            action = bots[seat].act(AgentContext(state, seat, rngs[seat]))
            match.apply(seat, action)
            if delay:
                time.sleep(delay)
        else:
            text = _prompt_human(game, state, seat, seen)
            with cli_errors():
                match.apply_text(seat, text)
    if record:
        match.record.save(record)
    result = state.result
    assert result is not None
    if as_json:
        emit_json({"seed": seed, "seats": specs, **result.to_json()})
        return
    out.print(game.render(state.view(None), state.events_since(0, None)[-12:]))
    _print_result(specs, result.scores, result.winners)
    if record:
        out.print(f"record saved to {record}")


def _print_result(specs: list[str], scores: list[float], winners: list[int]) -> None:
    table = Table(title="Result")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    for i, (spec, sc) in enumerate(zip(specs, scores, strict=True)):
        mark = " [bold green]winner[/]" if i in winners else ""
        table.add_row(str(i), spec + mark, f"{sc:g}")
    out.print(table)


# --------------------------------------------------------------------------- simulate
@app.command()
def simulate(
    game_id: GameArg,
    games_: Annotated[int, typer.Option("--games", "-n", help="how many games")] = 100,
    seats: Annotated[str, typer.Option(help="comma-separated agent specs")] = "",
    seed: Annotated[int, typer.Option(help="seed of the first game")] = 0,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    rotate: Annotated[bool, typer.Option(help="turn the seat list each game")] = False,
    workers: Annotated[int, typer.Option(help="processes to use")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Play many games between bots and print wins, scores and game statistics."""
    from rich.progress import Progress

    from .sim.runner import simulate as run

    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards)
    specs = [s.strip() for s in seats.split(",") if s.strip()] or ["random"] * game.default_players
    if games_ < 1:
        fail("--games must be at least 1")
    if as_json or not sys.stderr.isatty():
        summary = guarded(lambda: run(game, specs, games_, seed, variant, opts, rotate, workers))
    else:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task(f"simulating {game_id}", total=games_)
            summary = guarded(
                lambda: run(
                    game,
                    specs,
                    games_,
                    seed,
                    variant,
                    opts,
                    rotate,
                    workers,
                    progress=lambda k: bar.advance(task, k),
                )
            )
    if as_json:
        emit_json(summary.to_json())
        return
    table = Table(title=f"{game.title}: {summary.games} games in {summary.seconds:.1f}s")
    for col in ("seat", "agent", "wins", "win rate", "mean score"):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for i, spec in enumerate(summary.seats):
        table.add_row(
            str(i),
            spec,
            f"{summary.wins[i]:g}",
            f"{summary.win_rates()[i]:.1%}",
            f"{summary.mean_scores[i]:.2f}",
        )
    out.print(table)
    if len(set(specs)) > 1:
        agents = Table(title="By agent")
        for col in ("agent", "seat-games", "wins", "win rate"):
            agents.add_column(col)
        for a, rate in summary.agent_win_rates().items():
            agents.add_row(
                a, str(summary.agent_seats[a]), f"{summary.agent_wins[a]:g}", f"{rate:.1%}"
            )
        out.print(agents)
    _print_stats(summary.stats, summary.decisions)


def _print_stats(stats: Mapping[str, Any], decisions: Mapping[str, float]) -> None:
    table = Table(title="Statistics")
    table.add_column("stat")
    table.add_column("value")
    table.add_row("decisions per game", f"mean {decisions['mean']:.1f}, max {decisions['max']}")
    for k, v in stats.items():
        if "mean" in v and "n" in v:
            table.add_row(
                k,
                f"mean {v['mean']:.2f}, median {v['median']:g}, min {v['min']:g}, max {v['max']:g}",
            )
        else:
            total = sum(v.values()) or 1
            table.add_row(k, ", ".join(f"{name} {c} ({c / total:.0%})" for name, c in v.items()))
    out.print(table)


# --------------------------------------------------------------------------- replay
@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="a match record (JSON)")],
    seat: Annotated[int | None, typer.Option(help="show the game as this seat saw it")] = None,
    step: Annotated[bool, typer.Option(help="pause after each move (Enter to go on)")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Step through a recorded game and check that it replays to its result."""
    record = guarded(lambda: MatchRecord.load(path))
    game = guarded(lambda: get_game(record.game))
    last: State | None = None
    seen = 0
    try:
        for state, move in replay_steps(record):
            last = state
            if as_json or move is None:
                continue
            s, text = move
            events = state.events_since(seen, seat)
            seen = state.event_count()
            lines = [game.describe_event(e) for e in events] or [f"seat {s}: {text}"]
            for line in lines:
                out.print(line, highlight=False)
            if step:
                out.print(game.render(state.view(seat), []))
                try:
                    input("[Enter] ")
                except EOFError:
                    step = False
    except BestiaryError as exc:
        fail(str(exc))
    assert last is not None
    result = last.result.to_json() if last.result else None
    matches = record.result is None or record.result == result
    if as_json:
        emit_json(
            {
                "moves": len(record.moves),
                "over": last.over,
                "result": result,
                "matches_record": matches,
            }
        )
    else:
        if last.result:
            _print_result(
                record.seats or [f"seat {i}" for i in range(record.players)],
                last.result.scores,
                last.result.winners,
            )
        out.print(
            "replay matches the recorded result"
            if matches
            else "[red]replay does NOT match the recorded result[/]"
        )
    if not matches:
        raise typer.Exit(1)


# --------------------------------------------------------------------------- cards
@app.command()
def cards(
    game_id: GameArg,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards_file: CardsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a game's cards (and, for taxonomy, the collecting keys and orphans)."""
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards_file)
    rules = guarded(lambda: game.ruleset(variant, opts))
    catalog = guarded(lambda: game.catalog(rules))
    if catalog is None:
        fail(f"{game_id} has no card list")
    if as_json:
        emit_json(catalog)
    else:
        out.print(game.render_catalog(catalog))


# --------------------------------------------------------------------------- score
@app.command()
def score(
    game_id: GameArg,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards_file: CardsOpt = None,
) -> None:
    """Score a hand: JSON on stdin, JSON on stdout (exit 2 on malformed input)."""
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards_file)
    raw = sys.stdin.read()
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        fail(f"input is not JSON: {exc}")
    if not isinstance(payload, dict):
        fail("input must be a JSON object")
    v = payload.get("variant", variant)
    if v is not None and not isinstance(v, str):
        fail("'variant' must be a string")
    rules = guarded(lambda: game.ruleset(v, opts))
    try:
        result = game.score_tool(payload, rules)
    except BadInput as exc:
        fail(str(exc))
    except BestiaryError as exc:
        fail(str(exc))
    if result is None:
        fail(f"{game_id} has no scoring tool")
    emit_json(result)


# --------------------------------------------------------------------------- bench
@app.command()
def bench(
    game_id: Annotated[str | None, typer.Argument(help="game id (default: every game)")] = None,
    players: Annotated[int | None, typer.Option(help="seats (default: the game's usual)")] = None,
    seconds: Annotated[float, typer.Option(help="seconds per repeat")] = 1.0,
    repeats: Annotated[int, typer.Option(help="repeats (the median is reported)")] = 5,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Time random self-play (µs per decision, games per second) and game extras."""
    from .sim.bench import bench_selfplay

    targets = [guarded(lambda: get_game(game_id))] if game_id else guarded(all_games)
    results = []
    for game in targets:
        with cli_errors():
            res = bench_selfplay(game, players, seconds, repeats, variant=variant)
            res["extra"] = game.bench_extra(game.ruleset(variant))
        results.append(res)
    if as_json:
        emit_json({"bench": results})
        return
    table = Table(title=f"Random self-play (median of {repeats} × {seconds:g}s)")
    for col in ("game", "players", "µs/decision", "games/s", "decisions/game"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for r in results:
        table.add_row(
            r["game"],
            str(r["players"]),
            f"{r['us_per_decision']:.2f}",
            f"{r['games_per_second']:.1f}",
            f"{r['decisions_per_game']:.0f}",
        )
    out.print(table)
    for r in results:
        if r["extra"]:
            out.print(f"[bold]{r['game']}[/] extras:")
            out.print(r["extra"])


# --------------------------------------------------------------------------- serve
@app.command()
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
) -> None:
    """Run the web app: lobby and tables for every game."""
    try:
        from .server import run
    except ImportError as exc:
        fail(f"the web app needs its extras: pip install 'bestiary[web]' ({exc})")
    guarded(lambda: run(host=host, port=port, db=db, bot_delay=bot_delay))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
