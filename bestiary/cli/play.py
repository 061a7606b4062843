"""``bestiary play``: a game in the terminal against bots (or friends, hot-seat)."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..agents.base import Agent, AgentContext, make_agent
from ..engine.errors import BestiaryError
from ..engine.protocol import Game, State
from ..engine.record import Match
from ..engine.registry import get_game
from ..engine.rng import Rng
from .common import (
    CardsOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    VariantOpt,
    allow_local_imports,
    cli_errors,
    emit_json,
    esc,
    fail,
    guarded,
    options_of,
    out,
    split_seats,
)


def _prompt_human(game: Game, state: State, seat: int, seen: dict[int, int]) -> str:
    view = state.view(seat)
    events = state.events_since(seen.get(seat, 0), seat)
    seen[seat] = state.event_count()
    out.print(game.render(view, events))
    legal = list(state.legal(seat))
    out.print(f"[bold]Seat {seat}[/], your move:")
    for i, a in enumerate(legal, 1):
        out.print(f"  [cyan]{i:>2}[/] {esc(a)}", highlight=False, soft_wrap=True)
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
            out.print(f"[red]{esc(exc)}[/]", highlight=False, soft_wrap=True)


def _default_seats(game: Game) -> list[str]:
    bot = "heuristic" if "heuristic" in game.agents() else "random"
    return ["human"] + [bot] * (game.default_players - 1)


def _make_bots(game: Game, specs: list[str], seed: int) -> dict[int, Agent]:
    allow_local_imports()
    with cli_errors():
        return {
            i: make_agent(game, s, seed * 1009 + i + 1, allow_import=True)
            for i, s in enumerate(specs)
            if s != "human"
        }


def play(
    game_id: GameArg,
    seats: Annotated[
        str, typer.Option(help="comma-separated: human, an agent spec or module:Agent")
    ] = "",
    seed: Annotated[int | None, typer.Option(help="random seed (default: a random one)")] = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    record: Annotated[Path | None, typer.Option(help="save the match record here")] = None,
    delay: Annotated[float, typer.Option(help="seconds to pause after each bot move")] = 0.0,
    as_json: JsonOpt = False,
) -> None:
    """Play a game in the terminal against bots (or friends, hot-seat).

    The seed is shown when the game is over, not before: it reproduces
    every hidden card.
    """
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards)
    specs = split_seats(seats) or _default_seats(game)
    if not 0 <= delay <= 60:
        fail(f"--delay must be between 0 and 60 seconds, not {delay:g}")
    if record is not None and (record.is_dir() or not record.parent.is_dir()):
        fail(f"--record {record}: give a file in an existing directory")
    if seed is None:
        # Not the clock: a seed that can be guessed reveals every hidden card.
        seed = secrets.randbelow(1_000_000_000)
    with cli_errors():
        match = Match.start(game, len(specs), seed=seed, variant=variant, options=opts, seats=specs)
    bots = _make_bots(game, specs, seed)
    rngs = [Rng(seed * 7919 + i + 13) for i in range(len(specs))]
    seen: dict[int, int] = {}
    state = match.state
    if not as_json:
        out.print(
            f"[bold]{esc(game.title)}[/] — seats: {esc(', '.join(specs))}",
            highlight=False,
            soft_wrap=True,
        )
    while not state.over:
        owed = state.to_act()
        humans = [s for s in owed if s not in bots]
        seat = humans[0] if humans else owed[0]
        if seat in bots:
            action = _bot_move(bots[seat], specs[seat], state, seat, rngs[seat])
            with cli_errors():
                match.apply(seat, action)
            if delay:
                time.sleep(delay)
        else:
            text = _prompt_human(game, state, seat, seen)
            with cli_errors():
                match.apply_text(seat, text)
    if record:
        _save_record(match, record)
    result = state.result
    assert result is not None
    if as_json:
        emit_json({"seed": seed, "seats": specs, **result.to_json()})
        return
    out.print(game.render(state.view(None), state.events_since(0, None)[-12:]))
    print_result(specs, result.scores, result.winners)
    out.print(
        f"seed {seed} (the same seed and moves replay this game)", highlight=False, soft_wrap=True
    )
    if record:
        out.print(f"record saved to {esc(record)}", highlight=False, soft_wrap=True)


def _bot_move(bot: Agent, spec: str, state: State, seat: int, rng: Rng) -> object:
    try:
        return bot.act(AgentContext(state, seat, rng))
    except Exception as exc:  # a researcher's bot: name it and its error, not a traceback
        fail(f"agent {spec!r} at seat {seat} failed: {type(exc).__name__}: {exc}", code=1)


def _save_record(match: Match, path: Path) -> None:
    try:
        match.record.save(path)
    except OSError as exc:
        fail(f"cannot save the record to {path}: {exc.strerror}")


def print_result(specs: list[str], scores: list[float], winners: list[int]) -> None:
    table = Table(title="Result")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    for i, (spec, sc) in enumerate(zip(specs, scores, strict=True)):
        mark = " [bold green]winner[/]" if i in winners else ""
        table.add_row(str(i), esc(spec) + mark, f"{sc:g}")
    out.print(table)
