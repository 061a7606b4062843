"""A run table -> named metrics, each a proportion (k of n) or a sample of numbers.

Reports, compare and sweep all read these, so a metric means the same thing
everywhere. Win accounting follows ``bestiary simulate``: a team's win
counts for each member, a win shared by several sides is split between
them. Ludii's evaluation metrics map onto these keys:

- ``decisive``: share of games won by exactly one side (Ludii's decisiveness
  as "a winner is determined"); ``drawish``: the rest (ties, no winner).
- ``seat0_win``: advantage of the first player (seat 0's win share).
- ``length_*``: duration in turns, rounds and decisions.
- ``margin``: winner's score minus the best other side's score.

- ``branching``: legal actions per decision (the runner counts them).
- ``lead_changes`` / ``decided_at``: from running scores (every seat's score
  after each round, from the game's lab tracker): how often the sole leader
  changed, and from which share of the game the eventual winner led for good.

Card-level items become ``item:KIND:NAME`` metrics (:func:`item_metrics`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from ..i18n import N_, core
from .rows import LENGTH
from .stats import wilson

# What the lab deliberately does not measure, per game, and why (the report says so).
# English in the JSON summary; the report shows each in the reader's language.
NOT_MEASURED: dict[str, list[str]] = {
    "taxonomy": [
        N_("loyal natures: passive (a loyal monster cannot be claimed), so they never 'fire'"),
    ],
    "teratozoic": [
        N_("lead changes: Teratozoic counts its score once, at the end (no running score)"),
    ],
}


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB without its progress bar (it would print into the CLI's output)."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return con


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[Any, ...] | None:
    """The first row of a query (fetched whole: DuckDB keeps a half-read result open)."""
    rows = con.execute(sql).fetchall()
    return rows[0] if rows else None


@dataclass
class Metric:
    key: str
    label: str
    section: str
    kind: str  # "proportion" or "mean"
    k: float = 0.0
    n: float = 0.0
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    # Where a card-level or game statistic comes from, for the game's sections:
    # group = item kind or stat key; name = item name or category; facet =
    # "win", "rate", "share", "value" (items) or "stat" (statistics).
    group: str = ""
    name: str = ""
    facet: str = ""
    # A label marked for translation: its English template and its values
    # (``label`` stays English, as in the JSON; ``shown`` is the reader's).
    msg: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def shown(self) -> str:
        """The label in the current language (data labels are shown as they are)."""
        if not self.msg:
            return self.label
        return core.gettext(self.msg).format(**self.args)

    @property
    def value(self) -> float:
        if self.kind == "proportion":
            return self.k / self.n if self.n else 0.0
        return float(self.values.mean()) if len(self.values) else 0.0

    @property
    def binary(self) -> bool:
        v = self.values
        return bool(len(v)) and bool(np.all((v == 0) | (v == 1)))

    @property
    def count(self) -> float:
        return self.n if self.kind == "proportion" else float(len(self.values))

    def interval(self) -> tuple[float, float]:
        if self.kind == "proportion":
            return wilson(self.k, self.n)
        m = len(self.values)
        if m and self.binary:
            return wilson(float(self.values.sum()), m)  # a mean of 0/1 is a proportion
        if m < 2:
            return (self.value, self.value)
        half = 1.959963984540054 * float(self.values.std(ddof=1)) / np.sqrt(m)
        return (self.value - half, self.value + half)

    def to_json(self) -> dict[str, Any]:
        low, high = (float(x) for x in self.interval())
        return {
            "label": self.label,
            "section": self.section,
            "kind": self.kind,
            "value": float(self.value),
            "low": low,
            "high": high,
            "n": self.count,
        }


def proportion(
    key: str,
    label: str,
    section: str,
    k: float,
    n: float,
    *,
    group: str = "",
    name: str = "",
    facet: str = "",
    args: dict[str, Any] | None = None,
) -> Metric:
    """``args`` given: ``label`` is a message marked with ``N_`` (its values in ``args``)."""
    msg, text = _label(label, args)
    return Metric(
        key,
        text,
        section,
        "proportion",
        k=k,
        n=n,
        group=group,
        name=name,
        facet=facet,
        msg=msg,
        args=args or {},
    )


def _label(label: str, args: dict[str, Any] | None) -> tuple[str, str]:
    """(message, English label): a marked label is formatted; data is kept as it is."""
    return ("", label) if args is None else (label, label.format(**args))


def sample(
    key: str,
    label: str,
    section: str,
    values: Iterable[float],
    *,
    group: str = "",
    name: str = "",
    facet: str = "",
    args: dict[str, Any] | None = None,
) -> Metric:
    vs = values if isinstance(values, np.ndarray) else np.fromiter(values, dtype=float)
    msg, text = _label(label, args)
    return Metric(
        key,
        text,
        section,
        "mean",
        values=vs.astype(float),
        group=group,
        name=name,
        facet=facet,
        msg=msg,
        args=args or {},
    )


@dataclass
class RunView:
    """What every metric function shares: the finished games of a run in DuckDB."""

    table: pa.Table
    con: duckdb.DuckDBPyConnection  # "runs": finished games; "teams": players, seat, team
    games: int  # finished games
    failed: int
    teams: dict[int, list[int]]  # players -> team of each seat
    game: str
    players: int  # of the first game (a run has one table size)

    def column(self, name: str) -> pa.ChunkedArray:
        return self.con.sql(f"SELECT {name} FROM runs ORDER BY index").to_arrow_table()[name]


def load(table: pa.Table) -> RunView:
    from ..engine.registry import get_game

    con = connect()
    con.register("all_runs", table)
    con.execute("CREATE TEMP VIEW runs AS SELECT * FROM all_runs WHERE error IS NULL")
    row = _one(con, "SELECT count(*), any_value(game), any_value(players) FROM runs")
    games, game, players = (int(row[0]), str(row[1] or ""), int(row[2] or 0)) if row else (0, "", 0)
    teams: dict[int, list[int]] = {}
    for (p,) in con.execute("SELECT DISTINCT players FROM runs ORDER BY players").fetchall():
        try:
            teams[p] = get_game(game).teams(p) or list(range(p))
        except Exception:  # a run of a game not installed here: seats are their own side
            teams[p] = list(range(p))
    con.execute("CREATE TEMP TABLE teams (players INTEGER, seat INTEGER, team INTEGER)")
    seats = [(p, s, t) for p, ts in teams.items() for s, t in enumerate(ts)]
    if seats:  # none when every game of the run failed (DuckDB refuses an empty batch)
        con.executemany("INSERT INTO teams VALUES (?, ?, ?)", seats)
    # Each winning seat's share of its game: a team's win counts for each member,
    # a win shared by several sides is split between them (as bestiary simulate).
    con.execute(
        """
        CREATE TEMP TABLE shares AS
        WITH w AS (
            SELECT r.index, r.players, t.seat, t.team FROM
                (SELECT index, players, unnest(winners) AS seat FROM runs) r
                JOIN teams t USING (players, seat)
        ), sides AS (SELECT index, count(DISTINCT team) AS sides FROM w GROUP BY index)
        SELECT w.index, w.players, w.seat, 1.0 / sides.sides AS share, sides.sides
        FROM w JOIN sides USING (index)
        """
    )
    return RunView(table, con, games, table.num_rows - games, teams, game, players)


def win_shares(row: dict[str, Any], teams: list[int]) -> list[float]:
    sides = {teams[w] for w in row["winners"]}
    return [1.0 / len(sides) if s in row["winners"] else 0.0 for s in range(row["players"])]


def outcome_metrics(v: RunView) -> list[Metric]:
    out: list[Metric] = []
    con, n = v.con, v.games
    per = dict(con.execute("SELECT players, count(*) FROM runs GROUP BY players").fetchall())
    got = {
        (p, s): float(k)
        for p, s, k in con.execute(
            "SELECT players, seat, sum(share) FROM shares GROUP BY players, seat"
        ).fetchall()
    }
    for players in sorted(per):
        suffix = "" if len(per) == 1 else f" ({players} players)"
        for s in range(players):
            k = got.get((players, s), 0.0)
            label = (
                N_("seat {seat} wins")
                if len(per) == 1
                else N_("seat {seat} wins ({players} players)")
            )
            out.append(
                proportion(
                    f"seat{s}_win{suffix}",
                    label,
                    "seats",
                    k,
                    per[players],
                    args={"seat": s, "players": players},
                )
            )
    one = _one(con, "SELECT count(DISTINCT index) FROM shares WHERE sides = 1")
    decisive = int(one[0]) if one else 0
    out.append(
        proportion(
            "decisive", N_("decisive games (one side wins)"), "outcome", decisive, n, args={}
        )
    )
    out.append(
        proportion(
            "drawish", N_("drawn games (tie or no winner)"), "outcome", n - decisive, n, args={}
        )
    )
    margin = game_margins(con)["margin"]
    out.append(
        sample("margin", N_("winning margin (score)"), "outcome", margin.to_numpy(), args={})
    )
    return out


def game_margins(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Each finished game's winning margin, in game order (columns ``index``,
    ``margin``): the best side's score minus the next side's, a side's score
    being its best seat's (a team scores as its best member); 0 with one side.

    ``runs`` is a view over an Arrow table and ``teams`` a table of a few rows:
    DuckDB scans and hash-joins them, so there is no index to keep."""
    return con.sql(
        """
        WITH s AS (
            SELECT index, players, unnest(scores) AS score,
                   unnest(range(0, len(scores))) AS seat FROM runs
        ), best AS (
            SELECT s.index, t.team, max(s.score) AS best
            FROM s JOIN teams t USING (players, seat) GROUP BY s.index, t.team
        ), ranked AS (
            SELECT index, list(best ORDER BY best DESC) AS b FROM best GROUP BY index
        )
        SELECT index, CASE WHEN len(b) > 1 THEN b[1] - b[2] ELSE 0.0 END AS margin
        FROM ranked ORDER BY index
        """
    ).to_arrow_table()


