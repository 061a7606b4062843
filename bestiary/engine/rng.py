"""The one source of randomness: a seeded RNG with the rulebooks' dice notation.

Notation: ``NdS+M`` / ``NDS-M`` where ``D`` alone means a six-sided die
(Monster Maker's ``2D+3``), e.g. ``2d20-4``, ``D6``, ``3D``, ``1d6+1``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, MutableSequence, Sequence
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


class _Snapshot(random.Random):
    """A ``random.Random`` whose state is a snapshot (a ``getstate()`` tuple)
    loaded only when it is first used: then it turns into a plain
    ``random.Random`` in place (its class changes), with exactly the state of
    the snapshot, so the numbers are the same as an eager copy's.

    Why: ``getstate()`` builds 625 Python ints and ``setstate()`` reads them
    back, about as long as a whole Teratozoic clone without them. A copy made
    for a search usually never draws, and an RNG cloned many times without
    drawing in between hands every copy the same immutable snapshot.

    Every draw of ``random.Random`` goes through ``random()`` or
    ``getrandbits()`` (``randrange``, ``shuffle``, ``sample``, ``choice`` …
    are written on them); ``gauss`` keeps a value between calls, so it loads
    first too; ``getstate`` answers from the snapshot (the trust audit's
    fingerprints see the same state as an eager copy's); pickling and
    ``copy.deepcopy`` give a plain ``random.Random``. Never constructed
    through ``__init__`` (that would seed from the OS): use :meth:`of`.
    """

    @classmethod
    def of(cls, state: tuple[Any, ...]) -> _Snapshot:
        r = cls.__new__(cls)
        r.__dict__["_state"] = state
        return r

    def snapshot(self) -> tuple[Any, ...]:
        state: tuple[Any, ...] = self.__dict__["_state"]
        return state

    def _load(self) -> None:
        # Called as ``_Snapshot._load(self)``: a method bound before the load
        # (``randrange`` keeps ``self.getrandbits`` for a loop) may run after it.
        if type(self) is _Snapshot:
            state = self.__dict__.pop("_state")
            self.__class__ = random.Random  # type: ignore[assignment]
            random.Random.setstate(self, state)

    def random(self) -> float:
        _Snapshot._load(self)
        return self.random()

    def getrandbits(self, k: int, /) -> int:
        _Snapshot._load(self)
        return self.getrandbits(k)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        _Snapshot._load(self)
        return self.gauss(mu, sigma)

    def seed(self, a: Any = None, version: int = 2) -> None:
        _Snapshot._load(self)
        self.seed(a, version)

    def getstate(self) -> tuple[Any, ...]:
        if type(self) is _Snapshot:
            return self.snapshot()
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _Snapshot._load(self)
        self.setstate(state)

    def __reduce__(self) -> tuple[Any, ...]:
        return random.Random, (), self.getstate()


def _below(getrandbits: Any, n: int) -> int:
    """A number below ``n`` (>= 1), drawn as ``random.Random`` draws it."""
    k = n.bit_length()
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


class Rng:
    """A seeded RNG owned by one state. Same seed + same calls = same numbers.

    Wraps :class:`random.Random` (fast, and its state copies exactly, which
    ``State.clone`` needs; :meth:`copy` copies it lazily).
    """

    __slots__ = ("_r", "seed")

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._r = random.Random(seed)

    # Exact copies for clone(); a fresh stream for determinize().
    def copy(self) -> Rng:
        """An exact copy: the same numbers follow in both, independently.

        Copying is lazy (see :class:`_Snapshot`): both RNGs go on from one
        immutable snapshot of the state, each loading it at its own first draw.
        A copy that is never drawn from (most clones: a Teratozoic or
        Monster Maker state draws only to shuffle or roll) costs one
        ``getstate()``, and copies of an RNG not drawn from since cost nothing.
        """
        r = self._r
        if type(r) is _Snapshot:
            state = r.snapshot()  # not drawn from since its last copy: share it
        else:
            state = r.getstate()
            self._r = _Snapshot.of(state)
        other = Rng.__new__(Rng)
        other.seed = self.seed
        other._r = _Snapshot.of(state)
        return other

    # randrange, randint, shuffle and roll draw exactly what random.Random's
    # methods draw (an index below n: getrandbits(n.bit_length()) until it is
    # below n, as CPython 3.11-3.13 do), written out here without their
    # argument handling and two layers of Python calls: the same numbers in
    # about half the time. A search or a simulation draws at every step, and
    # golden records replay only if the streams never change
    # (tests/engine/test_rng.py holds them to the library's on many states).

    def randrange(self, n: int) -> int:
        try:
            k = n.bit_length()
        except AttributeError:  # not a Python int (a NumPy integer, say)
            return self._r.randrange(n)
        if n <= 0:
            raise ValueError(f"empty range for randrange({n})")
        getrandbits = self._r.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def randint(self, a: int, b: int) -> int:
        """A number from ``a`` to ``b``, both included."""
        width = b - a + 1
        if width <= 0:
            raise ValueError(f"empty range for randint({a}, {b})")
        return a + _below(self._r.getrandbits, width)

    def random(self) -> float:
        return self._r.random()

    def choice(self, seq: Sequence[T]) -> T:
        return seq[int(self._r.random() * len(seq))]

    def shuffle(self, seq: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end, as ``random.Random.shuffle``: the same order."""
        getrandbits = self._r.getrandbits
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        return self._r.sample(seq, k)

    def roll(self, notation: str | Dice) -> int:
        """Roll dice in the rulebooks' notation, e.g. ``rng.roll("2d20-4")``."""
        dice = notation if isinstance(notation, Dice) else Dice.parse(notation)
        getrandbits, sides = self._r.getrandbits, dice.sides
        total = dice.count + dice.modifier  # each die: 1 + a number below its sides
        for _ in range(dice.count):
            total += _below(getrandbits, sides)
        return total

    def bits(self) -> Callable[[int], int]:
        """The ``getrandbits`` every draw goes through, for one hot loop that
        must draw exactly what :meth:`shuffle` or :meth:`randrange` draw (a
        sampler that only draws what it never reads). Ask again after
        :meth:`copy`: a copy moves this RNG onto a snapshot of its state."""
        bits: Callable[[int], int] = self._r.getrandbits
        return bits

    def fork(self) -> Rng:
        """A new independent RNG seeded from this one (for agents, determinization)."""
        return Rng(self._r.getrandbits(63))
