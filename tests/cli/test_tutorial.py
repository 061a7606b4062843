"""The first-game tutorial in the terminal (issue 26, "The table, for
players": "a first-game tutorial per game: a scripted deal in which the page
(and the terminal) points at what to do next and why, step by step, through
one complete turn cycle and one scoring; skippable, replayable"; done when
"the tutorial is played to its end in each game").

``bestiary play GAME --tutorial`` deals the game's tutorial.toml table; each
prompt may be answered ``next`` (the move the step points at, else the
menu's first), so a run of ``next`` plays the scripted game to its end.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine.errors import BestiaryError
from bestiary.engine.registry import get_game
from bestiary.engine.tutorial import Facts, Progress, TutorialError, check, holds, load

runner = CliRunner()
GAMES = ["taxonomy", "monster-maker", "meat", "teratozoic"]


def _flat(text: str) -> str:
    return re.sub(r"[\s│╭╮╰╯─]+", " ", text)


def _play(game: str, lines: list[str], *extra: str) -> str:
    res = runner.invoke(
        app, ["play", game, "--tutorial", "--plain", *extra], input="".join(f"{x}\n" for x in lines)
    )
    assert "Traceback" not in res.output
    return res.output


@pytest.mark.parametrize("game", GAMES)
def test_the_tutorial_is_played_to_its_end_and_every_step_shows_in_order(game: str) -> None:
    lesson = load(get_game(game))
    assert lesson is not None
    out = _play(game, ["next"] * 400)
    total = len(lesson.steps)
    shown = [int(n) for n, _t in re.findall(rf"Tutorial, step (\d+) of ({total})", out)]
    # "step by step": every step, once, in order, each with its own words
    assert shown == list(range(1, total + 1)), shown
    flat = _flat(out)
    for step in lesson.steps:
        assert _flat(step.text["en"])[:60] in flat
    # "replayable": the last step says how to play it again, or a real game
    assert f"bestiary play {game} --tutorial" in flat
    assert "input ended before the game did" not in out


def test_the_tutorial_speaks_polish() -> None:
    lesson = load(get_game("meat"))
    assert lesson is not None
    res = runner.invoke(
        app, ["--lang", "pl", "play", "meat", "--tutorial", "--plain"], input="next\n" * 40
    )
    out = res.output
    assert _flat(lesson.steps[0].text["pl"])[:60] in _flat(out)


def test_skip_leaves_the_tutorial_and_the_game_goes_on() -> None:
    # "skippable": after skip no further step is shown, and the game is played on.
    out = _play("meat", ["skip", *["1"] * 60])
    assert "Tutorial, step 1 of" in out
    assert "Tutorial skipped" in out
    assert "Tutorial, step 2 of" not in out
    assert "seed 1 (the same seed" in out  # played to the end after the skip


def test_the_same_deal_every_time() -> None:
    # Seeded bots are deterministic: the advised moves give the same game.
    assert _play("taxonomy", ["next"] * 400) == _play("taxonomy", ["next"] * 400)


def test_conditions_are_checked_and_steps_wait_for_a_move() -> None:
    for bad in ['phase == "draft"', "legal ^= discard", 'legal != "pass"', "phase"]:
        with pytest.raises(TutorialError):
            check(bad)
    facts = Facts({"phase": "draft", "round": 2, "hand": [1, 2], "x": {"y": 1.0}}, ["draft Rat"])
    assert holds('phase = "draft" and legal ^= "draft " and turn', facts)
    assert holds('round = "2" and hand = "2" and x.y = "1" and missing = ""', facts)
    assert not holds("over", facts)
    steps = load(get_game("meat"))
    assert steps is not None
    progress = Progress(steps.steps)
    draft = Facts({"phase": "draft"}, ["draft Rat"])
    leaders = Facts({"phase": "leaders"}, ["leader Ana"])
    assert progress.update(draft) is None  # the first step's condition does not hold
    assert progress.update(leaders) is steps.steps[0]
    assert progress.update(draft) is None  # the next step waits for a move
    progress.moved()
    assert progress.update(draft) is steps.steps[1]


def test_a_game_without_a_tutorial_says_so() -> None:
    from bestiary.engine import register

    from ..engine.toygame import GAME

    register(GAME)
    res = runner.invoke(app, ["play", GAME.id, "--tutorial"])
    assert res.exit_code != 0 and "has no tutorial yet" in res.output
    assert "Traceback" not in res.output
    assert isinstance(TutorialError("x"), BestiaryError)