def agent_metrics(v: RunView) -> list[Metric]:
    got = v.con.execute(
        """
        WITH seated AS (
            SELECT index, unnest(seats) AS spec, unnest(range(0, len(seats))) AS seat FROM runs
        )
        SELECT spec, count(*) AS games, coalesce(sum(sh.share), 0) AS wins
        FROM seated LEFT JOIN shares sh USING (index, seat)
        GROUP BY spec ORDER BY spec
        """
    ).fetchall()
    if len(got) < 2:
        return []
    return [
        proportion(
            f"agent:{a}", N_("{agent} wins"), "agents", float(w), float(g), args={"agent": a}
        )
        for a, g, w in got
    ]


def length_metrics(v: RunView) -> list[Metric]:
    out = [
        sample(
            "length_decisions",
            N_("decisions per game"),
            "length",
            v.column("decisions").to_numpy().astype(float),
            args={},
        )
    ]
    turns_key, rounds_key = LENGTH.get(v.game, (None, None))
    # A game's own name for its turns or rounds is one of its statistics' keys (data).
    names = {"turns": turns_key, "rounds": rounds_key}
    plain = {"turns": N_("turns per game"), "rounds": N_("rounds per game")}
    for col in ("turns", "rounds"):
        vals = v.column(col).drop_null().to_numpy()
        if len(vals):
            what = names[col]
            label, args = (N_("{what} per game"), {"what": what}) if what else (plain[col], {})
            out.append(sample(f"length_{col}", label, "length", vals, args=args))
    return out


