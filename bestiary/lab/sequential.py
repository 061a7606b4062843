"""``bestiary ab``: play two versions of a game on common seeds in batches and
stop as soon as the question is answered — without the error growing with
every look.

Looking at a fixed-sample test after every batch and stopping at the first
p < 0.05 claims a change far more often than 5% (each look is another chance).
Instead the difference is tracked with an **always-valid confidence
sequence**: intervals that hold the true mean at *every* look at once with
probability at least ``1 - α``, so stopping whenever one of them excludes 0
keeps the false-claim rate at most ``α``.

The boundary is the **two-sided normal mixture** of Robbins (1970, "Statistical
methods related to the law of the iterated logarithm", Ann. Math. Statist.
41(5)) in the form of Howard, Ramdas, McAuliffe and Sekhon (2021,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann.
Statist. 49(2); their normal-mixture boundary, two-sided). Game *i* gives the
paired difference ``d_i = B_i - A_i`` of a metric with values in [0, 1]
(a seat's win share, a decisive game), so ``d_i ∈ [-1, 1]``; by Hoeffding's
lemma ``d_i - μ`` is sub-Gaussian with ``σ = (1 - (-1)) / 2 = 1``. With
``S_t = Σ_{i≤t} (d_i - μ)`` and ``V_t = σ² t``, mixing
``exp(λ S_t - λ² V_t / 2)`` over ``λ ~ N(0, 1/ρ)`` gives the nonnegative
supermartingale ``sqrt(ρ / (V_t + ρ)) · exp(S_t² / (2 (V_t + ρ)))``; Ville's
inequality then gives, for every t at once, with probability ≥ 1 - α:

    |S_t| ≤ u(t) = sqrt( (V_t + ρ) · log( (V_t + ρ) / (ρ α²) ) )

so ``d̄_t ± u(t) / t`` is the confidence sequence for μ. ``ρ`` sets where
it is tightest; it must be fixed before the data: :func:`rho_for` picks the
ρ that minimises ``u`` at the budget's last look (``ρ = m / y`` with
``y = 2 log(1/α) + log(1 + y)``, the stationary point of ``u(m)``).

Why this and not an SPRT: an SPRT tests one point alternative chosen in
advance (a change of exactly δ) and says nothing about how large the change
is; the confidence sequence needs no alternative, gives an interval at
every look, and with ``margin`` also answers "no change larger than the
margin". It is conservative (the bound holds for any distribution in
[-1, 1]): under no change it claims one far less often than α.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Any

import numpy as np

from ..engine.errors import BadInput
from .metrics import load
from .paired import per_game
from .runs import RunConfig, play_rows, rows_table

SIGMA = 1.0  # sub-Gaussian scale of a difference bounded in [-1, 1]
BOUNDED = ("seat", "decisive", "drawish")  # per-game metrics with values in [0, 1]


def rho_for(games: int, alpha: float) -> float:
    """The mixture's ρ that makes the boundary tightest after ``games`` games."""
    if games < 1 or not 0 < alpha < 1:
        raise ValueError("games >= 1 and 0 < alpha < 1")
    base = 2 * math.log(1 / alpha)
    y = base
    for _ in range(100):  # y = base + log(1 + y): a contraction, converges fast
        y = base + math.log1p(y)
    return SIGMA * SIGMA * games / y


def radius(t: int, alpha: float, rho: float) -> float:
    """Half-width of the confidence sequence for the mean after ``t`` games:
    ``sqrt((σ²t + ρ) log((σ²t + ρ) / (ρ α²))) / t``."""
    if t < 1:
        return math.inf
    v = SIGMA * SIGMA * t + rho
    return math.sqrt(v * math.log(v / (rho * alpha * alpha))) / t


@dataclass(frozen=True)
class Look:
    games: int  # pairs so far
    mean: float  # mean paired difference B - A
    low: float  # the confidence sequence at this look
    high: float


