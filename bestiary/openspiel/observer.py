"""What an OpenSpiel player observes: built only from ``state.view(seat)``.

OpenSpiel asks a Python game for an *observer* (``make_py_observer``) and
reads two things from it: a float tensor and a string, for one player.

- The **tensor** is the game's own encoding of the seat's view
  (``bestiary/games/<id>/observe.py`` through :mod:`bestiary.rl.encoding`),
  the same vector the PettingZoo and Gymnasium environments give. It is a
  picture of *now*: for the information state it is the same vector (OpenSpiel
  does not require the tensor to carry the whole history; our views hold what
  a player at the table keeps in front of them and the public record).
- The **string** is the view as compact JSON. For the information state
  (``perfect_recall``) it is followed by every event the seat has seen since
  the deal and by its own moves, so two different histories that the seat
  can tell apart never share an information-state string, as OpenSpiel's tabular algorithms need.

Nothing else of the state is read, so nothing a seat may not know gets in
(DESIGN.md: "a leak in view/events is a security bug").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

if TYPE_CHECKING:
    from .spec import Spec
    from .state import BridgeState


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


class ViewObserver:
    """A ``PyObserver`` (OpenSpiel's observation.py interface) over our views."""

    def __init__(self, spec: Spec, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "only a player's own observation is supported (public_info=True, "
                "private_info=SINGLE_PLAYER): a Bestiary view is always one seat's"
            )
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(spec.observer.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: BridgeState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s encoded view of ``state``."""
        view = state.engine.view(player)
        self.tensor[:] = self.spec.observer.encode(view)

    def string_from(self, state: BridgeState, player: int) -> str:
        """``player``'s view as JSON (and, for the information state, the
        events it has seen)."""
        engine = state.engine
        text = _text(engine.view(player))
        if not self.perfect_recall:
            return text
        # The view alone may forget (a card seen in a duel); the events and the
        # seat's own choices do not.
        seen = state.match.seen_events(player)
        own = [text for seat, text in state.moves if seat == player]
        return f"{text}\n[{seen}]\n{_text(own)}"
