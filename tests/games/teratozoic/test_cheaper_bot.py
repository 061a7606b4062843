"""The second speed pass on the heuristic bot (issue 31: "cheaper bots, the
same decisions on seeded games") gives the answers of the code it replaced.

Each fast path is held to a plain reference on seeded positions:

- the sampler's shuffles (``sampling._shuffle``, ``_draw``) draw exactly what
  ``Rng.shuffle`` draws and give its order ("the future shuffles come from
  ``rng``", ``TeratozoicState.determinize``);
- a sample keeps what the sampler that drew it worked out ("a world the seat
  cannot tell from the real one samples as the real one does", ``sampling.py``),
  never the real state, and drops it once it changes or is copied;
- the proven bounds (``closed.segment_bound``, ``bots._score_bounds``) equal
  their first formulations, written out below;
- the bot's own score, solved only when its bounds leave a comparison open
  (``bots._Score``), compares as the solver's score does.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from bestiary.engine import Rng
from bestiary.engine.audit import fingerprint
from bestiary.games.teratozoic import closed
from bestiary.games.teratozoic.bots import _bound_rows, _pair_up, _Score, _score_bounds
from bestiary.games.teratozoic.rules import StateSampler, TeratozoicState
from bestiary.games.teratozoic.sampling import _bits, _draw, _shuffle, _steps
from bestiary.games.teratozoic.solver import best_build, shape_of

from .helpers import DECK, new


def _after(rng: Rng) -> list[int]:
    return [rng.randrange(1 << 30) for _ in range(3)]


def test_the_sampler_shuffles_draw_what_rng_shuffle_draws() -> None:
    """The same order from ``low`` on, the same draws (the RNG moves on
    alike), for every length, also from an RNG copied lazily (``Rng.copy``)."""
    for n in (*range(12), 17, 32, 33, 64, 90):
        for seed in range(6):
            for low in {0, 1, n // 3, n - 1, n, n + 2}:
                plain, fast, drawn = Rng(seed), Rng(seed), Rng(seed)
                if seed % 2:  # a lazy copy: its state loads at the first draw
                    plain, fast, drawn = plain.copy(), fast.copy(), drawn.copy()
                a, b = list(range(n)), list(range(n))
                plain.shuffle(a)
                _shuffle(_bits(fast), b, max(low, 0))
                _draw(_bits(drawn), _steps(n))
                assert b[low:] == a[low:], (n, seed, low)
                assert _after(plain) == _after(fast) == _after(drawn), (n, seed, low)


def _states() -> Iterator[tuple[TeratozoicState, int]]:
    """States of every phase from random play (2 to 4 players), each with a seat."""
    for players, seed in ((2, 21), (3, 22), (4, 23)):
        st = new(players, seed=seed)
        rng = Rng(seed)
        step = 0
        while not st.over:
            if step % 11 == 0:
                yield st, step % players
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            step += 1


def test_a_sample_keeps_its_sampler_until_it_changes() -> None:
    """A sample's sampler for the seat it was drawn for reuses the knowledge
    of the one that drew it: it samples as a new sampler of the sample does
    (whole states and hands alike). Another seat, a copy or a move gets a new one."""
    phases = set()
    for n, (st, seat) in enumerate(_states()):
        phases.add(st.phase)
        first = st.determinize(seat, Rng(n))
        kept, fresh = first.sampler(seat), StateSampler(first, seat)
        assert first._sampled is not None and kept.state is first
        # The sample keeps what the seat knows, never the state it was drawn from.
        assert all(v is not st for v in first._sampled[1].values())
        assert fingerprint(kept.sample(Rng(7))) == fingerprint(fresh.sample(Rng(7)))
        a, b = kept.hands(Rng(8)), fresh.hands(Rng(8))
        assert (a.hand, a.held) == (b.hand, b.held)
        other = (seat + 1) % st.players
        assert first.sampler(other).seat == other
        assert first.clone()._sampled is None
        if not first.over:
            mover = first.to_act()[0]
            first.apply(mover, first.legal(mover)[0])
            assert first._sampled is None
    assert {"expression", "growth", "breed-play", "breed-hand"} <= phases


def _segment_bound_reference(shapes: tuple[closed.Shape, ...], counts: tuple[int, ...]) -> int:
    """``closed.segment_bound`` as first written (before its counts were read
    in one pass from a per-mask table)."""
    kinds = [(k, *closed._KINDS[s[0]]) for s, k in zip(shapes, counts, strict=True)]
    if all(v == closed._NONE and h == closed._NONE for *_, v, h in kinds):
        return int(any(k for k, *_ in kinds))
    cross = [kd for kd in kinds if kd[3]]
    lone = [kd for kd in kinds if not kd[3]]
    leaves_v = sum(kd[0] for kd in lone if kd[1])
    leaves_h = sum(kd[0] for kd in lone if kd[2])
    pads_v = sum(kd[0] for kd in lone if kd[5] == closed._INSIDE)
    pads_h = sum(kd[0] for kd in lone if kd[6] == closed._INSIDE)
    traits = [(int(kd[1]), int(kd[2]), int(kd[4] is True), int(kd[4] is False)) for kd in cross]
    best = 0
    for pick in itertools.product(*(range(kd[0], -1, -1) for kd in cross)):
        crossings = sum(pick)
        v_ends = sum(n * t[0] for n, t in zip(pick, traits, strict=True))
        h_ends = sum(n * t[1] for n, t in zip(pick, traits, strict=True))
        same = sum(n * t[2] for n, t in zip(pick, traits, strict=True))
        opposite = sum(n * t[3] for n, t in zip(pick, traits, strict=True))
        for lv in range(leaves_v + 1):
            for lh in range(leaves_h + 1):
                if (lv + v_ends) % 2 or (lh + h_ends) % 2:
                    continue
                n_v, n_h = (lv + v_ends) // 2, (lh + h_ends) // 2
                size = crossings + lv + lh + (pads_v if n_v else 0) + (pads_h if n_h else 0)
                free_v = v_ends - same - opposite + lv
                free_h = h_ends - same - opposite + lh
                if (
                    size > best
                    and closed._lines_fit(n_v, n_h, crossings)
                    and closed._ends_balance(n_v, n_h, same, opposite, free_v, free_h)
                ):
                    best = size
    return best


def _multisets(count: int, seed: int) -> Iterator[tuple[tuple[closed.Shape, ...], tuple[int, ...]]]:
    shapes = sorted({shape_of(c) for c in DECK})
    rng = Rng(seed)
    for _ in range(count):
        picked = tuple(sorted(rng.sample(shapes, rng.randint(1, len(shapes)))))
        yield picked, tuple(rng.randint(0, 5) for _ in picked)


def test_the_line_bound_equals_its_first_formulation() -> None:
    """'The connections of a closed monster form straight vertical and
    horizontal lines' (``segment_bound``): the same bound, every sub-multiset
    tried without pruning, on random multisets of the standard deck's shapes."""
    for shapes, counts in _multisets(300, 5):
        expected = _segment_bound_reference(shapes, counts)
        assert closed.segment_bound.__wrapped__(shapes, counts) == expected, (shapes, counts)


