"""The generic CLI commands, driven on the toy game."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import register

from .toygame import GAME

register(GAME)
runner = CliRunner()


def test_games_json_lists_variants_options_and_bots() -> None:
    res = runner.invoke(app, ["games", "--json"])
    assert res.exit_code == 0
    toy = next(g for g in json.loads(res.stdout)["games"] if g["id"] == "toy")
    assert toy["variants"] == ["standard", "lowball"]
    assert {o["name"] for o in toy["options"]} == {"tricks", "high_wins"}
    assert "random" in toy["agents"]


def test_simulate_json_counts_games_and_wins() -> None:
    res = runner.invoke(
        app, ["simulate", "toy", "--games", "12", "--seats", "random,random", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 12 and sum(data["wins"]) == 12


def test_bad_option_is_a_clear_error_with_exit_2() -> None:
    res = runner.invoke(app, ["simulate", "toy", "--games", "2", "-o", "tricks=9"])
    assert res.exit_code == 2
    assert "choices: 1, 2, 3" in res.stderr


def test_unknown_game_and_agent_are_clear_errors() -> None:
    res = runner.invoke(app, ["simulate", "chess"])
    assert res.exit_code == 2 and "known games" in res.stderr
    res = runner.invoke(app, ["simulate", "toy", "--seats", "random,genius"])
    assert res.exit_code == 2 and "unknown agent 'genius'" in res.stderr


def test_play_hot_seat_by_number_and_text_then_replay(tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    # Two humans; each answers "1" (the first legal bid); a wrong entry is explained.
    # Each turn starts with the hot-seat hand-over screen, which waits for Enter.
    moves = "\n".join(["", "bid 99", "1"] + ["", "1"] * 10) + "\n"
    res = runner.invoke(
        app,
        ["play", "toy", "--seats", "human,human", "--seed", "4", "--record", str(rec)],
        input=moves,
    )
    assert res.exit_code == 0, res.output
    assert "'bid 99' is not a move now" in res.output
    assert "Result" in res.output
    data = json.loads(rec.read_text())
    assert len(data["moves"]) == 6 and data["result"] is not None
    again = runner.invoke(app, ["replay", str(rec), "--json"])
    assert again.exit_code == 0
    assert json.loads(again.stdout)["matches_record"] is True


def test_replay_of_a_tampered_record_fails(tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    runner.invoke(
        app, ["play", "toy", "--seats", "random,random", "--seed", "4", "--record", str(rec)]
    )
    data = json.loads(rec.read_text())
    data["moves"][0][1] = "bid 42"
    rec.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 2 and "move 1" in res.stderr


def test_bench_json_reports_median_microseconds() -> None:
    res = runner.invoke(app, ["bench", "toy", "--seconds", "0.05", "--repeats", "3", "--json"])
    assert res.exit_code == 0, res.output
    b = json.loads(res.stdout)["bench"][0]
    assert b["game"] == "toy" and b["us_per_decision"] > 0 and b["repeats"] == 3