def score_metrics(v: RunView) -> list[Metric]:
    scores = v.con.sql("SELECT unnest(scores) AS s FROM runs ORDER BY index").to_arrow_table()["s"]
    return [
        sample("score", N_("score (all seats)"), "scores", scores.to_numpy().astype(float), args={})
    ]


def stat_metrics(v: RunView) -> list[Metric]:
    """Every game statistic: numbers as samples; strings (and lists of them) as shares.

    One DuckDB pass over the ``stats`` JSON: every key of every game, lists
    flattened, numbers apart from everything else (booleans as "true"/"false")."""
    shown = {k for k in LENGTH.get(v.game, ()) if k}  # already the length section's
    v.con.execute(
        """
        CREATE OR REPLACE TEMP TABLE statvals AS
        WITH kv AS (
            SELECT index, k, json_extract(stats, '$."' || k || '"') AS j
            FROM (SELECT index, stats, unnest(json_keys(stats)) AS k FROM runs)
        ), el AS (
            SELECT index, k,
                   unnest(CASE WHEN json_type(j) = 'ARRAY' THEN json_extract(j, '$[*]')
                               ELSE [j] END) AS x
            FROM kv
        )
        SELECT index, k, json_type(x) AS t, x FROM el
        """
    )
    nums = v.con.sql(
        "SELECT k, x::DOUBLE AS x FROM statvals WHERE t IN ('BIGINT', 'UBIGINT', 'DOUBLE') "
        "ORDER BY k, index"
    ).to_arrow_table()
    keys = nums["k"].to_numpy(zero_copy_only=False)
    values = nums["x"].to_numpy()
    out: list[Metric] = []
    if len(keys):
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        for a, b in zip(starts, [*starts[1:], len(keys)], strict=True):
            key = str(keys[a])
            if key not in shown:
                out.append(
                    sample(
                        f"stat:{key}",
                        key.replace("_", " "),
                        "game",
                        values[a:b],
                        group=key,
                        facet="stat",
                    )
                )
    cats = v.con.execute(
        """
        SELECT k, CASE WHEN t = 'VARCHAR' THEN json_extract_string(x, '$')
                       WHEN t = 'NULL' THEN 'None' ELSE x::VARCHAR END AS name,
               count(*) AS c
        FROM statvals WHERE t NOT IN ('BIGINT', 'UBIGINT', 'DOUBLE')
        GROUP BY k, name ORDER BY k, c DESC, name
        """
    ).fetchall()
    totals: Counter[str] = Counter()
    for key, _name, c in cats:
        totals[key] += c
    for key, name, c in cats:
        if key in shown:
            continue
        out.append(
            proportion(
                f"stat:{key}={name}",
                f"{key.replace('_', ' ')}: {name}",
                "game",
                c,
                totals[key],
                group=key,
                name=name,
                facet="stat",
            )
        )
    return out


