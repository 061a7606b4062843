"""Writing a seat's view into a fixed-size vector: the shared bookkeeping of
every game's ``observe.py`` (each game says *what* to encode; this says how
fields are laid out and written).

Conventions all games follow, so a learner can rely on them:

- Values are floats in [0, 1]: flags, one-hots, and counts divided by a cap
  and clipped.
- Seats are relative: block 0 of a per-seat field is the observing seat,
  block 1 the next seat in turn order, and so on.
- Names the encoder does not know (a view shape that changed, a card from
  another card file) are skipped, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple


class Layout:
    """Named fields of fixed widths, laid end to end."""

    def __init__(self, players: int, fields: Sequence[tuple[str, int]]) -> None:
        self.players = players
        self.fields = list(fields)
        self.at: dict[str, int] = {}
        off = 0
        for name, width in self.fields:
            if name in self.at:
                raise ValueError(f"field {name!r} appears twice")
            self.at[name] = off
            off += width
        self.size = off

    def writer(self, me: Any) -> Writer:
        """A fresh zero vector for the view of seat ``me`` (None/other: seat 0's frame)."""
        seat = me if isinstance(me, int) and 0 <= me < self.players else 0
        return Writer(self, seat)


class Writer:
    """One vector being filled; positions are ``field name + offset``."""

    __slots__ = ("at", "me", "out", "players")

    def __init__(self, layout: Layout, me: int) -> None:
        self.at = layout.at
        self.players = layout.players
        self.me = me
        self.out = [0.0] * layout.size

    def rel(self, seat: Any) -> int | None:
        """The seat's position counted from the observer (None if not a seat)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            return None
        return (seat - self.me) % self.players

    def set(self, field: str, offset: int, value: float = 1.0) -> None:
        self.out[self.at[field] + offset] = min(1.0, max(0.0, float(value)))

    def add(self, field: str, offset: int, value: float) -> None:
        i = self.at[field] + offset
        self.out[i] = min(1.0, max(0.0, self.out[i] + float(value)))

    def one_hot(self, field: str, choices: Sequence[Any], value: Any) -> None:
        """``value``'s position in ``choices``; the extra last slot for anything else."""
        self.set(field, choices.index(value) if value in choices else len(choices))

    def seat(self, field: str, seat: Any, block: int = 0) -> None:
        r = self.rel(seat)
        if r is not None:
            self.set(field, block + r)

    def per_seat(self, field: str, values: Any, cap: float, width: int = 1, at: int = 0) -> None:
        """``values[s] / cap`` for each seat ``s``, at ``block(s) * width + at``."""
        for s, v in enumerate(values or ()):
            r = self.rel(s)
            if r is not None and isinstance(v, int | float):
                self.set(field, r * width + at, v / cap)

    def names(
        self,
        field: str,
        index: Mapping[str, int],
        names: Iterable[Any],
        block: int = 0,
        cap: float = 1.0,
    ) -> None:
        """Counts (divided by ``cap``) of names looked up case-insensitively in ``index``
        (the hot loop of every encoder: exact names hit first, without casefolding)."""
        out, base, inc = self.out, self.at[field] + block, 1.0 / cap
        for name in names or ():
            i = index.get(name) if isinstance(name, str) else None
            if i is None:
                i = index.get(str(name).casefold())
                if i is None:
                    continue
            j = base + i
            v = out[j] + inc
            out[j] = v if v < 1.0 else 1.0

    def scalar(self, field: str, value: Any, cap: float, offset: int = 0) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.set(field, offset, value / cap)

    def flag(self, field: str, value: Any, offset: int = 0) -> None:
        if value:
            self.set(field, offset)


def index_of(names: Iterable[str]) -> dict[str, int]:
    """Case-insensitive name -> position (the first of duplicates wins). Holds
    the exact spelling too, so the common lookup needs no casefold."""
    folded: dict[str, int] = {}
    exact: dict[str, int] = {}
    for i, name in enumerate(names):
        folded.setdefault(name.casefold(), i)
        exact.setdefault(name, folded[name.casefold()])
    return {**folded, **exact}


class SparseRow(NamedTuple):
    """One encoded vector by its non-zero entries (every other entry is 0):
    ``ones``, the positions that hold 1 (most of an encoding: one-hots, flags,
    card sets; a position may repeat), then ``idx`` and ``values``, the other
    non-zero positions (each once, none of them in ``ones``) and their values.
    Kept apart so a writer sets the ones with no list of values to convert:
    ``row[:] = 0; row[ones] = 1; row[idx] = values``."""

    ones: list[int]
    idx: list[int]
    values: list[float]

    def dense(self, size: int) -> list[float]:
        """The whole vector of ``size`` entries."""
        out = [0.0] * size
        for i in self.ones:
            out[i] = 1.0
        for i, x in zip(self.idx, self.values, strict=True):
            out[i] = x
        return out


def sparse_of(vector: Sequence[float]) -> SparseRow:
    """A dense vector's non-zero entries, as a :class:`SparseRow`."""
    ones = [i for i, x in enumerate(vector) if x == 1.0]
    idx = [i for i, x in enumerate(vector) if x and x != 1.0]
    return SparseRow(ones, idx, [vector[i] for i in idx])
