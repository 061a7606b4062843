"""``bestiary simulate``: honest labels, the same numbers for any worker count, long runs
that survive a failing game or an interrupt."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import get_game, register
from bestiary.sim.runner import simulate

from ..engine.toygame import GAME

register(GAME)
runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
FLAKY = "tests.cli.bots:Flaky:fail_game=3"


def test_rotated_runs_label_seat_rows_by_position_only() -> None:
    """With --rotate an agent sits in every seat: the seat table must not name one."""
    res = runner.invoke(
        app,
        ["simulate", "toy", "-n", "6", "--seats", "ismcts:iterations=2,random", "--rotate"],
    )
    assert res.exit_code == 0, res.output
    by_seat, _, by_agent = res.stdout.partition("By agent")
    assert "ismcts" not in by_seat and "random" not in by_seat
    assert "ismcts:iterations=2" in by_agent and "random" in by_agent


def test_unrotated_runs_still_name_each_seats_agent() -> None:
    res = runner.invoke(
        app, ["simulate", "toy", "-n", "4", "--seats", "ismcts:iterations=2,random"]
    )
    assert res.exit_code == 0, res.output
    assert "ismcts:iterations=2" in res.stdout.partition("By agent")[0]


def _numbers(summary_json: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in summary_json.items() if k != "seconds"}


def test_every_worker_count_gives_the_same_results() -> None:
    """Rotation follows the game's offset from --seed in every process."""
    game = get_game("taxonomy")
    specs = ["heuristic", "random", "random"]
    rules = {"rounds": 3}  # short games: the test is about seating, not play
    runs = [
        simulate(game, specs, games=9, seed=5, options=rules, rotate=True, workers=w).to_json()
        for w in (1, 2)
    ]
    assert _numbers(runs[0]) == _numbers(runs[1])
    assert runs[0]["agents"]["heuristic"]["seat_games"] == 9


def test_a_failing_game_is_named_with_its_seed_seats_and_error() -> None:
    res = runner.invoke(app, ["simulate", "toy", "-n", "6", "--seats", f"random,{FLAKY}"])
    assert res.exit_code == 1
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "seed 3" in res.stderr
    assert "ZeroDivisionError: deliberate failure in a test agent" in res.stderr
    assert f"random,{FLAKY}" in res.stderr
    assert "--keep-going" in res.stderr


@pytest.mark.parametrize("workers", [1, 2])
def test_keep_going_reports_the_other_games_and_the_failure(workers: int) -> None:
    res = runner.invoke(
        app,
        [
            "simulate",
            "toy",
            "-n",
            "6",
            "--seats",
            f"random,{FLAKY}",
            "--keep-going",
            "--json",
            "--workers",
            str(workers),
        ],
    )
    assert res.exit_code == 1, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 5 and sum(data["wins"]) == pytest.approx(5)
    [failure] = data["failures"]
    assert failure["seed"] == 3 and failure["seats"] == ["random", FLAKY]
    assert failure["error"] == "ZeroDivisionError: deliberate failure in a test agent"


def test_an_interrupt_stops_the_runner_with_the_games_played_so_far() -> None:
    played = []

    def progress(k: int) -> None:
        played.append(k)
        if len(played) == 4:
            raise KeyboardInterrupt

    summary = simulate(GAME, ["random", "random"], games=50, seed=0, progress=progress)
    assert summary.interrupted and summary.games == 4
    assert summary.to_json()["interrupted"] is True


@pytest.mark.parametrize(
    ("sig", "workers"), [(signal.SIGINT, 1), (signal.SIGTERM, 1), (signal.SIGINT, 2)]
)
def test_a_killed_run_prints_its_partial_results(sig: int, workers: int) -> None:
    cmd = [
        sys.executable,
        "-c",
        "from bestiary.cli import app; app()",
        "simulate",
        "taxonomy",
        "-n",
        "1000000",
        "--workers",
        str(workers),
        "--json",
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    time.sleep(6)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert "Traceback" not in stderr, stderr
    assert proc.returncode == 128 + sig
    data = json.loads(stdout)
    assert data["interrupted"] is True and 0 < data["games"] < 1000000
    assert "interrupted" in stderr
