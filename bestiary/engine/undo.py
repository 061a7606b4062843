"""Whether a move taught its player nothing: the test behind taking it back.

Taking a move back is fair only if the move showed the player nothing they
could use on a second try. This checks that without knowing any game's
rules, from the protocol alone:

- the move drew no random number (the state's RNG is where it was), so no
  die was rolled and no deck shuffled;
- the move's outcome, as the player sees it, is the same in several
  determinizations (the hidden cards resampled): a draw from a hidden deck
  or a reveal of another hand changes the view in some of them.

Both the terminal (``cli/undo.py``) and the web table (``server/takeback.py``)
take moves back on this test; who may take back what, and when, is theirs.
"""

from __future__ import annotations

from .protocol import Action, State
from .rng import Rng

TRIES = 4  # determinizations to compare; a hidden draw differs in nearly all


def _next_number(state: State) -> float:
    return state.rng.copy().random()


def reveals_nothing(before: State, after: State, seat: int, action: Action) -> bool:
    """True when ``action`` by ``seat`` (``before`` -> ``after``) left the RNG
    untouched and the seat's view the same in every determinization of what
    the seat could not see."""
    try:
        if _next_number(before) != _next_number(after):
            return False
        seen = after.view(seat)
        for k in range(TRIES):
            other = before.determinize(seat, Rng(7919 * k + 17))
            other.apply(seat, action)
            if other.view(seat) != seen:
                return False
    except Exception:  # a game that cannot answer: no undo, never a wrong one
        return False
    return True
