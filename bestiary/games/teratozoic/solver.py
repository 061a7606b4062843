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
from typing import NamedTuple

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


class CardInfo(NamedTuple):
    """What the solver needs of one card, computed once per card set."""

    shape: Shape
    parity: int  # its parity vector (closed.parity_vector)
    ends: int
    alone_open: int  # its value laid alone, with loose ends
    alone_closed: int | None  # laid alone and closed (None: it has ends)
    code: int  # its shape's term in a multiset code (see _shape_code)
    value: int
    colour: int  # a bit per colour of the card set
    single: bool  # of one colour (not grey, not three-colour)


# Per card set (by id, checked by identity): its card table and the shared
# one-card monsters (see ``_alone`` and ``flat_build``).
_INFO: dict[int, tuple[Sequence[Card], list[CardInfo], dict[tuple[int, ...], Monster]]] = {}
_BLANK_LAYOUT: ShapeLayout = ((0, 0, 0),)

# A multiset of shapes as one int: the sum of its cards' codes, each shape
# counting in a field of its own (8 bits: a play solved over its 2^n subsets
# has far fewer than 256 cards). Shapes are numbered as first seen; a card set
# has few (10 in the standard deck), so subsets of every play share the answers
# below. Summing codes subset by subset is one addition per subset, where a
# sorted tuple of shapes (the key of ``close_all``) is a sort.
_SHAPE_NUMBER: dict[Shape, int] = {}
_CODE_BITS = 8


def _shape_code(shape: Shape) -> int:
    number = _SHAPE_NUMBER.setdefault(shape, len(_SHAPE_NUMBER))
    return 1 << (_CODE_BITS * number)


# By multiset code: a closed layout of exactly those cards as one monster, or
# None (``_closes``); one monster with loose ends allowed (``connect_all``).
_CLOSES: dict[int, ShapeLayout | None] = {}
_CONNECTS: dict[int, ShapeLayout | None] = {}
_ASK: ShapeLayout = ((-1, -1, -1),)  # not in a cache yet (None is an answer)


def _closes(shapes: tuple[Shape, ...]) -> ShapeLayout | None:
    """``close_all`` behind the checks that need no search: n cards in one
    monster need n - 1 connections (at least 2n - 2 ends), a card without ends
    joins nothing, and with no loose ends every (axis, spot) holds an even
    number of ends (parity 0)."""
    n = len(shapes)
    if any(s[0] == 0 for s in shapes) or sum(s[0].bit_count() for s in shapes) < 2 * n - 2:
        return None
    parity = 0
    for s in shapes:
        parity ^= parity_vector(s[0])
    return close_all(shapes) if parity == 0 else None


def clear_caches() -> None:
    """Forget every solved play and shape set (the benchmark's cold start)."""
    _BUILDS.clear()
    _CLOSES.clear()
    _CONNECTS.clear()
    connect_all.cache_clear()


def _card_info(deck: Sequence[Card]) -> list[CardInfo]:
    """Per card of a card set: what ``_solve`` needs of it (see CardInfo)."""
    got = _INFO.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_INFO) > 16:
            _INFO.clear()
        colour_bit: dict[str, int] = {}
        table: list[CardInfo] = []
        for c in deck:
            blank = c.orients[0] == 0
            shape = shape_of(c)
            table.append(
                CardInfo(
                    shape,
                    parity_vector(c.orients[0]),
                    c.orients[0].bit_count(),
                    monster_value([c], False, False),
                    monster_value([c], True, False) if blank else None,
                    _shape_code(shape),
                    c.value,
                    colour_bit.setdefault(c.colour, 1 << len(colour_bit)),
                    c.single_colour,
                )
            )
        got = _INFO[id(deck)] = (deck, table, {})
    return got[1]


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


def _shapes_of(rows: Sequence[CardInfo], mask: int) -> tuple[Shape, ...]:
    """The sorted multiset of shapes of the cards in ``mask`` (``close_all``'s key)."""
    return tuple(sorted(r.shape for j, r in enumerate(rows) if mask >> j & 1))


