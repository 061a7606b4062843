"""``bestiary play``: a game in the terminal against bots (or friends, hot-seat)."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..agents.base import Agent, AgentContext, make_agent
from ..engine.protocol import Game, State
from ..engine.record import Match
from ..engine.registry import get_game
from ..engine.rng import Rng
from ..engine.tutorial import Tutorial
from ..engine.tutorial import load as load_tutorial
from ..i18n import N_, core
from ..i18n.agents import seat_kind
from .cardtext import plain as plain_value
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
from .history import History
from .keyboard import Keyboard
from .prompt import UNDO, Prompt, game_module, labeller
from .prompt import Table as PromptTable
from .tutorial import Coach
from .undo import Undo

_ = core.gettext

#: The keyboard of this process: lines typed while a bot took its beat wait here.
KEYBOARD = Keyboard()
#: A bot's beat before it answers, at a table with a person on a terminal.
BOT_DELAY = 0.8


class Terminal:
    """The human side of a match: the table picture, the whole log, the prompt,
    hot-seat screen hiding, and forced moves made without asking."""

    def __init__(self, game: Game, match: Match, specs: list[str], plain: bool) -> None:
        self.game = game
        self.match = match
        self.plain = plain
        # No colour and no screen clearing in plain mode: screen readers and pipes.
        self.console = Console(no_color=plain, highlight=False, emoji=False) if plain else out
        humans = [i for i, s in enumerate(specs) if s == "human"]
        self.hotseat = len(humans) > 1
        self.names = [_seat_name(i, s, len(humans)) for i, s in enumerate(specs)]
        # Log lines name the seat a person plays; the others stay "seat N".
        self.log_names = [
            _("seat {n} (you)").format(n=i) if s == "human" and not self.hotseat else ""
            for i, s in enumerate(specs)
        ]
        self.history = History(game, self.log_names)
        self.last_seat: int | None = None
        self.undo = Undo(match)
        self.coach: Coach | None = None  # the first-game tutorial (--tutorial)

    def welcome(self) -> None:
        """The game's tip for a first game (``render.start_tip``), and where help is."""
        tip = getattr(game_module(self.game, "render"), "start_tip", None)
        try:
            said = tip(self.match.state.rules) if tip is not None else None
        except Exception:  # a tip is a courtesy
            said = None
        if said:
            self.console.print(
                Text(_("Tip: {tip}").format(tip=said), style="yellow"), soft_wrap=True
            )
        self.console.print(
            Text(
                _(
                    "At any prompt: help, rules (how to play), log, why N, card NAME, "
                    "explain WORD, piles, legend, undo, quit."
                ),
                "dim",
            )
        )

    def show(self, seat: int | None) -> None:
        state = self.match.state
        # The game's picture without its own (shortened) log: the log is ours, in full.
        self.console.print(picture(self.game, state.view(seat)))
        fresh = self.history.new_lines(state, seat)
        if fresh:
            total = len(self.history.lines.get(seat, []))
            first = total - len(fresh) + 1
            # Numbered as `log` numbers them, so `why N` can name a line.
            body = Text("\n".join(f"{first + k:>3}  {line}" for k, line in enumerate(fresh)))
            if self.plain:
                self.console.print(Text(_("What happened:"), style="bold"))
                self.console.print(body, soft_wrap=True)
            else:
                title = _("What happened since your last move")
                self.console.print(Panel(body, title=Text(title)))

    def hand_over(self, seat: int) -> None:
        """With several people at one screen, hide the last one's hand first."""
        if not self.hotseat or seat == self.last_seat:
            return
        if self.last_seat is not None:
            self.wipe()
        self.console.print(
            Text(
                _("{name} (seat {seat}): press Enter when only you can see the screen.").format(
                    name=self.names[seat], seat=seat
                )
            )
        )
        _read("")
        if self.console.is_terminal and not self.plain:
            self.console.clear()

    def wipe(self) -> None:
        """Take the last person's screen away before the next one sits down."""
        if self.console.is_terminal and not self.plain:
            self.console.clear()
            # clear() leaves the scroll-back, where the last hand is a scroll away.
            self.console.file.write("\x1b[3J")
            self.console.file.flush()
        elif self.console.is_terminal:
            # No clearing for screen readers: push the last hand off the screen instead.
            self.console.print("\n" * max(self.console.height, 24), end="")
        else:
            self.console.print("\n" * 3, end="")

    def bot_beat(self, bot: int, seconds: float) -> bool:
        """The bot at ``bot`` waits ``seconds`` before answering; a person whose move
        it answers may type ``undo`` meanwhile. True when a move was taken back."""
        steps, moves = self.undo.steps, len(self.match.record.moves)
        mover = steps[-1].seat if steps and steps[-1].moves + 1 == moves else None
        if mover is None or self.undo.why_not(mover) is not None:
            time.sleep(seconds)
            return False
        self.console.print(
            Text(
                _("{name} answers in a moment; type undo and Enter to take back your move.").format(
                    name=self.names[bot]
                ),
                "dim",
            ),
            soft_wrap=True,
        )
        typed = KEYBOARD.beat(seconds)
        if typed is None or typed.strip().casefold() != "undo":
            return False
        KEYBOARD.take()
        taken = self.undo.undo(mover)
        self.history.rewind(self.match.state.event_count())
        self.console.print(Text(_("Took back '{move}'.").format(move=taken), style="yellow"))
        return True

    def play(self, seat: int) -> None:
        """One decision of a person at ``seat``, applied (``undo`` may take back moves)."""
        while True:
            text = self.decide(seat)
            if text != UNDO:
                break
            taken = self.undo.undo(seat)
            self.history.rewind(self.match.state.event_count())
            self.console.print(Text(_("Took back '{move}'.").format(move=taken), style="yellow"))
        forced = len(self.match.state.legal(seat)) == 1
        with cli_errors():
            action = self.match.state.parse(seat, text)
            self.undo.apply(seat, action, forced)
        if self.coach is not None:
            self.coach.moved()

    def decide(self, seat: int) -> str:
        state = self.match.state
        legal = list(state.legal(seat))
        if self.coach is not None:
            self.coach.at_decision(state)
        if len(legal) == 1:
            # Nothing to choose: say what was done, keep the events for the next prompt.
            said = labeller(self.game, state.view(seat))(str(legal[0]))
            self.console.print(
                Text(
                    _("{name}: the only move is '{move}'; made for you.").format(
                        name=self.names[seat], move=said
                    ),
                    "dim",
                ),
                soft_wrap=True,
            )
            return str(legal[0])
        self.hand_over(seat)
        self.last_seat = seat
        self.show(seat)
        table = PromptTable(self.game, state.rules, state, self.history, self.names)
        prompt = Prompt(table, seat, self.console, _read, lambda: self.show(seat))
        prompt.why_no_undo = lambda: self.undo.why_not(seat)
        if self.coach is not None and not self.coach.progress.skipped:
            prompt.tutorial_command = self.coach.command
        return prompt.ask()


