"""Reports: every section and plot is in the page, the page needs no network,
and the JSON summary carries the same numbers."""

from __future__ import annotations

import re
from pathlib import Path

from bestiary.lab.metrics import all_metrics, item_rows
from bestiary.lab.report import report_html, summary
from bestiary.lab.rows import game_row
from bestiary.lab.runs import RunConfig, read_run, rows_table

SECTIONS = [
    "overview",
    "seats",
    "agents",
    "outcome",
    "scores",
    "length",
    "lead-changes",
    "game",
    "missing",
]


def test_report_has_every_section_with_embedded_plots(meat_run: Path) -> None:
    page = report_html(read_run(meat_run))
    for sid in SECTIONS:
        assert f"<section id='{sid}'>" in page
    plots = re.findall(r"<img class='plot' src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    # seats, agents, outcome x2, scores, length x2, game stats and items
    assert len(plots) >= 10
    assert "http://" not in page and "https://" not in page  # opens offline
    assert "factions and leaders" in page
    assert "leader" in page and "faction" in page


def test_metrics_count_wins_the_way_simulate_does(meat_run: Path) -> None:
    table = read_run(meat_run)
    rows = table.to_pylist()
    ms = all_metrics(table)
    heuristic_wins = sum(1 for r in rows for w in r["winners"] if r["seats"][w] == "heuristic")
    assert ms["agent:heuristic"].k == heuristic_wins and ms["agent:heuristic"].n == len(rows)
    assert ms["seat0_win"].k + ms["seat1_win"].k + (ms["drawish"].k) == len(rows)
    low, high = ms["seat0_win"].interval()
    assert low < ms["seat0_win"].value < high


def test_item_rows_are_one_per_game_and_seat_item(meat_run: Path) -> None:
    table = read_run(meat_run)
    items = item_rows(table)
    assert items.num_rows == 4 * table.num_rows  # a leader and a faction per seat, 2 seats
    leaders = [r for r in items.to_pylist() if r["kind"] == "leader"]
    ms = all_metrics(table)
    for name in {r["name"] for r in leaders}:
        mine = [r for r in leaders if r["name"] == name]
        m = ms[f"item:leader:{name}"]
        assert (m.n, m.k) == (len(mine), sum(r["won"] for r in mine))


def test_json_summary_has_the_report_numbers(meat_run: Path) -> None:
    s = summary(read_run(meat_run))
    assert s["games"] == 12 and s["failed"] == 0
    seat0 = s["metrics"]["seat0_win"]
    assert seat0["low"] <= seat0["value"] <= seat0["high"] and seat0["n"] == 12
    assert s["run"]["config"]["game"] == "meat"


def test_user_text_is_escaped_and_failed_games_are_left_out(meat_run: Path) -> None:
    evil = "<script>alert(1)</script>"
    rows = read_run(meat_run).to_pylist()
    for r in rows:
        r["seats"] = [evil if s == "heuristic" else s for s in r["seats"]]
    bad = game_row(
        index=99,
        seed=99,
        game_id="meat",
        variant="",
        options_json="{}",
        cards_hash="",
        seats=[evil, "random"],
        result=None,
        decisions=0,
        teams=[0, 1],
        error="RuntimeError: boom",
    )
    table = rows_table(RunConfig("meat", (evil, "random"), seed=1, rotate=True), [*rows, bad])
    page = report_html(table)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # overview and agents, as text
    assert "12 (1 failed, left out)" in page