def _value(
    rows: Sequence[CardInfo], kin: Sequence[int], mask: int, closed: bool, doubled: int
) -> int:
    """``monster_value`` of the cards in ``mask``, ``doubled`` its doubling
    cards (a bit per card), ``kin[j]`` the cards that card j's value doubles
    by (those of its colour; all with the experienced players' option): each
    card's face value doubled per doubling card among its kin, +1 doubled per
    doubling card when closed and all of one single colour."""
    total = colours = 0
    single = True
    for j, row in enumerate(rows):
        if mask >> j & 1:
            total += row.value << (doubled & kin[j]).bit_count() if doubled else row.value
            colours |= row.colour
            single = single and row.single
    if closed and single and colours & (colours - 1) == 0:
        total += 1 << doubled.bit_count()
    return total


@lru_cache(maxsize=64)
def _subsets(n: int) -> tuple[tuple[int, int, int], ...]:
    """Every set of two or more of n cards in increasing order, as (set, its
    lowest card, the set without it): each grows from a smaller one."""
    out = []
    for mask in range(1, 1 << n):
        low = mask & -mask
        if mask != low:
            out.append((mask, low.bit_length() - 1, mask ^ low))
    return tuple(out)


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
    info = _card_info(deck)
    if n == 1:
        # One card is one monster, closed exactly when it has no ends (what
        # the general case below finds, without its tables).
        closed = info[ids[0]].alone_closed is not None
        one = _alone(deck, ids[0], closed)
        return Build((one,), one.value + int(closed), closed)
    cards = [deck[i] for i in ids]
    rows = [info[i] for i in ids]
    full = (1 << n) - 1
    closable: dict[int, ShapeLayout] = {}
    connectable: dict[int, ShapeLayout] = {}
    val_open: dict[int, int] = {}
    val_closed: dict[int, int] = {}
    # Kept per subset as it grows by one card: the multiset code of its shapes
    # (whether it closes, and whether it connects, depend on that alone, see
    # ``_closes``: the answers are cached by code). A doubling card is worth
    # connecting to more cards only when another card of its colour (any card,
    # with the option) is there.
    codes = [row.code for row in rows]
    code = [0] * (full + 1)
    doublers = sum(1 << j for j, c in enumerate(cards) if c.doubler)
    by_colour: dict[str, int] = {}
    for j, c in enumerate(cards):
        by_colour[c.colour] = by_colour.get(c.colour, 0) | 1 << j
    kin = [full if ignore else by_colour[c.colour] for c in cards]
    closes, connects = _CLOSES, _CONNECTS
    if len(closes) > 100_000 or len(connects) > 100_000:
        closes.clear()  # a designer's card set may have many shapes
        connects.clear()
    for j, row in enumerate(rows):
        # One card: closed exactly when it has no ends; worth the same with
        # or without the option (a doubling card doubles itself either way).
        bit = 1 << j
        code[bit] = row.code
        if row.alone_closed is not None:
            closable[bit] = _BLANK_LAYOUT
            val_closed[bit] = row.alone_closed
        connectable[bit] = ((0, 0, row.shape[0]),)
        val_open[bit] = row.alone_open
    multi = False  # a monster of two or more cards is worth building
    for mask, i, prev in _subsets(n):
        key = code[mask] = code[prev] + codes[i]
        d = doublers & mask
        lay = closes.get(key, _ASK)
        if lay is _ASK:
            lay = closes[key] = _closes(_shapes_of(rows, mask))
        if lay is not None:
            closable[mask] = lay
            val_closed[mask] = _value(rows, kin, mask, True, d)
            multi = True
        if d:
            reach = 0
            left = d
            while left:
                j = left & -left
                reach |= kin[j.bit_length() - 1]
                left ^= j
            if (reach & mask).bit_count() > 1:
                lay = connects.get(key, _ASK)
                if lay is _ASK:
                    lay = connects[key] = connect_all(_shapes_of(rows, mask))
                if lay is not None:
                    connectable[mask] = lay
                    val_open[mask] = _value(rows, kin, mask, False, d)
                    multi = True
    if not multi:
        # No monster of two or more cards is worth building: every card alone
        # (what the split below finds, without it), closed when it has no ends.
        alone = [_alone(deck, ids[i], (1 << i) in closable) for i in range(n)]
        all_closed = len(closable) == n
        total = sum(m.value for m in alone) + int(all_closed)
        alone.sort(key=lambda m: (-len(m.cards), -m.value))
        return Build(tuple(alone), total, all_closed)
    neg = -(10**9)
    best_any = [neg] * (full + 1)
    best_closed = [neg] * (full + 1)
    how_any: list[tuple[int, bool]] = [(0, False)] * (full + 1)
    how_closed: list[int] = [0] * (full + 1)
    best_any[0] = best_closed[0] = 0
    # The monsters worth building, by their lowest card and in decreasing order:
    # a set's first card lies in exactly one of its monsters, so each set is
    # split as (a monster holding its first card) + the best of the rest. Ties
    # keep the first split found (the largest monster, as numbers).
    firsts: list[list[tuple[int, int | None, int | None]]] = [[] for _ in range(n)]
    for sub in sorted(closable.keys() | connectable.keys(), reverse=True):
        firsts[(sub & -sub).bit_length() - 1].append(
            (sub, val_closed.get(sub), val_open[sub] if sub in connectable else None)
        )
    # Only the sets the split of the whole play reaches are solved: the play
    # less monsters that each held the first card left (far fewer than all 2^n
    # sets: n + 1 when every card lies alone). Smaller sets first, as each
    # split reads the best of its rest.
    reached = {full}
    todo = [full]
    for mask in todo:  # grows while it is read
        for sub, _, _ in firsts[(mask & -mask).bit_length() - 1]:
            rest = mask ^ sub
            if not sub & ~mask and rest and rest not in reached:
                reached.add(rest)
                todo.append(rest)
    for mask in sorted(reached):
        b_any = b_closed = neg
        h_any, h_closed = (0, False), 0
        for sub, v_closed, v_open in firsts[(mask & -mask).bit_length() - 1]:
            if sub & ~mask:
                continue  # not a part of this set
            rest = mask ^ sub
            if v_closed is not None:
                r = best_closed[rest]
                if r > neg and v_closed + r > b_closed:
                    b_closed, h_closed = v_closed + r, sub
                if v_closed + best_any[rest] > b_any:
                    b_any, h_any = v_closed + best_any[rest], (sub, True)
            if v_open is not None and v_open + best_any[rest] > b_any:
                b_any, h_any = v_open + best_any[rest], (sub, False)
        best_any[mask], best_closed[mask] = b_any, b_closed
        how_any[mask], how_closed[mask] = h_any, h_closed
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
        if not sub & (sub - 1):  # one card alone
            monsters.append(_alone(deck, ids[sub.bit_length() - 1], closed))
            continue
        members_ids = [ids[i] for i in range(n) if sub >> i & 1]
        pl = _assign(deck, members_ids, closable[sub] if closed else connectable[sub])
        value = val_closed[sub] if closed else val_open[sub]
        monsters.append(Monster(tuple(p.card for p in pl), pl, closed, value))
    monsters.sort(key=lambda m: (-len(m.cards), -m.value))
    return Build(tuple(monsters), total, all_closed)


