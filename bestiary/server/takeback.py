"""Taking back a person's own last move at a web table (issue 26, "undo").

A person may take back their own last chosen move while:

(a) no other seat has made a move *they could see* since: a bot's move
    that showed them nothing (no event, no change to their view, their
    choices or the public move counter) is taken back with it and the bot
    decides again, so the window never closes on something hidden (a window
    that closed there would tell them a bot had moved in secret);
(b) the move revealed nothing (``engine.undo.reveals_nothing``: the RNG
    untouched and their view the same in several determinizations);
(c) no other person sits at the table: someone who may have seen the move
    would have to agree to its withdrawal, which the table cannot ask, so
    it stands. Spectators may watch; they are told what changed for them.

The live table (``live.py``) checks the table-wide conditions (a game in
play, one process, one person, a bot's beat to answer in); this module
keeps the moves that may still go back, and the reasons in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import BestiaryError
from ..engine.protocol import State
from ..i18n import LANGUAGES, N_, core, use_language

_ = core.gettext

MOST_STEPS = 16  # moves of one seat in a row kept for taking back (each holds a state)

# Why a move cannot be taken back. The first three are the terminal's words too.
MOVED = N_("other players have moved since; the game has gone on")
SHOWED = N_("'{move}' showed you something new (a card, a die), so it stands")
NOTHING = N_("you have no move of your own to take back here")
NOT_PLAYING = N_("only a game in play has moves to take back")
SHARED = N_(
    "this server keeps its tables in a database that several server processes share, "
    "where a move taken back could cross a move made elsewhere, so it takes none back"
)
PERSON = N_(
    "another person plays at this table and may have seen your move; "
    "it stands unless everyone could agree, which the table cannot ask"
)
NO_BEAT = N_(
    "the bots here answer at once (the server's bot delay is 0), "
    "so there is no moment in which to take a move back"
)


@dataclass(frozen=True)
class Reason:
    """Why an undo is refused: a catalog message and its fields."""

    msgid: str
    fields: tuple[tuple[str, str], ...] = ()

    def text(self, lang: str) -> str:
        with use_language(lang):
            reason = _(self.msgid).format(**dict(self.fields))
            return _("Cannot undo: {reason}.").format(reason=reason)

    def answer(self) -> dict[str, Any]:
        """The protocol's error answer: English in ``message``, every
        language in ``texts`` (the reason has fields, so a page cannot look
        it up by its English words), and ``undo`` to say what was refused."""
        texts = {lang: self.text(lang) for lang in LANGUAGES}
        return {"type": "error", "message": texts["en"], "texts": texts, "undo": True}


class UndoRefused(BestiaryError):
    """An undo the table does not allow; nothing changed."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.text("en"))
        self.reason = reason


@dataclass
class Step:
    """A person's chosen move that may go back."""

    seat: int
    before: State  # a clone from just before the move
    n: int  # the move's number (the table's moves before it)
    text: str  # its text form (a refusal names it)
    safe: bool  # reveals_nothing
    shown: dict[int | None, int]  # each viewer's count of moves it was shown, before
    deadline: float | None  # the seat's turn clock before it moved (restored)


@dataclass
class TakeBacks:
    """The trailing chosen moves of one seat that may still be taken back.

    Every move after the first of ``steps`` is either another step of the
    same seat or a bot's move that showed that seat nothing (the live table
    calls :meth:`close` on any other move)."""

    steps: list[Step] = field(default_factory=list)
    closed: int | None = None  # the seat whose window another seat's move closed

    @property
    def seat(self) -> int | None:
        """The seat whose moves may go back now, if any."""
        return self.steps[-1].seat if self.steps else None

    def record(self, step: Step) -> None:
        if self.steps and self.steps[-1].seat != step.seat:
            self.steps.clear()
        self.steps.append(step)
        del self.steps[:-MOST_STEPS]
        self.closed = None

    def close(self) -> None:
        """A move the watched seat saw (or one of its own not chosen by it)."""
        if self.steps:
            self.closed = self.steps[-1].seat
            self.steps.clear()

    def forget(self) -> None:
        """The table changed under the steps (seats, a reload): none may go back."""
        self.steps.clear()
        self.closed = None

    def why_not(self, seat: int) -> Reason | None:
        """None when ``seat``'s last step may go back, else why not."""
        if self.seat != seat:
            return Reason(MOVED if self.closed == seat else NOTHING)
        last = self.steps[-1]
        if not last.safe:
            return Reason(SHOWED, (("move", last.text),))
        return None

    def take(self, seat: int) -> Step:
        """The last step of ``seat``, removed (``why_not`` must be None)."""
        assert self.why_not(seat) is None
        return self.steps.pop()
