"""``undo`` at a prompt: take back your own last move when that reveals nothing.

Taking a move back is fair only if the move taught the player nothing they
could use on a second try. We check that without knowing any game's rules:

- no other seat has moved since (so nobody acted on the move);
- the move drew no random number (the state's RNG is where it was), so no
  die was rolled and no deck shuffled;
- the move's outcome, as the player sees it, is the same in several
  determinizations (the hidden cards resampled): a draw from a hidden deck
  or a reveal of another hand changes the view in some of them.

M.E.A.T.'s tactics (placing creatures, setting destiny cards) pass all three;
a Monster Maker corridor that draws a card, or a duel's rock, do not. The
last two are ``engine.undo.reveals_nothing``, which the web table uses too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.protocol import Action, State
from ..engine.record import Match
from ..engine.undo import reveals_nothing
from ..i18n import core

_ = core.gettext


@dataclass
class Step:
    seat: int
    before: State  # a clone from just before the move
    moves: int  # the record's length before the move
    safe: bool
    forced: bool  # the only legal move, made without asking


class Undo:
    """The stack of the human moves that may still be taken back."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.steps: list[Step] = []

    def apply(self, seat: int, action: Action, forced: bool = False) -> None:
        """Apply a person's move through the match, remembering how to take it back."""
        state = self.match.state
        before = state.clone()
        moves = len(self.match.record.moves)
        self.match.apply(seat, action)
        safe = reveals_nothing(before, self.match.state, seat, action)
        self.steps.append(Step(seat, before, moves, safe, forced))

    def _span(self, seat: int) -> tuple[list[Step], str | None]:
        """The steps an undo takes back (forced moves, then the last chosen one)."""
        taken: list[Step] = []
        end = len(self.match.record.moves)
        for step in reversed(self.steps):
            if step.seat != seat:
                break
            if step.moves + 1 != end:
                return [], _("other players have moved since; the game has gone on")
            if not step.safe:
                move = self.match.record.moves[step.moves][1]
                return [], _(
                    "'{move}' showed you something new (a card, a die), so it stands"
                ).format(move=move)
            taken.append(step)
            end = step.moves
            if not step.forced:
                return taken, None
        if self.steps and self.steps[-1].seat == seat:
            return [], _("other players have moved since; the game has gone on")
        return [], _("you have no move of your own to take back here")

    def why_not(self, seat: int) -> str | None:
        """None when ``seat`` may undo now, else the reason in words."""
        return self._span(seat)[1]

    def undo(self, seat: int) -> str:
        """Take the last chosen move back (``why_not`` must be None); return its text."""
        taken, reason = self._span(seat)
        assert reason is None and taken
        first = taken[-1]
        text = self.match.record.moves[first.moves][1]
        del self.match.record.moves[first.moves :]
        del self.steps[len(self.steps) - len(taken) :]
        self.match.record.result = None
        self.match.state = first.before
        return text
