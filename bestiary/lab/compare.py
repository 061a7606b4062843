"""``bestiary compare A B``: what the designer changed first, then every metric
of two runs side by side, with the difference B - A, its 95% interval and a test.

- **The change first**: the card files' differences card by card and field
  by field (:mod:`.cardiff`), the options and seats that differ, and the
  metrics of the changed cards (a card's picks, plays and wins), before
  anything else.
- **Paired when the runs share their deals** (same first seed and table
  size, :mod:`.paired`): a game-level metric's difference is estimated game
  by game, and its interval is shown beside the unpaired one.
- **Tests**: proportions use the two-proportion z test; means the bootstrap
  interval and a permutation p-value, or Welch's from 30 games a side
  (:mod:`.stats`). With hundreds of metrics, some pass p < 0.05 by chance:
  every row has a Benjamini-Hochberg q-value, and "significant" means
  q < 0.05 (the expected share of false calls among the calls is at most 5%).
- The rest is ranked by q-value, then by the difference over its standard
  error. A change that is not significant while the runs are too small to
  see a 5-point difference is marked "too few games".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

import pyarrow as pa

from ..i18n import core
from . import html as h
from . import plots
from .cardiff import CardChange, card_changes
from .metrics import Metric, all_metrics
from .paired import Paired, paired_rows
from .power import compare_power
from .power import section as power_section
from .runs import run_meta
from .stats import (
    Z95,
    Difference,
    benjamini_hochberg,
    mean_difference,
    min_detectable,
    two_proportions,
)

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
    d: Difference  # unpaired
    too_few: bool
    paired: Paired | None = None  # the same deals in both runs: game by game
    q: float = 1.0  # Benjamini-Hochberg over every row of the comparison
    changed: bool = False  # a metric of a card the designer changed

    @property
    def p(self) -> float:
        """The p-value of the row's main test: the paired one when there is one."""
        return self.paired.p_value if self.paired else self.d.p_value

    @property
    def significant(self) -> bool:
        return self.q < 0.05

    @property
    def interval(self) -> tuple[float, float]:
        return (self.paired.low, self.paired.high) if self.paired else (self.d.low, self.d.high)

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
            "q_value": float(self.q),
            "significant": bool(self.significant),
            "too_few_games": bool(self.too_few),
            "changed_card": bool(self.changed),
            "paired": self.paired.to_json() if self.paired else None,
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
    paired = paired_rows(a, b)
    changed = {c.name.casefold() for c in card_changes(a, b)[0]}
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
        mine = bool(x.name) and x.name.casefold() in changed
        rows.append(Row(key, x.label, x.kind, x, y, d, few, paired.get(key), changed=mine))
    qs = benjamini_hochberg([r.p for r in rows])
    rows = [replace(r, q=q) for r, q in zip(rows, qs, strict=True)]
    rows.sort(key=lambda r: (not r.changed, r.q, -r.strength, r.key))
    return rows


def config_changes(a: pa.Table, b: pa.Table) -> list[tuple[str, str, str]]:
    """What differs between the two runs' configurations (what the designer changed)."""
    ma, mb = run_meta(a), run_meta(b)
    ca, cb = shown_config(ma), shown_config(mb)
    ca["card files"] = ma.get("cards_hash") or "shipped"
    cb["card files"] = mb.get("cards_hash") or "shipped"
    out = []
    for key in sorted(set(ca) | set(cb)):
        if ca.get(key) != cb.get(key):
            out.append((key, str(ca.get(key, "")), str(cb.get(key, ""))))
    return out


def shown_config(meta: dict[str, Any]) -> dict[str, Any]:
    """A run's configuration as a reader sees it: a card file by its name, not
    by the full path it had where the run was made (on a server, a path of
    the server's own disk)."""
    cfg = dict(meta.get("config", {}))
    options = dict(cfg.get("options") or {})
    for key, value in options.items():
        if isinstance(value, str) and ("/" in value or "\\" in value):
            options[key] = PurePath(value.replace("\\", "/")).name
    if options:
        cfg["options"] = options
    return cfg


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
                "{tested} metrics are tested: a few would show p < 0.05 by chance alone, so "
                "a change is called significant only when its q-value (Benjamini-Hochberg) "
                "is below 0.05."
            ).format(tested=tested)
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


