"""How a state refuses a move: the errors every game raises, worded once.

``apply`` must refuse an illegal move before it changes anything, with an
error that says what is allowed (``IllegalAction`` carries the legal moves).
Each game's ``apply`` calls these; the wording lives in the core catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import core
from .errors import IllegalAction, NotYourTurn


def not_your_turn(seat: int, owed: Sequence[int], over: bool = False) -> NotYourTurn:
    """The error for a seat that owes no decision: whom the table waits for,
    or that the game is over."""
    if owed:
        return NotYourTurn(
            core.gettext(
                "seat {seat} has no decision to make now; waiting for seat(s) {seats}"
            ).format(seat=seat, seats=", ".join(map(str, owed)))
        )
    if over:
        return NotYourTurn(
            core.gettext("seat {seat} has no decision to make now; the game is over").format(
                seat=seat
            )
        )
    return NotYourTurn(core.gettext("seat {seat} has no decision to make now").format(seat=seat))


def require_legal(seat: int, action: Any, legal: Sequence[Any]) -> None:
    """Raise IllegalAction unless ``action`` is one of ``legal``.

    Games build every move once, so the usual caller passes one of these very
    objects: an identity scan comes first (``in`` would call the dataclass
    ``__eq__`` on every move before it); equality is the fallback for a move
    built elsewhere (parsed, unpickled, from an index)."""
    for m in legal:
        if m is action:
            return
    if action not in legal:
        raise IllegalAction(
            core.gettext("{action} is not a legal action for seat {seat} now").format(
                action=action, seat=seat
            ),
            legal,
        )


def legal_at(seat: int, index: int, action: Any, legal: Sequence[Any]) -> Any:
    """``action_from_index``'s answer: the move the index names (``None`` when
    it names none) if it is legal for ``seat`` now, else IllegalAction."""
    if action is None or action not in legal:
        raise IllegalAction(
            core.gettext("action {index} is not legal for seat {seat} now").format(
                index=index, seat=seat
            ),
            legal,
        )
    return action
