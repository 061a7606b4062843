"""Runs as data: the row schema, determinism across workers and backends, resume and extend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bestiary.engine.errors import BadInput
from bestiary.lab.runs import RunConfig, play_rows, read_run, run_meta, run_to_parquet
from bestiary.lab.schema import ROW

MEAT = RunConfig("meat", ("random", "random"), seed=7, rotate=True)


def rows_of(config: RunConfig, n: int, **kw: object) -> list[dict[str, object]]:
    rows = [r for batch in play_rows(config, range(n), **kw) for r in batch]  # type: ignore[arg-type]
    return sorted(rows, key=lambda r: r["index"])  # type: ignore[arg-type, return-value]


def test_a_run_file_has_one_row_per_game_in_the_schema(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "meat.parquet"
    res = run_to_parquet(MEAT, out, 6)
    assert (res.played, res.total, res.failed) == (6, 6, 0)
    table = read_run(out)
    assert table.schema.remove_metadata().equals(ROW)
    rows = table.to_pylist()
    assert [r["index"] for r in rows] == list(range(6))
    assert [r["seed"] for r in rows] == [7 + i for i in range(6)]
    first = rows[0]
    assert first["game"] == "meat" and first["players"] == 2 and len(first["scores"]) == 2
    assert first["rounds"] == json.loads(first["stats"])["rounds"]
    # card-level rows: each seat's leader and faction, the cards it picked and played
    kinds = sorted({i["kind"] for i in first["items"]})
    assert kinds == ["faction", "leader", "picked", "played"]
    assert {i["seat"] for i in first["items"]} == {0, 1}
    assert all(i["won"] == (i["seat"] in first["winners"]) for i in first["items"])
    # Ludii's metrics: legal actions per decision, running scores and lead changes
    assert first["branching"] >= 1.0
    assert len(first["running"]) == first["rounds"]
    assert first["running"][-1] == first["scores"]  # the last round's vitality is the score
    assert first["lead_changes"] is not None and first["lead_changes"] >= 0
    # seats rotate with the game's index
    assert rows[1]["seats"] == ["random", "random"]
    meta = run_meta(table)
    assert meta["config"]["game"] == "meat" and meta["config"]["seed"] == 7


def test_rows_do_not_depend_on_worker_count_or_chunking() -> None:
    cfg = RunConfig("meat", ("random", "heuristic"), seed=3, rotate=True)
    one = rows_of(cfg, 6, workers=1)
    two = rows_of(cfg, 6, workers=2, chunk=1)
    assert one == two
    assert [r["seats"] for r in one[:2]] == [["random", "heuristic"], ["heuristic", "random"]]


def test_resume_plays_only_what_is_missing_and_extend_adds_fresh_seeds(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    run_to_parquet(MEAT, out, 4)
    again = run_to_parquet(MEAT, out, 4)
    assert again.played == 0 and again.total == 4
    more = run_to_parquet(MEAT, out, 7, workers=2)
    assert (more.played, more.total) == (3, 7)
    whole = tmp_path / "whole.parquet"
    run_to_parquet(MEAT, whole, 7)
    assert read_run(out).to_pylist() == read_run(whole).to_pylist()


def test_a_file_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    run_to_parquet(MEAT, out, 2)
    before = out.read_bytes()
    other = RunConfig("meat", ("random", "random"), seed=8, rotate=True)
    with pytest.raises(BadInput, match="holds a different run"):
        run_to_parquet(other, out, 4)
    assert out.read_bytes() == before


def test_a_file_of_an_older_lab_is_refused_unchanged(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "old.parquet"
    run_to_parquet(MEAT, out, 2)
    table = read_run(out)
    meta = run_meta(table)
    meta["version"] = 1
    old = table.replace_schema_metadata({b"bestiary.run": json.dumps(meta).encode()})
    pq.write_table(old, out)
    before = out.read_bytes()
    with pytest.raises(BadInput, match=r"older lab .*version 1.*writes version 2"):
        run_to_parquet(MEAT, out, 4)
    assert out.read_bytes() == before
    with pytest.raises(BadInput, match="older lab"):
        read_run(out)  # so report and compare say the same, with no traceback


def test_a_parquet_file_that_is_not_a_run_is_refused(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(BadInput, match="not a run file"):
        read_run(other)


def test_card_file_changes_the_hash(tmp_path: Path) -> None:
    from bestiary.games.meat import cards

    shipped = Path(cards.__file__).parent / "data" / "cards.toml"
    copy = tmp_path / "cards.toml"
    copy.write_bytes(shipped.read_bytes())
    cfg = RunConfig("meat", ("random", "random"), options={"cards": str(copy)})
    rows = rows_of(cfg, 1)
    assert len(rows[0]["cards_hash"]) == 16  # type: ignore[arg-type]
    assert rows_of(MEAT, 1)[0]["cards_hash"] == ""


def test_bad_input_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="allowed: local, ray"):
        list(play_rows(MEAT, range(1), backend="spark"))
    with pytest.raises(BadInput, match="not a run file"):
        read_run(tmp_path / "nothing.parquet")
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    with pytest.raises(BadInput, match="not a Parquet run file"):
        read_run(junk)


def test_local_ray_gives_the_same_rows_as_the_local_pool() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        via_ray = rows_of(MEAT, 4, backend="ray", chunk=2)
    finally:
        ray.shutdown()
    assert via_ray == rows_of(MEAT, 4, workers=2, chunk=1)


def test_an_interrupted_run_keeps_its_games_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    seen: list[int] = []

    def stop_after_two(k: int) -> None:
        seen.append(k)
        if sum(seen) >= 2:
            raise KeyboardInterrupt  # what Ctrl-C raises in the parent

    cut = run_to_parquet(MEAT, out, 6, progress=stop_after_two)
    assert cut.interrupted and cut.total == 2
    rest = run_to_parquet(MEAT, out, 6)
    assert (rest.played, rest.total, rest.interrupted) == (4, 6, False)
    whole = tmp_path / "whole.parquet"
    run_to_parquet(MEAT, whole, 6)
    assert read_run(out).to_pylist() == read_run(whole).to_pylist()