def picture(game: Game, view: Mapping[str, Any]) -> RenderableType:
    """The game's own picture; a game without one gets "key: value" lines, not a dict."""
    if type(game).render is not Game.render:
        return game.render(view, [])
    return Text("\n".join(f"{k.replace('_', ' ')}: {plain_value(v)}" for k, v in view.items()))


def _read(prompt: str) -> str:
    try:
        return KEYBOARD.read(prompt)
    except EOFError:
        fail(_("input ended before the game did"))


def _seat_name(seat: int, spec: str, humans: int) -> str:
    if spec == "human":
        return _("You") if humans == 1 else _("Seat {n}").format(n=seat)
    # The agent spec is a word of the protocol: "heuristic" reads "heuristic bot"
    # ("heurystyczny bot"); a spec with settings stays as typed.
    return _("Seat {n} ({agent})").format(n=seat, agent=seat_kind(spec))


def _bot_beat(specs: list[str], chosen: float | None) -> float:
    """The beat before a bot's answer: the chosen one, else BOT_DELAY when a person
    plays at a terminal (a pipe or a bots-only table does not wait)."""
    if chosen is not None:
        return chosen if "human" in specs else 0.0
    try:
        live = sys.stdin.isatty()
    except (AttributeError, ValueError):
        live = False
    return BOT_DELAY if live and "human" in specs else 0.0


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
        str, typer.Option(help=N_("comma-separated: human, an agent spec or module:Agent"))
    ] = "",
    seed: Annotated[
        int | None, typer.Option(help=N_("random seed (default: a random one)"))
    ] = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards: CardsOpt = None,
    record: Annotated[Path | None, typer.Option(help=N_("save the match record here"))] = None,
    delay: Annotated[float, typer.Option(help=N_("seconds to pause after each bot move"))] = 0.0,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            "--bot-delay",
            help=N_(
                "seconds a bot waits before answering a person, so that `undo` is still "
                "possible (default: 0.8 at a terminal, 0 otherwise)"
            ),
        ),
    ] = None,
    as_json: JsonOpt = False,
    plain: Annotated[
        bool,
        typer.Option("--plain", help=N_("no colours or screen clearing (screen readers, pipes)")),
    ] = False,
    tutorial: Annotated[
        bool,
        typer.Option(
            "--tutorial",
            help=N_(
                "a first game: a fixed short deal against bots, explained step by step "
                "(type skip to leave it)"
            ),
        ),
    ] = False,
) -> None:
    """Play a game in the terminal against bots (or friends, hot-seat).

    The seed is shown when the game is over, not before: it reproduces
    every hidden card.
    """
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards)
    specs = split_seats(seats) or _default_seats(game)
    lesson = _tutorial(game) if tutorial else None
    if lesson is not None:  # the tutorial's own table: its seats, options and deal
        specs = ["human"] + [lesson.bot_spec(game)] * (lesson.players - 1)
        opts, seed, variant = dict(lesson.options), lesson.seed, lesson.variant
    if not 0 <= delay <= 60:
        fail(_("--delay must be between 0 and 60 seconds, not {delay}").format(delay=f"{delay:g}"))
    if bot_delay is not None and not 0 <= bot_delay <= 10:
        fail(
            _("--bot-delay must be between 0 and 10 seconds, not {delay}").format(
                delay=f"{bot_delay:g}"
            )
        )
    beat = _bot_beat(specs, bot_delay)
    if record is not None and (record.is_dir() or not record.parent.is_dir()):
        fail(_("--record {path}: give a file in an existing directory").format(path=record))
    if seed is None:
        # Not the clock: a seed that can be guessed reveals every hidden card.
        seed = secrets.randbelow(1_000_000_000)
    with cli_errors():
        match = Match.start(game, len(specs), seed=seed, variant=variant, options=opts, seats=specs)
    bots = _make_bots(game, specs, seed)
    rngs = [Rng(seed * 7919 + i + 13) for i in range(len(specs))]
    term = Terminal(game, match, specs, plain)
    if lesson is not None:
        term.coach = Coach(lesson, 0, term.console, game.id)
    if not as_json:
        out.print(
            _("{title} — seats: {seats}").format(
                title=game.title, seats=", ".join(seat_kind(s) for s in specs)
            ),
            highlight=False,
            soft_wrap=True,
            markup=False,
        )
        if "human" in specs:
            term.welcome()
    while not match.state.over:
        state = match.state  # `undo` may replace it
        owed = state.to_act()
        humans = [s for s in owed if s not in bots]
        seat = humans[0] if humans else owed[0]
        if seat in bots:
            if beat and term.bot_beat(seat, beat):
                continue  # a person took their move back: ask them again
            action = _bot_move(bots[seat], specs[seat], state, seat, rngs[seat])
            with cli_errors():
                match.apply(seat, action)
            if delay:
                time.sleep(delay)
        else:
            term.play(seat)
    if record:
        _save_record(match, record)
    state = match.state
    result = state.result
    assert result is not None
    if as_json:
        emit_json({"seed": seed, "seats": specs, **result.to_json()})
        return
    humans = [i for i, s in enumerate(specs) if s == "human"]
    if len(humans) == 1:  # the player's own account of the end, nothing skipped
        term.show(humans[0])
        if term.coach is not None:
            term.coach.at_decision(state)
    else:
        out.print(game.render(state.view(None), state.events_since(0, None)[-12:]))
    print_result(specs, result.scores, result.winners)
    out.print(
        _("seed {seed} (the same seed and moves replay this game)").format(seed=seed),
        highlight=False,
        soft_wrap=True,
        markup=False,
    )
    if record:
        out.print(
            _("record saved to {path}").format(path=record),
            highlight=False,
            soft_wrap=True,
            markup=False,
        )


