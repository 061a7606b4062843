"""Compare: the numbers come from the tested formulas, movers are ranked, small runs warn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.lab.compare import compare_html, compare_json, compare_tables
from bestiary.lab.runs import read_run
from bestiary.lab.stats import two_proportions


def test_compare_uses_the_two_proportion_test(meat_run: Path, meat_run_b: Path) -> None:
    a, b = read_run(meat_run), read_run(meat_run_b)
    rows = {r.key: r for r in compare_tables(a, b)}
    seat0 = rows["seat0_win"]
    expect = two_proportions(seat0.a.k, seat0.a.n, seat0.b.k, seat0.b.n)
    assert seat0.d == expect
    # heuristic vs random, then random vs random: the heuristic agent is gone from B
    assert "agent:heuristic" not in rows
    # Ranked: the changed cards' metrics first (none here), then by q-value,
    # then by the difference over its standard error.
    order = [(not r.changed, r.q, -r.strength) for r in compare_tables(a, b)]
    assert order == sorted(order)


def test_a_run_compared_with_itself_shows_no_change(meat_run: Path) -> None:
    a = read_run(meat_run)
    out = compare_json(a, a)
    assert out["changes"] == []
    assert all(m["diff"] == pytest.approx(0.0) for m in out["metrics"])
    assert not any(m["significant"] for m in out["metrics"])


def test_small_runs_warn_and_the_page_shows_the_change(meat_run: Path, meat_run_b: Path) -> None:
    a, b = read_run(meat_run), read_run(meat_run_b)
    out = compare_json(a, b)
    assert out["warnings"] and "Too few games" in out["warnings"][0]
    assert {"what": "seats", "a": "['heuristic', 'random']", "b": "['random', 'random']"} in out[
        "changes"
    ]
    page = compare_html(a, b, "old.parquet", "new.parquet")
    for sid in ("runs", "warning", "movers", "metrics"):
        assert f"<section id='{sid}'>" in page
    assert "too few games" in page or "significant" in page


def test_compare_json_writes_true_json_booleans_and_numbers(
    meat_run: Path, meat_run_b: Path
) -> None:
    """Issue 28, point 3: ``compare --json`` wrote ``"significant"`` as the
    strings "True"/"False" for means (a NumPy bool printed by ``default=str``),
    so a script's ``if m["significant"]`` was always true."""
    import json

    out = json.loads(
        json.dumps(compare_json(read_run(meat_run), read_run(meat_run_b)), default=str)
    )
    kinds = {m["kind"] for m in out["metrics"]}
    assert {"proportion", "mean"} <= kinds  # both tests are covered
    for m in out["metrics"]:
        assert type(m["significant"]) is bool, m
        assert type(m["too_few_games"]) is bool, m
        for key in ("a", "b", "diff", "low", "high", "p_value"):
            assert isinstance(m[key], (int, float)) and not isinstance(m[key], bool), (key, m)
