"""Issue 28, the designer's lab, second step: card ratings, matchups, skill and
luck, and readable plots.

The ratings and matchups of a planted run (rows built by hand, so every
answer is known) are checked against hand-computed numbers; every game's
report (20 random games) has the new sections; the export has its columns;
every plot the report draws has its axes labelled (read from the matplotlib
figures, not from pixels).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from bestiary.cli import lab as cli_lab
from bestiary.engine.protocol import Result
from bestiary.lab import plots
from bestiary.lab.matchups import best_agent, matchup
from bestiary.lab.metrics import item_rows, load
from bestiary.lab.ratings import COLUMNS, card_ratings
from bestiary.lab.report import report_html
from bestiary.lab.rows import game_row
from bestiary.lab.runs import RunConfig, read_run, rows_table, run_to_parquet
from bestiary.lab.stats import normal_sf
from bestiary.sim.runner import LabData

GAMES = ("meat", "taxonomy", "monster-maker", "teratozoic")


def _planted() -> Any:
    """20 M.E.A.T. games, heuristic in seat 0 against random in seat 1.

    Games 0-9: seat 0 drafts A and leads with L1, seat 1 drafts B and leads
    with L2; seat 0 wins 0-7. Games 10-19: seat 0 drafts C (leader L1), seat 1
    drafts B (L2); seat 0 wins 10-14. So A won 8 of 10, B 7 of 20, C 5 of 10.
    """
    rows = []
    for i in range(20):
        first = "A" if i < 10 else "C"
        winner = 0 if (i < 8 or 10 <= i < 15) else 1
        items = [
            {"kind": "picked", "name": first, "seat": 0, "value": 1},
            {"kind": "picked", "name": "B", "seat": 1, "value": 2},
            {"kind": "leader", "name": "L1", "seat": 0, "value": None},
            {"kind": "leader", "name": "L2", "seat": 1, "value": None},
        ]
        scores = [1.0, 0.0] if winner == 0 else [0.0, 1.0]
        rows.append(
            game_row(
                index=i,
                seed=i,
                game_id="meat",
                variant="",
                options_json="{}",
                cards_hash="",
                seats=["heuristic", "random"],
                result=Result(scores, [winner], {}),
                decisions=10,
                teams=[0, 1],
                lab=LabData(2.0, {}, items, []),
            )
        )
    return rows_table(RunConfig("meat", ("heuristic", "random"), seed=0), rows)


def _adjusted_variance(k: float, n: float) -> float:
    p = (k + 1) / (n + 2)
    return p * (1 - p) / (n + 2)


def test_planted_ratings_match_hand_computed_win_rates_and_intervals() -> None:
    """Issue 28, point 1: per card, how often it is picked and the win rate,
    with Wilson intervals and the difference from the card's average peer."""
    got = {(r.case, r.card): r for r in card_ratings(_planted())}
    a, b, c = got[("picked", "A")], got[("picked", "B")], got[("picked", "C")]
    assert (a.seat_games, a.wins, b.seat_games, b.wins, c.seat_games, c.wins) == (
        10, 8.0, 20, 7.0, 10, 5.0,
    )  # fmt: skip
    assert a.rate == pytest.approx(10 / 40) and b.rate == pytest.approx(20 / 40)
    assert a.win_rate == pytest.approx(0.8)
    # The Wilson interval of 8/10 (Newcombe 1998, table I: 0.4902-0.9433).
    assert (a.win_low, a.win_high) == (
        pytest.approx(0.4902, abs=1e-4),
        pytest.approx(0.9433, abs=1e-4),
    )
    # Its peer: the mean win rate of B and C; the difference and its interval.
    assert a.peer_win_rate == pytest.approx((0.35 + 0.5) / 2)
    assert a.difference == pytest.approx(0.8 - 0.425)
    se = math.sqrt(
        _adjusted_variance(8, 10) + (_adjusted_variance(7, 20) + _adjusted_variance(5, 10)) / 4
    )
    assert a.p_value == pytest.approx(2 * normal_sf(0.375 / se))
    if not a.outlier:
        assert a.difference_low == pytest.approx(0.375 - 1.959964 * se, abs=1e-6)
    # The only leader of its side's kind has peers too: L1 won 13 of 20, L2 7 of 20.
    assert got[("leader", "L1")].win_rate == pytest.approx(0.65)
    assert got[("leader", "L1")].difference == pytest.approx(0.65 - 0.35)


def test_outliers_are_called_after_the_benjamini_hochberg_correction() -> None:
    """Issue 28, point 1: "outliers flagged (interval of the difference
    excluding 0 after a Benjamini-Hochberg correction)"."""
    rs = card_ratings(_planted())
    from bestiary.lab.stats import benjamini_hochberg

    qs = benjamini_hochberg([r.p_value or 1.0 for r in rs])
    for r, q in zip(rs, qs, strict=True):
        assert r.q_value == pytest.approx(q)
        assert r.outlier == (q < 0.05)
        assert r.difference_low is not None and r.difference_high is not None
        assert (r.difference_low > 0 or r.difference_high < 0) == r.outlier


