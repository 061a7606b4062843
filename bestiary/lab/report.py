"""``bestiary report``: one self-contained HTML page (plots embedded) for a run,
and the same content as a plain JSON summary.

Sections, each an ``<section id=...>``: ``overview``, ``seats`` (advantage of
each seat with 95% Wilson intervals), ``agents`` (when agents differ),
``outcome`` (decisive/drawn games, winning margin), ``scores``, ``length``,
``lead-changes``, ``game`` (the game's own statistics and card-level items)
and ``missing`` (what the game does not report yet, so the page says so
instead of pretending).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from . import html as h
from . import plots
from .metrics import MISSING, Metric, RunView, all_metrics, load
from .runs import run_meta

GAME_TITLES = {
    "taxonomy": "Taxonomy: winning patterns, rounds without a winner, points",
    "monster-maker": "Monster Maker: getting home, gold, dungeons, how games end",
    "meat": "M.E.A.T.: factions and leaders (win rate of the side that drafted them)",
    "teratozoic": "Teratozoic: generations, Eras, gene pool, winning cards",
}


def fmt(m: Metric) -> str:
    low, high = m.interval()
    if m.kind == "proportion":
        return f"{m.value:.1%} [{low:.1%}, {high:.1%}]"
    return f"{m.value:.3g} [{low:.3g}, {high:.3g}]"


def _by_section(ms: dict[str, Metric]) -> dict[str, list[Metric]]:
    out: dict[str, list[Metric]] = defaultdict(list)
    for m in ms.values():
        out[m.section].append(m)
    return out


def _metric_table(ms: Sequence[Metric], count: str = "games") -> str:
    return h.table(
        ["metric", "value [95% interval]", count], [(m.label, fmt(m), f"{m.count:g}") for m in ms]
    )


def _overview(v: RunView, meta: dict[str, Any]) -> str:
    cfg = meta.get("config", {})
    rows = [
        ("game", cfg.get("game", v.game)),
        ("games", f"{len(v.rows)}" + (f" ({v.failed} failed, left out)" if v.failed else "")),
        ("seats", ", ".join(cfg.get("seats", []))),
        ("rotated seats", "yes" if cfg.get("rotate") else "no"),
        ("first seed", cfg.get("seed", "")),
        ("variant", cfg.get("variant") or "default"),
        (
            "options",
            ", ".join(f"{k}={val}" for k, val in sorted(cfg.get("options", {}).items())) or "none",
        ),
        ("card files", meta.get("cards_hash") or "shipped"),
    ]
    return h.section("overview", "Overview", [h.table(["", ""], rows, numeric_from=9)])


def _fair(v: RunView) -> float | None:
    """Each side's share in a fair game (one side per team)."""
    if not v.rows:
        return None
    players = v.rows[0]["players"]
    return 1 / len(set(v.teams.get(players, list(range(players)))))


def _seats(sec: dict[str, list[Metric]], v: RunView) -> str:
    ms = sec.get("seats", [])
    fair = _fair(v)
    parts = [
        h.img(plots.proportions(ms, "win share by seat (95% Wilson)", fair), "seat advantage"),
        _metric_table(ms),
        h.para(
            f"A fair game gives every side {fair:.1%}; a seat whose interval leaves that line "
            "is favoured or handicapped by its position."
            if fair
            else "",
            "note",
        ),
    ]
    return h.section("seats", "Seat advantage", parts)


