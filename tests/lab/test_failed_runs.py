"""Runs with failed games (issue 28, points 3 and 4).

- "`simulate --out` exits 0 when games fail": a script or CI took a run of
  failures for a success.
- "`report` and `compare` crash on a run in which every game failed": they
  printed "unexpected InvalidInputException ... (this is a bug)".
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from bestiary.cli import lab

app = typer.Typer()
for fn in (lab.run, lab.report, lab.compare):
    app.command()(fn)
runner = CliRunner()

# A spec that fails every game: the leader it names is in no card set.
FAILING = "heuristic:leader=nobody,heuristic"


def _failed_run(tmp_path: Path) -> tuple[Path, CliRunner]:
    path = tmp_path / "failed.parquet"
    res = runner.invoke(app, ["run", "meat", "--out", str(path), "-n", "3", "--seats", FAILING])
    assert path.is_file()
    return path, res


def test_a_run_whose_games_failed_exits_1_and_says_how_many(tmp_path: Path) -> None:
    path, res = _failed_run(tmp_path)
    assert res.exit_code == 1
    assert "3 games of failed.parquet failed" in res.stderr
    # --json still writes the result (with the count) before the non-zero exit
    res = runner.invoke(
        app, ["run", "meat", "--out", str(path), "-n", "3", "--seats", FAILING, "--json"]
    )
    assert res.exit_code == 1
    assert json.loads(res.stdout)["failed"] == 3


def test_report_and_compare_of_a_run_with_no_finished_game_say_why(tmp_path: Path) -> None:
    path, _ = _failed_run(tmp_path)
    for args in (["report", str(path)], ["compare", str(path), str(path)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, res.output
        assert "holds no finished game: all 3 games failed" in res.stderr
        assert "is not a leader of this card set" in res.stderr  # the first error, quoted
        assert "this is a bug" not in res.stderr and "Traceback" not in res.output
    assert not (tmp_path / "failed.html").exists()  # no page of zeros was written


def test_exporting_cards_to_a_path_that_cannot_be_written_says_so(tmp_path: Path) -> None:
    """Issue 28, point 4: "`cards --export` to an unwritable path prints 'this is a bug'"."""
    from bestiary.cli import app as main_app

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    res = runner.invoke(main_app, ["cards", "meat", "--export", str(blocker / "mine.toml")])
    assert res.exit_code == 2, res.output
    assert "cannot write" in res.stderr and "this is a bug" not in res.stderr
    assert blocker.read_text() == "not a folder"
