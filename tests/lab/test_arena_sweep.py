"""Arena (round robin, OpenSkill) and sweep (one run per value)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine.errors import BadInput
from bestiary.lab.arena import arena_html, arena_json, matchups, ratings, run_arena
from bestiary.lab.runs import read_run
from bestiary.lab.sweep import load_sweep, parse_sweep, run_sweep, sweep_html, sweep_json


@pytest.fixture(scope="module")
def arena() -> object:
    return run_arena("meat", ["random", "heuristic", "heuristic:leader=random"], 4, seed=5)


def test_round_robin_rotates_seats_and_uses_every_pair(arena: object) -> None:
    rows = arena.to_pylist()  # type: ignore[attr-defined]
    assert len(rows) == 3 * 4
    assert len({r["index"] for r in rows}) == len(rows)
    pairs = {tuple(sorted(r["seats"])) for r in rows}
    assert len(pairs) == 3
    first = [r["seats"] for r in rows[:2]]
    assert first[0] == list(reversed(first[1]))  # seats rotated between games


def test_ratings_rank_the_stronger_agent_first_with_uncertainty(arena: object) -> None:
    rs = ratings(arena)  # type: ignore[arg-type]
    assert rs[-1].agent == "random"  # the heuristic bots beat random play
    assert all(r.sigma > 0 and r.games == 8 for r in rs)
    assert ratings(arena) == rs  # type: ignore[arg-type]  # same games, same ratings
    out = arena_json(arena)  # type: ignore[arg-type]
    assert out["pairs"]["heuristic beats random"]["value"] > 0.5
    page = arena_html(arena, "arena")  # type: ignore[arg-type]
    assert "<section id='ratings'>" in page and "<section id='seats'>" in page


def test_arena_refuses_bad_agent_lists() -> None:
    with pytest.raises(BadInput, match="twice"):
        matchups(["random", "random"], 2)
    with pytest.raises(BadInput, match="at least 3 agents"):
        matchups(["random", "heuristic"], 3)
    with pytest.raises(BadInput, match="not 3"):
        run_arena("meat", ["random", "heuristic", "ismcts"], 1, players=3)


def test_sweep_runs_each_value_on_the_same_seeds(tmp_path: Path) -> None:
    name, values = parse_sweep("victory=gold,dungeons")
    files = run_sweep("monster-maker", ["random", "random"], name, values, 3, tmp_path)
    assert [p.name for _, p in files] == ["victory=gold.parquet", "victory=dungeons.parquet"]
    runs = load_sweep(files)
    assert [r["seed"] for r in read_run(files[0][1]).to_pylist()] == [0, 1, 2]
    page = sweep_html(name, runs, "sweep")
    assert "<section id='sweep'>" in page and page.count("<img class='plot'") >= 4
    assert set(sweep_json(name, runs)["values"]) == {"gold", "dungeons"}


def test_sweep_spec_errors_say_the_shape() -> None:
    with pytest.raises(BadInput, match="name=value1,value2"):
        parse_sweep("rounds")
    with pytest.raises(BadInput, match="at least two values"):
        parse_sweep("rounds=3")
