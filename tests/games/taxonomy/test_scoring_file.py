"""The scoring table as data (data/scoring.toml, `-o scoring=FILE`; RULES.md reading 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import BadCardFile, BadOptions
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy import scoring as scoring_module
from bestiary.games.taxonomy.rules import TaxonomyRules, TaxonomyState
from bestiary.games.taxonomy.scoring_file import DEFAULT_SCORING, load_scoring

from .helpers import arrange

runner = CliRunner()
SPRITE = ["Fairy", "Leannan Sidhe", "Titania", "Pixie"]
PISCINE = ["Mermaid", "Merrow", "Sea Bishop", "Unagi Joro"]


def words(text: str) -> str:
    return " ".join(text.split())


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_SCORING.read_text()
    assert old in text
    path = tmp_path / "scoring.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_the_shipped_table_is_the_rulebooks_and_the_docstring_says_so() -> None:
    """scoring.py's docstring prints the shipped table exactly (reading 7)."""
    table = load_scoring()
    assert table.method_four_four == (3, 2, 1)  # "...3pts", "...2 points", "...1 point"
    assert table.method_five_three == (3, 2, 2)
    assert table.method_eight == (5, 4, 4)  # "obscured [...] 5pts", "exposed, 4pts"
    assert [(b.up_to, b.points) for b in table.four_sizes] == [(4, 3), (7, 2), (None, 0)]
    assert [(b.up_to, b.points) for b in table.eight_sizes] == [(8, 6), (12, 3), (None, 0)]
    assert (table.four_orphans, table.eight_orphans, table.three_of_five_three) == (2, 12, 0)
    assert words(table.summary()) in words(scoring_module.__doc__ or "")


def test_every_value_in_the_shipped_file_quotes_the_rulebook() -> None:
    text = DEFAULT_SCORING.read_text()
    for line in ("3pts", "2 points", "1 point", "exposed, 4pts", "13 or more monsters, Opts"):
        assert line in text


def test_a_designers_table_changes_the_points_in_play_and_in_the_score_tool(
    tmp_path: Path,
) -> None:
    path = edited(tmp_path, "four_four = [3, 2, 1]", "four_four = [7, 2, 1]")
    payload = {"hand": SPRITE + PISCINE}
    assert GAME.score_tool(payload, GAME.ruleset())["points"] == 3 + 3 + 3
    rules = GAME.ruleset(None, {"scoring": str(path)})
    assert GAME.score_tool(payload, rules)["points"] == 7 + 3 + 3
    st = GAME.new(4, seed=7, options={"scoring": str(path)})
    assert isinstance(st, TaxonomyState)
    arrange(st, {0: [*SPRITE, *PISCINE[:3]]}, stock=[PISCINE[3]])
    st.apply_text(0, "win")
    assert st.scores[0] == 7 + 3 + 3


def test_bestiary_score_uses_the_table_in_force(tmp_path: Path) -> None:
    path = edited(tmp_path, "orphans = 12", "orphans = 20")
    payload = json.dumps(
        {"hand": ["Matango", "Dwarf", "Roper", "Cancer", "Gazer", "Ao-Oni", "Otohime", "Slime"]}
    )
    res = runner.invoke(app, ["score", "taxonomy", "-o", f"scoring={path}"], input=payload)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["points"] == 5 + 20
    res = runner.invoke(app, ["score", "taxonomy"], input=payload)
    assert json.loads(res.stdout)["points"] == 5 + 12


def test_every_problem_is_reported_at_once_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        "[method]\nfour_four = [3, 2]\nfive_three = [3, 2, 2]\neight = [5, 4, 4]\nbonus = 1\n"
        "[four]\nsizes = [{up_to = 7, points = 2}, {up_to = 4, points = 3}, {points = 0}]\n"
        "orphans = 'two'\n"
        "[eight]\nsizes = [{up_to = 8, points = 6}, {up_to = 12, points = 3}]\norphans = 12\n"
        "[colour]\nred = 1\n"
    )
    with pytest.raises(BadCardFile) as err:
        load_scoring(str(path))
    msg = str(err.value)
    assert msg.startswith(str(path)) and "\n" not in msg
    for problem in (
        "unknown section(s) colour; sections: method, four, five_three, eight",
        "missing section [five_three]",
        "[method] has unknown key(s) bonus; keys: four_four, five_three, eight",
        "method.four_four must list the points for 0, 1 and 2 claims",
        "four.sizes band 2 needs up_to = a whole number above 7",
        "four.orphans must be a whole number",
        "eight.sizes: the last band takes every larger key, so it has no up_to",
    ):
        assert problem in msg, problem


def test_a_bad_table_is_refused_when_the_option_is_given(tmp_path: Path) -> None:
    with pytest.raises(BadCardFile, match="not TOML"):
        GAME.ruleset(None, {"scoring": str(edited(tmp_path, "three = 0", "three = "))})
    with pytest.raises(BadCardFile, match="cannot read"):
        GAME.ruleset(None, {"scoring": str(tmp_path / "missing.toml")})
    res = runner.invoke(
        app, ["simulate", "taxonomy", "--games", "1", "-o", f"scoring={tmp_path / 'none.toml'}"]
    )
    assert res.exit_code == 2 and "none.toml" in res.stderr


def test_the_scoring_option_names_a_file_so_a_remote_client_may_not_set_it() -> None:
    assert "scoring" in TaxonomyRules.path_fields()
    with pytest.raises(BadOptions, match="cannot be set remotely"):
        TaxonomyRules.refuse_paths({"scoring": "/etc/passwd"})


def test_the_table_is_loaded_once_and_shared_by_every_copy_of_a_match() -> None:
    """The hot path reads the table from the state: one object per match, shared
    by clones and determinizations (State.SHARED)."""
    from bestiary.engine import Rng

    st = GAME.new(4, seed=1)
    assert isinstance(st, TaxonomyState)
    assert st.clone().scoring is st.scoring is st.determinize(1, Rng(2)).scoring
    assert "scoring" in TaxonomyState.SHARED