def _tutorial(game: Game) -> Tutorial:
    with cli_errors():
        found = load_tutorial(game)
    if found is None:
        fail(_("{title} has no tutorial yet").format(title=game.title))
    return found


def _bot_move(bot: Agent, spec: str, state: State, seat: int, rng: Rng) -> object:
    try:
        return bot.act(AgentContext(state, seat, rng))
    except Exception as exc:  # a researcher's bot: name it and its error, not a traceback
        fail(
            _("agent {spec} at seat {seat} failed: {kind}: {message}").format(
                spec=repr(spec), seat=seat, kind=type(exc).__name__, message=exc
            ),
            code=1,
        )


def _save_record(match: Match, path: Path) -> None:
    try:
        match.record.save(path)
    except OSError as exc:
        fail(_("cannot save the record to {path}: {reason}").format(path=path, reason=exc.strerror))


def print_result(specs: list[str], scores: list[float], winners: list[int]) -> None:
    table = Table(title=esc(_("Result")))
    table.add_column(esc(_("seat")))
    table.add_column(esc(_("player")))
    table.add_column(esc(_("score")), justify="right")
    table.add_column("")  # the winner's mark: a column of its own, not part of the name
    word = _("winner")
    won = f"[bold green]{esc(word)}[/]"
    for i, (spec, sc) in enumerate(zip(specs, scores, strict=True)):
        # "human" and "heuristic" are the protocol's words: a player reads "a person"
        # ("człowiek") and "heuristic bot" ("heurystyczny bot").
        table.add_row(str(i), esc(seat_kind(spec)), f"{sc:g}", won if i in winners else "")
    out.print(table)
