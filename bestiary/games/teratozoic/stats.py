"""Teratozoic's statistics for the designer's lab (``bestiary.lab``).

Read from the event log, which Teratozoic always keeps, as each action is
applied (with the state at that moment):

- **Era lengths**: an ``era`` item per Era played, the generations it lasted
  as ``value``; ``era_lengths`` lists them in order.
- **Gene pool growth**: a ``gene pool`` item per generation (named
  ``generation 01``, ...), the mean size of the players' gene pools (pool,
  discard pile and hand) when it began as ``value``.
- **Monster sizes**: ``monster_sizes``: the cards of every monster built in
  growth; ``final_monster_sizes``: of every monster scored at the end.
- **Per-card value**: ``took`` items (cards the generation's winner took from
  play) and ``kept`` items (cards a player kept from hand), one per (seat,
  card) with the count as ``value``: the report gives each card's rate and
  the win rate of the seats that gained it. ``generations_won`` per seat.

Teratozoic has no running score (the score is counted once, at the end), so
its games have no lead changes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine.protocol import Action, LabTracker, State


class TeratozoicTracker(LabTracker):
    watches = True
    events = True

    def __init__(self, state: State) -> None:
        n = state.players
        self.seen = 0
        self.eras: list[list[Any]] = []  # [name, generations]
        self.pool: list[float] = []
        self.sizes: list[int] = []
        self.won = [0] * n
        self.took: list[Counter[int]] = [Counter() for _ in range(n)]
        self.kept: list[Counter[int]] = [Counter() for _ in range(n)]
        self.final_sizes: list[int] = []
        self._scan(state)

    def _scan(self, state: State) -> None:
        st: Any = state
        events = st.log.events
        for e in events[self.seen :]:
            k, d = e.kind, e.data
            if k == "generation":
                if not self.eras or self.eras[-1][0] != d["era"]:
                    self.eras.append([d["era"], 0])
                self.eras[-1][1] += 1
                alive = [s for s in range(st.players) if not st.eliminated[s]]
                self.pool.append(sum(len(st.owned(s)) for s in alive) / max(len(alive), 1))
            elif k == "grew":
                self.sizes += [len(m["cards"]) for m in d["build"]["monsters"]]
            elif k == "winner":
                self.won[d["seat"]] += 1
            elif k == "took":
                self.took[d["seat"]][d["card"]] += 1
            elif k == "kept":
                self.kept[d["seat"]][d["card"]] += 1
            elif k == "game_over":
                self.final_sizes = [
                    size for colours in d["monsters"].values() for size in colours.values()
                ]
        self.seen = len(events)

    def step(self, state: State, seat: int, action: Action) -> None:
        self._scan(state)

    def stats(self, state: State) -> dict[str, Any]:
        self._scan(state)
        return {
            "era_lengths": [g for _, g in self.eras],
            "monster_sizes": list(self.sizes),
            "final_monster_sizes": list(self.final_sizes),
            "generations_won": list(self.won),
        }

    def items(self, state: State) -> list[dict[str, Any]]:
        st: Any = state
        self._scan(state)
        out: list[dict[str, Any]] = [
            {"kind": "era", "name": name, "seat": -1, "value": g} for name, g in self.eras
        ]
        out += [
            {"kind": "gene pool", "name": f"generation {i + 1:02d}", "seat": -1, "value": size}
            for i, size in enumerate(self.pool)
        ]
        for kind, per_seat in (("took", self.took), ("kept", self.kept)):
            for seat, counts in enumerate(per_seat):
                for card, c in sorted(counts.items()):
                    out.append({"kind": kind, "name": st.name(card), "seat": seat, "value": c})
        return out


def tracker(state: State) -> LabTracker:
    return TeratozoicTracker(state)
