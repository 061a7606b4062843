"""Monster Girl Taxonomy's statistics for the designer's lab (``bestiary.lab``).

- **Winning patterns vs points**: one ``pattern`` item per round, seated at
  the round's winner, its points as ``value`` ("no winner" rounds: seat -1,
  0 points).
- **Natures**: a nature *fires* when its card is discarded (aggressive,
  cheerful, mean, proud: "when discarded ...") or drawn (honest, impatient:
  "when you draw ..."); the seat that discarded or drew it is the seat it
  fired for. One ``nature`` item per (seat, nature) that fired, the count as
  ``value``, so the report shows how often each fires and the win rate of
  the seats it fired for. Loyal is passive (it stops a claim) and is not
  counted. These come from the event log, so lab runs of taxonomy keep it on
  (``events``; the cost is measured in docs/LAB.md).
- **Exhausted stock**: ``stock_ran_out`` counts the rounds the stock ran out
  (reading 6: no winner); ``round_end`` items name why each round ended.
- **Per collecting type**: at each round's end every seat holding at least 3
  monsters of one collecting key (its type, or a Beastman family, hand and
  tabled sets together) *attempted* that key; the attempt succeeded when the
  seat won the round with a set of that key. One ``collecting`` item per
  attempt, ``value`` 1 (success) or 0.
- **Running scores**: every seat's points after each round.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine.protocol import Action, LabTracker, State

DISCARD_NATURES = ("aggressive", "cheerful", "mean", "proud")
DRAW_NATURES = ("honest", "impatient")
ATTEMPT = 3  # monsters of one key at a round's end that count as collecting it


class TaxonomyTracker(LabTracker):
    watches = True
    events = True

    def __init__(self, state: State) -> None:
        st: Any = state
        self.deck = st.deck
        self.rounds_seen = 0
        self.counts: Any = st.kc  # this round's key counts (replaced when a round starts)
        self.attempts: list[dict[str, Any]] = []

    def step(self, state: State, seat: int, action: Action) -> None:
        st: Any = state
        results = st.round_results
        if len(results) != self.rounds_seen:
            # The round that just ended left its final counts in the list that a
            # new round replaces (``kc`` is rebuilt, not cleared, when a round starts).
            for res in results[self.rounds_seen :]:
                self._attempts(res, self.counts)
            self.rounds_seen = len(results)
        self.counts = st.kc

    def _attempts(self, res: Any, counts: Any) -> None:
        won_keys: set[int] = set()
        if res.winner is not None and res.score is not None:
            won_keys = {s.key for s in res.score.sets}
        names = self.deck.key_names
        for seat, kc in enumerate(counts):
            for k, c in enumerate(kc):
                if c >= ATTEMPT:
                    ok = seat == res.winner and k in won_keys
                    self.attempts.append(
                        {"kind": "collecting", "name": names[k], "seat": seat, "value": int(ok)}
                    )

    def _fired(self, state: State) -> list[Counter[str]]:
        fired: list[Counter[str]] = [Counter() for _ in range(state.players)]
        for e in state.log.events:
            if e.kind == "discarded":
                natures = e.data["card"]["natures"]
                for n in DISCARD_NATURES:
                    if n in natures:
                        fired[e.data["seat"]][n] += 1
            elif e.kind == "drew" and "card" in e.data:
                natures = e.data["card"]["natures"]
                for n in DRAW_NATURES:
                    if n in natures:
                        fired[e.data["seat"]][n] += 1
        return fired

    def running(self, state: State) -> list[list[float]]:
        st: Any = state
        scores = [0.0] * state.players
        out = []
        for res in st.round_results:
            if res.winner is not None:
                scores[res.winner] += res.points
            out.append(list(scores))
        return out

    def stats(self, state: State) -> dict[str, Any]:
        st: Any = state
        fired = self._fired(state)
        results = st.round_results
        return {
            "stock_ran_out": sum(1 for r in results if r.winner is None),
            "natures_fired": sum(sum(c.values()) for c in fired),
            "collecting_attempts": len(self.attempts),
        }

    def items(self, state: State) -> list[dict[str, Any]]:
        st: Any = state
        out: list[dict[str, Any]] = []
        for res in st.round_results:
            if res.winner is None:
                out.append({"kind": "pattern", "name": "no winner", "seat": -1, "value": 0})
            else:
                out.append(
                    {
                        "kind": "pattern",
                        "name": res.pattern,
                        "seat": res.winner,
                        "value": res.points,
                    }
                )
            out.append({"kind": "round_end", "name": res.reason, "seat": -1})
        for seat, counts in enumerate(self._fired(state)):
            for nature, c in sorted(counts.items()):
                out.append({"kind": "nature", "name": nature, "seat": seat, "value": c})
        return out + self.attempts


def tracker(state: State) -> LabTracker:
    return TaxonomyTracker(state)
