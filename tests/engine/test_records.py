from __future__ import annotations

import json
from pathlib import Path

import pytest

from bestiary.engine import BadRecord, Match, MatchRecord, register, replay
from bestiary.sim.runner import play_game

from .toygame import GAME

register(GAME)


def test_a_record_replays_to_the_same_state_and_result(tmp_path: Path) -> None:
    out = play_game(GAME, ["random", "random", "random"], seed=7, record=True)
    assert out.record is not None
    path = tmp_path / "m.json"
    out.record.save(path)
    again = replay(MatchRecord.load(path))
    assert again.over and again.result is not None
    assert again.result.to_json() == out.result.to_json()
    assert json.loads(path.read_text())["format"] == "bestiary-record/1"


def test_same_seed_same_game() -> None:
    a = play_game(GAME, ["random"] * 3, seed=3, record=True)
    b = play_game(GAME, ["random"] * 3, seed=3, record=True)
    assert a.record and b.record and a.record.moves == b.record.moves


def test_a_rejected_move_is_not_recorded() -> None:
    m = Match.start(GAME, 2, seed=1)
    with pytest.raises(Exception, match="not a legal action"):
        m.apply_text(0, "bid 42")
    assert m.record.moves == []


def test_a_record_with_an_impossible_move_says_which_move() -> None:
    rec = MatchRecord(game="toy", players=2, seed=1, variant="standard", moves=[(0, "bid 42")])
    with pytest.raises(BadRecord, match=r"move 1 \(0: 'bid 42'\)"):
        replay(rec)


@pytest.mark.parametrize(
    "data", [{}, {"game": "toy"}, {"game": "toy", "players": "x", "seed": 1, "variant": "standard"}]
)
def test_malformed_records_are_refused_clearly(data: dict) -> None:
    with pytest.raises(BadRecord, match="record"):
        MatchRecord.from_json(data)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats", ["random", "random", "random"]),  # three specs for two players
        ("seats", "taxonomy"),
        ("seats", [[0, "bid 1"]]),
        ("options", [[0, "bid 1"]]),
    ],
)
def test_a_record_whose_seats_or_options_do_not_fit_is_refused(field: str, value: object) -> None:
    """Found by the CLI fuzz test: such records reached replay and crashed it
    (zip of seats against players, options read as a list)."""
    data = play_game(GAME, ["random", "random"], seed=3, record=True).record.to_json()  # type: ignore[union-attr]
    data[field] = value
    with pytest.raises(BadRecord, match=field):
        MatchRecord.from_json(data)
