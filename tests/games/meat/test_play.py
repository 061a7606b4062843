"""Bots, the command line and the terminal rendering."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import get_game
from bestiary.sim.runner import simulate

runner = CliRunner()


def test_heuristic_beats_random_clearly() -> None:
    """The heuristic bot must win clearly against random (60 games, seats rotated)."""
    s = simulate(get_game("meat"), ["heuristic", "random"], 60, seed=0, rotate=True)
    assert s.agent_win_rates()["heuristic"] >= 0.85


def test_heuristic_plays_team_games() -> None:
    """Teams alternate seats (team = seat % 2), so this is a heuristic team against a
    random team; a team win is shared by its members (1/2 each)."""
    s = simulate(get_game("meat"), ["heuristic", "random"] * 2, 10, seed=0, rotate=True)
    assert s.agent_wins["heuristic"] / s.games >= 0.8


def test_cli_cards_json_and_table() -> None:
    res = runner.invoke(app, ["cards", "meat", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert {c["faction"] for c in data["creatures"]} == {
        "Sekta MBS XII",
        "Natura",
        "Zjednoczeni",
        "Mutanci",
    }
    res = runner.invoke(app, ["cards", "meat"])
    assert res.exit_code == 0 and "Parszywy" in res.stdout


def test_cli_play_bots_record_and_replay(tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    res = runner.invoke(
        app,
        [
            "play",
            "meat",
            "--seats",
            "heuristic,random,heuristic,random",
            "--seed",
            "2",
            "--record",
            str(rec),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "Battlefield" in res.stdout and "winner" in res.stdout
    res = runner.invoke(app, ["replay", str(rec), "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["matches_record"]


def test_cli_human_sees_their_hand(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "meat", "--seats", "human,heuristic", "--seed", "1"], input="1\n" * 400
    )
    assert "your hand" in res.stdout or "Draft row" in res.stdout
    assert "Seat 0, your move" in res.stdout


def test_every_event_has_a_log_line() -> None:
    from bestiary.engine import Rng

    game = get_game("meat")
    for players in (2, 6):
        st = game.new(players, seed=4)
        rng = Rng(4)
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
        for e in st.events_since(0, None) + st.events_since(0, 0):
            line = game.describe_event(e)
            # No raw ``key=value`` data (a sum such as "1 + 1 = 2" is fine).
            assert line and not re.search(r"\w=\S", line), (e.kind, line)
        assert game.render(st.view(0), st.events_since(0, 0)[-5:]) is not None
