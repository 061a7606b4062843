"""Text the CLI prints is text, never Rich markup: brackets survive, ``[/red]`` cannot crash it."""

from __future__ import annotations

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import register

from ..engine.toygame import GAME
from .games import BRACKETS

register(GAME)
register(BRACKETS)
runner = CliRunner()


def test_brackets_in_an_error_message_survive() -> None:
    res = runner.invoke(app, ["score", "teratozoic"], input="{}")
    assert res.exit_code == 2
    assert '{"cards": [names]}' in res.stderr


def test_a_closing_tag_in_an_agent_spec_is_an_error_not_a_crash() -> None:
    res = runner.invoke(app, ["simulate", "toy", "--games", "1", "--seats", "random,[/red]"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "'[/red]'" in res.stderr


def test_an_option_value_with_markup_is_printed_as_typed() -> None:
    res = runner.invoke(app, ["simulate", "toy", "-o", "tricks=[bold]9[/]"])
    assert res.exit_code == 2
    assert "[bold]9[/]" in res.stderr


def test_action_names_with_markup_are_listed_as_written() -> None:
    res = runner.invoke(
        app, ["play", "toy-brackets", "--seats", "human,random", "--seed", "1"], input="quit\n"
    )
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "bid [red]" in res.stdout and "[/red]" in res.stdout
    assert "[with brackets]" in res.stdout


def test_player_names_in_a_record_are_printed_as_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    rec = tmp_path / "m.json"
    runner.invoke(app, ["play", "toy", "--seats", "random,random", "--seed", "2", "--record", rec])
    data = json.loads(rec.read_text())
    data["seats"] = ["[b]Ann[/b]", "Bob [/]"]
    rec.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 0, res.output
    assert "[b]Ann[/b]" in res.stdout and "Bob [/]" in res.stdout
