"""The largest monster with no loose ends from a multiset of cards (final scoring).

'Each player assembles their entire Gene Pool into up to three of the largest
single-color monsters with no loose ends they can': for one colour, the most
cards that make ONE connected monster in which every end meets an end.

The answer is exact, with a proof:

- **An upper bound by lines** (:func:`segment_bound`, RULES.md 'The solver'):
  the connections of a closed monster form straight vertical and horizontal
  lines; counting the cards that end lines, lie inside them or sit on two of
  them bounds how many cards one connected monster can use. It is tight on
  every pool of the standard deck we measured.
- **A search from the bound down.** For each size: lay out whole
  sub-multisets of that size (:func:`_close_search`; using every card prunes
  hard, so a monster is found at once when one exists), and if none is found,
  a branch and bound over every layout (:class:`_Search`) settles the size.
  That search visits no layout twice up to translation (the monster's top-left
  card, which has no end north or west, sits at the origin and every other
  card below row 0 or right of it) and cuts branches with
  ``sum(ends - 2) >= -2`` over the cards still to come (n cards need n - 1
  connections). The first size that exists is the largest: every larger one
  was refuted.
- **Refuting a size sub-multiset by sub-multiset** (:func:`_refute`). When the
  line bound is above the answer, the branch and bound must visit every layout
  to say no (one 14-card pool took 3.5 s). A monster of n cards uses all the
  cards of one sub-multiset of n, so when a short branch and bound does not
  settle a size, every sub-multiset of that size that passes the bounds is
  laid out whole (a small tree: every card must be used); if none closes, the
  size is refuted without the full search. Only refutations are taken from
  it, so the answers (size, cards, layout) are those of the search alone.

A caller caps the work with a node budget (a server request must end); if it
runs out, the best monster found is returned with ``exact=False`` and the
proven upper bound.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .tiles import edge

Shape = tuple[int, ...]  # a card's orientation masks, sorted (see solver.shape_of)

_ROW = 256
_STEP = (1, _ROW, -1, -_ROW)  # N, E, S, W as cell offsets (cell = x * _ROW + y)
_HALF = _ROW // 2


def _xy(cell: int) -> tuple[int, int]:
    x, y = divmod(cell + _HALF, _ROW)
    return x, y - _HALF


@dataclass(frozen=True)
class ClosedMonster:
    size: int
    counts: tuple[int, ...]  # cards used per shape
    layout: tuple[tuple[int, int, int], ...]  # (x, y, orientation mask)
    # False when the node budget ran out before optimality was proven; ``bound``
    # is then the proven upper limit (it is always a proven upper limit).
    exact: bool = True
    bound: int = 0


# ------------------------------------------------------------------ bounds
def _parity_of(m: int) -> int:
    vec = 0
    for spot in range(3):
        v = ((m >> spot) & 1) + ((m >> (6 + spot)) & 1)  # N and S ends at this spot
        h = ((m >> (3 + spot)) & 1) + ((m >> (9 + spot)) & 1)
        idx = min(spot, 2 - spot)
        vec ^= (v & 1) << idx
        vec ^= (h & 1) << (2 + idx)
    return vec


_PARITY = tuple(_parity_of(m) for m in range(1 << 12))


def parity_vector(m: int) -> int:
    """Which (axis, spot) classes hold an odd number of this card's ends. Turning
    mirrors spots -1 and +1, so those two are counted together."""
    return _PARITY[m]


# Per orientation mask: its parity vector and its ends less two (what
# ``parity_bound`` reads of a card).
_PARITY_ENDS = tuple((_PARITY[m], m.bit_count() - 2) for m in range(1 << 12))


@lru_cache(maxsize=65_536)
def parity_bound(shapes: tuple[Shape, ...], counts: tuple[int, ...]) -> int:
    """At most this many cards make one monster with no loose ends:

    - every end meets exactly one end on the same axis and spot, so each
      (axis, spot) holds an even number of ends;
    - ``sum(ends - 2) >= -2`` (a connected monster of n cards has at least
      n - 1 connections): cards with a single end need cards with three or
      four ends to hang from.

    The largest subset meeting both (dropping as few cards as needed)."""
    # A card without ends is a closed monster on its own (and joins no other).
    best = 0
    leaves: list[tuple[int, int]] = []  # single-ended kinds: (parity vector, cards)
    hub_vec: list[int] = []  # the other kinds with ends: parity vector ...
    hub_delta: list[int] = []  # ... and ends - 2
    kept, budget, par0 = 0, 2, 0  # every hub card kept: their count, the budget, the parity
    for s, k in zip(shapes, counts, strict=True):
        if not k:
            continue
        vec, delta = _PARITY_ENDS[s[0]]
        if delta == -2:
            best = 1
        elif delta == -1:
            leaves.append((vec, k))
        else:
            hub_vec.append(vec)
            hub_delta.append(delta)
            kept += k
            budget += k * delta
            if k & 1:
                par0 ^= vec
    choices, most = _leaf_choices(tuple(leaves))
    # Per choice of hub kinds to drop one card of (dropping a card flips its
    # kind's parity and gives back its ends less two), fewest dropped first: a
    # choice dropping ``level`` keeps at most ``kept - level + most`` cards, so
    # once that cannot beat the best, no choice dropping more can (the same
    # maximum as trying every choice; tests/games/teratozoic/test_fast_paths.py).
    hubs = range(len(hub_vec))
    for level in range(len(hub_vec) + 1):
        k = kept - level
        if k + most <= best:
            break
        for drop in itertools.combinations(hubs, level):
            par, room = par0, budget
            for i in drop:
                par ^= hub_vec[i]
                room -= hub_delta[i]
            for cost, pairs in choices.get(par, ()):
                if k + cost <= best:
                    break  # the rest keep fewer single-ended cards
                if cost > room:
                    # Too many single-ended cards: drop them two at a time (parity kept).
                    cost -= 2 * min(pairs, (cost - room + 1) // 2)
                    if cost > room:
                        continue
                if k + cost > best:
                    best = k + cost
    return best


@lru_cache(maxsize=4096)
def _leaf_choices(
    leaves: tuple[tuple[int, int], ...],
) -> tuple[dict[int, list[tuple[int, int]]], int]:
    """Per choice of single-ended kinds (``(parity vector, cards)`` each) to
    drop one card of: the parity left, the single-ended cards kept (each
    costs one of the budget), and how many pairs of them could still be
    dropped without changing the parity. Grouped by parity (a choice only
    completes hubs of the same parity), most cards first; and the most cards
    any choice keeps. A card set has few single-ended kinds: ``parity_bound``
    meets the same ones again and again."""
    by_parity: dict[int, set[tuple[int, int]]] = {}
    most = 0
    for pick in range(1 << len(leaves)):
        p = cost = pairs = 0
        for j, (vec, cnt) in enumerate(leaves):
            c = cnt - (pick >> j & 1)
            if c & 1:
                p ^= vec
            cost += c
            pairs += c // 2
        by_parity.setdefault(p, set()).add((cost, pairs))
        most = max(most, cost)
    return {p: sorted(got, reverse=True) for p, got in by_parity.items()}, most


# The role of a card on the lines of a monster (see ``segment_bound``): on the
# vertical line through it it is nothing, its top end, its bottom end or inside;
# the same on the horizontal line (left end, right end).
_CENTRE = 0b010_010_010_010  # the centred spot of each edge
_NONE, _FIRST, _LAST, _INSIDE = 0, 1, 2, 3


def _roles(mask: int) -> tuple[int, int]:
    """(vertical, horizontal) role of a card whose ends are all centred."""
    n, e, s, w = (bool(edge(mask, d)) for d in range(4))
    v = _INSIDE if n and s else _FIRST if s else _LAST if n else _NONE
    h = _INSIDE if e and w else _FIRST if e else _LAST if w else _NONE
    return v, h


def _kind(mask: int) -> tuple[bool, bool, bool, bool | None, int, int]:
    """What ``segment_bound`` needs of a card: (ends a vertical line, ends a
    horizontal line, on two lines, corner coupling, vertical role, horizontal role)."""
    v, h = _roles(mask)
    v_end, h_end = v in (_FIRST, _LAST), h in (_FIRST, _LAST)
    # A corner whose top (first) vertical end is also its first horizontal end
    # couples 'same'; else 'opposite'.
    coupling = (v == h) if v_end and h_end else None
    return v_end, h_end, v != _NONE and h != _NONE, coupling, v, h


_KINDS = tuple(_kind(m) for m in range(1 << 12))


def _segment_row(mask: int) -> tuple[bool, int, int, int, int, tuple[int, int, int, int] | None]:
    """``_kind(mask)`` as ``segment_bound`` counts it: (on a line at all; for a
    card on one line, as 0/1: ends a vertical line, ends a horizontal one, inside
    a vertical one, inside a horizontal one; for a card on two lines, its
    traits: ends a vertical line, ends a horizontal one, 'same' corner,
    'opposite' corner, as 0/1, else None)."""
    v_end, h_end, two, coupling, v, h = _KINDS[mask]
    traits = (int(v_end), int(h_end), int(coupling is True), int(coupling is False))
    return (
        v != _NONE or h != _NONE,
        int(v_end),
        int(h_end),
        int(v == _INSIDE),
        int(h == _INSIDE),
        traits if two else None,
    )


_SEGMENT = tuple(_segment_row(m) for m in range(1 << 12))


@lru_cache(maxsize=65_536)
def upper_bound(shapes: tuple[Shape, ...], counts: tuple[int, ...]) -> int:
    """A proven upper bound on the largest closed monster: ``segment_bound`` when
    every end is centred, else the parity bound (never larger)."""
    parity = parity_bound(shapes, counts)
    used = [s for s, k in zip(shapes, counts, strict=True) if k]
    if not used or any(m & ~_CENTRE for s in used for m in s):
        return parity
    return min(parity, segment_bound(shapes, counts))


@lru_cache(maxsize=65_536)
def segment_bound(shapes: tuple[Shape, ...], counts: tuple[int, ...]) -> int:
    """The most cards a closed monster of centred-end cards can use, by counting lines.

    In a closed monster every end meets an end, so the connections form straight
    *lines*: a vertical line runs from a card with an end south and none north
    (its top end) through cards with ends north and south to a card with an end
    north and none south; horizontal lines likewise. Each card is on at most one
    line of each direction, and its ends say where: a single-ended card ends
    one line; a straight card is inside one; a corner ends one line of each
    direction; a T ends one and is inside the other; a cross is inside both.
    Turning a card 180° swaps which end of its lines it is. So, for the cards
    used, with V vertical and H horizontal lines and C cards on two lines:

    - V = (cards ending a vertical line) / 2 and H likewise (two ends a line);
    - the turns can make half of those ends top (left) ends; a corner that is
      the top end of its vertical line is the left end of its horizontal line
      or the right end, depending on its kind, so corners tie the two counts;
    - connected: the lines meet only at the C cards, so C >= V + H - 1, and a
      vertical and a horizontal line meet at most once: C <= V * H; a monster
      of one line has C = 0; straight cards need a line of their direction.

    The largest sub-multiset meeting all of these."""
    # The counts below, summed in one pass over the shapes (see ``_SEGMENT``).
    ends = False
    leaves_v = leaves_h = pads_v = pads_h = 0
    cross: list[int] = []  # cards of each kind on two lines
    traits: list[tuple[int, int, int, int]] = []  # and that kind's traits
    for s, k in zip(shapes, counts, strict=True):
        on_lines, v_end, h_end, v_pad, h_pad, two = _SEGMENT[s[0]]
        ends = ends or on_lines
        if two is not None:
            cross.append(k)
            traits.append(two)
        else:
            leaves_v += k * v_end
            leaves_h += k * h_end
            pads_v += k * v_pad
            pads_h += k * h_pad
    if not ends:
        return int(any(counts))  # cards without ends: one alone
    lone = leaves_v + leaves_h + pads_v + pads_h
    best = 0
    # Most cards on two lines first: once a choice cannot beat the best even
    # with every other card, no later one can (the largest size stays the same).
    picks = sorted(itertools.product(*[range(k + 1) for k in cross]), key=sum, reverse=True)
    for pick in picks:
        crossings = sum(pick)
        if crossings + lone <= best:
            break
        v_ends = h_ends = same = opposite = 0
        for n, (ve, he, sa, op) in zip(pick, traits, strict=True):
            v_ends += n * ve
            h_ends += n * he
            same += n * sa
            opposite += n * op
        free_v = v_ends - same - opposite
        free_h = h_ends - same - opposite
        for lv in range(leaves_v, -1, -1):
            if (lv + v_ends) % 2:
                continue
            n_v = (lv + v_ends) // 2
            if crossings + lv + leaves_h + pads_v + pads_h <= best:
                break
            for lh in range(leaves_h, -1, -1):
                if (lh + h_ends) % 2:
                    continue
                n_h = (lh + h_ends) // 2
                size = crossings + lv + lh + (pads_v if n_v else 0) + (pads_h if n_h else 0)
                if size <= best:
                    break  # fewer single-ended cards only lose
                if _lines_fit(n_v, n_h, crossings) and _ends_balance(
                    n_v, n_h, same, opposite, free_v + lv, free_h + lh
                ):
                    best = size
    return best


def _lines_fit(n_v: int, n_h: int, crossings: int) -> bool:
    if n_v + n_h == 0:
        return False
    if n_v + n_h == 1:
        return crossings == 0
    return n_v + n_h - 1 <= crossings <= n_v * n_h


def _ends_balance(n_v: int, n_h: int, same: int, opposite: int, free_v: int, free_h: int) -> bool:
    """Can the turns make exactly n_v top ends and n_h left ends? A 'same' corner
    is a top and left end or a bottom and right end; an 'opposite' corner a top
    and right end or a bottom and left end; the other line-enders are free."""
    for a in range(same + 1):
        for b in range(opposite + 1):
            if 0 <= n_v - a - b <= free_v and 0 <= n_h - a - (opposite - b) <= free_h:
                return True
    return False


# ------------------------------------------------------------ all the cards
class _Matcher:
    """Which (shape, orientation) may fill a cell, by what its neighbours demand:
    each placed neighbour fixes the facing edge exactly (an end meets an end,
    a blank edge a blank edge). Answers are memoised per demand, and one
    matcher serves every search over the same shapes (:func:`_matcher`).

    A demand is one int: four 4-bit fields (N, E, S, W), each the 3-bit edge
    the neighbour on that side shows, or ``_FREE`` when the cell there is empty.
    ``by_ends`` holds the same answers ordered with more ends first (the order
    the branch and bound tries them in).

    The searches ask for the answers among the shapes they still have cards
    of (``present``, a bit per shape): :meth:`among` and :meth:`among_by_ends`
    keep those lists too, by ``key << width | present`` (the same lists, in
    the same order, as filtering the answers card by card; a search asks
    this for every open end of every node)."""

    __slots__ = ("among_memo", "by_ends", "cand", "memo", "unclosable", "width")

    def __init__(self, shapes: tuple[Shape, ...]) -> None:
        self.cand = [
            (k, m, tuple(edge(m, d) for d in range(4))) for k, s in enumerate(shapes) for m in s
        ]
        self.memo: dict[int, list[tuple[int, int]]] = {}
        self.by_ends: dict[int, list[tuple[int, int]]] = {}
        self.width = len(shapes)  # bits of ``present``
        self.among_memo: dict[int, list[tuple[int, int]]] = {}
        # Sub-multisets (counts per shape) proven to make no closed monster
        # using all their cards (see ``_refute``).
        self.unclosable: set[tuple[int, ...]] = set()

    def demand(self, cells: dict[int, int], cell: int) -> int:
        get = cells.get
        o = get(cell + 1)  # the card north shows its south edge
        key = _FREE if o is None else (o >> 6) & 7
        o = get(cell + _ROW)  # east: its west edge
        key |= (_FREE if o is None else (o >> 9) & 7) << 4
        o = get(cell - 1)  # south: its north edge
        key |= (_FREE if o is None else o & 7) << 8
        o = get(cell - _ROW)  # west: its east edge
        return key | (_FREE if o is None else (o >> 3) & 7) << 12

    def answer(self, key: int) -> list[tuple[int, int]]:
        demand = [(key >> (4 * d)) & 15 for d in range(4)]
        got = self.memo[key] = [
            (k, m)
            for k, m, es in self.cand
            if all(f == _FREE or es[d] == f for d, f in enumerate(demand))
        ]
        # sorted() is stable: among equals the order of ``got`` stays.
        self.by_ends[key] = sorted(got, key=lambda km: -km[1].bit_count())
        return got

    def among(self, key: int, present: int, by_ends: bool = False) -> list[tuple[int, int]]:
        """The answers to ``key`` of the shapes in ``present``."""
        memo_key = (key << self.width | present) << 1 | by_ends
        got = self.among_memo.get(memo_key)
        if got is None:
            if key not in self.memo:
                self.answer(key)
            every = self.by_ends[key] if by_ends else self.memo[key]
            if len(self.among_memo) > 50_000:
                self.among_memo.clear()
            got = self.among_memo[memo_key] = [km for km in every if present >> km[0] & 1]
        return got

    def match(self, cells: dict[int, int], cell: int) -> list[tuple[int, int]]:
        key = self.demand(cells, cell)
        got = self.memo.get(key)
        return got if got is not None else self.answer(key)


_FREE = 8  # no card on that side: any edge fits


@lru_cache(maxsize=4096)
def _matcher(shapes: tuple[Shape, ...]) -> _Matcher:
    return _Matcher(shapes)


# The cell offsets of a mask's ends (N, E, S, W order), by orientation mask.
_OPEN = tuple(tuple(_STEP[d] for d in range(4) if (m >> (3 * d)) & 7) for m in range(1 << 12))


ShapeLayout = tuple[tuple[int, int, int], ...]  # (x, y, orientation mask) per card


@lru_cache(maxsize=65_536)
def close_all(shapes: tuple[Shape, ...]) -> ShapeLayout | None:
    """A layout of exactly these cards (a sorted multiset of shapes) as ONE
    monster with no loose ends, or None when there is none (exact)."""
    return _close_search(shapes, 0)[0]


def _close_search(
    shapes: tuple[Shape, ...], budget: int, rare_first: bool = False, bounded: bool = False
) -> tuple[ShapeLayout | None, bool, int]:
    """(layout or None, whether the answer is proven, nodes spent). ``budget``:
    search nodes allowed (0: no limit). Every card must be used, which prunes hard: a branch
    dies as soon as the monster closes early or has more open ends than cards.
    ``rare_first``: start from a card of the rarest shape (most ends among
    those) instead of the first: often a much smaller tree when there is no
    layout (a refutation), but another first layout when there is one.
    ``bounded``: the caller found ``upper_bound`` of these cards (as counts of
    its own shapes: the same bound) at least their number, so it is not asked
    again here."""
    n = len(shapes)
    uniq = sorted(set(shapes))
    counts = [shapes.count(s) for s in uniq]
    # Both are proven bounds; for a hand-sized set the cheaper one is enough.
    bound = parity_bound if n <= _SMALL else upper_bound
    if not bounded and bound(tuple(uniq), tuple(counts)) < n:
        return None, True, 0
    avail = counts
    cells: dict[int, int] = {}
    nodes = [0]
    matcher = _matcher(tuple(uniq))
    among, among_memo, width = matcher.among, matcher.among_memo, matcher.width

    def dfs(required: set[int], left: int, present: int) -> bool:
        nodes[0] += 1
        if budget and nodes[0] > budget:
            return False
        if not required:
            return left == 0
        if len(required) > left:
            return False
        pick, options = -1, None
        get = cells.get
        for cell in required:
            # What the neighbours demand (see _Matcher.demand, written out here).
            o = get(cell + 1)
            key = _FREE if o is None else (o >> 6) & 7
            o = get(cell + _ROW)
            key |= (_FREE if o is None else (o >> 9) & 7) << 4
            o = get(cell - 1)
            key |= (_FREE if o is None else o & 7) << 8
            o = get(cell - _ROW)
            key |= (_FREE if o is None else (o >> 3) & 7) << 12
            # The answers among the shapes with cards left (Matcher.among, inline).
            opts = among_memo.get((key << width | present) << 1)
            if opts is None:
                opts = among(key, present)
            if options is None or len(opts) < len(options):
                pick, options = cell, opts
                if not opts:
                    return False
        assert options is not None
        for k, m in options:
            avail[k] -= 1
            cells[pick] = m
            req = set(required)
            req.discard(pick)
            for step in _OPEN[m]:
                if pick + step not in cells:
                    req.add(pick + step)
            if dfs(req, left - 1, present if avail[k] else present ^ 1 << k):
                return True
            del cells[pick]
            avail[k] += 1
        return False

    # Every card is in the monster, so a card of any shape may sit at the origin,
    # upright (the whole monster turned 180° is a monster too).
    k0 = 0
    if rare_first:
        k0 = min(range(len(uniq)), key=lambda k: (avail[k], -uniq[k][0].bit_count()))
    m0 = uniq[k0][0]
    avail[k0] -= 1
    cells[0] = m0
    present = sum(1 << k for k, c in enumerate(avail) if c)
    if not dfs({_STEP[d] for d in range(4) if edge(m0, d)}, n - 1, present):
        return None, not (budget and nodes[0] > budget), nodes[0]
    return tuple(sorted((*_xy(c), m) for c, m in cells.items())), True, nodes[0]


# ------------------------------------------------------------------ search
class _Search:
    """One branch and bound over the layouts of a multiset (see the module doc)."""

    def __init__(
        self, shapes: tuple[Shape, ...], counts: tuple[int, ...], budget: int, floor: int = 0
    ) -> None:
        self.shapes = shapes
        self.avail = list(counts)
        self.budget = budget
        self.nodes = 0
        self.matcher = _matcher(shapes)
        self.delta = [s[0].bit_count() - 2 for s in shapes]  # ends - 2
        # Cards left with two or more ends (and their sum of ends - 2), and with one.
        self.hub_cards = sum(c for c, d in zip(counts, self.delta, strict=True) if d >= 0)
        self.hub_slack = sum(c * d for c, d in zip(counts, self.delta, strict=True) if d >= 0)
        self.leaf_cards = sum(c for c, d in zip(counts, self.delta, strict=True) if d == -1)
        self.cells: dict[int, int] = {}
        self.used = [0] * len(shapes)
        self.best_size = floor  # only monsters larger than this are looked for
        self.best: tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]] = (
            (0,) * len(shapes),
            (),
        )

    def _use(self, k: int, n: int) -> None:
        """Take (n = 1) or put back (n = -1) a card of shape ``k``, keeping the
        counts behind the bound of ``dfs`` (how many more cards can join)."""
        self.avail[k] -= n
        self.used[k] += n
        d = self.delta[k]
        if d >= 0:
            self.hub_cards -= n
            self.hub_slack -= n * d
        elif d == -1:
            self.leaf_cards -= n

    def _record(self) -> None:
        self.best_size = len(self.cells)
        lay = tuple(sorted((*_xy(c), m) for c, m in self.cells.items()))
        self.best = (tuple(self.used), lay)

    def dfs(
        self,
        required: set[int],
        placed_delta: int,
        target: int,
        hubs: int,
        slack: int,
        leaves: int,
        present: int,
    ) -> bool:
        """Grow the monster by filling ``required`` (open ends). True: stop (the
        target is reached or the budget is spent). ``hubs``, ``slack``,
        ``leaves``: the counts ``_use`` keeps, passed down (the hot loop of the
        final scoring: arguments are cheaper than attributes to update);
        ``present``: a bit per shape with cards left (see ``_Matcher.among``)."""
        self.nodes += 1
        if self.nodes > self.budget:
            return True
        n = len(self.cells)
        if not required:
            if n > self.best_size:
                self._record()
            return n >= target
        # At most this many more cards can join: every card left with two or more
        # ends, and single-ended ones while sum(ends - 2) over the monster stays >= -2.
        more = hubs + max(0, min(leaves, placed_delta + 2 + slack))
        if len(required) > more or n + more <= self.best_size:
            return False
        cells, avail = self.cells, self.avail
        matcher = self.matcher
        among, among_memo, width = matcher.among, matcher.among_memo, matcher.width
        get = cells.get
        pick, options = -1, None
        for cell in required:
            # Above the top row or left of the top-left card: no card may lie there.
            # (The row offset by _HALF is (cell + _HALF) % _ROW; in row 0 the cell
            # is x * _ROW, so x <= 0 is cell <= 0.)
            row = (cell + _HALF) % _ROW
            if row > _HALF or (row == _HALF and cell <= 0):
                return False
            # What the neighbours demand (see _Matcher.demand, written out here).
            o = get(cell + 1)
            key = _FREE if o is None else (o >> 6) & 7
            o = get(cell + _ROW)
            key |= (_FREE if o is None else (o >> 9) & 7) << 4
            o = get(cell - 1)
            key |= (_FREE if o is None else o & 7) << 8
            o = get(cell - _ROW)
            key |= (_FREE if o is None else (o >> 3) & 7) << 12
            # Cards with more ends first (``by_ends``): large monsters are found early.
            opts = among_memo.get((key << width | present) << 1 | 1)
            if opts is None:
                opts = among(key, present, True)
            if options is None or len(opts) < len(options):
                pick, options = cell, opts
                if not opts:
                    return False
        assert options is not None
        delta, used = self.delta, self.used
        for k, m in options:
            # What _use(k, 1) does, on the local counts.
            d = delta[k]
            avail[k] -= 1
            used[k] += 1
            cells[pick] = m
            new_req = set(required)
            new_req.discard(pick)
            for step in _OPEN[m]:
                nc = pick + step
                if nc not in cells:
                    new_req.add(nc)
            now = present if avail[k] else present ^ 1 << k
            if d >= 0:
                stop = self.dfs(new_req, placed_delta + d, target, hubs - 1, slack - d, leaves, now)
            elif d == -1:
                stop = self.dfs(new_req, placed_delta + d, target, hubs, slack, leaves - 1, now)
            else:
                stop = self.dfs(new_req, placed_delta + d, target, hubs, slack, leaves, now)
            del cells[pick]
            avail[k] += 1
            used[k] -= 1
            if stop:
                return True
        return False

    def run(self, target: int) -> bool:
        """Try every anchor; True when the whole tree was searched or the target met."""
        for k, s in enumerate(self.shapes):
            if not self.avail[k]:
                continue
            for m in s:
                if m == 0:
                    if self.best_size < 1:
                        self.cells = {0: m}
                        self.used[k] += 1
                        self._record()
                        self.used[k] -= 1
                        self.cells = {}
                    continue
                if edge(m, 0) or edge(m, 3):
                    continue  # the top-left card has no end north or west
                self._use(k, 1)
                self.cells = {0: m}
                req = {_STEP[d] for d in range(4) if edge(m, d)}
                present = sum(1 << j for j, c in enumerate(self.avail) if c)
                stop = self.dfs(
                    req,
                    self.delta[k],
                    target,
                    self.hub_cards,
                    self.hub_slack,
                    self.leaf_cards,
                    present,
                )
                self.cells = {}
                self._use(k, -1)
                if stop:
                    return self.nodes <= self.budget
        return True


# Search nodes per colour before the answer is given as unproven. Every pool of
# the standard deck (up to a whole colour) is proven far below this (RULES.md).
NODE_BUDGET = 2_000_000


def largest_closed(
    shapes: Sequence[Shape], counts: Sequence[int], budget: int = NODE_BUDGET
) -> ClosedMonster:
    """The largest monster with no loose ends using at most ``counts[k]`` cards of
    ``shapes[k]``. Size 0 when none can be built. Exact unless the node budget
    runs out first (``exact`` says which)."""
    return _largest_closed_cached(tuple(shapes), tuple(counts), max(int(budget), 1))


@lru_cache(maxsize=4096)
def _largest_closed_cached(
    shapes: tuple[Shape, ...], counts: tuple[int, ...], budget: int
) -> ClosedMonster:
    """From the upper bound down, one size at a time: is there a closed monster
    of this many cards? First lay out whole sub-multisets of that size (using
    every card prunes hard, so a monster is usually found at once), then, if
    none was found, the branch and bound over every layout answers the question
    for good (after a short run of it, ``_refute`` may answer no first). The
    first size answered yes is the largest, proven when every larger size was
    answered no within the node budget."""
    target = upper_bound(shapes, counts)
    none = (0,) * len(shapes)
    if target < 1:
        return ClosedMonster(0, none, (), True, 0)
    spent = 0
    for size in range(target, 0, -1):
        left = budget - spent
        if left <= 0:
            break
        found, used = _quick(shapes, counts, size, min(left, _QUICK_BUDGET * 4))
        spent += used
        if found is not None:
            return ClosedMonster(size, found[0], found[1], True, target if size == target else size)
        # Is there a monster of ``size`` cards? A short branch and bound first
        # (it stops where the full one would: a monster it finds is the one the
        # full search finds); then an attempt to refute the size sub-multiset by
        # sub-multiset (cheap where the line bound is above the answer and the
        # branch and bound must visit every layout to say no); then the full
        # branch and bound (also when a sub-multiset closes: the size exists).
        search = _Search(shapes, counts, max(min(_PROBE_BUDGET, budget - spent), 1), size - 1)
        complete = search.run(size)
        spent += search.nodes
        if not complete and search.best_size < size:
            refuted, used = _refute(
                shapes, counts, size, min(_REFUTE_BUDGET, (budget - spent) // 2)
            )
            spent += used
            if refuted:
                continue
            search = _Search(shapes, counts, max(budget - spent, 1), floor=size - 1)
            complete = search.run(size)
            spent += search.nodes
        if search.best_size >= size:
            used_counts, layout = search.best
            return ClosedMonster(size, used_counts, layout, True, size)
        if not complete:
            break
    else:
        return ClosedMonster(0, none, (), True, 0)
    # The budget ran out while asking about ``size``: larger sizes are refuted.
    fallback = _any_closed(shapes, counts)
    return ClosedMonster(fallback[0], fallback[1], fallback[2], False, size)


def _quick(
    shapes: tuple[Shape, ...], counts: tuple[int, ...], size: int, budget: int
) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]] | None, int]:
    """A monster of exactly ``size`` cards found by laying out whole sub-multisets
    (each within a small node budget), or None; and the nodes spent."""
    spent = 0
    unclosable = _matcher(shapes).unclosable
    for sub in _sub_multisets(shapes, counts, size):
        multiset = tuple(sorted(s for s, k in zip(shapes, sub, strict=True) for _ in range(k)))
        allowed = min(_QUICK_BUDGET, max(budget - spent, 1))
        layout, proven, used = _close_search(multiset, allowed, bounded=True)
        spent += used
        if layout is not None:
            return (sub, layout), spent
        if proven:
            unclosable.add(sub)  # for _refute
        if spent >= budget:
            break
    return None, spent


def _refute(
    shapes: tuple[Shape, ...], counts: tuple[int, ...], size: int, budget: int
) -> tuple[bool | None, int]:
    """(True when no monster of exactly ``size`` cards exists, False when one
    does, None when not known; the nodes spent).

    A monster of ``size`` cards uses all the cards of one sub-multiset of that
    size, so the size is refuted when every sub-multiset that passes the bounds
    is proven not to close with all its cards used (``_close_search``, within
    the ``budget`` shared by all; those proven are kept per matcher). Not known
    when there are more than ``_REFUTE_SUBSETS`` of them or the budget runs out."""
    if budget <= 0:
        return None, 0
    subs = []
    drop = sum(counts) - size
    for combo in itertools.islice(
        itertools.combinations_with_replacement(range(len(shapes)), drop), _QUICK_COMBOS + 1
    ):
        left = list(counts)
        for k in combo:
            left[k] -= 1
        if min(left) >= 0:
            subs.append(tuple(left))
    if len(subs) > _QUICK_COMBOS:
        return None, 0
    known = _matcher(shapes).unclosable
    todo = []
    for sub in subs:
        if sub in known or upper_bound(shapes, sub) < size:
            continue
        todo.append(sub)
        if len(todo) > _REFUTE_SUBSETS:
            return None, 0
    # First a little for each (most that close do so at once, and a sub-multiset
    # that closes answers the question), then all the budget left, in turn,
    # from the rarest shape (a smaller tree to refute).
    spent = 0
    for first in (True, False):
        unknown = []
        for sub in todo:
            if spent >= budget:
                return None, spent
            multiset = tuple(sorted(s for s, k in zip(shapes, sub, strict=True) for _ in range(k)))
            allowed = budget - spent
            if first:
                allowed = min(allowed, _REFUTE_FIRST)
            layout, proven, used = _close_search(
                multiset, allowed, rare_first=not first, bounded=True
            )
            spent += used
            if layout is not None:
                return False, spent
            if proven:
                known.add(sub)
            elif not first:
                return None, spent
            else:
                unknown.append(sub)
        todo = unknown
    return True, spent


def _any_closed(
    shapes: tuple[Shape, ...], counts: tuple[int, ...]
) -> tuple[int, tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """A small closed monster found cheaply when the budget is spent (a floor):
    the best of a few quick tries from small sizes up."""
    best: tuple[int, tuple[int, ...], tuple[tuple[int, int, int], ...]] = (
        0,
        (0,) * len(shapes),
        (),
    )
    for size in range(1, min(upper_bound(shapes, counts), 8) + 1):
        found, _ = _quick(shapes, counts, size, _QUICK_BUDGET)
        if found is not None:
            best = (size, found[0], found[1])
    return best


# Nodes of the first, short branch and bound for a size (see _largest_closed_cached).
_PROBE_BUDGET = 20_000
# Refuting a size sub-multiset by sub-multiset: at most this many sub-multisets
# passing the bounds.
_REFUTE_SUBSETS = 16
# Nodes for each sub-multiset in the refutation's first round, and for all.
_REFUTE_FIRST = 5_000
_REFUTE_BUDGET = 400_000
# Up to this many cards close_all checks only the parity bound before searching.
_SMALL = 6
# The quick phase: nodes per sub-multiset laid out whole.
_QUICK_BUDGET = 3_000


def _sub_multisets(
    shapes: tuple[Shape, ...], counts: tuple[int, ...], size: int
) -> Iterator[tuple[int, ...]]:
    """Sub-multisets of ``size`` cards that pass the parity bound, dropping as few
    kinds of card as possible first (at most a few hundred are tried, out of at
    most ``_QUICK_COMBOS`` looked at: the branch and bound settles the rest)."""
    drop = sum(counts) - size
    tried = 0
    # All the cards of a sub-multiset close only if their ends pair up (parity 0),
    # they have n - 1 connections (2 + sum(ends - 2) >= 0) and none is blank (but
    # for a blank card alone): checked first, as the parity bound would.
    vecs = [_PARITY[s[0]] for s in shapes]
    deltas = [s[0].bit_count() - 2 for s in shapes]
    blank = [s[0] == 0 for s in shapes]
    combos = itertools.combinations_with_replacement(range(len(shapes)), drop)
    for combo in itertools.islice(combos, _QUICK_COMBOS):
        left = list(counts)
        for k in combo:
            left[k] -= 1
        if min(left) < 0:
            continue
        par, slack, has_blank = 0, 2, False
        for k, c in enumerate(left):
            if c:
                if c & 1:
                    par ^= vecs[k]
                slack += c * deltas[k]
                has_blank = has_blank or blank[k]
        if par or (size > 1 and has_blank) or slack < 0:
            continue
        sub = tuple(left)
        if upper_bound(shapes, sub) < size:
            continue
        yield sub
        tried += 1
        if tried >= _QUICK_TRIES:
            return


_QUICK_TRIES = 200
# How many ways to drop cards the quick phase looks at, at most. Every Gene Pool
# of random games and of the benchmarks needs fewer than 200; without a cap, a
# pool with many copies of a few shapes (a designer's deck) has millions of ways,
# each asking for a bound, before the search that answers the size for good.
_QUICK_COMBOS = 5_000
