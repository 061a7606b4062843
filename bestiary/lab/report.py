"""``bestiary report``: one self-contained HTML page (plots embedded) for a run,
and the same content as a plain JSON summary.

Sections, each an ``<section id=...>``: ``overview``, ``seats`` (advantage of
each seat with 95% Wilson intervals), ``agents`` (when agents differ),
``outcome`` (decisive/drawn games, winning margin), ``scores``, ``length``,
``ludii`` (Ludii's evaluation metrics in one table: branching factor,
duration, decisiveness, drawishness, first-player advantage, lead changes),
``lead-changes``, ``game`` (the game's own sections, :data:`GAME_SECTIONS`,
then every other statistic), ``cards`` (card ratings), ``matchups``,
``skill`` (skill and luck) and ``missing`` (what the lab does not measure
for this game, and why).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from ..i18n import N_, core
from . import html as h
from . import plots
from .compare import shown_config
from .metrics import NOT_MEASURED, Metric, RunView, all_metrics, load
from .power import report_power
from .power import section as power_section
from .ratings import card_ratings
from .report_cards import cards_section, matchups_section, skill_section
from .runs import run_meta

_ = core.gettext

GAME_TITLES = {
    "taxonomy": N_("Taxonomy: winning patterns, natures, exhausted stock, collecting types"),
    "monster-maker": N_("Monster Maker: getting home, deaths, treasure values, how games end"),
    "meat": N_("M.E.A.T.: factions, leaders and cards (picked, played, won)"),
    "teratozoic": N_("Teratozoic: Eras, gene pool growth, monster sizes, per-card value"),
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


# The count column's heading: what each metric counts.
COUNTS = {"games": N_("games"), "seat-games": N_("seat-games"), "count": N_("count")}


def _metric_table(ms: Sequence[Metric], count: str = "games") -> str:
    return h.table(
        [_("metric"), _("value [95% interval]"), _(COUNTS[count])],
        [(m.shown, fmt(m), f"{m.count:g}") for m in ms],
    )


def _overview(v: RunView, meta: dict[str, Any]) -> str:
    cfg = shown_config(meta)  # a card file by its name, never a server's path
    games = (
        _("{games} ({failed} failed, left out)").format(games=v.games, failed=v.failed)
        if v.failed
        else f"{v.games}"
    )
    rows = [
        (_("game"), cfg.get("game", v.game)),
        (_("games"), games),
        (_("seats"), ", ".join(cfg.get("seats", []))),
        (_("rotated seats"), _("yes") if cfg.get("rotate") else _("no")),
        (_("first seed"), cfg.get("seed", "")),
        (_("variant"), cfg.get("variant") or _("default")),
        (
            _("options"),
            ", ".join(f"{k}={val}" for k, val in sorted(cfg.get("options", {}).items()))
            or _("none"),
        ),
        (_("card files"), meta.get("cards_hash") or _("shipped")),
    ]
    return h.section("overview", _("Overview"), [h.table(["", ""], rows, numeric_from=9)])


def _fair(v: RunView) -> float | None:
    """Each side's share in a fair game (one side per team)."""
    if not v.games:
        return None
    players = v.players
    return 1 / len(set(v.teams.get(players, list(range(players)))))


def _seats(sec: dict[str, list[Metric]], v: RunView) -> str:
    ms = sec.get("seats", [])
    fair = _fair(v)
    parts = [
        h.img(
            plots.proportions(ms, _("win share by seat (95% Wilson)"), fair), _("seat advantage")
        ),
        _metric_table(ms),
        h.para(
            _(
                "A fair game gives every side {fair:.1%}; a seat whose interval leaves that line "
                "is favoured or handicapped by its position."
            ).format(fair=fair)
            if fair
            else "",
            "note",
        ),
    ]
    return h.section("seats", _("Seat advantage"), parts)


