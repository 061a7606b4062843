"""``bestiary hint``: what the strongest bot would play, for one seat of a recorded game.

Replays a match record to the position after ``--at`` moves (default: where the
record stops) and asks the search for that seat's move, from the seat's own
view only (``bestiary.agents.hint``). At a table, ``hint`` at the prompt does
the same for the position in front of you.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from babel.numbers import format_decimal

from ..agents.hint import MAX_SECONDS, Hint, suggest
from ..engine.errors import BestiaryError
from ..engine.protocol import State
from ..engine.record import MatchRecord, replay_steps
from ..engine.registry import get_game
from ..i18n import N_, core, language
from ..i18n.labels import action_labels
from .common import JsonOpt, emit_json, esc, fail, guarded, out

_ = core.gettext


def _decimal(x: float) -> str:
    """One decimal, with the language's decimal sign ("1.0" in English, "1,0" in
    Polish), as Babel's locale data writes it."""
    return str(format_decimal(x, format="0.0", locale=language()))


def hint_lines(
    hint: Hint, game: object = None, names: Sequence[str] | None = None
) -> list[str]:
    """The hint as a player reads it: the move, then what else was weighed; each
    move by its label in the player's language when the game is given ("odrzuć
    Pixie", not the protocol's "discard Pixie")."""
    others = [a for a in hint.alternatives if a.action != hint.action]
    moves = [hint.action] + [a.action for a in others]
    said = action_labels(game, moves, names) if game is not None else moves
    lines = [_("Hint: {move}").format(move=said[0])]
    if others:
        weighed = "; ".join(
            _("{move} ({n} searches, won {rate})").format(
                move=label, n=a.visits, rate=f"{a.win_rate:.0%}"
            )
            for label, a in zip(said[1:], others, strict=True)
        )
        lines.append(_("Also weighed: {moves}").format(moves=weighed))
    if hint.iterations == 0:
        # One legal move, or a decision the search leaves to the game's bot
        # (a secret rock-paper-scissors pick): "0 searches" would read as a fault.
        lines.append(_("(the game's own bot chose it: searching would not do better here)"))
        return lines
    if hint.tied:
        lines.append(_("(the search could not tell these moves apart: the game's own bot chose)"))
    lines.append(
        _(
            "({n} searches in {seconds} s, from your view only: "
            "the bot samples the cards you cannot see)"
        ).format(n=hint.iterations, seconds=_decimal(hint.seconds))
    )
    return lines


def hint(
    path: Annotated[
        Path, typer.Argument(help=N_("a match record (JSON), e.g. from play --record"))
    ],
    seat: Annotated[int, typer.Option(help=N_("the seat to advise"))],
    at: Annotated[
        int | None,
        typer.Option(
            help=N_("the position after this many moves (default: where the record stops)")
        ),
    ] = None,
    seconds: Annotated[float, typer.Option(help=N_("search time in seconds, up to 10"))] = 1.0,
    seed: Annotated[
        int | None, typer.Option(help=N_("seed of the search (default: a random one)"))
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Suggest a move for a seat of a recorded game, as the strongest bot sees it."""
    record = guarded(lambda: MatchRecord.load(path))
    if not 0 <= seat < record.players:
        fail(
            _("seat {seat} is not at this table; seats are 0 to {last}").format(
                seat=seat, last=record.players - 1
            )
        )
    if at is not None and not 0 <= at <= len(record.moves):
        fail(
            _("--at must be between 0 and {n} (the record has that many moves)").format(
                n=len(record.moves)
            )
        )
    if not 0 < seconds <= MAX_SECONDS:
        fail(_("--seconds must be more than 0 and at most {most}").format(most=f"{MAX_SECONDS:g}"))
    stop = len(record.moves) if at is None else at
    found: State | None = None
    try:
        for i, (step, _move) in enumerate(replay_steps(record)):
            if i == stop:
                found = step
                break
    except BestiaryError as exc:
        fail(str(exc))
    assert found is not None
    state = found
    if state.over:
        fail(_("the game is over at that point; give --at a move before the end"))
    if seat not in state.to_act():
        owed = ", ".join(str(s) for s in state.to_act())
        fail(
            _("seat {seat} has no decision after move {n}; seat(s) {owed} do").format(
                seat=seat, n=stop, owed=owed
            )
        )
    result = guarded(lambda: suggest(state, seat, seconds=seconds, seed=seed))
    if as_json:
        emit_json({"move": stop, "seat": seat, **result.to_json()})
        return
    for line in hint_lines(result, get_game(record.game)):
        out.print(esc(line), highlight=False, soft_wrap=True)
