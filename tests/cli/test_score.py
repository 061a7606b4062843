"""``bestiary score``: which games have a tool, the shape each expects, and no input crashes it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import register, unregister

from ..engine.toygame import GAME
from .games import SCORED

register(GAME)
runner = CliRunner()


def _tools_line(help_text: str) -> str:
    flat = " ".join(help_text.split())
    return flat.partition("Games with a scoring tool:")[2].partition(".")[0]


def test_help_lists_the_games_with_a_scoring_tool_found_at_run_time() -> None:
    res = runner.invoke(app, ["score", "--help"])
    assert res.exit_code == 0
    line = _tools_line(res.stdout)
    assert "taxonomy" in line and "teratozoic" in line
    assert "toy" not in line  # the toy game has no scoring tool
    register(SCORED)
    try:
        line = _tools_line(runner.invoke(app, ["score", "--help"]).stdout)
        assert "toy-scored" in line
    finally:
        unregister(SCORED.id)


@pytest.mark.parametrize("payload", ["", "   \n", "not json", "[1, 2]", "{}"])
def test_an_empty_or_invalid_payload_prints_the_expected_shape(payload: str) -> None:
    register(SCORED)
    try:
        res = runner.invoke(app, ["score", "toy-scored"], input=payload)
    finally:
        unregister(SCORED.id)
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ")
    assert '{"bids": [ints]}' in res.stderr  # the tool's own description of its input


def test_a_real_games_shape_is_printed_for_an_empty_payload() -> None:
    res = runner.invoke(app, ["score", "taxonomy"], input="")
    assert res.exit_code == 2
    assert '"hand"' in res.stderr


def test_a_game_without_a_tool_says_which_games_have_one() -> None:
    res = runner.invoke(app, ["score", "toy"], input="{}")
    assert res.exit_code == 2
    assert "toy has no scoring tool" in res.stderr and "taxonomy" in res.stderr


@pytest.mark.parametrize("opener", ["[", '{"a":', '{"hand": ['])
def test_deeply_nested_json_is_refused_in_one_line(opener: str) -> None:
    res = runner.invoke(app, ["score", "taxonomy"], input=opener * 100_000)
    assert res.exit_code == 2
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "nested deeper than" in res.stderr
    assert len(res.stderr.strip().splitlines()) <= 2


def test_a_good_payload_is_scored() -> None:
    register(SCORED)
    try:
        res = runner.invoke(app, ["score", "toy-scored"], input='{"bids": [3, 9, 4]}')
    finally:
        unregister(SCORED.id)
    assert res.exit_code == 0 and '"best": 9' in res.stdout
