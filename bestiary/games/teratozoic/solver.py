"""The monster-building solver: exact branch-and-bound searches on the tile grid.

Two questions, two searches:

- :func:`best_build` — the highest-scoring way to lay out a play (a hand of
  5, a little more after tie draws). It enumerates every connected monster
  the cards can form (growing layouts one connection at a time, each layout
  visited once), notes for every set of cards whether it can be one monster
  and whether it can be one with no loose ends, then splits the play into
  monsters by dynamic programming over subsets. Exact.
- :func:`score_pool` — the final scoring of a Gene Pool: the largest closed
  monster of each colour (:mod:`.closed`, exact with a proof or marked not
  exact when its node budget runs out), the three largest of them, and the
  first tie-break's count of further closed monsters.

Cells are ints ``x * _ROW + y`` so a neighbour is one addition away.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .closed import (
    NODE_BUDGET,
    ClosedMonster,
    ShapeLayout,
    close_all,
    largest_closed,
    parity_vector,
    upper_bound,
)
from .tiles import OPPOSITE, Build, Monster, Placement, edge, monster_value

_ROW = 256  # |y| stays far below this for any layout of < 100 cards
_STEP = (1, _ROW, -1, -_ROW)  # N, E, S, W


def _xy(cell: int) -> tuple[int, int]:
    x, y = divmod(cell + _ROW // 2, _ROW)
    return x, y - _ROW // 2


def _edges(mask: int) -> tuple[int, int, int, int]:
    return edge(mask, 0), edge(mask, 1), edge(mask, 2), edge(mask, 3)


# ------------------------------------------------------------------ best build
Shape = tuple[int, ...]  # a card's orientation masks, sorted: one shape, interchangeable cards


def shape_of(card: Card) -> Shape:
    return tuple(sorted(card.orients))


@lru_cache(maxsize=65_536)
def connect_all(shapes: tuple[Shape, ...]) -> ShapeLayout | None:
    """A layout of exactly these cards as ONE monster (loose ends allowed), or None."""
    n = len(shapes)
    if n == 1:
        return ((0, 0, shapes[0][0]),)
    if any(s[0] == 0 for s in shapes) or sum(s[0].bit_count() for s in shapes) < 2 * (n - 1):
        return None  # a tree of n cards needs n - 1 connections, two ends each
    uniq = sorted(set(shapes))
    avail = [shapes.count(s) for s in uniq]
    cand = [[(m, _edges(m)) for m in s] for s in uniq]
    m0 = uniq[0][0]
    avail[0] -= 1
    seen: set[frozenset[tuple[int, int]]] = set()

    def dfs(cells: dict[int, int], left: int) -> dict[int, int] | None:
        if left == 0:
            return cells
        for cell, mask in list(cells.items()):
            for d in range(4):
                mine = edge(mask, d)
                nc = cell + _STEP[d]
                if not mine or nc in cells:
                    continue
                od = OPPOSITE[d]
                for k, ok_k in enumerate(avail):
                    if not ok_k:
                        continue
                    for m, es in cand[k]:
                        if not es[od] & mine:
                            continue
                        cells[nc] = m
                        key = frozenset(cells.items())
                        if key not in seen:
                            seen.add(key)
                            avail[k] -= 1
                            got = dfs(cells, left - 1)
                            avail[k] += 1
                            if got is not None:
                                return got
                        del cells[nc]
        return None

    got = dfs({0: m0}, n - 1)
    if got is None:
        return None
    return tuple(sorted((*_xy(c), m) for c, m in got.items()))


def _assign(deck: Sequence[Card], ids: Sequence[int], layout: ShapeLayout) -> tuple[Placement, ...]:
    """Put the actual cards on a shape layout (cards of one shape are interchangeable)."""
    pool = list(ids)
    out = []
    for x, y, m in layout:
        for i in pool:
            if m in deck[i].orients:
                pool.remove(i)
                out.append(Placement(i, x, y, m != deck[i].orients[0]))
                break
    return tuple(sorted(out, key=lambda p: (-p.y, p.x)))


def best_build(
    deck: Sequence[Card], ids: Sequence[int], doubling_ignores_colour: bool = False
) -> Build:
    """The highest-scoring build of the cards ``ids`` (exact)."""
    key = (id(deck), tuple(sorted(ids)), doubling_ignores_colour)
    got = _BUILDS.get(key)
    if got is None:
        if len(_BUILDS) > 50_000:
            _BUILDS.clear()
        got = _BUILDS[key] = _solve(deck, key[1], doubling_ignores_colour)
    return got


def build_within(
    deck: Sequence[Card], ids: Sequence[int], doubling_ignores_colour: bool, budget: int
) -> tuple[Build, bool]:
    """The best build and True when its work fits ``budget`` (the dynamic
    programme over subsets takes about 3^n steps for n cards); otherwise a good
    build, not proven best, and False: the cards sorted by colour are solved
    in groups of at most ``_GROUP`` and the groups' monsters laid side by side."""
    if 3 ** len(ids) <= budget:
        return best_build(deck, ids, doubling_ignores_colour), True
    order = sorted(ids, key=lambda i: (deck[i].colour, -deck[i].value, i))
    monsters: list[Monster] = []
    for k in range(0, len(order), _GROUP):
        part = best_build(deck, order[k : k + _GROUP], doubling_ignores_colour)
        monsters += part.monsters
    all_closed = all(m.closed for m in monsters)
    score = sum(m.value for m in monsters) + int(all_closed)
    return Build(tuple(monsters), score, all_closed), False