def _agents(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("agents", [])
    if not ms:
        return ""
    return h.section(
        "agents",
        "Agents",
        [
            h.img(plots.proportions(ms, "win share by agent (95% Wilson)"), "agents"),
            _metric_table(ms, "seat-games"),
        ],
    )


def _outcome(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("outcome", [])
    props = [m for m in ms if m.kind == "proportion"]
    margin = next(m for m in ms if m.key == "margin")
    return h.section(
        "outcome",
        "Decisiveness",
        [
            h.img(plots.proportions(props, "decisive and drawn games"), "decisiveness"),
            h.img(
                plots.histogram(list(margin.values), "winning margin", "score difference"),
                "winning margin",
            ),
            _metric_table(ms),
        ],
    )


def _scores(v: RunView, sec: dict[str, list[Metric]]) -> str:
    parts = [
        h.img(
            plots.histogram(list(sec["scores"][0].values), "final scores", "score"),
            "score distribution",
        )
    ]
    return h.section("scores", "Scores", [*parts, _metric_table(sec["scores"], "seat-games")])


def _length(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("length", [])
    parts = [
        h.img(plots.histogram(list(m.values), m.label, m.label.split()[0]), m.label) for m in ms
    ]
    return h.section("length", "Length", [*parts, _metric_table(ms)])


def _lead_changes(v: RunView) -> str:
    vals = [r["stats"]["lead_changes"] for r in v.rows if "lead_changes" in r["stats"]]
    if vals:
        return h.section(
            "lead-changes",
            "Lead changes",
            [h.img(plots.histogram(vals, "lead changes per game", "lead changes"), "lead changes")],
        )
    return h.section(
        "lead-changes",
        "Lead changes",
        [
            h.para(
                "This game does not report running scores (a 'lead_changes' statistic), "
                "so lead changes cannot be counted yet.",
                "note",
            )
        ],
    )


def _game(v: RunView, sec: dict[str, list[Metric]]) -> str:
    parts: list[str] = []
    stats = sec.get("game", [])
    for m in (m for m in stats if m.kind == "mean"):
        parts.append(h.img(plots.histogram(list(m.values), m.label, m.label), m.label))
    groups: dict[str, list[Metric]] = defaultdict(list)
    for m in (m for m in stats if m.kind == "proportion"):
        groups[m.key.split("=")[0]].append(m)
    for key, ms in groups.items():
        parts.append(
            h.img(plots.proportions(ms[:25], key.removeprefix("stat:").replace("_", " ")), key)
        )
    items: dict[str, list[Metric]] = defaultdict(list)
    for m in sec.get("items", []):
        items[m.key.split(":")[1]].append(m)
    for kind, ms in items.items():
        seat_items = "wins" in ms[0].label
        title = f"{kind}: win rate of its seat" if seat_items else f"{kind}: how often"
        fair = _fair(v) if seat_items else None
        parts.append(h.img(plots.proportions(ms[:30], title, fair), f"items {kind}"))
        parts.append(_metric_table(ms, "seat-games" if seat_items else "rounds"))
    parts.append(_metric_table(stats))
    return h.section("game", GAME_TITLES.get(v.game, f"{v.game}: game statistics"), parts)


def _missing(v: RunView) -> str:
    wanted = MISSING["*"] + MISSING.get(v.game, [])
    return h.section(
        "missing",
        "Not reported by the game yet",
        [
            h.para("These sections need statistics the game does not report yet:", "note"),
            "<ul>" + "".join(f"<li>{h.esc(w)}</li>" for w in wanted) + "</ul>",
        ],
    )


def report_sections(table: pa.Table) -> list[str]:
    v = load(table)
    if not v.rows:
        return [h.para("No finished game in this run.", "warn")]
    ms = all_metrics(table)
    sec = _by_section(ms)
    meta = run_meta(table)
    return [
        _overview(v, meta),
        _seats(sec, v),
        _agents(sec),
        _outcome(sec),
        _scores(v, sec),
        _length(sec),
        _lead_changes(v),
        _game(v, sec),
        _missing(v),
    ]


def report_html(table: pa.Table, title: str | None = None) -> str:
    meta = run_meta(table)
    game = meta.get("config", {}).get("game", "run")
    return h.page(title or f"Bestiary lab report: {game}", report_sections(table))


def summary(table: pa.Table) -> dict[str, Any]:
    """The report as JSON: every metric with its value, interval and count."""
    v = load(table)
    return {
        "run": run_meta(table),
        "games": len(v.rows),
        "failed": v.failed,
        "metrics": {k: m.to_json() for k, m in all_metrics(table).items()} if v.rows else {},
        "missing": MISSING["*"] + MISSING.get(v.game, []),
    }