@dataclass
class Sequential:
    """The running test: feed differences with :meth:`add`, read :attr:`decision`."""

    alpha: float
    budget: int  # the most pairs (sets ρ)
    margin: float = 0.0  # > 0: also stop when the interval lies inside ±margin
    total: float = 0.0
    n: int = 0
    looks: list[Look] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise BadInput(f"--alpha must lie between 0 and 1 (got {self.alpha})")
        if self.margin < 0:
            raise BadInput(f"--margin must be 0 or more (got {self.margin})")
        self.rho = rho_for(self.budget, self.alpha)

    def add(self, d: Sequence[float] | np.ndarray) -> Look:
        arr = np.asarray(d, dtype=float)
        if len(arr) and (arr.min() < -1 - 1e-9 or arr.max() > 1 + 1e-9):
            raise BadInput("a paired difference outside [-1, 1]: the metric is not a share")
        self.total += float(arr.sum())
        self.n += len(arr)
        mean = self.total / self.n if self.n else 0.0
        r = radius(self.n, self.alpha, self.rho)
        # The mean of a difference in [-1, 1] lies in [-1, 1]: cut the interval there.
        look = Look(self.n, mean, max(-1.0, mean - r), min(1.0, mean + r))
        self.looks.append(look)
        return look

    @property
    def decision(self) -> str:
        """``"up"`` / ``"down"`` (a change, B above or below A), ``"same"`` (no
        change larger than the margin), or ``"open"``."""
        if not self.looks:
            return "open"
        last = self.looks[-1]
        if last.low > 0:
            return "up"
        if last.high < 0:
            return "down"
        if self.margin > 0 and -self.margin < last.low and last.high < self.margin:
            return "same"
        return "open"


@dataclass
class ABResult:
    metric: str
    alpha: float
    margin: float
    budget: int
    decision: str  # as Sequential.decision; "open" when the budget ran out
    looks: list[Look]
    a_mean: float  # the metric's mean in A and B over the paired games
    b_mean: float
    failed: int  # pairs left out because a game of the pair failed

    def to_json(self) -> dict[str, Any]:
        last = self.looks[-1] if self.looks else Look(0, 0.0, -math.inf, math.inf)
        return {
            "metric": self.metric,
            "alpha": self.alpha,
            "margin": self.margin,
            "budget": self.budget,
            "decision": self.decision,
            "games": last.games,
            "a": self.a_mean,
            "b": self.b_mean,
            "diff": last.mean,
            "low": last.low,
            "high": last.high,
            "failed_pairs": self.failed,
            "looks": [
                {"games": k.games, "diff": k.mean, "low": k.low, "high": k.high} for k in self.looks
            ],
        }


def check_metric(metric: str) -> None:
    if not metric.startswith(BOUNDED) or not metric.replace("_", "").isalnum():
        raise BadInput(
            f"metric {metric!r} cannot be tested sequentially; allowed: seat0_win, seat1_win, "
            "... (a seat's win share), decisive, drawish (shares with values in [0, 1])"
        )


def _values(config: RunConfig, rows: list[dict[str, Any]], metric: str) -> dict[int, float]:
    table = rows_table(config, rows)
    got = per_game(load(table))
    if metric not in got:
        allowed = ", ".join(sorted(k for k in got if k.startswith(BOUNDED)))
        raise BadInput(f"this game has no metric {metric!r}; allowed: {allowed}")
    return got[metric]


def run_ab(
    config_a: RunConfig,
    config_b: RunConfig,
    metric: str = "seat0_win",
    *,
    alpha: float = 0.05,
    margin: float = 0.0,
    batch: int = 100,
    budget: int = 2000,
    workers: int = 1,
    allow_import: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ABResult:
    """Play A and B on games 0, 1, 2, ... (seeded ``config.seed + i``: the
    same deals when both have the same seed) in batches of ``batch``; after
    each batch look at the confidence sequence of the mean of
    ``metric(B_i) - metric(A_i)`` and stop when it excludes 0, lies within
    ±``margin``, or ``budget`` pairs are played."""
    check_metric(metric)
    if batch < 1 or budget < 1:
        raise BadInput("--batch and --max-games must be at least 1")
    test = Sequential(alpha, budget, margin)
    a_sum = b_sum = 0.0
    failed = 0
    for start in count(0, batch):
        if start >= budget or test.decision != "open":
            break
        idx = list(range(start, min(start + batch, budget)))
        rows_a = [
            r
            for b in play_rows(config_a, idx, workers=workers, allow_import=allow_import)
            for r in b
        ]
        rows_b = [
            r
            for b in play_rows(config_b, idx, workers=workers, allow_import=allow_import)
            for r in b
        ]
        va, vb = _values(config_a, rows_a, metric), _values(config_b, rows_b, metric)
        common = sorted(va.keys() & vb.keys())
        failed += len(idx) - len(common)
        x = np.array([va[i] for i in common], dtype=float)
        y = np.array([vb[i] for i in common], dtype=float)
        a_sum += float(x.sum())
        b_sum += float(y.sum())
        test.add(y - x)
        if progress:
            progress(len(idx))
    n = max(test.n, 1)
    return ABResult(
        metric, alpha, margin, budget, test.decision, test.looks, a_sum / n, b_sum / n, failed
    )
