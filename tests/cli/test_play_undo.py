"""`undo` takes back a person's own move only when the move showed them nothing."""

from __future__ import annotations

from bestiary.cli.undo import Undo
from bestiary.engine import register
from bestiary.engine.record import Match
from bestiary.engine.registry import get_game

from ..engine.toygame import GAME as TOY

register(TOY)


def _to_tactics(match: Match) -> int:
    """First legal moves until seat 0 may place a creature (M.E.A.T.'s tactics)."""
    state = match.state
    while True:
        for seat in state.to_act():
            legal = state.legal(seat)
            if seat == 0 and any(str(a).startswith("place ") for a in legal):
                return seat
            match.apply(seat, legal[0])
            break


def test_placing_a_creature_face_down_can_be_taken_back() -> None:
    match = Match.start(get_game("meat"), 2, seed=5)
    seat = _to_tactics(match)
    before_view = match.state.view(seat)
    before_moves = list(match.record.moves)
    undo = Undo(match)
    place = next(a for a in match.state.legal(seat) if str(a).startswith("place "))
    undo.apply(seat, place)
    assert match.state.view(seat) != before_view
    assert undo.why_not(seat) is None
    assert undo.undo(seat) == str(place)
    assert match.state.view(seat) == before_view
    assert match.record.moves == before_moves


def test_a_move_that_revealed_a_hidden_card_stands() -> None:
    # Blind bids, hot-seat: seat 1's bid completes the trick and shows seat 0's card.
    match = Match.start(TOY, 2, seed=4)
    undo = Undo(match)
    undo.apply(0, match.state.legal(0)[0])
    undo.apply(1, match.state.legal(1)[0])
    reason = undo.why_not(1)
    assert reason is not None and "showed you something new" in reason


def test_no_undo_once_another_seat_has_moved() -> None:
    match = Match.start(TOY, 2, seed=4)
    undo = Undo(match)
    undo.apply(0, match.state.legal(0)[0])  # hidden until the trick is complete: safe
    assert undo.why_not(0) is None
    match.apply(1, match.state.legal(1)[0])  # a bot's move
    reason = undo.why_not(0)
    assert reason is not None and "moved since" in reason
    assert undo.why_not(1) is not None  # and a seat can never take back another's move


def test_the_prompt_says_why_a_move_cannot_be_taken_back() -> None:
    from typer.testing import CliRunner

    from bestiary.cli import app

    res = CliRunner().invoke(
        app, ["play", "toy", "--seats", "human,random", "--seed", "3"], input="1\nundo\n1\n"
    )
    assert res.exit_code == 0, res.output
    assert "Cannot undo: other players have moved since" in res.output
