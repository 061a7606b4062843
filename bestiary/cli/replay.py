"""``bestiary replay``: step through a recorded game, as a whole or as one seat saw it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..engine.errors import BestiaryError
from ..engine.protocol import Game, State
from ..engine.record import MatchRecord, replay_steps
from ..engine.registry import get_game
from ..i18n import N_, core
from .common import JsonOpt, emit_json, esc, fail, guarded, out
from .play import print_result

_ = core.gettext


def move_lines(
    game: Game, state: State, seen: int, move: tuple[int, str], seat: int | None
) -> list[str]:
    """What one move shows: the events visible to ``seat``.

    A move that shows nothing is printed as its text only to whoever may know
    it: the whole record (no seat) or the seat that made it. Another seat's
    hidden move (a card set face down, a duel choice not yet revealed) is not
    printed at all.
    """
    mover, text = move
    lines = [game.describe_event(e) for e in state.events_since(seen, seat)]
    if not lines and (seat is None or seat == mover):
        lines = [_("seat {n}: {move}").format(n=mover, move=text)]
    return lines


def replay(
    path: Annotated[Path, typer.Argument(help=N_("a match record (JSON)"))],
    seat: Annotated[
        int | None, typer.Option(help=N_("show only what this seat saw (its events and moves)"))
    ] = None,
    step: Annotated[bool, typer.Option(help=N_("pause after each move (Enter to go on)"))] = False,
    as_json: JsonOpt = False,
) -> None:
    """Step through a recorded game and check that it replays to its result."""
    record = guarded(lambda: MatchRecord.load(path))
    game = guarded(lambda: get_game(record.game))
    if seat is not None and not 0 <= seat < record.players:
        fail(
            _("seat {seat} is not at this table; seats are 0 to {last}").format(
                seat=seat, last=record.players - 1
            )
        )
    last: State | None = None
    seen = 0
    try:
        for state, move in replay_steps(record):
            last = state
            if not as_json:
                lines = (
                    [game.describe_event(e) for e in state.events_since(seen, seat)]
                    if move is None  # the setup: the deal, as far as the seat may see it
                    else move_lines(game, state, seen, move, seat)
                )
                for line in lines:
                    out.print(esc(line), highlight=False, soft_wrap=True)
            seen = state.event_count()
            if as_json or move is None:
                continue
            if step:
                out.print(game.render(state.view(seat), []))
                try:
                    input(_("[Enter] "))
                except EOFError:
                    step = False
    except BestiaryError as exc:
        fail(str(exc))
    assert last is not None
    result = last.result.to_json() if last.result else None
    matches = record.result is None or record.result == result
    if as_json:
        emit_json(
            {"moves": len(record.moves), "over": last.over, "result": result,
             "matches_record": matches}
        )  # fmt: skip
    else:
        if last.result:
            print_result(
                record.seats or [_("seat {n}").format(n=i) for i in range(record.players)],
                last.result.scores,
                last.result.winners,
            )
        if matches:
            out.print(esc(_("replay matches the recorded result")))
        else:
            out.print(_("replay does NOT match the recorded result"), style="red", markup=False)
    if not matches:
        raise typer.Exit(1)
