import re

import pytest

from bestiary.engine import BadInput, Dice, Rng


@pytest.mark.parametrize(
    ("text", "count", "sides", "mod"),
    [
        ("2d20-4", 2, 20, -4),
        ("2D+3", 2, 6, 3),
        ("D6", 1, 6, 0),
        ("3D", 3, 6, 0),
        ("1d6 + 1", 1, 6, 1),
    ],
)
def test_dice_notation_of_the_rulebooks(text: str, count: int, sides: int, mod: int) -> None:
    d = Dice.parse(text)
    assert (d.count, d.sides, d.modifier) == (count, sides, mod)


@pytest.mark.parametrize("text", ["", "2x6", "0d6", "2d0", "d6*2", "two dice"])
def test_bad_dice_notation_says_what_is_expected(text: str) -> None:
    with pytest.raises(BadInput, match=re.escape(f"bad dice notation '{text}'")):
        Dice.parse(text)


def test_rolls_stay_in_range_and_2d20_minus_4_spans_minus2_to_36() -> None:
    rng = Rng(1)
    rolls = [rng.roll("2d20-4") for _ in range(4000)]
    assert min(rolls) >= -2 and max(rolls) <= 36
    assert Dice.parse("2d20-4").minimum == -2 and Dice.parse("2d20-4").maximum == 36


def test_distribution_is_exact() -> None:
    dist = Dice.parse("2D+3").distribution()
    assert dist[5] == pytest.approx(1 / 36)
    assert dist[10] == pytest.approx(6 / 36)
    assert sum(dist.values()) == pytest.approx(1.0)


def test_same_seed_same_numbers_and_copy_continues_identically() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.roll("3d6") for _ in range(50)] == [b.roll("3d6") for _ in range(50)]
    c = a.copy()
    assert [a.randrange(100) for _ in range(20)] == [c.randrange(100) for _ in range(20)]


def _draws(rng: Rng) -> list[object]:
    out: list[object] = [rng.randrange(1000) for _ in range(5)]
    out.append(rng.random())
    cards = list(range(30))
    rng.shuffle(cards)
    out += cards
    out += rng.sample(range(100), 5)
    out += [rng.roll("3d6"), rng.choice("abcdef"), rng.randint(1, 6), rng.fork().random()]
    return out


def test_lazy_copies_draw_exactly_what_an_eager_copy_draws() -> None:
    """``copy()`` hands out a snapshot loaded at the first draw: the original,
    its copies and copies of copies all continue the same stream, each on its
    own, and the same as a ``random.Random`` given the state eagerly."""
    import random

    a = Rng(42)
    for _ in range(7):
        a.random()
    eager = random.Random()
    eager.setstate(a._r.getstate())
    b = a.copy()
    c = b.copy()
    d = a.copy()
    first = _draws(a)
    assert _draws(b) == _draws(c) == _draws(d) == first
    e = Rng(0)
    e._r = eager
    assert _draws(e) == first
    # A first draw that rejects and draws again (randint(1, 5) takes 3 bits,
    # refuses 5..7): the draw that loads the state goes on as a plain one.
    for _ in range(40):
        reference = random.Random()
        reference.setstate(a._r.getstate())
        assert a.copy().randint(1, 5) == reference.randint(1, 5)
        a.random()
    # Drawing from one never moves another.
    f = a.copy()
    g = f.copy()
    _draws(f)
    assert _draws(g) == _draws(a.copy())


def test_a_lazy_copy_has_the_state_of_an_eager_one() -> None:
    """What the trust audit's fingerprints read (``getstate``), pickling and
    ``copy.deepcopy``: the same state before and after the first draw."""
    import copy
    import pickle
    import random

    a = Rng(5)
    a.random()
    state = a._r.getstate()
    b = a.copy()
    assert b._r.getstate() == a._r.getstate() == state
    assert b._r is not a._r
    for other in (pickle.loads(pickle.dumps(b._r)), copy.deepcopy(b)._r):
        assert type(other) is random.Random
        assert other.getstate() == state
    assert a.copy()._r.gauss() == b._r.gauss()  # gauss keeps a value: loaded first
    b.random()
    assert type(b._r) is random.Random


# -- the written-out draws are the library's draws -----------------------------------
SIZES = [1, 2, 3, 5, 7, 8, 9, 16, 17, 100, 200, 2**31 + 5, 2**70 + 3]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**40 + 1])
def test_randrange_randint_shuffle_and_roll_draw_what_random_random_draws(seed: int) -> None:
    """Golden records replay only if a seed gives the same numbers as before:
    ``Rng``'s own randrange, randint, shuffle and dice must draw exactly what
    ``random.Random``'s randrange, randint, shuffle and ``sum(randint(1, sides))``
    draw, call after call, from the same state."""
    import random

    ours, lib = Rng(seed), random.Random(seed)
    for round_ in range(3):
        for n in SIZES:
            assert [ours.randrange(n) for _ in range(20)] == [lib.randrange(n) for _ in range(20)]
            assert ours.randint(-3, n) == lib.randint(-3, n)
        for length in [*range(0, 40), 200]:
            a, b = list(range(length)), list(range(length))
            ours.shuffle(a)
            lib.shuffle(b)
            assert a == b, (round_, length)
        for text in ("2d20-4", "2D+3", "D6", "3d8"):
            d = Dice.parse(text)
            expected = sum(lib.randint(1, d.sides) for _ in range(d.count)) + d.modifier
            assert ours.roll(text) == expected
        # A lazy copy (not yet loaded) draws the same as the library goes on to.
        ours = ours.copy()
        assert ours.randrange(1000) == lib.randrange(1000)
        copy = ours.copy()
        deck_a, deck_b = list(range(120)), list(range(120))
        copy.shuffle(deck_a)
        twin = random.Random()
        twin.setstate(lib.getstate())
        twin.shuffle(deck_b)
        assert deck_a == deck_b


def test_an_empty_range_is_refused_like_the_library() -> None:
    rng = Rng(3)
    for n in (0, -1):
        with pytest.raises(ValueError, match="empty range"):
            rng.randrange(n)
    with pytest.raises(ValueError, match="empty range"):
        rng.randint(5, 4)
    assert rng.randint(4, 4) == 4


def test_a_numpy_integer_bound_still_draws_like_an_int() -> None:
    np = pytest.importorskip("numpy")
    a, b = Rng(9), Rng(9)
    assert [a.randrange(np.int64(37)) for _ in range(30)] == [b.randrange(37) for _ in range(30)]


def test_dice_and_randint_do_not_go_through_an_overridden_randrange() -> None:
    """Tests and puzzles rig ``randrange`` in a subclass (a mean monster's random
    discard, say); the dice of the same state must still roll as before."""

    class Last(Rng):
        def randrange(self, n: int) -> int:
            return n - 1

    rigged, plain = Last(4), Rng(4)
    assert [rigged.roll("2d20-4") for _ in range(50)] == [plain.roll("2d20-4") for _ in range(50)]
    assert [rigged.randint(1, 6) for _ in range(50)] == [plain.randint(1, 6) for _ in range(50)]
    assert rigged.randrange(10) == 9