def test_planted_matchups_and_the_better_agent_against_a_coin() -> None:
    """Issue 28, points 2 and 3: leader x leader, seat x seat, and the better
    agent's win rate against the coin with its interval."""
    v = load(_planted())
    seats = matchup(v, "seat")
    assert seats.labels == ["seat 0", "seat 1"]
    assert (seats.cells[("seat 0", "seat 1")].wins, seats.cells[("seat 0", "seat 1")].meetings) == (
        13.0,
        20,
    )
    assert seats.cells[("seat 1", "seat 0")].share == pytest.approx(7 / 20)
    leaders = matchup(v, "leader")
    assert leaders.cells[("L1", "L2")].share == pytest.approx(13 / 20)
    best = best_agent(matchup(v, "agent"))
    assert best is not None and best.what == "heuristic"
    assert best.share == pytest.approx(0.65)
    assert best.interval() == pytest.approx((0.4329, 0.8188), abs=1e-4)  # Wilson, 13 of 20
    assert best.p_value == pytest.approx(2 * normal_sf(0.15 / math.sqrt(0.25 / 20)))


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Every game's report of 20 random games; plots drawn but not encoded (fast),
    each figure's title and axis labels kept."""
    folder = tmp_path_factory.mktemp("ratings")
    figures: list[dict[str, Any]] = []

    def keep(fig: Any) -> str:
        for ax in fig.axes:
            if ax.get_label() == "<colorbar>":
                continue
            figures.append(
                {
                    "title": ax.get_title(),
                    "x": ax.get_xlabel(),
                    "y": ax.get_ylabel(),
                    "yticks": [t.get_text() for t in ax.get_yticklabels()],
                    "colorbar": any(a.get_label() == "<colorbar>" for a in fig.axes),
                    "xlim": ax.get_xlim(),
                    "lines": ax.get_lines(),
                }
            )
        plots.plt.close(fig)
        return "data:image/png;base64,AA=="

    out: dict[str, Any] = {"figures": figures, "runs": {}, "pages": {}}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plots, "png", keep)
        for game in GAMES:
            path = folder / f"{game}.parquet"
            run_to_parquet(RunConfig(game, ("random", "random"), seed=2, rotate=True), path, 20)
            out["runs"][game] = path
            out["pages"][game] = report_html(read_run(path))
        yield out


def _section(page: str, sid: str) -> str:
    start = page.index(f"<section id='{sid}'>")
    return page[start:]


@pytest.mark.parametrize("game", GAMES)
def test_every_games_report_has_card_ratings_and_matchups(
    game: str, reports: dict[str, Any]
) -> None:
    """Issue 28, points 1-3: card ratings for every game from any run, start
    positions (seat x seat) for every game, skill and luck."""
    page = reports["pages"][game]
    for sid in ("cards", "matchups", "matchups-seat", "skill"):
        assert f"<section id='{sid}'>" in page, sid
    cards = _section(page, "cards")
    assert "<table class='sortable'>" in cards and "<script id='sort-tables'>" in cards
    script = cards.split("<script id='sort-tables'>")[1].split("</script>")[0]
    assert "src=" not in script and "addEventListener('click'" in script  # inline, no fetch
    # Every seated item kind the run records is a case of the ratings table.
    items = item_rows(read_run(reports["runs"][game])).to_pylist()
    kinds = {it["kind"] for it in items if it["seat"] >= 0}
    assert kinds, game
    table = cards.split("</table>")[0]
    for kind in kinds:
        assert f"data-v='{kind}'" in table, kind
    assert "first seat wins" in _section(page, "skill")
    if game == "meat":
        for sid in ("matchups-leader", "matchups-faction"):
            assert f"<section id='{sid}'>" in page
    if game == "taxonomy":
        assert "<section id='matchups-collecting'>" in page
        assert "not recorded" in _section(page, "matchups")


def test_every_plot_of_the_reports_has_labelled_axes(reports: dict[str, Any]) -> None:
    """Issue 28, point 5: axis labels on every plot, heat maps with a colour bar,
    and seat shares zoomed around the fair share, not on a 0-1 axis."""
    figures = reports["figures"]
    assert len(figures) > 40
    for f in figures:
        assert f["x"], f["title"]
    heat = [f for f in figures if f["colorbar"]]
    assert any("Leader against leader" in f["title"] for f in heat)
    assert all(f["y"] for f in heat)
    seats = [f for f in figures if f["title"].startswith("win share by seat")]
    assert len(seats) == len(GAMES)
    for f in seats:
        low, high = f["xlim"]
        assert low <= 0.5 <= high
    # Seat shares of a big run (intervals of +-1 point) are zoomed around the
    # fair share: a 2-point advantage is no longer a hair's breadth on 0-1.
    low, high = plots.zoom([(0.505, 0.525), (0.475, 0.495)], 0.5)
    assert 0.44 < low < 0.475 and 0.525 < high < 0.56


def test_the_cards_export_has_the_documented_columns(
    reports: dict[str, Any], tmp_path: Path
) -> None:
    """Issue 28, point 1: ``bestiary report RUN --cards-out ratings.parquet``
    (or .csv by suffix) writes one row per card and case."""
    app = typer.Typer()
    app.command()(cli_lab.report)
    app.command("x")(cli_lab.compare)  # two commands: typer keeps the name "report"
    run = str(reports["runs"]["meat"])
    out = tmp_path / "ratings.parquet"
    res = CliRunner().invoke(app, ["report", run, "--json", "--cards-out", str(out)])
    assert res.exit_code == 0, res.output
    t = pq.read_table(out)
    assert tuple(t.column_names) == COLUMNS
    expected = {(r.case, r.card) for r in card_ratings(read_run(reports["runs"]["meat"]))}
    assert set(zip(t["case"].to_pylist(), t["card"].to_pylist(), strict=True)) == expected
    assert t.num_rows == len(expected)
    csv = tmp_path / "ratings.csv"
    res = CliRunner().invoke(app, ["report", run, "--json", "--cards-out", str(csv)])
    assert res.exit_code == 0 and csv.read_text().splitlines()[0].count(",") == len(COLUMNS) - 1
    bad = CliRunner().invoke(app, ["report", run, "--json", "--cards-out", str(tmp_path / "r.txt")])
    assert bad.exit_code != 0 and re.search(r"\.parquet or \.csv", bad.stderr)
    assert not (tmp_path / "r.txt").exists()
