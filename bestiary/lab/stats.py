"""Intervals and tests, written out so a reader can check them against a textbook.

- :func:`wilson`: the Wilson score interval for a proportion k/n,
  ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.
- :func:`two_proportions`: the difference p2 - p1 with a Wald interval
  (unpooled standard error) and the two-sided z test with the pooled
  proportion, ``z = (p2 - p1) / sqrt(p(1-p)(1/n1 + 1/n2))``.
- :func:`bootstrap_means`: the difference of two means with a percentile
  bootstrap interval, and a two-sided p-value from a permutation test
  (labels shuffled under the null of no difference). Seeded: the same data
  give the same numbers.
- :func:`welch`: for large samples (the bootstrap's cost grows with them and
  the normal approximation is then exact enough) the difference of means
  with the Welch standard error ``sqrt(s1²/n1 + s2²/n2)`` and a z test.
  :func:`mean_difference` picks between the two.
- :func:`benjamini_hochberg`: q-values controlling the false discovery rate
  over the many metrics a comparison tests.
- :func:`min_detectable`: the smallest difference of proportions the
  sample sizes could detect (5% two-sided, 80% power): below it, "no
  significant change" means "too few games to tell".
- :func:`games_needed`: how many games a side a test needs to see a change
  of ``delta`` at a two-sided level ``alpha`` with ``power``, from the
  metric's observed variance (the textbook sample size of a z test).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

Z95 = 1.959963984540054
Z80 = 0.8416212335729143  # the standard normal's 80th percentile: 80% power


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (k may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Difference:
    a: float  # the first sample's value (proportion or mean)
    b: float
    diff: float  # b - a
    low: float  # 95% interval of the difference
    high: float
    p_value: float
    test: str  # "two-proportion z" or "bootstrap/permutation"

    @property
    def significant(self) -> bool:
        return bool(self.p_value < 0.05)  # a plain bool, also for NumPy p-values


def two_proportions(k1: float, n1: float, k2: float, n2: float) -> Difference:
    if n1 <= 0 or n2 <= 0:
        return Difference(0.0, 0.0, 0.0, -1.0, 1.0, 1.0, "two-proportion z")
    p1, p2 = k1 / n1, k2 / n2
    diff = p2 - p1
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    pooled = (k1 + k2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se0 == 0 else 2 * normal_sf(abs(diff) / se0)
    low, high = diff - Z95 * se, diff + Z95 * se
    return Difference(p1, p2, diff, low, high, min(p, 1.0), "two-proportion z")


def bootstrap_means(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    reps: int = 2000,
    seed: int = 0,
) -> Difference:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) == 0 or len(y) == 0:
        return Difference(0.0, 0.0, 0.0, -math.inf, math.inf, 1.0, "bootstrap/permutation")
    rng = np.random.default_rng(seed)
    diff = float(y.mean() - x.mean())
    bx, by = _resampled_means(x, reps, rng), _resampled_means(y, reps, rng)
    low, high = np.percentile(by - bx, [2.5, 97.5])
    both = np.concatenate([x, y])
    # The permutation null: a shuffle's difference as large as the one seen.
    extreme = 0
    for _ in range(reps):
        rng.shuffle(both)
        d = both[len(x) :].mean() - both[: len(x)].mean()
        extreme += abs(d) >= abs(diff) - 1e-12
    p = (extreme + 1) / (reps + 1)
    return Difference(
        float(x.mean()), float(y.mean()), diff, float(low), float(high), p, "bootstrap/permutation"
    )


def _resampled_means(x: np.ndarray, reps: int, rng: np.random.Generator) -> np.ndarray:
    # In batches: reps x n indexes at once would take gigabytes for a big run.
    batch = max(1, 4_000_000 // len(x))
    out = [
        x[rng.integers(0, len(x), (min(batch, reps - k), len(x)))].mean(axis=1)
        for k in range(0, reps, batch)
    ]
    return np.concatenate(out)


def welch(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Difference:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) < 2 or len(y) < 2:
        return Difference(0.0, 0.0, 0.0, -math.inf, math.inf, 1.0, "Welch z")
    diff = float(y.mean() - x.mean())
    se = math.sqrt(float(x.var(ddof=1)) / len(x) + float(y.var(ddof=1)) / len(y))
    p = 1.0 if se == 0 else min(1.0, 2 * normal_sf(abs(diff) / se))
    if se == 0 and diff != 0:
        p = 0.0
    return Difference(
        float(x.mean()), float(y.mean()), diff, diff - Z95 * se, diff + Z95 * se, p, "Welch z"
    )


LARGE = 20_000  # per sample: above it, Welch's normal approximation instead of resampling


NORMAL_FROM = 30  # per sample: from here the p-value is Welch's, not the permutation's


def mean_difference(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, reps: int = 2000
) -> Difference:
    """Very large samples: Welch alone. Otherwise the bootstrap interval; its
    p-value is the permutation test's for small samples, but from
    ``NORMAL_FROM`` values a side Welch's z test's: a permutation p-value
    cannot go below 1/(reps + 1) (0.0005 with 2,000 shuffles), which no mean
    could pass under a multiple-comparison correction of hundreds of metrics,
    while the normal approximation is exact enough at that size."""
    if min(len(a), len(b)) > LARGE:
        return welch(a, b)
    boot = bootstrap_means(a, b, reps=reps)
    if min(len(a), len(b)) >= NORMAL_FROM:
        return replace(boot, p_value=welch(a, b).p_value, test="bootstrap interval, Welch z")
    return boot


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg q-values: the smallest false discovery rate at which
    each test would be called a discovery. Sorted p_(1) <= ... <= p_(m):
    q_(i) = min over j >= i of (m / j) * p_(j), capped at 1. Calling every
    metric with q < 0.05 a change keeps the expected share of false calls
    among them at most 5% (for independent or positively dependent tests)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    q = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        q[i] = min(1.0, running)
    return q


def min_detectable(n1: float, n2: float, p: float = 0.5) -> float:
    """Smallest difference of proportions detectable at 5%/80% power near ``p``."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    return (Z95 + 0.8416212335729143) * math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def normal_quantile(q: float) -> float:
    """The standard normal's ``q`` quantile (bisection on :func:`normal_sf`; 0 < q < 1)."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile {q} must lie strictly between 0 and 1")
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1.0 - normal_sf(mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def games_needed(
    variance: float, delta: float, paired: bool = False, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Games a side to see a change of ``delta`` with a two-sided z test at
    level ``alpha`` and the given ``power``:

    - two independent runs, each game's value of variance ``σ²``:
      ``n = (z_{1-α/2} + z_{power})² · 2σ² / δ²``;
    - paired runs (the same deals), game-by-game differences of variance
      ``σ_d²``: ``n = (z_{1-α/2} + z_{power})² · σ_d² / δ²``.

    Hand check: a fair coin (σ² = 1/4), one percentage point (δ = 0.01),
    5%/80%: (1.95996 + 0.84162)² = 7.84888, · 2 · 0.25 / 0.0001 = 39,244.4
    games a side. ``n`` scales with 1/δ²: ten times the change, a hundredth
    of the games. A zero variance needs no game: 0."""
    if delta <= 0:
        raise ValueError("delta must be positive")
    z = normal_quantile(1 - alpha / 2) + normal_quantile(power)
    return z * z * (1.0 if paired else 2.0) * max(variance, 0.0) / (delta * delta)
