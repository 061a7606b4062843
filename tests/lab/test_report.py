"""Reports: every section and plot is in the page, the page needs no network,
and the JSON summary carries the same numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bestiary.lab.metrics import all_metrics, item_rows
from bestiary.lab.report import GAME_SECTIONS, report_html, summary
from bestiary.lab.rows import game_row
from bestiary.lab.runs import RunConfig, read_run, rows_table

SECTIONS = [
    "overview",
    "seats",
    "agents",
    "outcome",
    "scores",
    "length",
    "ludii",
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
    assert "factions, leaders and cards" in page
    assert "leader" in page and "faction" in page


def _plots(page: str) -> list[str]:
    """The alt text of every embedded PNG plot, in page order."""
    return re.findall(
        r"<img class='plot' src='data:image/png;base64,[A-Za-z0-9+/=]+' alt='([^']*)'", page
    )


def _section(page: str, sid: str) -> str:
    start = page.index(f"<section id='{sid}'>")
    return page[start : page.index("</section>", start)]


# The figures each game section must hold (alt texts), as the issue lists them.
FIGURES = {
    "taxonomy-patterns": ["pattern share", "pattern value", "pattern win"],
    "taxonomy-natures": ["nature rate", "nature win", "nature value", "natures fired"],
    "taxonomy-stock": ["round end share", "stock ran out"],
    "taxonomy-types": ["collecting share", "collecting value"],
    "mm-home": ["got home value", "home turns", "home dungeons"],
    "mm-deaths": ["died value", "death causes", "deaths"],
    "mm-treasure": ["treasure value", "treasure rate", "treasure win", "prize value"],
    "mm-end": ["end"],
    "meat-leaders": ["leader win", "leader rate"],
    "meat-factions": ["faction win", "faction rate"],
    "meat-cards": ["picked rate", "picked win", "played rate", "played win"],
    "tz-eras": ["era value", "era lengths"],
    "tz-pool": ["gene pool series"],
    "tz-monsters": ["monster sizes", "final monster sizes"],
    "tz-cards": ["took rate", "took win", "kept rate", "kept win"],
}


@pytest.mark.parametrize("game", ["taxonomy", "monster-maker", "meat", "teratozoic"])
def test_each_game_section_is_there_with_its_figures(game: str, game_runs: dict[str, Path]) -> None:
    page = report_html(read_run(game_runs[game]))
    for sid in SECTIONS:
        assert f"<section id='{sid}'>" in page, sid
    ludii = _section(page, "ludii")
    for metric in ("branching factor", "decisive games", "seat 0 wins", "decisions per game"):
        assert metric in ludii
    assert "branching factor" in _plots(ludii)
    lead = _section(page, "lead-changes")
    if game == "teratozoic":
        assert "no running score" in lead and not _plots(lead)
    else:
        assert _plots(lead)[:2] == ["lead changes", "winner clear from"]
    sections = [sid for sid, *_ in GAME_SECTIONS[game]]
    assert sections and all(sid in FIGURES for sid in sections)
    for sid in sections:
        body = _section(page, sid)
        figures = _plots(body)
        for want in FIGURES[sid]:
            alt = want
            if want.endswith(" rate") and alt not in figures:
                alt = want.removesuffix(" rate") + " share"  # repeated items: share of them
            assert alt in figures, (sid, want, figures)
        assert "<table>" in body  # the numbers behind the plots


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
    rows = table.to_pylist()
    items = item_rows(table).to_pylist()
    assert len(items) == sum(len(r["items"]) for r in rows)
    leaders = [r for r in items if r["kind"] == "leader"]
    assert len(leaders) == 2 * len(rows)  # one per seat and game
    ms = all_metrics(table)
    seat_games = 2 * len(rows)
    for name in {r["name"] for r in leaders}:
        mine = [r for r in leaders if r["name"] == name]
        m = ms[f"item:leader:{name}"]
        assert (m.n, m.k) == (len(mine), sum(r["won"] for r in mine))
        assert ms[f"item:leader:{name}:rate"].value == len(mine) / seat_games
    # a card's pick rate: the seat-games in which it was drafted; its value: how many copies
    picked = [r for r in items if r["kind"] == "picked"]
    name = max({r["name"] for r in picked}, key=lambda n: sum(r["name"] == n for r in picked))
    mine = [r for r in picked if r["name"] == name]
    assert ms[f"item:picked:{name}:rate"].k == len(mine)
    assert ms[f"item:picked:{name}:value"].value == sum(r["value"] for r in mine) / len(mine)
    won = sum(r["won"] for r in mine)
    assert ms[f"item:picked:{name}"].value == won / len(mine)


def test_a_mean_of_successes_gets_a_wilson_interval() -> None:
    from bestiary.lab.metrics import sample
    from bestiary.lab.stats import wilson

    m = sample("x", "x", "items", [1, 0, 0, 1, 1])
    assert m.interval() == wilson(3, 5)
    low, high = sample("y", "y", "items", [2.0, 4.0]).interval()
    assert low < 3.0 < high and low != wilson(1, 2)[0]


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


def test_report_in_polish_and_english_unchanged(meat_run: Path) -> None:
    """The page is built in the current language (``--lang pl``, the server's
    request); English stays as it was, and a Polish page does not leak into it."""
    from bestiary.i18n import use_language

    table = read_run(meat_run)
    english = report_html(table)
    with use_language("pl"):
        polish = report_html(table)
    assert report_html(table) == english
    assert english.startswith("<!doctype html><html lang='en'>")
    assert "<h2>Seat advantage</h2>" in english and "<h2>Not measured</h2>" in english
    assert "<th>metric</th>" in english and "seat 0 wins" in english
    assert polish.startswith("<!doctype html><html lang='pl'>")
    for title in ("Przewaga miejsca", "Rozstrzygalność", "Miary Ludii", "Zmiany prowadzenia"):
        assert f"<h2>{title}</h2>" in polish
    assert "Raport laboratorium Bestiary: meat" in polish
    assert "miejsce 0 wygrywa" in polish and "Seat advantage" not in polish
    assert "heuristic wygrywa" in polish  # an agent's name is data, kept as it is
    for sid in SECTIONS:
        assert f"<section id='{sid}'>" in polish
