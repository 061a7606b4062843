"""`bestiary play taxonomy` in the terminal, over plain stdin/stdout."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bestiary.cli import app

runner = CliRunner()


def test_a_human_plays_a_whole_game_by_numbers_and_the_record_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    answers = "\n".join(["discard Nobody", "0", *["1"] * 3000]) + "\n"
    res = runner.invoke(
        app,
        [
            "play",
            "taxonomy",
            "--seats",
            "human,heuristic,heuristic",
            "--seed",
            "5",
            "-o",
            "rounds=3",
            "--record",
            str(rec),
        ],
        input=answers,
    )
    assert res.exit_code == 0, res.output[-2000:]
    out = res.output
    assert "Your hand" in out and "Players" in out and "Discard pile" in out
    assert "'discard Nobody' is not a move now" in out  # a wrong entry says why
    assert "0 is not a choice" in out
    assert "Result" in out
    data = json.loads(rec.read_text())
    assert data["options"] == {"rounds": "3"} and data["result"]["winners"]
    again = runner.invoke(app, ["replay", str(rec), "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["matches_record"] is True


def test_the_view_shown_to_a_human_holds_no_other_hand() -> None:
    from bestiary.engine import get_game

    state = get_game("taxonomy").new(3, seed=8)
    view = state.view(0)
    mine = {c["name"] for c in view["hand"]}
    others = {state.deck.names[c] for s in (1, 2) for c in state.hands[s]}  # type: ignore[attr-defined]
    rendered = json.dumps(view)
    assert mine and not any(f'"{n}"' in rendered for n in others - mine)
