"""Golden records: recorded games (``tests/games/<game>/golden/*.json``) must
replay move for move to the result stored with them.

They catch any change in behaviour — rules, dealing, RNG use, action text
forms. When a rule changes on purpose, record the game again:

    bestiary play <game> --seats heuristic,random --seed N --record FILE --json
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine import MatchRecord, replay

GOLDEN = sorted(Path(__file__).parent.glob("games/*/golden/*.json"))


def test_every_game_has_golden_records() -> None:
    games = {p.parent.parent.name for p in GOLDEN}
    assert {"taxonomy", "monster_maker", "teratozoic", "meat"} <= games


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.parent.name}/{p.stem}" for p in GOLDEN])
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = MatchRecord.load(path)
    assert record.result is not None, "a golden record stores the result it must reach"
    state = replay(record)
    assert state.over
    assert state.result is not None and state.result.to_json() == record.result