_GROUP = 9


# Decks are long-lived (cached per card file), so their id() is a safe key.
_BUILDS: dict[tuple[int, tuple[int, ...], bool], Build] = {}


def _solve(deck: Sequence[Card], ids: tuple[int, ...], ignore: bool) -> Build:
    """Split the play into monsters by dynamic programming over subsets.

    A set of cards is worth building as one monster when it can close
    (bonus and the all-closed point) or when a doubling card can double
    more cards of its colour in it; any other monster scores exactly its
    cards laid apart, so those are left as single cards.
    """
    n = len(ids)
    if n == 0:
        return Build((), 0, False)
    cards = [deck[i] for i in ids]
    shapes = [shape_of(c) for c in cards]
    full = (1 << n) - 1
    closable: dict[int, ShapeLayout] = {}
    connectable: dict[int, ShapeLayout] = {}
    val_open: dict[int, int] = {}
    val_closed: dict[int, int] = {}
    # Necessary conditions for one monster with no loose ends, kept per subset
    # as it grows by one card (so most subsets never reach the search): every
    # (axis, spot) holds an even number of ends (parity 0), n cards need n - 1
    # connections (at least 2n - 2 ends) and a card without ends joins nothing.
    vec = [parity_vector(s[0]) for s in shapes]
    n_ends = [s[0].bit_count() for s in shapes]
    parity = [0] * (full + 1)
    ends = [0] * (full + 1)
    size = [0] * (full + 1)
    blank = [False] * (full + 1)
    doubler = [c.doubler for c in cards]
    for mask in range(1, full + 1):
        low = mask & -mask
        i = low.bit_length() - 1
        prev = mask ^ low
        parity[mask] = parity[prev] ^ vec[i]
        ends[mask] = ends[prev] + n_ends[i]
        k = size[mask] = size[prev] + 1
        blank[mask] = blank[prev] or n_ends[i] == 0
        if k == 1:
            lay = close_all((shapes[i],))
            if lay is not None:
                closable[mask] = lay
                val_closed[mask] = monster_value([cards[i]], True, ignore)
            connectable[mask] = ((0, 0, shapes[i][0]),)
            val_open[mask] = monster_value([cards[i]], False, ignore)
            continue
        if blank[mask]:
            continue  # a card without ends joins no monster
        may_close = parity[mask] == 0 and ends[mask] >= 2 * k - 2
        may_double = any(doubler[j] for j in range(n) if mask >> j & 1)
        if not may_close and not may_double:
            continue
        members = [j for j in range(n) if mask >> j & 1]
        group = [cards[j] for j in members]
        key = tuple(sorted(shapes[j] for j in members))
        if may_close:
            lay = close_all(key)
            if lay is not None:
                closable[mask] = lay
                val_closed[mask] = monster_value(group, True, ignore)
        if may_double:
            doubled = {c.colour for c in group if c.doubler}
            if sum(1 for c in group if ignore or c.colour in doubled) > 1:
                lay = connect_all(key)
                if lay is not None:
                    connectable[mask] = lay
                    val_open[mask] = monster_value(group, False, ignore)
    neg = -(10**9)
    best_any = [neg] * (full + 1)
    best_closed = [neg] * (full + 1)
    how_any: list[tuple[int, bool]] = [(0, False)] * (full + 1)
    how_closed: list[int] = [0] * (full + 1)
    best_any[0] = best_closed[0] = 0
    for mask in range(1, full + 1):
        low = mask & -mask
        sub = mask
        while sub:
            if sub & low:
                rest = mask ^ sub
                if sub in closable:
                    v = val_closed[sub]
                    if best_closed[rest] > neg and v + best_closed[rest] > best_closed[mask]:
                        best_closed[mask] = v + best_closed[rest]
                        how_closed[mask] = sub
                    if v + best_any[rest] > best_any[mask]:
                        best_any[mask] = v + best_any[rest]
                        how_any[mask] = (sub, True)
                if sub in connectable:
                    v = val_open[sub]
                    if v + best_any[rest] > best_any[mask]:
                        best_any[mask] = v + best_any[rest]
                        how_any[mask] = (sub, False)
            sub = (sub - 1) & mask
    parts: list[tuple[int, bool]] = []
    mask = full
    if best_closed[full] > neg and best_closed[full] + 1 > best_any[full]:
        while mask:
            parts.append((how_closed[mask], True))
            mask ^= how_closed[mask]
        total, all_closed = best_closed[full] + 1, True
    else:
        while mask:
            sub, closed = how_any[mask]
            parts.append((sub, closed))
            mask ^= sub
        total, all_closed = best_any[full], False
    monsters = []
    for sub, closed in parts:
        members_ids = [ids[i] for i in range(n) if sub >> i & 1]
        pl = _assign(deck, members_ids, closable[sub] if closed else connectable[sub])
        value = val_closed[sub] if closed else val_open[sub]
        monsters.append(Monster(tuple(p.card for p in pl), pl, closed, value))
    monsters.sort(key=lambda m: (-len(m.cards), -m.value))
    return Build(tuple(monsters), total, all_closed)


