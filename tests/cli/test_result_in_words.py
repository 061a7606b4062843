"""The end of a terminal game names its players in words, in the player's
language (issue 26: "every visible text in Polish mode comes from the Polish
catalog"): not the protocol's "human" and "heuristic"."""

from __future__ import annotations

from typer.testing import CliRunner

from bestiary.cli import app


def _play(lang: str) -> str:
    res = CliRunner().invoke(
        app,
        [
            "--lang",
            lang,
            "play",
            "meat",
            "--seats",
            "heuristic,heuristic",
            "--seed",
            "5",
            "--plain",
        ],
    )
    assert res.exit_code == 0, res.output
    return res.output


def test_the_result_names_bots_in_words_in_polish_and_english() -> None:
    pl = _play("pl")
    result = pl[pl.rindex("Wynik") :]
    assert "heurystyczny bot" in result and "heuristic" not in result
    en = _play("en")
    assert "heuristic bot" in en[en.rindex("Result") :]