def _agents(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("agents", [])
    if not ms:
        return ""
    return h.section(
        "agents",
        _("Agents"),
        [
            h.img(plots.proportions(ms, _("win share by agent (95% Wilson)")), _("agents")),
            _metric_table(ms, "seat-games"),
        ],
    )


def _outcome(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("outcome", [])
    props = [m for m in ms if m.kind == "proportion"]
    margin = next(m for m in ms if m.key == "margin")
    return h.section(
        "outcome",
        _("Decisiveness"),
        [
            h.img(plots.proportions(props, _("decisive and drawn games")), _("decisiveness")),
            h.img(
                plots.histogram(list(margin.values), _("winning margin"), _("score difference")),
                _("winning margin"),
            ),
            _metric_table(ms),
        ],
    )


def _scores(v: RunView, sec: dict[str, list[Metric]]) -> str:
    parts = [
        h.img(
            plots.histogram(list(sec["scores"][0].values), _("final scores"), _("score")),
            _("score distribution"),
        )
    ]
    return h.section("scores", _("Scores"), [*parts, _metric_table(sec["scores"], "seat-games")])


def _length(sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("length", [])
    parts = [
        h.img(plots.histogram(list(m.values), m.shown, m.shown.split()[0]), m.shown) for m in ms
    ]
    return h.section("length", _("Length"), [*parts, _metric_table(ms)])


def _ludii(sec: dict[str, list[Metric]], ms: dict[str, Metric]) -> str:
    """Ludii's game-evaluation metrics, gathered from the other sections."""
    keys = [
        "branching",
        "length_decisions",
        "length_turns",
        "length_rounds",
        "decisive",
        "drawish",
        "seat0_win",
        "lead_changes",
        "decided_at",
    ]
    picked = [ms[k] for k in keys if k in ms]
    parts = [_metric_table(picked)]
    b = ms.get("branching")
    if b is not None:
        parts.insert(
            0,
            h.img(
                plots.histogram(list(b.values), _("branching factor per game"), _("legal actions")),
                _("branching factor"),
            ),
        )
    parts.append(
        h.para(
            _(
                "Branching: mean legal actions per decision. Duration: decisions, turns, rounds. "
                "Decisive: one side won; drawish: the rest. First-player advantage: seat 0's win "
                "share. Lead changes and 'winner clear from' come from the running scores."
            ),
            "note",
        )
    )
    return h.section("ludii", _("Ludii metrics"), parts)


def _lead_changes(sec: dict[str, list[Metric]]) -> str:
    ms = {m.key: m for m in sec.get("ludii", [])}
    lc, dec = ms.get("lead_changes"), ms.get("decided_at")
    if lc is None:
        return h.section(
            "lead-changes",
            _("Lead changes"),
            [h.para(_("This game keeps no running score, so it has no lead changes."), "note")],
        )
    parts = [
        h.img(
            plots.histogram(list(lc.values), _("lead changes per game"), _("lead changes")),
            _("lead changes"),
        )
    ]
    if dec is not None:
        parts.append(
            h.img(
                plots.histogram(
                    list(dec.values),
                    _("winner clear from (share of rounds)"),
                    _("share of the game"),
                ),
                _("winner clear from"),
            )
        )
    parts.append(_metric_table([m for m in (lc, dec) if m is not None]))
    parts.append(
        h.para(
            _(
                "A lead change: a round after which a different side is alone in the lead. "
                "'Winner clear from': the share of the game after which the eventual winner led "
                "alone to the end (small: decided early; 1: decided in the last round)."
            ),
            "note",
        )
    )
    return h.section("lead-changes", _("Lead changes"), parts)


# A figure of a game's section: (how, what). how: "win" (win share of the seats
# that had each item), "rate" (share of seat-games that had it), "share" (share
# of the kind's items), "value" (mean value per item name), "series" (the same,
# in name order, as a line), "hist" (a numeric statistic), "cats" (a string one).
Figure = tuple[str, str]
GAME_SECTIONS: dict[str, list[tuple[str, str, str, list[Figure]]]] = {
    "taxonomy": [
        (
            "taxonomy-patterns",
            N_("Winning patterns and their points"),
            N_(
                "How often each pattern wins a round, and the points it scores (no winner: the "
                "stock ran out); the win share is that of the game's winner among round winners."
            ),
            [("share", "pattern"), ("value", "pattern"), ("win", "pattern")],
        ),
        (
            "taxonomy-natures",
            N_("Natures: how often they fire, whom they help"),
            N_(
                "A nature fires when its monster is discarded (aggressive, cheerful, mean, proud) "
                "or drawn (honest, impatient). Win share: the seats it fired for, against the fair "
                "share; value: firings per seat-game when it fired."
            ),
            [("rate", "nature"), ("win", "nature"), ("value", "nature"), ("hist", "natures_fired")],
        ),
        (
            "taxonomy-stock",
            N_("Exhausted stock"),
            N_("Rounds that ended because the stock ran out (no winner), and why rounds end."),
            [("share", "round_end"), ("hist", "stock_ran_out")],
        ),
        (
            "taxonomy-types",
            N_("Collecting types"),
            N_(
                "A seat holding 3 or more monsters of one collecting key at a round's end "
                "attempted it; success (value): it won the round with a set of that key."
            ),
            [("share", "collecting"), ("value", "collecting")],
        ),
    ],
    "monster-maker": [
        (
            "mm-home",
            N_("Who gets home"),
            N_(
                "Dungeons each seat came back from (value: per game), and the turns from a "
                "dungeon's start to each homecoming."
            ),
            [("value", "got home"), ("hist", "home_turns"), ("hist", "home_dungeons")],
        ),
        (
            "mm-deaths",
            N_("Deaths"),
            N_("Deaths per seat and game, and their causes."),
            [("value", "died"), ("cats", "death_causes"), ("hist", "deaths")],
        ),
        (
            "mm-treasure",
            N_("Treasure values"),
            N_(
                "Gold of each banked treasure (dice treasures as rolled), how often it is banked, "
                "and the win share of the seats that banked it."
            ),
            [("value", "treasure"), ("share", "treasure"), ("win", "treasure"), ("value", "prize")],
        ),
        (
            "mm-end",
            N_("How games end"),
            "",
            [("cats", "end")],
        ),
    ],
    "meat": [
        (
            "meat-leaders",
            N_("Leaders"),
            N_("Win share of the side whose seat led with each leader."),
            [("win", "leader"), ("rate", "leader")],
        ),
        (
            "meat-factions",
            N_("Factions"),
            N_("Win share of the side whose seat drafted each faction most."),
            [("win", "faction"), ("rate", "faction")],
        ),
        (
            "meat-cards",
            N_("Cards: picked, played, won"),
            N_(
                "Pick rate: seat-games in which a seat drafted the card; play rate: in which it "
                "placed, set or cast it; win share: of the seats that did."
            ),
            [("rate", "picked"), ("win", "picked"), ("rate", "played"), ("win", "played")],
        ),
    ],
    "teratozoic": [
        (
            "tz-eras",
            N_("Era lengths"),
            N_("Generations played in each Era."),
            [("value", "era"), ("hist", "era_lengths")],
        ),
        (
            "tz-pool",
            N_("Gene pool growth"),
            N_(
                "Mean gene pool size (pool, discard pile and hand) at the start of each generation."
            ),
            [("series", "gene pool")],
        ),
        (
            "tz-monsters",
            N_("Monster sizes"),
            N_("Cards per monster built in growth, and per monster scored at the end."),
            [("hist", "monster_sizes"), ("hist", "final_monster_sizes")],
        ),
        (
            "tz-cards",
            N_("Per-card value"),
            N_(
                "Cards the generation's winner took from play and cards kept from hand: how often, "
                "and the win share of the seats that gained them."
            ),
            [("rate", "took"), ("win", "took"), ("rate", "kept"), ("win", "kept")],
        ),
    ],
}
TOP = 30  # bars per figure: the most frequent names


def _figure(how: str, what: str, ms: list[Metric], v: RunView) -> tuple[str, list[Metric]]:
    """One figure of a game section (its HTML, "" when the run has no such data)."""
    title = what.replace("_", " ")
    if how in ("hist", "cats"):
        got = [m for m in ms if m.facet == "stat" and m.group == what]
        if not got:
            return "", []
        if how == "hist":
            return h.img(plots.histogram(list(got[0].values), title, title), title), got
        return h.img(plots.proportions(got[:TOP], title, short=True), title), got[:TOP]
    # "rate" and "share" are the same question (how often) for items that come
    # once per seat-game and for items that do not: either answers it.
    facets = {"series": ("value",), "rate": ("rate", "share"), "share": ("share", "rate")}
    want = facets.get(how, (how,))
    got = [m for m in ms if m.group == what and m.facet in want]
    if not got:
        return "", []
    if how == "series":
        got.sort(key=lambda m: m.name)
        t = _("{what} by order").format(what=title)
        return h.img(plots.series(got, t, title), f"{title} series"), got
    got.sort(key=lambda m: -m.count)
    got = got[:TOP]
    if how == "value":
        t = _("{what}: mean value").format(what=title)
        return h.img(plots.means(got, t), f"{title} value"), got
    if how == "win":
        t = _("{what}: win share of its seat (95% Wilson)").format(what=title)
        return h.img(plots.proportions(got, t, _fair(v), short=True), f"{title} win"), got
    t = (
        _("{what}: share of seat-games (95% Wilson)")
        if how == "rate"
        else _("{what}: share (95% Wilson)")
    ).format(what=title)
    return h.img(plots.proportions(got, t, short=True), f"{title} {how}"), got


def _game(v: RunView, sec: dict[str, list[Metric]]) -> str:
    ms = sec.get("game", []) + sec.get("items", [])
    parts: list[str] = []
    used: set[str] = set()
    for sid, title, note, figures in GAME_SECTIONS.get(v.game, []):
        inner = [h.para(_(note), "note")] if note else []
        shown: list[Metric] = []
        for how, what in figures:
            fig, got = _figure(how, what, ms, v)
            if fig:
                inner.append(fig)
                shown += got
                used.update(m.key for m in got)
        if not shown:
            inner.append(h.para(_("No data of this kind in this run."), "note"))
        else:
            inner.append(_metric_table(shown, "count"))
        parts.append(h.section(sid, _(title), inner))
    rest = [m for m in ms if m.key not in used]
    for m in (m for m in rest if m.kind == "mean" and m.facet == "stat"):
        parts.append(h.img(plots.histogram(list(m.values), m.shown, m.shown), m.shown))
    groups: dict[str, list[Metric]] = defaultdict(list)
    for m in rest:
        if m.kind == "proportion" and m.facet == "stat":
            groups[m.group].append(m)
    for key, group in groups.items():
        parts.append(h.img(plots.proportions(group[:25], key.replace("_", " ")), f"stat {key}"))
    if rest:
        parts.append(h.section("game-other", _("Other statistics"), [_metric_table(rest, "count")]))
    named = GAME_TITLES.get(v.game)
    heading = _(named) if named else _("{game}: game statistics").format(game=v.game)
    return h.section("game", heading, parts)


def _missing(v: RunView) -> str:
    notes = NOT_MEASURED.get(v.game, [])
    body = (
        "<ul>" + "".join(f"<li>{h.esc(_(w))}</li>" for w in notes) + "</ul>"
        if notes
        else h.para(_("Every statistic the lab knows for this game is measured."), "note")
    )
    return h.section("missing", _("Not measured"), [body])


def report_sections(table: pa.Table) -> list[str]:
    v = load(table)
    if not v.games:
        return [h.para(_("No finished game in this run."), "warn")]
    ms = all_metrics(table, v)
    sec = _by_section(ms)
    meta = run_meta(table)
    return [
        _overview(v, meta),
        _seats(sec, v),
        _agents(sec),
        _outcome(sec),
        _scores(v, sec),
        _length(sec),
        _ludii(sec, ms),
        _lead_changes(sec),
        power_section(report_power(ms.values())),
        _game(v, sec),
        cards_section(card_ratings(table, v)),
        matchups_section(v),
        skill_section(v, sec.get("seats", []), _fair(v)),
        _missing(v),
    ]


def report_html(table: pa.Table, title: str | None = None) -> str:
    meta = run_meta(table)
    game = meta.get("config", {}).get("game", "run")
    return h.page(
        title or _("Bestiary lab report: {game}").format(game=game), report_sections(table)
    )


def summary(table: pa.Table) -> dict[str, Any]:
    """The report as JSON: every metric with its value, interval and count."""
    v = load(table)
    return {
        # The card files' text stays in the file (for compare), not in the summary.
        "run": {k: v for k, v in run_meta(table).items() if k != "files"},
        "games": v.games,
        "failed": v.failed,
        "metrics": {k: m.to_json() for k, m in all_metrics(table, v).items()} if v.games else {},
        "not_measured": NOT_MEASURED.get(v.game, []),
        "games_needed": [p.to_json() for p in report_power(all_metrics(table, v).values())]
        if v.games
        else [],
    }
