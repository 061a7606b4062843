"""The one source of randomness: a seeded RNG with the rulebooks' dice notation.

Notation: ``NdS+M`` / ``NDS-M`` where ``D`` alone means a six-sided die
(Monster Maker's ``2D+3``), e.g. ``2d20-4``, ``D6``, ``3D``, ``1d6+1``.
"""

from __future__ import annotations

import random
import re
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..i18n import core
from .errors import BadInput

T = TypeVar("T")

_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d*)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True, slots=True)
class Dice:
    """A parsed dice expression: ``count`` dice of ``sides`` sides plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> Dice:
        m = _DICE.match(text)
        if not m:
            raise BadInput(
                core.gettext(
                    "bad dice notation {text!r}; expected NdS±M such as '2d20-4', '2D+3' or 'D6'"
                ).format(text=text)
            )
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2)) if m.group(2) else 6
        modifier = int(m.group(4)) if m.group(4) else 0
        if m.group(3) == "-":
            modifier = -modifier
        if count < 1 or sides < 1:
            raise BadInput(
                core.gettext(
                    "bad dice notation {text!r}: needs at least one die of at least 1 side"
                ).format(text=text)
            )
        return cls(count, sides, modifier)

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def distribution(self) -> dict[int, float]:
        """Exact probability of every total (for bots that compute odds)."""
        dist = {0: 1.0}
        for _ in range(self.count):
            nxt: dict[int, float] = {}
            for total, p in dist.items():
                for face in range(1, self.sides + 1):
                    nxt[total + face] = nxt.get(total + face, 0.0) + p / self.sides
            dist = nxt
        return {t + self.modifier: p for t, p in sorted(dist.items())}

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"


class Rng:
    """A seeded RNG owned by one state. Same seed + same calls = same numbers.

    Wraps :class:`random.Random` (fast, and its state copies exactly, which
    ``State.clone`` needs).
    """

    __slots__ = ("_r", "seed")

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._r = random.Random(seed)

    # Exact copies for clone(); a fresh stream for determinize().
    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.seed = self.seed
        # Random() would first seed itself from os.urandom (most of a copy's
        # cost); __new__ skips that, and setstate overwrites the whole state.
        other._r = random.Random.__new__(random.Random)
        other._r.setstate(self._r.getstate())
        return other

    def randrange(self, n: int) -> int:
        return self._r.randrange(n)

    def randint(self, a: int, b: int) -> int:
        return self._r.randint(a, b)

    def random(self) -> float:
        return self._r.random()

    def choice(self, seq: Sequence[T]) -> T:
        return seq[int(self._r.random() * len(seq))]

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        self._r.shuffle(seq)

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        return self._r.sample(seq, k)

    def roll(self, notation: str | Dice) -> int:
        """Roll dice in the rulebooks' notation, e.g. ``rng.roll("2d20-4")``."""
        dice = notation if isinstance(notation, Dice) else Dice.parse(notation)
        r = self._r.randint
        return sum(r(1, dice.sides) for _ in range(dice.count)) + dice.modifier

    def fork(self) -> Rng:
        """A new independent RNG seeded from this one (for agents, determinization)."""
        return Rng(self._r.getrandbits(63))
