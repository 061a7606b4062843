"""The solver's caches answer as a fresh solve does.

``best_build`` keeps, per multiset of card shapes (one int code), whether it
closes and whether it connects; the final scoring's quick phase does not ask
again for a bound its caller has checked. Neither may change an answer.
"""

from __future__ import annotations

import random

from bestiary.games.teratozoic import closed, solver
from bestiary.games.teratozoic.solver import best_build, largest_closed, shape_of

from .helpers import DECK


def test_best_build_same_with_cold_and_shared_caches() -> None:
    rng = random.Random(20)
    hands = [rng.sample(range(len(DECK)), rng.randint(2, 7)) for _ in range(150)]
    for ignore in (False, True):
        solver.clear_caches()
        warm = [best_build(DECK, hand, ignore) for hand in hands]
        for hand, got in zip(hands, warm, strict=True):
            solver.clear_caches()
            assert best_build(DECK, hand, ignore) == got


def test_shape_codes_tell_multisets_apart() -> None:
    """Two different multisets of shapes never share a code (8 bits a shape)."""
    shapes = sorted({shape_of(c) for c in DECK})
    seen: dict[int, tuple[int, ...]] = {}
    rng = random.Random(3)
    for _ in range(2000):
        counts = tuple(rng.randint(0, 6) for _ in shapes)
        code = sum(n * solver._shape_code(s) for s, n in zip(shapes, counts, strict=True))
        assert seen.setdefault(code, counts) == counts


def test_largest_closed_layout_is_closed() -> None:
    """The largest closed monster of random single-colour pools is laid out as
    one closed monster of exactly its size."""
    rng = random.Random(5)
    orange = [c for c in DECK if c.colour == "orange"]
    for _ in range(12):
        pool = rng.sample(orange, rng.randint(6, 12))
        per: dict[tuple[int, ...], int] = {}
        for c in pool:
            per[shape_of(c)] = per.get(shape_of(c), 0) + 1
        shapes = tuple(sorted(per))
        for cache in (closed._largest_closed_cached, closed._matcher, closed.close_all):
            cache.cache_clear()
        got = largest_closed(shapes, [per[s] for s in shapes])
        assert got.exact
        assert len(got.layout) == got.size
        cells = {(x, y): m for x, y, m in got.layout}
        for (x, y), m in cells.items():
            for d, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                mine = (m >> (3 * d)) & 7
                other = cells.get((x + dx, y + dy))
                theirs = 0 if other is None else (other >> (3 * ((d + 2) % 4))) & 7
                assert mine == theirs  # every end meets an end, blank meets blank
