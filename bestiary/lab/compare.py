"""``bestiary compare A B``: every metric of two runs side by side, with the
difference B - A, its 95% interval and a test, the biggest movers first.

Proportions use the two-proportion z test; means the bootstrap interval and a
permutation p-value (:mod:`bestiary.lab.stats`). "Biggest movers" are ranked
by the difference over its standard error, so a large but noisy change does
not crowd out a small sure one. A change that is not significant while the
runs are too small to see a 5-point difference is marked "too few games".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..i18n import core
from . import html as h
from . import plots
from .metrics import Metric, all_metrics
from .runs import run_meta
from .stats import Z95, Difference, mean_difference, min_detectable, two_proportions

FEW_GAMES = 1000  # below this many games per run the page warns first of all
DETECT = 0.05  # a difference of win shares a designer cares about

_ = core.gettext


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    kind: str
    a: Metric
    b: Metric
    d: Difference
    too_few: bool

    @property
    def strength(self) -> float:
        se = (self.d.high - self.d.low) / (2 * Z95)
        return abs(self.d.diff) / se if se > 0 else (0.0 if self.d.diff == 0 else float("inf"))

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "kind": self.kind,
            # Plain floats and bools: the bootstrap's are NumPy scalars, which
            # json.dumps(default=str) would write as strings ("True").
            "a": float(self.d.a),
            "b": float(self.d.b),
            "diff": float(self.d.diff),
            "low": float(self.d.low),
            "high": float(self.d.high),
            "p_value": float(self.d.p_value),
            "test": self.d.test,
            "significant": bool(self.d.significant),
            "too_few_games": bool(self.too_few),
            "n_a": self.a.count,
            "n_b": self.b.count,
        }


def _difference(a: Metric, b: Metric) -> Difference:
    if a.kind == "proportion":
        return two_proportions(a.k, a.n, b.k, b.n)
    reps = 2000 if max(len(a.values), len(b.values)) <= 5000 else 500
    return mean_difference(a.values, b.values, reps=reps)


_LAST: list[tuple[pa.Table, pa.Table, list[Row]]] = []  # the JSON and the page share it


def compare_tables(a: pa.Table, b: pa.Table) -> list[Row]:
    for x, y, rows in _LAST:
        if x is a and y is b:
            return rows
    rows = _compare(a, b)
    _LAST[:] = [(a, b, rows)]
    return rows


def _compare(a: pa.Table, b: pa.Table) -> list[Row]:
    ma, mb = all_metrics(a), all_metrics(b)
    rows = []
    for key in [k for k in ma if k in mb]:
        x, y = ma[key], mb[key]
        if x.kind != y.kind or not x.count or not y.count:
            continue
        d = _difference(x, y)
        few = (
            not d.significant
            and x.kind == "proportion"
            and min_detectable(x.n, y.n, max(min((x.value + y.value) / 2, 0.95), 0.05)) > DETECT
        )
        rows.append(Row(key, x.label, x.kind, x, y, d, few))
    rows.sort(key=lambda r: (-r.strength, r.key))
    return rows


def config_changes(a: pa.Table, b: pa.Table) -> list[tuple[str, str, str]]:
    """What differs between the two runs' configurations (what the designer changed)."""
    ma, mb = run_meta(a), run_meta(b)
    ca, cb = dict(ma.get("config", {})), dict(mb.get("config", {}))
    ca["card files"] = ma.get("cards_hash") or "shipped"
    cb["card files"] = mb.get("cards_hash") or "shipped"
    out = []
    for key in sorted(set(ca) | set(cb)):
        if ca.get(key) != cb.get(key):
            out.append((key, str(ca.get(key, "")), str(cb.get(key, ""))))
    return out


def games_of(t: pa.Table) -> int:
    return int(t.num_rows - t.column("error").drop_null().length())