def item_rows(table: pa.Table) -> pa.Table:
    """One row per (game, item): the card-level view of a run (DuckDB UNNEST)."""
    con = connect()
    con.register("runs", table.select(["index", "items", "error"]))
    return con.sql(
        "SELECT index, it.kind AS kind, it.name AS name, it.seat AS seat, it.won AS won, "
        "it.value AS value "
        "FROM (SELECT index, UNNEST(items) AS it FROM runs WHERE error IS NULL) ORDER BY index"
    ).to_arrow_table()


def item_metrics(table: pa.Table, v: RunView | None = None) -> list[Metric]:
    """Per item kind and name (DuckDB over the unnested items):

    - ``item:KIND:NAME``: for items of a seat, the win share of that seat,
      counted as the seats' wins are (a win shared by several sides is
      split), so the fair line means the same; for items of no seat, the
      share of the kind's items with this name;
    - ``item:KIND:NAME:rate``: for items at most once per seat and game (a
      leader, a card picked), the share of seat-games that had it;
    - ``item:KIND:NAME:value``: the item's values (points, gold, count), when
      it has them.
    """
    v = v if v is not None else load(table)
    con = v.con  # its "runs" (finished games) and "shares" (each winning seat's share)
    con.execute(
        "CREATE OR REPLACE TEMP TABLE items AS SELECT r.index, it.kind AS kind, "
        "it.name AS name, it.seat AS seat, coalesce(sh.share, 0.0) AS won, it.value AS value "
        "FROM (SELECT index, UNNEST(items) AS it FROM runs) r "
        "LEFT JOIN shares sh ON sh.index = r.index AND sh.seat = it.seat"
    )
    seat_games = _one(con, "SELECT sum(players) FROM runs")
    sg = float(seat_games[0]) if seat_games and seat_games[0] else 0.0
    got = con.execute(
        """
        WITH per AS (
            SELECT kind, max(c) AS most, bool_and(seat >= 0) AS seated FROM (
                SELECT kind, name, index, seat, count(*) AS c FROM items
                GROUP BY kind, name, index, seat
            ) GROUP BY kind
        )
        SELECT i.kind, i.name, count(*) AS n,
               sum(i.won) AS w,
               bool_and(i.seat >= 0) AS seated,
               any_value(p.seated AND p.most = 1) AS once,
               count(i.value) AS nv
        FROM items i JOIN per p USING (kind)
        GROUP BY i.kind, i.name ORDER BY i.kind, i.name
        """
    ).fetchall()
    # Every item's values at once, in the same order, cut into one array per name.
    flat = (
        con.sql("SELECT value FROM items WHERE value IS NOT NULL ORDER BY kind, name")
        .to_arrow_table()["value"]
        .to_numpy()
        .astype(float)
    )
    cuts = np.cumsum([int(row[6]) for row in got], dtype=np.int64)[:-1]
    values = np.split(flat, cuts) if got else []
    got = [(*row[:6], vals) for row, vals in zip(got, values, strict=True)]
    got.sort(key=lambda r: (r[0], -r[2], r[1]))
    totals: Counter[str] = Counter()
    for kind, _name, n, *_ in got:
        totals[kind] += n
    out = []
    for kind, name, n, w, seated, once, vals in got:
        key = f"item:{kind}:{name}"
        at = {"group": kind, "name": name}
        if seated:
            out.append(
                proportion(
                    key,
                    N_("{kind} {name}: its seat wins"),
                    "items",
                    w,
                    n,
                    facet="win",
                    args={"kind": kind, "name": name},
                    **at,
                )
            )
        if once and sg:
            out.append(
                proportion(
                    key + ":rate",
                    N_("{kind} {name}: seat-games"),
                    "items",
                    n,
                    sg,
                    facet="rate",
                    args={"kind": kind, "name": name},
                    **at,
                )
            )
        else:
            share_key = key if not seated else key + ":share"
            out.append(
                proportion(
                    share_key,
                    N_("{kind} {name}: share"),
                    "items",
                    n,
                    totals[kind],
                    facet="share",
                    args={"kind": kind, "name": name},
                    **at,
                )
            )
        if len(vals):
            out.append(
                sample(
                    key + ":value",
                    N_("{kind} {name}: value"),
                    "items",
                    vals,
                    facet="value",
                    args={"kind": kind, "name": name},
                    **at,
                )
            )
    return out