def _alone(deck: Sequence[Card], card: int, closed: bool) -> Monster:
    """A card laid alone as a monster of the best build (Monsters are immutable:
    one per card is shared by every build)."""
    table = _card_info(deck)
    cache = _INFO[id(deck)][2]
    got = cache.get((card, closed))
    if got is None:
        row = table[card]
        value = row.alone_closed if closed and row.alone_closed is not None else row.alone_open
        pl = (Placement(card, 0, 0, row.shape[0] != deck[card].orients[0]),)
        got = cache[(card, closed)] = Monster((card,), pl, closed, value)
    return got


def flat_build(
    deck: Sequence[Card], ids: Sequence[int], doubling_ignores_colour: bool = False
) -> Build:
    """Every card laid on its own, no connections (each card its own monster)."""
    info = _card_info(deck)
    # The k-th card (by id) lies at x = 2k: one immutable Monster per card and
    # place, shared by every flat build (keys (card, x, 0), apart from _alone's).
    made = _INFO[id(deck)][2]
    monsters = []
    total = 0
    all_closed = True
    for x, i in enumerate(sorted(ids)):
        m = made.get((i, 2 * x, 0))
        if m is None:
            alone_closed = info[i].alone_closed
            closed = alone_closed is not None
            v = alone_closed if alone_closed is not None else info[i].alone_open
            m = made[(i, 2 * x, 0)] = Monster((i,), (Placement(i, 2 * x, 0),), closed, v)
        monsters.append(m)
        total += m.value
        all_closed = all_closed and m.closed
    all_closed = bool(monsters) and all_closed
    return Build(tuple(monsters), total + int(all_closed), all_closed)


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