def flat_build(
    deck: Sequence[Card], ids: Sequence[int], doubling_ignores_colour: bool = False
) -> Build:
    """Every card laid on its own, no connections (each card its own monster)."""
    monsters = []
    for x, i in enumerate(sorted(ids)):
        c = deck[i]
        closed = not any(c.orients[0] >> b & 1 for b in range(12))
        v = monster_value([c], closed, doubling_ignores_colour)
        monsters.append(Monster((i,), (Placement(i, 2 * x, 0),), closed, v))
    all_closed = bool(monsters) and all(m.closed for m in monsters)
    return Build(tuple(monsters), sum(m.value for m in monsters) + int(all_closed), all_closed)


# ------------------------------------------------------------ final scoring


@dataclass(frozen=True)
class PoolScore:
    """The final scoring of one Gene Pool."""

    cards: int  # cards in the (up to three) largest closed single-colour monsters
    monsters: int  # how many of those there are
    by_colour: dict[str, ClosedMonster]
    leftovers: dict[str, tuple[tuple[Shape, ...], tuple[int, ...]]]
    # Every colour's largest monster proven (not only the chosen ones: an
    # unproven colour might have been larger than a chosen one).
    proven: bool = True

    @property
    def exact(self) -> bool:
        return self.proven and all(m.exact for m in self.by_colour.values())

    def extra_monsters(self) -> int:
        """Closed single-colour monsters the remaining cards make (the first tie-break)."""
        return sum(count_closed_monsters(s, c) for s, c in self.leftovers.values())


