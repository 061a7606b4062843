"""Scenario helpers: a Monster Maker table set up by hand, with scripted dice."""

from __future__ import annotations

from typing import Any

from bestiary.engine import Dice, Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.rules import BACK, MonsterMakerState


class ScriptedRng(Rng):
    """An RNG whose dice rolls come from a script (then fall back to random)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.script: list[int] = []

    def roll(self, notation: str | Dice) -> int:
        if self.script:
            return self.script.pop(0)
        return super().roll(notation)

    def copy(self) -> ScriptedRng:
        other = ScriptedRng(0)
        other._r.setstate(self._r.getstate())
        other.script = list(self.script)
        return other


def cid(st: MonsterMakerState, name: str) -> int:
    return st.cs.by_name[name.casefold()].index


def tid(st: MonsterMakerState, name: str) -> int:
    return next(t.index for t in st.cs.treasures if t.name == name)


def table(players: int = 3, seat: int = 0, **options: Any) -> MonsterMakerState:
    """A fresh table where ``seat`` is about to choose (its draw already done)."""
    st = GAME.new(players, seed=5, options=options)
    assert isinstance(st, MonsterMakerState)
    rng = ScriptedRng(5)
    st.rng = rng
    # No surprise traps for the next player in scenario tests.
    st.deck = [c for c in st.deck if st.cs.cards[c].kind != "trap"]
    st.turn = seat
    st.phase = "turn"
    st._reset_turn()
    return st


def give(st: MonsterMakerState, seat: int, *names: str) -> None:
    """Set ``seat``'s hand to exactly these cards."""
    st.hands[seat] = [cid(st, n) for n in names]


def walk(st: MonsterMakerState, seat: int, *perch: int) -> None:
    """Lay corridors of these lengths outward for ``seat`` (no treasure drawn)."""
    for p in perch:
        c = next(c.index for c in st.cs.cards if c.kind == "corridor" and c.value == p)
        st.out[seat].append(c)
        st.dist_out[seat] += p


def at_treasure(st: MonsterMakerState, seat: int, distance: int = 100) -> None:
    """``seat`` has announced the treasure room at ``distance`` perch."""
    walk(st, seat, *([10] * (distance // 10)))
    st.status[seat] = BACK


def dice(st: MonsterMakerState, *rolls: int) -> None:
    rng = st.rng
    assert isinstance(rng, ScriptedRng)
    rng.script.extend(rolls)


def do(st: MonsterMakerState, text: str) -> None:
    st.apply_text(st.turn, text)


def legal_texts(st: MonsterMakerState, seat: int | None = None) -> list[str]:
    return [str(a) for a in st.legal(st.turn if seat is None else seat)]


def last(st: MonsterMakerState, kind: str) -> dict[str, Any]:
    return next(e.data for e in reversed(st.log.events) if e.kind == kind)
