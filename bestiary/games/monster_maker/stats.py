"""Monster Maker's statistics for the designer's lab (``bestiary.lab``).

Read from the events of each applied action (lab runs keep Monster Maker's
event log on: ``events``), with the table's turn counter at that moment:

- **Who gets home**: ``home_dungeons`` per seat (dungeons it came back from)
  and a ``got home`` item per seat with that count; ``home_turns``: the
  turns from a dungeon's start to each homecoming (every seat's turn
  counts, as the game's ``turns``).
- **Deaths**: ``deaths`` per seat and a ``died`` item per seat with the
  count; ``death_causes`` names why ("the road back is too long", ...).
- **Treasure values**: a ``treasure`` item per banked treasure (and a
  ``prize`` item per prize card) with its gold as ``value``, from the final
  count (dice treasures as rolled).
- **Running scores**: after every dungeon, each seat's score so far — gold
  banked so far (valued as in the final count) or, with ``victory=dungeons``,
  dungeons won.
"""

from __future__ import annotations

from typing import Any

from ...engine.protocol import Action, LabTracker, State


class MonsterMakerTracker(LabTracker):
    watches = True
    events = True

    def __init__(self, state: State) -> None:
        n = state.players
        self.seen = 0
        self.start_turn = 0
        self.home = [0] * n
        self.deaths = [0] * n
        self.home_turns: list[int] = []
        self.causes: list[str] = []
        # per dungeon end: (banked treasures, prizes, dungeon wins) per seat
        self.ends: list[tuple[list[int], list[int], list[int]]] = []

    def step(self, state: State, seat: int, action: Action) -> None:
        st: Any = state
        events = st.log.events
        for e in events[self.seen :]:
            k = e.kind
            if k == "dungeon":
                self.start_turn = st.turns
            elif k == "home":
                self.home[e.data["seat"]] += 1
                self.home_turns.append(st.turns - self.start_turn)
            elif k == "died":
                self.deaths[e.data["seat"]] += 1
                self.causes.append(str(e.data["reason"]))
            elif k == "dungeon_end":
                self.ends.append(
                    (
                        [len(b) for b in st.banked],
                        [len(p) for p in st.prizes],
                        list(st.dungeon_wins),
                    )
                )
        self.seen = len(events)

    def running(self, state: State) -> list[list[float]]:
        st: Any = state
        if st.final is None:
            return []
        if st.rules.victory == "dungeons":
            return [[float(w) for w in wins] for _, _, wins in self.ends]
        detail = st.final["detail"]  # per seat: banked treasures in order, then prizes
        out = []
        for banked, prizes, _ in self.ends:
            row = []
            for s, (nb, npz) in enumerate(zip(banked, prizes, strict=True)):
                treasures = detail[s][:nb]
                won = detail[s][len(st.banked[s]) : len(st.banked[s]) + npz]
                row.append(float(sum(g for _, g in treasures) + sum(g for _, g in won)))
            out.append(row)
        return out

    def stats(self, state: State) -> dict[str, Any]:
        return {
            "home_dungeons": list(self.home),
            "home_turns": list(self.home_turns),
            "deaths": list(self.deaths),
            "death_causes": list(self.causes),
        }

    def items(self, state: State) -> list[dict[str, Any]]:
        st: Any = state
        out: list[dict[str, Any]] = []
        for s in range(state.players):
            out.append({"kind": "got home", "name": f"seat {s}", "seat": s, "value": self.home[s]})
            out.append({"kind": "died", "name": f"seat {s}", "seat": s, "value": self.deaths[s]})
        if st.final is not None:
            for s, rows in enumerate(st.final["detail"]):
                nb = len(st.banked[s])
                for i, (name, gold) in enumerate(rows):
                    kind = "treasure" if i < nb else "prize"
                    out.append({"kind": kind, "name": name, "seat": s, "value": gold})
        return out


def tracker(state: State) -> LabTracker:
    return MonsterMakerTracker(state)