def _score_bounds_reference(cards: list[int], ignore: bool) -> tuple[int, int]:
    """``bots._score_bounds`` as first written: per colour, its face values
    doubled per doubling card that can reach them."""
    low = alone = parity = 0
    values: dict[str, int] = {}
    doublers: dict[str, int] = {}
    joined: dict[str, list[int]] = {}
    for c in cards:
        colour, value, doubler, single, ends, apart, vector = _bound_rows(DECK)[c]
        low += apart
        parity ^= vector
        if not ends:
            alone += apart
            continue
        values[colour] = values.get(colour, 0) + value
        if doubler:
            doublers[colour] = doublers.get(colour, 0) + 1
        if single:
            joined.setdefault(colour, []).append(vector)
    high = alone
    every = sum(doublers.values())
    for colour, value in values.items():
        high += value << (every if ignore else doublers.get(colour, 0))
    for colour, vectors in joined.items():
        pairs = any(
            not _xor(group)
            for size in range(2, len(vectors) + 1)
            for group in itertools.combinations(vectors, size)
        )
        if pairs:
            high += (len(vectors) // 2) << doublers.get(colour, 0)
    return low + int(not values and bool(cards)), high + int(parity == 0)


def _xor(values: tuple[int, ...]) -> int:
    out = 0
    for v in values:
        out ^= v
    return out


def test_the_score_bounds_equal_their_first_formulation() -> None:
    """'Double both face values and bonus points' per doubling card, and 'no
    loose ends' only when the parities cancel: the same bounds on random
    plays (both readings of the doubling option), and ``_pair_up`` finds two
    or more parity vectors that XOR to 0 exactly when some do."""
    rng = Rng(6)
    for _ in range(1500):
        cards = rng.sample(range(len(DECK)), rng.randint(0, 9))
        ignore = rng.random() < 0.5
        assert _score_bounds(DECK, cards, ignore) == _score_bounds_reference(cards, ignore)
        vectors = [rng.randrange(16) for _ in range(rng.randint(2, 6))]
        brute = any(
            not _xor(g)
            for n in range(2, len(vectors) + 1)
            for g in itertools.combinations(vectors, n)
        )
        assert _pair_up(vectors) == brute, vectors


def test_the_own_score_compares_as_the_solved_score() -> None:
    """The bot compares its hand's best build with the others' (``_sample_wins``):
    solved or read from its bounds, every comparison comes out the same."""
    rng = Rng(9)
    open_bounds = 0
    for _ in range(150):
        hand = rng.sample(range(len(DECK)), rng.randint(1, 7))
        ignore = rng.random() < 0.3
        exact = best_build(DECK, hand, ignore).score
        open_bounds += _Score(DECK, hand, ignore).solved is None
        for other in range(exact - 3, exact + 4):
            for ask in ("below", "at_most", "equals"):
                mine = _Score(DECK, hand, ignore)  # each comparison from the bounds alone
                expected = {"below": exact < other, "at_most": exact <= other}.get(
                    ask, exact == other
                )
                assert getattr(mine, ask)(other) == expected, (hand, ask, other)
    assert 0 < open_bounds < 150  # both kinds of hands were tried
