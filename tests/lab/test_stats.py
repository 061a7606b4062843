"""The lab's formulas against values worked out by hand or printed in references."""

from __future__ import annotations

import pytest

from bestiary.lab.stats import (
    bootstrap_means,
    mean_difference,
    min_detectable,
    two_proportions,
    welch,
    wilson,
)


def test_wilson_matches_the_published_interval() -> None:
    # Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662 (Wilson score, 95%).
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-5)
    assert high == pytest.approx(0.3662, abs=5e-5)


def test_wilson_edges_stay_inside_zero_and_one() -> None:
    # 0/10: the interval is [0, z²/(n+z²)] = [0, 0.2775].
    assert wilson(0, 10) == (0.0, pytest.approx(0.27753, abs=1e-5))
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.72247, abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_z_test_against_hand_computation() -> None:
    # 45/100 vs 60/100: pooled p = 0.525, se0 = sqrt(.525*.475*.02) = 0.070622,
    # z = 0.15/0.070622 = 2.1240, two-sided p = 0.03367.
    d = two_proportions(45, 100, 60, 100)
    assert d.diff == pytest.approx(0.15)
    assert d.p_value == pytest.approx(0.03367, abs=2e-5)
    # Wald interval: se = sqrt(.45*.55/100 + .6*.4/100) = 0.069821 -> 0.15 ± 0.13685
    assert d.low == pytest.approx(0.01315, abs=1e-4)
    assert d.high == pytest.approx(0.28685, abs=1e-4)
    assert d.significant


def test_equal_proportions_are_not_significant() -> None:
    d = two_proportions(50, 100, 50, 100)
    assert d.diff == 0 and d.p_value == pytest.approx(1.0)
    assert not d.significant


def test_bootstrap_finds_a_clear_shift_and_not_noise() -> None:
    a = [float(i % 7) for i in range(200)]
    shifted = [v + 2.0 for v in a]
    d = bootstrap_means(a, shifted, reps=500)
    assert d.diff == pytest.approx(2.0)
    assert d.low < 2.0 < d.high and d.low > 1.5
    assert d.p_value < 0.01
    same = bootstrap_means(a, list(reversed(a)), reps=500)
    assert same.diff == pytest.approx(0.0)
    assert same.p_value > 0.5


def test_bootstrap_is_seeded() -> None:
    a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 5.0, 4.0]
    assert bootstrap_means(a, b, reps=200) == bootstrap_means(a, b, reps=200)


def test_min_detectable_effect_shrinks_with_games() -> None:
    # 2.8016 * sqrt(.25 * 2/1000) = 0.06265
    assert min_detectable(1000, 1000) == pytest.approx(0.06265, abs=1e-4)
    assert min_detectable(10_000, 10_000) < min_detectable(100, 100)


def test_welch_against_hand_computation() -> None:
    # means 2 and 3; sample variances 2.5 and 2.5 (1..5 and 2..6), n = 5 each:
    # se = sqrt(2.5/5 + 2.5/5) = 1, z = 1, p = 2 * P(Z > 1) = 0.31731
    d = welch([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    assert d.diff == pytest.approx(1.0)
    assert d.p_value == pytest.approx(0.31731, abs=1e-5)
    assert (d.low, d.high) == (
        pytest.approx(1 - 1.95996, abs=1e-5),
        pytest.approx(2.95996, abs=1e-5),
    )


def test_large_samples_use_welch_and_small_ones_the_bootstrap() -> None:
    big = [float(i % 10) for i in range(20_001)]
    assert mean_difference(big, big).test == "Welch z"
    assert mean_difference([1.0, 2.0], [2.0, 3.0], reps=100).test == "bootstrap/permutation"
