"""Matchups: how a seat (or a leader, a faction, an agent...) fares against another.

Every pair of seats of different sides in a game is one *meeting*: the row
seat beats the column seat when its side won and the other's did not, or,
neither (or both) having won, when it scored more (ranked by winning, then
score, as the arena ranks sides); an exact tie counts half. A cell (A, B) is
the share of meetings of a seat labelled A with a seat labelled B that A won,
with its Wilson interval; the cell (B, A) is its complement. Labels come from
the run: ``seat`` (start positions), ``agent`` (the seat's agent spec), or a
seated item kind (M.E.A.T.'s ``leader`` and ``faction``, Taxonomy's
``collecting``: each key the seat held 3+ times at a round's end).
"""

from __future__ import annotations

from dataclasses import dataclass

from .metrics import RunView
from .stats import normal_sf, wilson

# A cell with fewer meetings is greyed on the heat map (its share says little).
MIN_MEETINGS = 10

# What each game's run records to pair by, beyond seats and agents: item kinds.
MATCHUP_KINDS: dict[str, tuple[str, ...]] = {
    "meat": ("leader", "faction"),
    "taxonomy": ("collecting",),
}


@dataclass(frozen=True)
class Cell:
    row: str
    col: str
    wins: float  # meetings the row won (ties half)
    meetings: int

    @property
    def share(self) -> float:
        return self.wins / self.meetings if self.meetings else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.meetings)


@dataclass(frozen=True)
class Matchup:
    by: str  # "seat", "agent" or an item kind
    labels: list[str]
    cells: dict[tuple[str, str], Cell]


def _labels_sql(by: str) -> str:
    """(index, seat, label) rows for one way of labelling seats."""
    if by == "seat":
        return (
            "SELECT index, unnest(range(0, len(seats))) AS seat, "
            "'seat ' || unnest(range(0, len(seats)))::VARCHAR AS label FROM runs"
        )
    if by == "agent":
        return (
            "SELECT index, unnest(range(0, len(seats))) AS seat, unnest(seats) AS label FROM runs"
        )
    kind = by.replace("'", "''")
    return (
        "SELECT DISTINCT index, it.seat AS seat, it.name AS label FROM "
        f"(SELECT index, UNNEST(items) AS it FROM runs) WHERE it.kind = '{kind}' AND it.seat >= 0"
    )


def matchup(v: RunView, by: str) -> Matchup:
    con = v.con
    got = con.execute(
        f"""
        WITH s AS (
            SELECT index, players, unnest(scores) AS score,
                   unnest(range(0, len(scores))) AS seat FROM runs
        ), o AS (
            SELECT s.index, s.seat, t.team, s.score, coalesce(sh.share, 0.0) AS share
            FROM s JOIN teams t USING (players, seat)
            LEFT JOIN shares sh ON sh.index = s.index AND sh.seat = s.seat
        ), lab AS ({_labels_sql(by)})
        SELECT a.label AS r, b.label AS c, count(*) AS n,
               sum(CASE WHEN x.share > y.share OR (x.share = y.share AND x.score > y.score)
                        THEN 1.0
                        WHEN x.share = y.share AND x.score = y.score THEN 0.5
                        ELSE 0.0 END) AS k
        FROM o x JOIN o y ON x.index = y.index AND x.team <> y.team
        JOIN lab a ON a.index = x.index AND a.seat = x.seat
        JOIN lab b ON b.index = y.index AND b.seat = y.seat
        GROUP BY r, c
        """
    ).fetchall()
    cells = {(str(r), str(c)): Cell(str(r), str(c), float(k), int(n)) for r, c, n, k in got}
    seen: dict[str, int] = {}
    for (r, _c), cell in cells.items():
        seen[r] = seen.get(r, 0) + cell.meetings
    if by == "seat":
        labels = sorted(seen, key=lambda s: int(s.split()[-1]))
    else:  # the most met first
        labels = sorted(seen, key=lambda s: (-seen[s], s))
    return Matchup(by, labels, cells)


def kinds_of(v: RunView) -> list[str]:
    """The ways this run's seats can be paired: seats, agents when they differ, item kinds."""
    out = ["seat"]
    agents = v.con.execute("SELECT count(DISTINCT s) FROM (SELECT unnest(seats) AS s FROM runs)")
    if (agents.fetchall()[0][0] or 0) > 1:
        out.append("agent")
    return out + list(MATCHUP_KINDS.get(v.game, ()))


@dataclass(frozen=True)
class Against:
    """A share against a fixed line (a coin, the fair share): interval and z test."""

    what: str
    wins: float
    n: float
    line: float

    @property
    def share(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)

    @property
    def p_value(self) -> float:
        """Two-sided one-sample z test of the share against the line."""
        if not self.n or self.line in (0.0, 1.0):
            return 1.0
        se = (self.line * (1 - self.line) / self.n) ** 0.5
        return min(1.0, 2 * normal_sf(abs(self.share - self.line) / se))


def best_agent(agents: Matchup) -> Against | None:
    """The agent that wins most of its meetings with other agents, against a coin."""
    totals: dict[str, list[float]] = {}
    for (r, c), cell in agents.cells.items():
        if r != c:
            t = totals.setdefault(r, [0.0, 0.0])
            t[0] += cell.wins
            t[1] += cell.meetings
    if len(totals) < 2:
        return None
    best = max(totals, key=lambda a: (totals[a][0] / totals[a][1] if totals[a][1] else 0.0, a))
    return Against(best, totals[best][0], totals[best][1], 0.5)
