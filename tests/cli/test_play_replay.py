"""`bestiary play` keeps the seed secret till the end; `replay --seat` shows one seat's game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import register

from ..engine.toygame import GAME
from .games import SILENT

register(GAME)
register(SILENT)
runner = CliRunner()


def test_the_seed_is_shown_only_when_the_game_is_over() -> None:
    """The seed reproduces every hidden card: printing it first would show them all."""
    res = runner.invoke(
        app, ["play", "toy", "--seats", "human,random", "--seed", "987654"], input="1\n" * 5
    )
    assert res.exit_code == 0, res.output
    before_end, _, after = res.stdout.rpartition("your move")
    assert "987654" not in before_end
    assert "seed 987654" in after


def _record(tmp_path: Path, game: str, seed: int) -> Path:
    rec = tmp_path / f"{game}-{seed}.json"
    res = runner.invoke(
        app,
        ["play", game, "--seats", "random,random,random", "--seed", str(seed), "--record", rec],
    )
    assert res.exit_code == 0, res.output
    return rec


def test_a_seats_replay_never_prints_another_seats_hidden_move(tmp_path: Path) -> None:
    rec = _record(tmp_path, "toy-silent", 3)
    moves = json.loads(rec.read_text())["moves"]
    for seat in range(3):
        res = runner.invoke(app, ["replay", str(rec), "--seat", str(seat)])
        assert res.exit_code == 0, res.output
        for i, (s, text) in enumerate(moves):
            line = f"seat {s}: {text}"
            if s != seat:
                assert line not in res.stdout
            elif i % 3 != 2:  # the last bid of a trick shows as the public trick event
                assert line in res.stdout  # its own moves, which no event shows it


def test_a_real_games_seat_replay_shows_no_other_seats_raw_moves(tmp_path: Path) -> None:
    rec = tmp_path / "meat.json"
    res = runner.invoke(
        app, ["play", "meat", "--seats", "random,random", "--seed", "11", "--record", rec]
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["replay", str(rec), "--seat", "1"])
    assert res.exit_code == 0, res.output
    assert not re.search(r"^seat 0: ", res.stdout, re.MULTILINE)


def test_the_full_replay_still_shows_the_moves_no_event_shows(tmp_path: Path) -> None:
    """Without --seat the replay is the record's own account: every move is in it."""
    rec = _record(tmp_path, "toy-silent", 4)
    moves = json.loads(rec.read_text())["moves"]
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0
    first_bids = moves[0::3]  # the last bid of a trick shows as the public trick event
    assert all(f"seat {s}: {t}" in res.stdout for s, t in first_bids)
    assert "trick" in res.stdout


def test_replay_refuses_a_seat_that_is_not_at_the_table(tmp_path: Path) -> None:
    rec = _record(tmp_path, "toy", 5)
    res = runner.invoke(app, ["replay", str(rec), "--seat", "7"])
    assert res.exit_code == 2
    assert "seat 7" in res.stderr and "0 to 2" in res.stderr


def test_without_a_seed_play_picks_one_that_cannot_be_guessed_from_the_clock() -> None:
    """A clock seed lets a hot-seat player replay the deal by trying the last few seconds."""
    seeds = set()
    for _ in range(3):
        res = runner.invoke(app, ["play", "toy", "--seats", "random,random", "--json"])
        assert res.exit_code == 0, res.output
        seeds.add(json.loads(res.stdout)["seed"])
    assert len(seeds) == 3  # three games in the same second got three seeds