def ludii_metrics(table: pa.Table) -> list[Metric]:
    """Ludii's game-evaluation metrics that need more than the outcome:
    branching factor, lead changes and how early the winner was clear."""
    con = connect()
    cols = ["branching", "lead_changes", "decided_round", "running", "error"]
    con.register("runs", table.select(cols))
    b, lc, dec = con.execute(
        """
        SELECT list(branching) FILTER (WHERE branching IS NOT NULL),
               list(lead_changes) FILTER (WHERE lead_changes IS NOT NULL),
               list(decided_round::DOUBLE / len(running))
                   FILTER (WHERE decided_round IS NOT NULL AND len(running) > 0)
        FROM runs WHERE error IS NULL
        """
    ).fetchall()[0]
    out = []
    if b:
        out.append(
            sample(
                "branching",
                N_("branching factor (legal actions per decision)"),
                "ludii",
                b,
                args={},
            )
        )
    if lc:
        out.append(sample("lead_changes", N_("lead changes per game"), "ludii", lc, args={}))
    if dec:
        out.append(
            sample(
                "decided_at",
                N_("winner clear from (share of the game's rounds)"),
                "ludii",
                dec,
                args={},
            )
        )
    return out


# The metrics of the last two tables asked for: a report, its JSON summary and
# its terminal table (and compare's two runs) read the same table several times.
_RECENT: list[tuple[pa.Table, dict[str, Metric]]] = []


def all_metrics(table: pa.Table, v: RunView | None = None) -> dict[str, Metric]:
    for t, ms in _RECENT:
        if t is table:
            return ms
    out = _all_metrics(table, v)
    _RECENT[:] = [(table, out), *_RECENT][:2]
    return out


def _all_metrics(table: pa.Table, v: RunView | None = None) -> dict[str, Metric]:
    v = v if v is not None else load(table)
    ms = (
        outcome_metrics(v)
        + agent_metrics(v)
        + length_metrics(v)
        + score_metrics(v)
        + ludii_metrics(table)
        + stat_metrics(v)
        + item_metrics(table, v)
    )
    return {m.key: m for m in ms}
