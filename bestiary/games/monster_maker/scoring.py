"""Monster Maker gold, as pure functions (the state and the score tool share them).

<Treasure Cards>: "A player will receive gold equal to the number written on
the treasure card ... The 'D' written on some cards ... refers to the number
of dice that are rolled. This is done when the game is over."

| treasure gold | worth |
|---|---|
| ``300`` | 300 |
| ``NDxM±K`` (Mystic Map ``3Dx20``) | N six-sided dice, times M, plus K |
| Statue of Goddess (``special=goddess``) | its number on 1-3, 0 on 4-6 (rolled when drawn) |

Statue of Goddess: "Roll the dice. On a 1,2,or 3, has a value of 400gold. On a
4,5, or 6, is worthless."
| a prize card | its number |
"""

from __future__ import annotations

from dataclasses import dataclass

from bestiary.engine import Rng

from .cards import Gold, TreasureType

#: Statue of Goddess: "On a 1,2,or 3, has a value of 400gold".
GODDESS_KEEPS = frozenset({1, 2, 3})
DIE_FACES = 6


def goddess_keeps(roll: int) -> bool:
    return roll in GODDESS_KEEPS


def roll_gold(gold: Gold, rng: Rng) -> int:
    """One roll of a dice-valued treasure (the caller keeps it)."""
    if not gold.rolled:
        return gold.fixed
    return rng.roll(f"{gold.dice}D") * gold.times + gold.plus


@dataclass(frozen=True, slots=True)
class GoldRange:
    """What a treasure can be worth: the least, the most and the average."""

    low: int
    high: int
    mean: float

    def __add__(self, other: GoldRange) -> GoldRange:
        return GoldRange(self.low + other.low, self.high + other.high, self.mean + other.mean)


def gold_range(tt: TreasureType) -> GoldRange:
    """The range of a treasure's gold before any die is rolled."""
    g = tt.gold
    if tt.special == "goddess":
        keep = len(GODDESS_KEEPS) / DIE_FACES
        value = g.fixed
        return GoldRange(min(0, value), max(0, value), value * keep)
    if not g.rolled:
        return GoldRange(g.fixed, g.fixed, float(g.fixed))
    ends = (g.dice * g.times + g.plus, g.dice * DIE_FACES * g.times + g.plus)
    mean = g.dice * (DIE_FACES + 1) / 2 * g.times + g.plus
    return GoldRange(min(ends), max(ends), mean)
