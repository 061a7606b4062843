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
