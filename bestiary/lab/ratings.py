"""Card ratings: for every card-level item a seat had (a card picked or played,
a leader, a nature that fired, a treasure banked...), how often seats had it
and how often those seats won, against the card's average peer.

One row per (case, card): the *case* is the item's kind as the game records
it (M.E.A.T.: ``picked``, ``played``, ``leader``, ``faction``; Teratozoic:
``took``, ``kept``; Monster Maker: ``treasure``, ``prize``, ``got home``,
``died``; Taxonomy: ``pattern``, ``nature``, ``collecting``). Items of no
seat (``seat`` -1) are not rated: nobody had them.

For a card i of a case with m cards, from its seat-games n_i and their wins
k_i (a win shared by several sides counts as a share, as everywhere in the
lab):

- rate: n_i / all seat-games of the run, with its Wilson interval;
- win rate: p_i = k_i / n_i, with its Wilson interval;
- peer: the mean win rate of the other m - 1 cards of the case,
  ``peer_i = mean_{j != i} p_j``; difference ``d_i = p_i - peer_i``;
- its standard error, each card's variance from the Agresti-Caffo adjusted
  share ``p~ = (k + 1) / (n + 2)`` (so a card won 0 of 3 times is not
  certain): ``v_j = p~_j (1 - p~_j) / (n_j + 2)``,
  ``SE_i = sqrt(v_i + sum_{j != i} v_j / (m - 1)^2)``; 95% interval
  ``d_i +- 1.96 SE_i``, two-sided p from ``z = d_i / SE_i``;
- q: Benjamini-Hochberg over every rated card of the run. An *outlier* has
  q < 0.05; for the R outliers of m' tested cards its interval is widened
  to the level 1 - 0.05 R / m' (Benjamini and Yekutieli's false coverage
  rate intervals), which then excludes 0 exactly when q < 0.05.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pyarrow as pa

from ..engine.errors import BadInput
from .metrics import RunView, load
from .stats import Z95, benjamini_hochberg, normal_sf, wilson

ALPHA = 0.05

# The export's columns, in order (docs/LAB.md lists them).
COLUMNS = (
    "game",
    "case",
    "card",
    "seat_games",
    "rate",
    "rate_low",
    "rate_high",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "peer_win_rate",
    "difference",
    "difference_low",
    "difference_high",
    "p_value",
    "q_value",
    "outlier",
    "times",
    "mean_value",
)


@dataclass
class Rating:
    game: str
    case: str
    card: str
    seat_games: int
    rate: float
    rate_low: float
    rate_high: float
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    peer_win_rate: float | None  # None: the only card of its case
    difference: float | None
    difference_low: float | None
    difference_high: float | None
    p_value: float | None
    q_value: float | None
    outlier: bool
    times: int  # item rows (a card drafted twice in one game counts twice)
    mean_value: float | None  # the items' mean value, where they carry one


def _variance(k: float, n: float) -> float:
    adj = (k + 1) / (n + 2)
    return adj * (1 - adj) / (n + 2)


def card_ratings(table: pa.Table, v: RunView | None = None) -> list[Rating]:
    """Every (case, card) of the run's seated items, sorted by case then seat-games."""
    v = v if v is not None else load(table)
    if not v.games:
        return []
    con = v.con
    total = con.execute("SELECT sum(players) FROM runs").fetchall()[0][0] or 0
    got = con.execute(
        """
        WITH it AS (
            SELECT index, it.kind AS kind, it.name AS name, it.seat AS seat, it.value AS value
            FROM (SELECT index, UNNEST(items) AS it FROM runs)
        ), sg AS (
            SELECT kind, name, index, seat, count(*) AS times, avg(value) AS value
            FROM it WHERE seat >= 0 GROUP BY kind, name, index, seat
        )
        SELECT sg.kind, sg.name, count(*) AS n, sum(coalesce(sh.share, 0.0)) AS w,
               sum(sg.times) AS times, avg(sg.value) AS value
        FROM sg LEFT JOIN shares sh ON sh.index = sg.index AND sh.seat = sg.seat
        GROUP BY sg.kind, sg.name ORDER BY sg.kind, n DESC, sg.name
        """
    ).fetchall()
    by_case: dict[str, list[tuple[str, int, float, int, float | None]]] = {}
    for kind, name, n, w, times, value in got:
        by_case.setdefault(str(kind), []).append(
            (str(name), int(n), float(w), int(times), None if value is None else float(value))
        )
    out: list[Rating] = []
    for case, cards in by_case.items():
        rates = [w / n for _, n, w, _, _ in cards]
        variances = [_variance(w, n) for _, n, w, _, _ in cards]
        m = len(cards)
        for i, (name, n, w, times, value) in enumerate(cards):
            peer = diff = low = high = p = None
            if m > 1:
                peer = (sum(rates) - rates[i]) / (m - 1)
                diff = rates[i] - peer
                se = math.sqrt(variances[i] + (sum(variances) - variances[i]) / (m - 1) ** 2)
                low, high = diff - Z95 * se, diff + Z95 * se
                p = min(1.0, 2 * normal_sf(abs(diff) / se)) if se > 0 else 1.0
            r_low, r_high = wilson(n, total)
            w_low, w_high = wilson(w, n)
            out.append(
                Rating(
                    v.game, case, name, n, n / total if total else 0.0, r_low, r_high,
                    w, rates[i], w_low, w_high, peer, diff, low, high, p, None, False,
                    times, value,
                )
            )  # fmt: skip
    _correct(out)
    return out


def _correct(ratings: list[Rating]) -> None:
    """q-values over every tested card; outliers' intervals widened to the FCR level."""
    tested = [r for r in ratings if r.p_value is not None]
    if not tested:
        return
    qs = benjamini_hochberg([r.p_value or 1.0 for r in tested])
    for r, q in zip(tested, qs, strict=True):
        r.q_value = q
        r.outlier = q < ALPHA
    selected = sum(r.outlier for r in tested)
    if not selected:
        return
    z = NormalDist().inv_cdf(1 - ALPHA * selected / len(tested) / 2)
    for r in tested:
        if r.outlier and r.difference is not None and r.difference_low is not None:
            se = (r.difference - r.difference_low) / Z95
            r.difference_low, r.difference_high = r.difference - z * se, r.difference + z * se


_TYPES = {"game": pa.string(), "case": pa.string(), "card": pa.string()}
_TYPES |= {"seat_games": pa.int64(), "times": pa.int64(), "outlier": pa.bool_()}


def ratings_table(ratings: list[Rating]) -> pa.Table:
    """One row per card and case, the columns of :data:`COLUMNS` (typed also when empty)."""
    rows: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    for r in ratings:
        for c, x in asdict(r).items():
            rows[c].append(x)
    schema = pa.schema([(c, _TYPES.get(c, pa.float64())) for c in COLUMNS])
    return pa.table(rows, schema=schema)


def check_suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise BadInput(
            f"--cards-out {path}: the file must end in .parquet or .csv (got {suffix or 'none'!r})"
        )
    return suffix


def write_ratings(ratings: list[Rating], path: Path) -> None:
    """``.parquet`` or ``.csv`` by the file's suffix; anything else is refused."""
    suffix = check_suffix(path)
    t = ratings_table(ratings)
    if suffix == ".csv":
        import pyarrow.csv as pcsv

        pcsv.write_csv(t, path)
    else:
        import pyarrow.parquet as pq

        pq.write_table(t, path)
