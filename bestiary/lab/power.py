"""How many games: the power line of ``report`` and ``compare``.

For a metric, the games a side that a two-sided z test at 5% needs to see a
change of one **point** with 80% power (:func:`.stats.games_needed`):

- a share: one percentage point (0.01), from its variance ``p(1 - p)``;
- a mean: one per cent of its value (a "point" of a length or a score has
  no common size), from the sample variance of its values.

In ``report`` (one run) the estimate is for two independent runs of that
size; in ``compare`` a metric paired on common seeds uses the variance of
its game-by-game differences ``σ_d²`` (``n = (z + z)² σ_d² / δ²``), which
is what common seeds save. ``n`` scales with 1/δ²: for a change of k points
divide by k².
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import core
from . import html as h
from .metrics import Metric
from .stats import Z95, games_needed

POINT = 0.01  # a share: one percentage point; a mean: one per cent of its value
SECTIONS = ("seats", "outcome", "length", "ludii")  # the report's headline metrics
SHOWN = 12

_ = core.gettext


@dataclass(frozen=True)
class Power:
    key: str
    shown: str  # the metric's label in the reader's language
    kind: str  # "proportion" or "mean"
    delta: float  # the change asked about, in the metric's unit
    variance: float  # per game (paired: of the differences)
    paired: bool
    games: float  # a side, for 5% two-sided and 80% power

    @property
    def change(self) -> str:
        if self.kind == "proportion":
            return _("1 point (1 pp)")
        return _("1% ({delta:.3g})").format(delta=self.delta)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "delta": float(self.delta),
            "variance": float(self.variance),
            "paired": self.paired,
            "games_a_side": math.ceil(self.games),
        }


def _delta(kind: str, value: float) -> float | None:
    if kind == "proportion":
        return POINT
    return POINT * abs(value) if value else None


def _variance(m: Metric) -> float:
    if m.kind == "proportion":
        p = m.value
        return p * (1 - p)
    return float(np.var(m.values, ddof=1)) if len(m.values) > 1 else 0.0


def of_metric(m: Metric) -> Power | None:
    """The games a side two independent runs need to see one point of ``m``."""
    delta = _delta(m.kind, m.value)
    if delta is None or not m.count:
        return None
    var = _variance(m)
    return Power(m.key, m.shown, m.kind, delta, var, False, games_needed(var, delta))


def of_row(row: Any) -> Power | None:
    """For a row of :mod:`.compare` (duck-typed: its ``a``, ``b`` metrics and
    ``paired`` difference): paired on common seeds, the variance of the
    game-by-game differences, from the paired interval's standard error
    ``SE = (high - low) / (2 · 1.96)``, ``σ_d² = n · SE²``; otherwise the
    two runs' variances averaged."""
    a: Metric = row.a
    b: Metric = row.b
    delta = _delta(a.kind, a.value)
    if delta is None:
        return None
    pair = row.paired
    if pair is not None and math.isfinite(pair.high - pair.low) and pair.n >= 2:
        se = (pair.high - pair.low) / (2 * Z95)
        var = pair.n * se * se
        return Power(a.key, a.shown, a.kind, delta, var, True, games_needed(var, delta, True))
    var = (_variance(a) + _variance(b)) / 2
    return Power(a.key, a.shown, a.kind, delta, var, False, games_needed(var, delta))


def _first(key: str) -> tuple[bool, bool, str]:
    """Seats' win shares first, then the outcome, then the rest."""
    return (not key.startswith("seat"), key not in ("decisive", "margin"), key)


def _kept(got: Iterable[Power | None]) -> list[Power]:
    # A metric that never varied (every game decisive) cannot size a test.
    return [p for p in got if p is not None and p.variance > 0][:SHOWN]


def report_power(ms: Iterable[Metric]) -> list[Power]:
    chosen = sorted((m for m in ms if m.section in SECTIONS), key=lambda m: _first(m.key))
    return _kept(of_metric(m) for m in chosen)


def compare_power(rows: Sequence[Any]) -> list[Power]:
    """The changed cards' metrics, then the seats', outcome and length metrics."""
    first = [r for r in rows if r.changed]
    rest = sorted(
        (r for r in rows if not r.changed and r.a.section in SECTIONS),
        key=lambda r: _first(r.key),
    )
    return _kept(of_row(r) for r in [*first, *rest])


def sentence(p: Power) -> str:
    """The power line for one metric, as the terminal and the pages say it."""
    if p.paired:
        text = _(
            "To see a change of {change} in {metric} at 95% confidence and 80% power you "
            "need about {n} games a side (paired on common seeds)."
        )
    else:
        text = _(
            "To see a change of {change} in {metric} at 95% confidence and 80% power you "
            "need about {n} games a side."
        )
    return text.format(change=p.change, metric=p.shown, n=f"{math.ceil(p.games):,}")


def section(powers: Sequence[Power]) -> str:
    if not powers:
        return ""
    note = _(
        "Games a side for a two-sided test at 5% to see the change with 80% power: "
        "n = (1.96 + 0.84)² · 2σ² / δ² for two runs, (1.96 + 0.84)² · σ_d² / δ² paired "
        "on common seeds (σ_d: the spread of the game-by-game differences). For a change "
        "k times larger divide by k²."
    )
    rows = [
        (
            p.shown,
            p.change,
            f"{math.sqrt(p.variance):.3g}",
            _("paired") if p.paired else _("two runs"),
            f"{math.ceil(p.games):,}",
        )
        for p in powers
    ]
    table = h.table(
        [_("metric"), _("change"), _("σ per game"), _("design"), _("games a side")],
        rows,
        numeric_from=2,
    )
    return h.section("power", _("How many games"), [h.para(note, "note"), table])