def _colour_shapes(deck: Sequence[Card], ids: Sequence[int]) -> dict[str, dict[Shape, int]]:
    out: dict[str, dict[Shape, int]] = {}
    for i in ids:
        c = deck[i]
        if c.single_colour:
            per = out.setdefault(c.colour, {})
            s = shape_of(c)
            per[s] = per.get(s, 0) + 1
    return out


# Above this many cards the packing falls back to the greedy count.
PACKING_LIMIT = 14


def count_closed_monsters(shapes: Sequence[Shape], counts: Sequence[int]) -> int:
    """How many separate closed monsters the cards can make at most (exact up to
    ``PACKING_LIMIT`` cards; beyond that, greedily taking the largest first)."""
    if sum(counts) <= PACKING_LIMIT:
        return _packing(tuple(shapes), tuple(counts))
    left = list(counts)
    n = 0
    while sum(left):
        got = largest_closed(shapes, left)
        if got.size == 0:
            break
        n += 1
        left = [a - b for a, b in zip(left, got.counts, strict=True)]
    return n


@lru_cache(maxsize=16_384)
def _packing(shapes: tuple[Shape, ...], counts: tuple[int, ...]) -> int:
    """Exact maximum packing: the first card left is either in no monster, or in
    one of the closed monsters it can form with the others (tried in turn)."""
    first = next((k for k, c in enumerate(counts) if c), None)
    if first is None:
        return 0
    without = list(counts)
    without[first] -= 1
    best = _packing(shapes, tuple(without))
    ranges = [range(c + 1) for c in without]
    for extra in itertools.product(*ranges):
        size = 1 + sum(extra)
        used = list(extra)
        used[first] += 1
        if upper_bound(shapes, tuple(used)) < size:
            continue
        multiset = tuple(sorted(s for s, k in zip(shapes, used, strict=True) for _ in range(k)))
        if close_all(multiset) is None:
            continue
        rest = tuple(c - u for c, u in zip(counts, used, strict=True))
        best = max(best, 1 + _packing(shapes, rest))
    return best


def score_pool(deck: Sequence[Card], ids: Sequence[int], budget: int = NODE_BUDGET) -> PoolScore:
    """'Assemble their entire Gene Pool into up to three of the largest
    single-color monsters with no loose ends they can, one monster of each
    color, and add up the number of cards used.' ``budget``: search nodes per
    colour; when one runs out the score is marked not exact (``exact``)."""
    by_colour: dict[str, ClosedMonster] = {}
    leftovers: dict[str, tuple[tuple[Shape, ...], list[int]]] = {}
    for colour, per in sorted(_colour_shapes(deck, ids).items()):
        shapes = tuple(sorted(per))
        counts = [per[s] for s in shapes]
        got = largest_closed(shapes, counts, budget)
        by_colour[colour] = got
        leftovers[colour] = (shapes, counts)
    ranked = sorted(by_colour, key=lambda c: (-by_colour[c].size, c))
    chosen = [c for c in ranked[:3] if by_colour[c].size > 0]
    rest: dict[str, tuple[tuple[Shape, ...], tuple[int, ...]]] = {}
    for colour, (shapes, counts) in leftovers.items():
        left = list(counts)
        if colour in chosen:
            left = [a - b for a, b in zip(counts, by_colour[colour].counts, strict=True)]
        rest[colour] = (shapes, tuple(left))
    return PoolScore(
        sum(by_colour[c].size for c in chosen),
        len(chosen),
        {c: by_colour[c] for c in chosen},
        rest,
        all(m.exact for m in by_colour.values()),
    )
