"""``python -m bestiary.games.meat.balance``: help and bad arguments are clear."""

from __future__ import annotations

import pytest

from bestiary.games.meat.balance import main


def test_help_prints_usage_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m bestiary.games.meat.balance" in out and "players" in out


@pytest.mark.parametrize(("argv", "expect"), [(["many"], "not a whole number"), (["5", "3"], "3")])
def test_bad_arguments_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], expect: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and expect in err