def _delta(r: Row, v: float) -> str:
    """A difference in the row's unit: percentage points for shares."""
    return f"{100 * v:+.2f} pp" if r.kind == "proportion" else f"{v:+.3g}"


def _span(r: Row, low: float, high: float) -> str:
    return f"[{_delta(r, low)}, {_delta(r, high)}]"


def _verdict(r: Row) -> str:
    if r.significant:
        return _("significant")
    return _("too few games") if r.too_few else _("no")


def _change_section(a: pa.Table, b: pa.Table, rows: list[Row], name_a: str, name_b: str) -> str:
    """What the designer changed, and what it did to the changed cards."""
    cards, unknown = card_changes(a, b)
    body = []
    if cards:
        body.append(
            h.table(
                [_("file"), _("card"), _("field"), name_a, name_b],
                [_card_row(c) for c in cards],
                numeric_from=9,
            )
        )
    for option in unknown:
        body.append(
            h.para(
                _(
                    "The {option} file of one run has changed since it was played and its "
                    "text was not kept: its changes cannot be listed."
                ).format(option=option),
                "warn",
            )
        )
    mine = [r for r in rows if r.changed]
    if mine:
        body.append(h.para(_("The metrics of the changed cards, before every other:")))
        body.append(_metric_table(mine, name_a, name_b))
    if not body:
        body.append(h.para(_("The card files are the same in both runs.")))
    return h.section("change", _("What changed"), body)


def _card_row(c: CardChange) -> tuple[str, ...]:
    gone, new = _("(not in this run)"), _("(new card)")
    if not c.field:
        return (c.file, c.card, "", gone if c.b == "(card)" else "", new if c.b == "(card)" else "")
    return (c.file, c.card, c.field, c.a, c.b)


def _metric_table(rows: list[Row], name_a: str, name_b: str) -> str:
    header = [
        _("metric"),
        name_a,
        name_b,
        _("difference"),
        _("95% interval"),
        _("unpaired interval"),
        "p",
        "q",
        _("significant (q < 5%)"),
    ]
    table_rows = []
    for r in rows:
        diff = r.paired.diff if r.paired else r.d.diff
        low, high = r.interval
        unpaired = _span(r, r.d.low, r.d.high) if r.paired else ""
        table_rows.append(
            (
                r.a.shown,
                _fmt(r, r.d.a),
                _fmt(r, r.d.b),
                _delta(r, diff),
                _span(r, low, high) + (" " + _("paired") if r.paired else ""),
                unpaired,
                f"{r.p:.3g}",
                f"{r.q:.3g}",
                _verdict(r),
            )
        )
    return h.table(header, table_rows)


def compare_html(a: pa.Table, b: pa.Table, name_a: str = "A", name_b: str = "B") -> str:
    rows = compare_tables(a, b)
    changes = config_changes(a, b)
    parts = [
        _change_section(a, b, rows, name_a, name_b),
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
        ),
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
    parts.append(power_section(compare_power(rows)))
    parts.append(h.section("metrics", _("Every metric"), [_metric_table(rows, name_a, name_b)]))
    return h.page(_("Bestiary lab: {a} vs {b}").format(a=name_a, b=name_b), parts)


def compare_json(a: pa.Table, b: pa.Table) -> dict[str, Any]:
    rows = compare_tables(a, b)
    cards, unknown = card_changes(a, b)
    return {
        "games": [games_of(a), games_of(b)],
        "changes": [{"what": w, "a": x, "b": y} for w, x, y in config_changes(a, b)],
        "card_changes": [c.to_json() for c in cards],
        "card_files_unknown": unknown,
        "paired": any(r.paired for r in rows),
        "warnings": warnings(a, b, rows),
        "metrics": [r.to_json() for r in rows],
        "games_needed": [p.to_json() | {"label": p.shown} for p in compare_power(rows)],
    }
