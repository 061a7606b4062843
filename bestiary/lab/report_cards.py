"""The report's card ratings, matchups and skill-and-luck sections.

The ratings table sorts by a click on its header: a few lines of inline
script (the page stays self-contained), each cell's sort key in ``data-v``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import N_, core
from . import html as h
from . import plots
from .matchups import MIN_MEETINGS, Against, Matchup, best_agent, kinds_of, matchup
from .metrics import Metric, RunView
from .ratings import Rating

_ = core.gettext

SORT_SCRIPT = """<script id='sort-tables'>
document.querySelectorAll('table.sortable th').forEach((th, i) =>
  th.addEventListener('click', () => {
    const body = th.closest('table').tBodies[0], down = th.dataset.dir !== 'up';
    th.dataset.dir = down ? 'up' : 'down';
    const key = r => {
      const v = r.cells[i].dataset.v, x = parseFloat(v);
      return isNaN(x) ? v : x;
    };
    [...body.rows].sort((a, b) => {
      const x = key(a), y = key(b);
      return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1);
    }).forEach(r => body.appendChild(r));
  }));
</script>"""
SORT_STYLE = (
    "<style>table.sortable th{cursor:pointer}table.sortable th:hover{text-decoration:underline}"
    "tr.outlier td{background:#fdecea}</style>"
)


def _pct(x: float | None) -> str:
    return "" if x is None else f"{x:.1%}"


def _pp(x: float | None) -> str:
    return "" if x is None else f"{100 * x:+.1f}"


def _cell(text: str, key: object, numeric: bool = True) -> str:
    cls = " class='n'" if numeric else ""
    return f"<td{cls} data-v='{h.esc(key)}'>{h.esc(text)}</td>"


def sortable(header: Sequence[str], rows: Sequence[tuple[list[str], bool]]) -> str:
    """A table sorted by clicking a header; ``rows``: (cells' HTML, outlier)."""
    head = "".join(f"<th>{h.esc(x)}</th>" for x in header)
    marked = {True: "<tr class='outlier'>", False: "<tr>"}
    body = "".join(marked[out] + "".join(cells) + "</tr>" for cells, out in rows)
    return f"<table class='sortable'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def cards_section(ratings: list[Rating]) -> str:
    if not ratings:
        return h.section(
            "cards",
            _("Card ratings"),
            [h.para(_("This run records no card-level items of a seat."), "note")],
        )
    header = [
        _("case"),
        _("card"),
        _("seat-games"),
        _("rate [95%]"),
        _("win rate [95%]"),
        _("peer win rate"),
        _("difference, points [95%]"),
        _("q-value"),
        _("outlier"),
    ]
    rows = []
    for r in ratings:
        diff = (
            f"{_pp(r.difference)} [{_pp(r.difference_low)}, {_pp(r.difference_high)}]"
            if r.difference is not None
            else ""
        )
        cells = [
            _cell(r.case, r.case, False),
            _cell(r.card, r.card, False),
            _cell(f"{r.seat_games}", r.seat_games),
            _cell(f"{_pct(r.rate)} [{_pct(r.rate_low)}, {_pct(r.rate_high)}]", r.rate),
            _cell(f"{_pct(r.win_rate)} [{_pct(r.win_low)}, {_pct(r.win_high)}]", r.win_rate),
            _cell(_pct(r.peer_win_rate), r.peer_win_rate if r.peer_win_rate is not None else ""),
            _cell(diff, r.difference if r.difference is not None else ""),
            _cell("" if r.q_value is None else f"{r.q_value:.3g}", r.q_value or ""),
            _cell("★" if r.outlier else "", 1 if r.outlier else 0),
        ]
        rows.append((cells, r.outlier))
    outliers = sum(r.outlier for r in ratings)
    note = _(
        "Per card and case (what the game records: drafted, played, held...): the share of "
        "seat-games that had it, the win rate of those seats, and its difference from the mean "
        "win rate of the other cards of its case. Outliers (★, shaded): q < 0.05 after the "
        "Benjamini-Hochberg correction; their intervals are widened to match. Click a heading "
        "to sort."
    )
    found = core.ngettext(
        "{n} outlier among {m} cards.", "{n} outliers among {m} cards.", outliers
    ).format(n=outliers, m=len(ratings))
    return h.section(
        "cards",
        _("Card ratings"),
        [SORT_STYLE, h.para(note, "note"), h.para(found), sortable(header, rows), SORT_SCRIPT],
    )


# Each way of pairing seats: (heading, axis label of a row).
PAIRINGS = {
    "seat": (N_("Start positions: seat against seat"), N_("seat")),
    "agent": (N_("Agents against agents"), N_("agent")),
    "leader": (N_("Leader against leader"), N_("leader")),
    "faction": (N_("Faction against faction"), N_("faction")),
    "collecting": (N_("Collecting type against collecting type"), N_("collecting type")),
}
NOT_RECORDED = {
    "taxonomy": N_(
        "Taxonomy's runs record, per seat, the collecting types it held three or more times at "
        "a round's end; the types of every monster a winner collected are not recorded, so "
        "type groups are paired by those collecting types."
    ),
}
MAX_LABELS = 16  # the heat map's most met labels (its table holds every cell)


def _heatmap(m: Matchup) -> str:
    title, axis = PAIRINGS.get(m.by, (m.by, m.by))
    labels = m.labels[:MAX_LABELS]
    shares = [
        [m.cells[(r, c)].share if (r, c) in m.cells else None for c in labels] for r in labels
    ]
    counts = [
        [m.cells[(r, c)].meetings if (r, c) in m.cells else 0 for c in labels] for r in labels
    ]
    return plots.heatmap(
        labels,
        labels,
        shares,
        counts,
        _(title),
        xlabel=_("against ({what})").format(what=_(axis)),
        ylabel=_(axis),
        least=MIN_MEETINGS,
    )


def _matchup_table(m: Matchup) -> str:
    rows = []
    for r in m.labels:
        for c in m.labels:
            cell = m.cells.get((r, c))
            if cell is None or r == c:
                continue
            lo, hi = cell.interval()
            rows.append((r, c, f"{cell.meetings}", f"{cell.share:.1%} [{lo:.1%}, {hi:.1%}]"))
    return h.table([_("row"), _("against"), _("games"), _("win share [95%]")], rows, 2)


def matchups_section(v: RunView) -> str:
    parts = [
        h.para(
            _(
                "Each pair of seats of different sides in a game is one meeting: the row wins it "
                "when its side won and the other's did not, or else when it scored more; a tie "
                "counts half. Grey cells: fewer than {n} meetings."
            ).format(n=MIN_MEETINGS),
            "note",
        )
    ]
    if v.game in NOT_RECORDED:
        parts.append(h.para(_(NOT_RECORDED[v.game]), "note"))
    for by in kinds_of(v):
        m = matchup(v, by)
        title = _(PAIRINGS.get(by, (by, by))[0])
        if len(m.labels) < 2:
            parts.append(
                h.section(
                    f"matchups-{by}",
                    title,
                    [h.para(_("No data of this kind in this run."), "note")],
                )
            )
            continue
        parts.append(
            h.section(
                f"matchups-{by}",
                title,
                [h.img(_heatmap(m), f"{by} matchups"), _matchup_table(m)],
            )
        )
    return h.section("matchups", _("Matchups"), parts)


def _against_row(a: Against, what: str) -> tuple[str, str, str, str]:
    lo, hi = a.interval()
    return (what, f"{a.share:.1%} [{lo:.1%}, {hi:.1%}]", f"{a.line:.1%}", f"{a.p_value:.3g}")


def skill_section(v: RunView, seats: list[Metric], fair: float | None) -> str:
    """First-seat advantage against the fair share, and the better agent against a coin."""
    rows = []
    first = next((m for m in seats if m.key == "seat0_win"), None)
    if first is not None and fair is not None:
        rows.append(_against_row(Against("seat 0", first.k, first.n, fair), _("first seat wins")))
    parts = []
    best = best_agent(matchup(v, "agent")) if "agent" in kinds_of(v) else None
    if best is not None:
        rows.append(_against_row(best, _("{agent} beats another agent").format(agent=best.what)))
    else:
        parts.append(
            h.para(
                _(
                    "Every seat has the same agent: play an arena, or a run of two different "
                    "agents, to see skill against luck."
                ),
                "note",
            )
        )
    table = h.table(
        [_("question"), _("share [95%]"), _("without skill or advantage"), _("p (z test)")], rows
    )
    note = _(
        "The first seat's win share against the fair share; the best agent's share of its "
        "meetings with other agents against a coin (50%). Near the line: the game rewards "
        "luck (or the agents play alike); far above: skill shows."
    )
    return h.section("skill", _("Skill and luck"), [h.para(note, "note"), table, *parts])