def warnings(a: pa.Table, b: pa.Table, rows: list[Row]) -> list[str]:
    out = []
    na, nb = games_of(a), games_of(b)
    if min(na, nb) < FEW_GAMES:
        mde = min_detectable(na, nb)
        out.append(
            _(
                "Too few games to tell small changes: {a} and {b} games can only show a "
                "change of win share larger than about {mde:.0%}. Run more (--games) to see "
                "smaller ones."
            ).format(a=na, b=nb, mde=mde)
        )
    tested = len(rows)
    if tested >= 20:
        out.append(
            _(
                "{tested} metrics are tested: about {chance} of them may show p < 0.05 by "
                "chance alone. Trust a change that you expected, or that stays when you run "
                "more games."
            ).format(tested=tested, chance=tested // 20)
        )
    ga = run_meta(a).get("config", {}).get("game")
    gb = run_meta(b).get("config", {}).get("game")
    if ga != gb:
        out.append(
            _(
                "The runs are of different games ({a} and {b}): only shared metrics are shown."
            ).format(a=ga, b=gb)
        )
    return out


def _fmt(r: Row, v: float) -> str:
    return f"{v:.1%}" if r.kind == "proportion" else f"{v:.3g}"


def compare_html(a: pa.Table, b: pa.Table, name_a: str = "A", name_b: str = "B") -> str:
    rows = compare_tables(a, b)
    changes = config_changes(a, b)
    parts = [
        h.section(
            "runs",
            _("The two runs"),
            [
                h.table(
                    ["", name_a, name_b],
                    [(_("games"), games_of(a), games_of(b)), *changes],
                    numeric_from=9,
                ),
            ],
        )
    ]
    warn = warnings(a, b, rows)
    if warn:
        parts.append(h.section("warning", _("Read with care"), [h.para(w, "warn") for w in warn]))
    # Proportions and means live on different scales: one plot each, means as a
    # change relative to A, so "decisions per game" does not dwarf a win share.
    props = [r for r in rows if r.strength > 0 and r.kind == "proportion"][:15]
    means = [r for r in rows if r.strength > 0 and r.kind == "mean" and r.d.a][:10]
    movers = []
    if props:
        movers.append(
            h.img(
                plots.differences(
                    [r.a.shown for r in props],
                    [(100 * r.d.diff, 100 * r.d.low, 100 * r.d.high) for r in props],
                    _("{b} - {a}: shares, percentage points (95%)").format(a=name_a, b=name_b),
                ),
                _("biggest movers"),
            )
        )
    if means:
        movers.append(
            h.img(
                plots.differences(
                    [r.a.shown for r in means],
                    [
                        (
                            100 * r.d.diff / abs(r.d.a),
                            100 * r.d.low / abs(r.d.a),
                            100 * r.d.high / abs(r.d.a),
                        )
                        for r in means
                    ],
                    _("{b} vs {a}: means, change in % of {a} (95%)").format(a=name_a, b=name_b),
                ),
                _("biggest movers, means"),
            )
        )
    if movers:
        parts.append(h.section("movers", _("Biggest movers"), movers))
    table_rows = [
        (
            r.a.shown,
            _fmt(r, r.d.a),
            _fmt(r, r.d.b),
            f"{r.d.diff:+.2%}" if r.kind == "proportion" else f"{r.d.diff:+.3g}",
            f"[{r.d.low:+.3g}, {r.d.high:+.3g}]",
            f"{r.d.p_value:.3g}",
            _("significant") if r.d.significant else (_("too few games") if r.too_few else _("no")),
        )
        for r in rows
    ]
    header = [
        _("metric"),
        name_a,
        name_b,
        _("difference"),
        _("95% interval"),
        "p",
        _("significant (5%)"),
    ]
    parts.append(h.section("metrics", _("Every metric"), [h.table(header, table_rows)]))
    return h.page(_("Bestiary lab: {a} vs {b}").format(a=name_a, b=name_b), parts)


def compare_json(a: pa.Table, b: pa.Table) -> dict[str, Any]:
    rows = compare_tables(a, b)
    return {
        "games": [games_of(a), games_of(b)],
        "changes": [{"what": w, "a": x, "b": y} for w, x, y in config_changes(a, b)],
        "warnings": warnings(a, b, rows),
        "metrics": [r.to_json() for r in rows],
    }
