"""Paired comparison of two runs that played the same deals.

Game ``i`` of a run uses seed ``first seed + i``; two runs with the same first
seed (and table size) deal the same cards and roll the same dice until the
change makes them differ. Their games are then pairs, and the difference of
a game-level metric is better estimated game by game:

    d_i = B_i - A_i,   mean d̄,   SE = sd(d) / sqrt(n),   95%: d̄ ± 1.96·SE

than from two independent samples (whose SE is sqrt(s_A²/n + s_B²/n)):
what the deal decides cancels out of each d_i. The tests:

- **0/1 metrics** (a seat's win without shared wins, a decisive game):
  McNemar's exact test: under no change, each game that changed its outcome
  did so up or down with probability one half, so the count of ups among the
  ``m`` discordant games is Binomial(m, 1/2); the two-sided p-value doubles
  the smaller tail (at most 1).
- **Other metrics** (shares with ties, margins, lengths, scores): the paired
  z test ``d̄ / SE``, normal under the central limit theorem; below
  ``SMALL`` pairs, a sign-flip permutation test instead (the signs of the
  d_i are exchangeable under no change), exact by enumeration up to 16 pairs
  and from 20,000 random sign vectors above.

Only metrics with one value per game can be paired: seat wins, decisive and
drawn games, the winning margin, game length and the mean score of a game.
Card-level and per-event metrics stay unpaired (:mod:`.compare`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np
import pyarrow as pa

from .metrics import RunView, game_margins, load
from .runs import run_meta
from .stats import Z95, normal_sf

SMALL = 30  # fewer pairs: a permutation test instead of the normal approximation
FLIPS = 20_000


@dataclass(frozen=True)
class Paired:
    """A paired difference B - A of one metric over ``n`` common games."""

    diff: float
    low: float
    high: float
    p_value: float
    test: str
    n: int

    def to_json(self) -> dict[str, Any]:
        return {
            "diff": float(self.diff),
            "low": float(self.low),
            "high": float(self.high),
            "p_value": float(self.p_value),
            "test": self.test,
            "pairs": int(self.n),
        }


def same_deals(a: pa.Table, b: pa.Table) -> bool:
    """Whether game i of both runs has the same seed (same first seed) at one table size."""
    ca, cb = run_meta(a).get("config", {}), run_meta(b).get("config", {})
    return (
        ca.get("seed") == cb.get("seed")
        and ca.get("game") == cb.get("game")
        and len(ca.get("seats", ())) == len(cb.get("seats", ()))
    )


def per_game(v: RunView) -> dict[str, dict[int, float]]:
    """Every pairable metric of a run: key (as in :mod:`.metrics`) -> game index -> value."""
    con = v.con
    indexes = [int(i) for (i,) in con.execute("SELECT index FROM runs ORDER BY index").fetchall()]
    out: dict[str, dict[int, float]] = {}
    players = [int(p) for (p,) in con.execute("SELECT DISTINCT players FROM runs").fetchall()]
    if len(players) == 1:  # keys of several table sizes carry a suffix: not paired
        shares = con.execute("SELECT index, seat, share FROM shares").fetchall()
        for s in range(players[0]):
            out[f"seat{s}_win"] = dict.fromkeys(indexes, 0.0)
        for i, s, share in shares:
            out[f"seat{int(s)}_win"][int(i)] = float(share)
    one_side = con.execute("SELECT DISTINCT index FROM shares WHERE sides = 1").fetchall()
    decisive = {int(i) for (i,) in one_side}
    out["decisive"] = {i: float(i in decisive) for i in indexes}
    out["drawish"] = {i: 1.0 - out["decisive"][i] for i in indexes}
    margins = game_margins(con)
    out["margin"] = {
        int(i): float(m)
        for i, m in zip(margins["index"].to_pylist(), margins["margin"].to_pylist(), strict=True)
    }
    out["score"] = {
        int(i): float(m)
        for i, m in con.execute("SELECT index, list_avg(scores) FROM runs").fetchall()
        if m is not None
    }
    for col in ("decisions", "turns", "rounds"):
        got = con.execute(f"SELECT index, {col} FROM runs WHERE {col} IS NOT NULL").fetchall()
        if got:
            out[f"length_{col}"] = {int(i): float(x) for i, x in got}
    return out


def mcnemar(ups: int, downs: int) -> float:
    """Two-sided exact McNemar p-value: ``ups`` of ``ups + downs`` discordant
    pairs under Binomial(m, 1/2)."""
    m = ups + downs
    if m == 0:
        return 1.0
    k = min(ups, downs)
    tail = sum(math.comb(m, j) for j in range(k + 1)) / 2.0**m
    return min(1.0, 2.0 * tail)


def sign_flip(d: np.ndarray, seed: int = 0) -> float:
    """Two-sided sign-flip permutation p-value of the mean of ``d``."""
    n = len(d)
    observed = abs(float(d.mean()))
    if n <= 16:
        signs = np.array(list(product((-1.0, 1.0), repeat=n)))
        means = np.abs(signs @ d / n)
        return float(np.mean(means >= observed - 1e-12))
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(FLIPS, n))
    means = np.abs(signs @ d / n)
    return float((np.sum(means >= observed - 1e-12) + 1) / (FLIPS + 1))


def paired_difference(x: np.ndarray, y: np.ndarray) -> Paired:
    """B - A over paired games (``x`` = A's values, ``y`` = B's, game by game)."""
    d = y - x
    n = len(d)
    if n < 2:
        return Paired(float(d.mean()) if n else 0.0, -math.inf, math.inf, 1.0, "paired", n)
    mean = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(n)
    low, high = mean - Z95 * se, mean + Z95 * se
    binary = bool(np.all((x == 0) | (x == 1)) and np.all((y == 0) | (y == 1)))
    if binary:
        p, test = mcnemar(int(np.sum(d > 0)), int(np.sum(d < 0))), "paired, McNemar exact"
    elif n < SMALL:
        p, test = sign_flip(d), "paired, sign-flip permutation"
    elif se == 0:
        p, test = (1.0 if mean == 0 else 0.0), "paired z"
    else:
        p, test = min(1.0, 2 * normal_sf(abs(mean) / se)), "paired z"
    return Paired(mean, low, high, p, test, n)


def paired_rows(a: pa.Table, b: pa.Table) -> dict[str, Paired]:
    """Key -> the paired difference, for every pairable metric of two runs on
    the same deals (empty when they are not: different first seeds or sizes)."""
    if not same_deals(a, b):
        return {}
    ga, gb = per_game(load(a)), per_game(load(b))
    out: dict[str, Paired] = {}
    for key in ga.keys() & gb.keys():
        common = sorted(ga[key].keys() & gb[key].keys())
        if len(common) < 2:
            continue
        x = np.fromiter((ga[key][i] for i in common), dtype=float, count=len(common))
        y = np.fromiter((gb[key][i] for i in common), dtype=float, count=len(common))
        out[key] = paired_difference(x, y)
    return out
