"""M.E.A.T.'s statistics for the designer's lab (``bestiary.lab``).

Read from the actions as they are applied (no event log needed): every
card a seat drafts (``draft``) and every card it puts to use (``place`` a
creature in a lane, ``set`` or ``cast`` a destiny card). Card-level items,
one per (seat, card) with the count as ``value``: ``picked``, ``played``;
one per seat: ``leader`` and ``faction`` (the faction it drafted most, as
``Result.stats['player_factions']``). Running scores: each team's vitality
(the game's score) after every round, so the lab counts lead changes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine.protocol import Action, LabTracker, State
from .actions import CAST, DRAFT, PLACE, SET

PLAYS = (PLACE, SET, CAST)


class MeatTracker(LabTracker):
    watches = True

    def __init__(self, state: State) -> None:
        n = state.players
        self.picked: list[Counter[int]] = [Counter() for _ in range(n)]
        self.played: list[Counter[int]] = [Counter() for _ in range(n)]
        self.round = 0
        self.vitality: list[list[float]] = []

    def step(self, state: State, seat: int, action: Action) -> None:
        kind = getattr(action, "kind", -1)
        if kind == DRAFT:
            self.picked[seat][action.a] += 1  # type: ignore[attr-defined]
        elif kind in PLAYS:
            self.played[seat][action.a] += 1  # type: ignore[attr-defined]
        r: int = state.round  # type: ignore[attr-defined]
        if r != self.round:
            if self.round > 0:  # the vitality left after the round that just ended
                self.vitality.append(self._scores(state))
            self.round = r

    @staticmethod
    def _scores(state: Any) -> list[float]:
        return [float(max(state.vit[s & 1], 0)) for s in range(state.players)]

    def running(self, state: State) -> list[list[float]]:
        return [*self.vitality, self._scores(state)] if self.round else []

    def stats(self, state: State) -> dict[str, Any]:
        n = state.players
        return {
            "cards_picked": [sum(self.picked[s].values()) for s in range(n)],
            "cards_played": [sum(self.played[s].values()) for s in range(n)],
        }

    def items(self, state: State) -> list[dict[str, Any]]:
        st: Any = state
        defs = st.defs
        out: list[dict[str, Any]] = []
        result = st.result
        stats = result.stats if result is not None else {}
        for kind, key in (("leader", "player_leaders"), ("faction", "player_factions")):
            for seat, name in enumerate(stats.get(key, [])):
                if name:
                    out.append({"kind": kind, "name": name, "seat": seat})
        for kind, per_seat in (("picked", self.picked), ("played", self.played)):
            for seat, counts in enumerate(per_seat):
                for k, c in sorted(counts.items()):
                    out.append({"kind": kind, "name": defs[k].name, "seat": seat, "value": c})
        return out


def tracker(state: State) -> LabTracker:
    return MeatTracker(state)
