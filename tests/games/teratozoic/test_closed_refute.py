"""The final scoring's refutation of a size (``closed._refute``) is sound, and
the answers are those of the search without it.

``closed_pools.json``: 74 colour pools of random games (2-6 players, both
variants) and of a profiled benchmark, with the answers the final scoring gave
before the refutation was added: the twelve slowest of about 4,000, forty of
the pools whose line bound is above the answer (those the branch and bound
had to refute a size for) and thirty others.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from bestiary.games.teratozoic import closed
from bestiary.games.teratozoic.closed import Shape, largest_closed, upper_bound
from bestiary.games.teratozoic.solver import shape_of

from .helpers import DECK, ids

POOLS = json.loads((Path(__file__).parent / "closed_pools.json").read_text())

# A 14-card green pool whose line bound (13) is one above its answer (12): the
# branch and bound had to visit every layout to refute 13 (3.5 s in a profile).
# The two 13-card sub-multisets that pass the bounds are each proven not to
# close, which refutes 13.
FOURTEEN = [
    "green 1 head",
    "green 3 hip",
    "green 2 knee",
    "green 1 hook",
    "green 5 neck",
    "green 6 belly",
    "green 3 segment",
    "green 1 elbow",
    "green 2 coil",
    "green 3 haunch",
    "green 5 spine",
    "green 4 crest",
    "green 6 torso",
    "green 1 carapace",
]


def _cold() -> None:
    for cache in (
        closed.close_all,
        closed._largest_closed_cached,
        closed.parity_bound,
        closed.segment_bound,
        closed.upper_bound,
        closed._matcher,
    ):
        cache.cache_clear()


def _pool(p: dict[str, list]) -> tuple[tuple[Shape, ...], tuple[int, ...]]:
    return tuple(tuple(s) for s in p["shapes"]), tuple(p["counts"])


def test_the_answers_are_unchanged_on_the_sample() -> None:
    """Size, cards used, bound and exactness equal the answers before the change."""
    _cold()
    for p in POOLS:
        shapes, counts = _pool(p)
        got = largest_closed(shapes, counts)
        assert (got.size, list(got.counts), got.bound, got.exact) == (
            p["size"],
            p["used"],
            p["bound"],
            p["exact"],
        ), p


def test_the_refutation_never_cuts_below_the_answer() -> None:
    """It never refutes the proven answer's size, and never finds a monster
    larger than it (None, 'not known', is always allowed)."""
    _cold()
    checked = 0
    for p in POOLS:
        shapes, counts = _pool(p)
        if p["size"]:
            assert closed._refute(shapes, counts, p["size"], 100_000)[0] is not True, p
        for size in range(p["size"] + 1, upper_bound(shapes, counts) + 1):
            refuted, _ = closed._refute(shapes, counts, size, 100_000)
            assert refuted is not False, (p, size)
            checked += refuted is True
    assert checked >= 20  # the sample has sizes the refutation settles


def test_a_hand_built_pool_where_the_refutation_proves_the_answer() -> None:
    _cold()
    pool = ids(*FOURTEEN)
    per = Counter(shape_of(DECK[c]) for c in pool)
    shapes = tuple(sorted(per))
    counts = tuple(per[s] for s in shapes)
    assert upper_bound(shapes, counts) == 13
    _cold()
    refuted, spent = closed._refute(shapes, counts, 13, 400_000)
    assert refuted is True and spent < 400_000
    assert closed._refute(shapes, counts, 12, 400_000)[0] is False  # 12 close
    got = largest_closed(shapes, counts)
    assert (got.size, got.exact, got.bound) == (12, True, 12)
