"""A stale or broken game entry point is a warning; ``bench`` measures a designer's options."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import register, registry

from ..engine.toygame import GAME

register(GAME)
runner = CliRunner()


@pytest.fixture
def stale_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """As after renaming a game without re-running ``pip install -e .``."""
    real = registry._entry_points
    stale = EntryPoint("oldgame", "bestiary.games.oldgame:GAME", "bestiary.games")
    monkeypatch.setattr(registry, "_entry_points", lambda: {**real(), "oldgame": stale})


def test_all_games_skips_a_broken_entry_point_and_says_why(stale_entry_point: None) -> None:
    ids = [g.id for g in registry.all_games()]
    assert "taxonomy" in ids and "oldgame" not in ids
    problems = registry.broken_games()
    assert "oldgame" in problems and "pip install -e ." in problems["oldgame"]


@pytest.mark.usefixtures("stale_entry_point")
@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["bench", "--seconds", "0.01", "--repeats", "1", "--json"],
        ["score", "--help"],
    ],
)
def test_commands_warn_about_a_broken_entry_point_and_go_on(args: list[str]) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "warning: game 'oldgame'" in res.stderr


def test_bench_takes_rule_options() -> None:
    def decisions(*extra: str) -> float:
        res = runner.invoke(
            app, ["bench", "toy", "--seconds", "0.02", "--repeats", "1", "--json", *extra]
        )
        assert res.exit_code == 0, res.output
        return float(json.loads(res.stdout)["bench"][0]["decisions_per_game"])

    assert decisions() == 9 and decisions("-o", "tricks=1") == 3


def test_bench_refuses_options_without_a_game() -> None:
    res = runner.invoke(app, ["bench", "-o", "tricks=1"])
    assert res.exit_code == 2 and "name a game" in res.stderr


def test_bench_refuses_a_card_file_that_is_not_there(tmp_path: Path) -> None:
    res = runner.invoke(app, ["bench", "taxonomy", "--cards", str(tmp_path / "none.csv")])
    assert res.exit_code == 2 and "does not exist" in res.stderr


def test_bench_of_every_game_prints_one_table() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0.01", "--repeats", "1"])
    assert res.exit_code == 0, res.output
    assert res.stdout.count("Random self-play") == 1
    for gid in ("taxonomy", "monster-maker", "meat", "teratozoic"):
        assert gid in res.stdout


def test_bench_times_a_designers_card_file(tmp_path: Path) -> None:
    import shutil

    from bestiary.games import taxonomy

    mine = tmp_path / "my-monsters.csv"
    shutil.copy(Path(taxonomy.__file__).parent / "data" / "monsters.csv", mine)
    res = runner.invoke(
        app,
        ["bench", "taxonomy", "--cards", str(mine), "--seconds", "0.02", "--repeats", "1",
         "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    [row] = json.loads(res.stdout)["bench"]
    assert row["options"] == {"cards": str(mine)} and row["decisions_per_game"] > 0


def test_bench_reports_clone_determinize_and_search_speed() -> None:
    def row(*extra: str) -> dict[str, object]:
        res = runner.invoke(
            app, ["bench", "toy", "--seconds", "0.02", "--repeats", "2", "--json", *extra]
        )
        assert res.exit_code == 0, res.output
        [r] = json.loads(res.stdout)["bench"]
        return dict(r)

    r = row("--ismcts", "ismcts:iterations=5,rollout_limit=10,rollout=random")
    assert float(r["clone_us"]) > 0 and float(r["determinize_us"]) > 0  # type: ignore[arg-type]
    assert float(r["ismcts_iterations_per_second"]) > 0  # type: ignore[arg-type]
    assert r["ismcts_spec"] == "ismcts:iterations=5,rollout_limit=10,rollout=random"
    assert row("--ismcts", "none")["ismcts_iterations_per_second"] is None


def test_bench_refuses_a_search_that_is_not_ismcts() -> None:
    res = runner.invoke(app, ["bench", "toy", "--ismcts", "random"])
    assert res.exit_code == 2 and "ismcts spec" in res.stderr
