"""``compare`` puts the change first, pairs games on common seeds and controls
the false discovery rate (issue 28, "The change first" and "Paired statistics
on common seeds"; point 1: "`compare` does not put the change first ... the
changed leader ranked 59th of 309 metrics"; point 2: "every test treats them as
independent ... the permutation p-value never goes below 0.0005").
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bestiary.lab.cards import export
from bestiary.lab.compare import compare_html, compare_json
from bestiary.lab.paired import mcnemar, paired_difference, sign_flip
from bestiary.lab.runs import RunConfig, read_run, run_to_parquet
from bestiary.lab.stats import benjamini_hochberg, mean_difference


@pytest.fixture(scope="module")
def one_card_change(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two 40-game runs on the same seeds: the shipped cards, and Nekromanta
    with defence 5 instead of 3 (a copy of the shipped file, edited)."""
    d = tmp_path_factory.mktemp("change")
    mine = export("meat", d / "mine.toml")
    text = mine.read_text()
    at = text.index('name = "Nekromanta"')
    cut = text.index("defence = 3", at)
    mine.write_text(text[:cut] + "defence = 5" + text[cut + len("defence = 3") :])
    seats = ("heuristic", "random")
    run_to_parquet(RunConfig("meat", seats, 0, "", {}, True), d / "a.parquet", 40)
    run_to_parquet(RunConfig("meat", seats, 0, "", {"cards": str(mine)}, True), d / "b.parquet", 40)
    return d / "a.parquet", d / "b.parquet"


def test_compare_opens_with_the_changed_card_and_its_metrics(
    one_card_change: tuple[Path, Path],
) -> None:
    a, b = (read_run(p) for p in one_card_change)
    out = compare_json(a, b)
    assert [(c["card"], c["field"], c["a"], c["b"]) for c in out["card_changes"]] == [
        ("creature Nekromanta", "defence", "3", "5")
    ]
    metrics = out["metrics"]
    mine = [m for m in metrics if m["changed_card"]]
    assert mine and all("Nekromanta" in m["label"] for m in mine)
    assert metrics[: len(mine)] == mine  # the changed card's metrics come first
    page = compare_html(a, b, "a.parquet", "b.parquet")
    assert page.index("<section id='change'>") < page.index("<section id='metrics'>")
    assert "Nekromanta" in page[: page.index("<section id='runs'>")]


def test_the_card_files_text_travels_with_the_run(
    one_card_change: tuple[Path, Path], tmp_path: Path
) -> None:
    """The comparison still names the change after the designer's file is gone."""
    a_path, b_path = one_card_change
    moved = tmp_path / "b.parquet"
    moved.write_bytes(b_path.read_bytes())
    mine = b_path.parent / "mine.toml"
    saved = mine.read_text()
    mine.unlink()
    try:
        out = compare_json(read_run(a_path), read_run(moved))
        assert [c["field"] for c in out["card_changes"]] == ["defence"]
    finally:
        mine.write_text(saved)


def test_runs_on_the_same_seeds_are_compared_game_by_game(
    one_card_change: tuple[Path, Path],
) -> None:
    a, b = (read_run(p) for p in one_card_change)
    rows = {m["key"]: m for m in compare_json(a, b)["metrics"]}
    win = rows["seat0_win"]
    assert win["paired"]["pairs"] == 40 and win["paired"]["test"] == "paired, McNemar exact"
    length = rows["length_decisions"]
    assert length["paired"]["test"] == "paired z"
    # Card-level metrics have no value per game: they stay unpaired.
    assert all(m["paired"] is None for m in rows.values() if m["key"].startswith("item:"))


def test_paired_difference_against_hand_computation() -> None:
    # d = [1, 0, 1, 1, -1, 0, 1, 1] (B - A, game by game): mean 0.5,
    # sd = sqrt(sum (d - .5)^2 / 7) = sqrt(4/7) = 0.75593, se = 0.26726,
    # interval 0.5 ± 1.95996 * 0.26726 = [-0.02382, 1.02382].
    x = np.array([0, 1, 0, 0, 1, 0, 0, 0], dtype=float)
    y = np.array([1, 1, 1, 1, 0, 0, 1, 1], dtype=float)
    p = paired_difference(x, y)
    assert p.diff == pytest.approx(0.5)
    assert (p.low, p.high) == (pytest.approx(-0.02382, abs=1e-4), pytest.approx(1.02382, abs=1e-4))
    # 0/1 outcomes: McNemar exact. 5 games went up, 1 down: 2 * P(X <= 1), X ~ Bin(6, 1/2)
    # = 2 * (1 + 6) / 64 = 0.21875.
    assert p.test == "paired, McNemar exact"
    assert p.p_value == pytest.approx(0.21875)
    assert mcnemar(0, 0) == 1.0 and mcnemar(10, 0) == pytest.approx(2 / 1024)


def test_sign_flip_is_exact_for_few_pairs() -> None:
    # d = [1, 2, 3]: of the 8 sign vectors, |mean| >= 2 only for +++ and ---: p = 2/8.
    assert sign_flip(np.array([1.0, 2.0, 3.0])) == pytest.approx(0.25)


def test_benjamini_hochberg_against_hand_computation() -> None:
    # m = 4, p sorted 0.01, 0.02, 0.03, 0.5: raw 0.04, 0.04, 0.04, 0.5 (min from the right).
    assert benjamini_hochberg([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.04, 0.5, 0.04, 0.04])
    assert benjamini_hochberg([]) == []


def test_a_clear_change_of_a_mean_gets_a_p_value_below_the_permutation_floor() -> None:
    """2,000 shuffles cannot say less than 1/2001; from 30 games a side the
    p-value is Welch's, so a clear change can pass a correction over hundreds
    of metrics."""
    a = [float(i % 5) for i in range(200)]
    b = [v + 1.5 for v in a]
    d = mean_difference(a, b)
    assert d.p_value < 1e-12 and d.test == "bootstrap interval, Welch z"
    assert not math.isnan(d.low) and d.low < 1.5 < d.high


def test_the_runs_table_names_card_files_without_their_folders(
    one_card_change: tuple[Path, Path],
) -> None:
    """Issue 28, point 5: "the compare page shows the server's absolute path of
    a card file"."""
    a, b = (read_run(p) for p in one_card_change)
    changes = {c["what"]: c for c in compare_json(a, b)["changes"]}
    assert "mine.toml" in changes["options"]["b"]
    folder = str(one_card_change[0].parent)
    assert folder not in compare_html(a, b, "a.parquet", "b.parquet")
