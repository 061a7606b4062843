"""The lab's commands, registered on a Typer app of their own (as the CLI will)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from bestiary.cli import lab

app = typer.Typer()
for fn in (lab.run, lab.report, lab.compare, lab.sweep, lab.arena, lab.validate, lab.cards_export):
    app.command()(fn)
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and stdout (JSON goes there), or stderr when the command failed."""
    res = runner.invoke(app, list(args))
    return res.exit_code, res.stdout if res.exit_code in (0, 1) else res.stderr


def test_designer_loop_change_a_card_run_report_compare(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    code, text = invoke("cards-export", "meat", str(mine))
    assert code == 0 and mine.is_file()
    mine.write_text(mine.read_text().replace("attack = 1\n", "attack = 3\n", 1))
    code, text = invoke("validate", "meat", str(mine))
    assert code == 0 and "no problems" in text
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    common = ["--games", "6", "--seats", "random,random", "--workers", "1"]
    code, text = invoke("run", "meat", "--out", str(a), *common, "--json")
    assert code == 0, text
    assert json.loads(text)["total"] == 6
    code, text = invoke("run", "meat", "--out", str(b), "--cards", str(mine), *common, "--json")
    assert code == 0, text
    code, text = invoke("report", str(a), "-o", str(tmp_path / "a.html"))
    assert code == 0, text
    assert "<section id='seats'>" in (tmp_path / "a.html").read_text()
    code, text = invoke("compare", str(a), str(b), "-o", str(tmp_path / "d.html"), "--json")
    assert code == 0, text
    data = json.loads(text)
    assert [c["what"] for c in data["changes"]] == ["card files", "options"]
    assert data["warnings"]  # six games cannot tell
    assert "<section id='movers'>" in (tmp_path / "d.html").read_text()


def test_report_json_is_a_plain_summary(tmp_path: Path) -> None:
    run = tmp_path / "r.parquet"
    assert invoke("run", "meat", "--out", str(run), "-n", "4", "--workers", "1", "--json")[0] == 0
    code, text = invoke("report", str(run), "--json")
    assert code == 0
    assert json.loads(text)["metrics"]["seat0_win"]["n"] == 4


def test_validate_lists_problems_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    invoke("cards-export", "meat", str(bad))
    bad.write_text(bad.read_text().replace('rarity = "common"', 'rarity = "[red]x"', 2))
    code, text = invoke("validate", "meat", str(bad), "--json")
    assert code == 1
    assert len(json.loads(text)["problems"]) == 2


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    code, text = invoke("report", str(tmp_path / "missing.parquet"))
    assert code == 2 and "not a run file" in text and "Traceback" not in text
    code, text = invoke("run", "meat", "--out", str(tmp_path / "x.parquet"), "--backend", "spark")
    assert code == 2 and "allowed: local, ray" in text
    code, text = invoke("sweep", "meat")
    assert code == 2 and "-o name=v1,v2,v3" in text
    code, text = invoke("arena", "meat", "--agents", "random")
    assert code == 2 and "at least 2 agents" in text


def test_arena_json_ranks_agents(tmp_path: Path) -> None:
    code, text = invoke(
        "arena", "meat", "--agents", "random,heuristic", "-n", "4", "--workers", "1", "--json"
    )
    assert code == 0, text
    ratings = json.loads(text)["ratings"]
    assert [r["agent"] for r in ratings] == ["heuristic", "random"]


def test_short_options_do_not_clash() -> None:
    """-o is the report page for report/compare and a rule option for sweep/arena."""
    import click

    for fn in (lab.report, lab.compare, lab.sweep, lab.arena, lab.run):
        command = typer.main.get_command_from_info(
            typer.models.CommandInfo(callback=fn),
            pretty_exceptions_short=True,
            rich_markup_mode=None,
        )
        flags = [f for p in command.params if isinstance(p, click.Option) for f in p.opts]
        assert len(flags) == len(set(flags)), fn.__name__


def test_a_designers_own_bot_from_the_current_folder_plays_in_a_run(
    tmp_path: Path, monkeypatch: object
) -> None:
    (tmp_path / "firstbot.py").write_text(
        "class First:\n"
        "    def __init__(self, seed: int = 0) -> None:\n"
        "        pass\n"
        "    def act(self, ctx):\n"
        "        return ctx.legal()[0]\n"
    )
    monkeypatch.chdir(tmp_path)  # type: ignore[attr-defined]
    run = tmp_path / "mine.parquet"
    code, text = invoke(
        "run",
        "meat",
        "--out",
        str(run),
        "-n",
        "2",
        "--workers",
        "1",
        "--seats",
        "firstbot:First,random",
        "--json",
    )
    # This test's bot once read ctx.legal[0] (legal is a method): both games
    # failed and the run still exited 0; now failures exit 1 and are counted.
    assert code == 0, text
    assert json.loads(text)["failed"] == 0
    from bestiary.lab.runs import read_run

    assert read_run(run).column("seats").to_pylist()[0] == ["firstbot:First", "random"]


def test_a_lab_error_speaks_polish_with_lang_pl_and_english_without() -> None:
    from bestiary.cli import app as bestiary
    from bestiary.i18n import language, set_language

    before = language()
    try:
        env = {"BESTIARY_LANG": "en"}
        pl = runner.invoke(bestiary, ["--lang", "pl", "sweep", "meat"], env=env)
        en = runner.invoke(bestiary, ["sweep", "meat"], env=env)
    finally:
        set_language(before)  # the CLI sets the language of this thread
    assert pl.exit_code == en.exit_code == 2
    assert "błąd: podaj, co badać: -o nazwa=w1,w2,w3 albo --cards" in pl.output
    assert "give what to sweep" not in pl.output
    assert "error: give what to sweep: -o name=v1,v2,v3 or --cards" in en.output
    assert "podaj" not in en.output
