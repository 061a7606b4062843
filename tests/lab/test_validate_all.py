"""``bestiary validate`` lists every problem of every card (issue 28).

"`validate` reports only the first problem of a card": it must list every
problem of every card, each with the card's name, the field, what is wrong
and what is allowed, and exit non-zero. Checked for every game's editable
card files: one card with two problems in two fields, another with one.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from bestiary.cli import lab
from bestiary.lab.cards import export, validate

# (game, file, data row, {column: bad value}, the words each problem must hold:
# what is wrong and what is allowed), then the other card's (row, column, value, words)
CSV_CASES = [
    (
        "monster-maker",
        "cards",
        3,
        {"kind": "dragon", "count": "lots"},
        ["'dragon'", "kinds: corridor, monster", "'lots'", "from 1 to 100"],
        (8, "count", "0", "between 1 and 100"),
    ),
    (
        "monster-maker",
        "treasures",
        2,
        {"open": "maybe", "gold": "much"},
        ["'maybe' must be yes or no", "'much'", "dice such as 3Dx20"],
        (5, "special", "fly", "allowed: secret_door, goddess"),
    ),
    (
        "monster-maker",
        "prizes",
        0,
        {"count": "x", "gold": "y"},
        ["'x' is not a whole number from 1 to 100", "'y' is not a whole number from 0 to"],
        (1, "gold", "z", "'z'"),
    ),
    (
        "taxonomy",
        "cards",
        4,
        {"provenance": "rumour", "natures": "grumpy"},
        ["'rumour'", "allowed: published, assumed", "'grumpy'", "natures: aggressive"],
        (9, "natures", "sleepy", "'sleepy'"),
    ),
    (
        "teratozoic",
        "cards",
        20,
        {"colour": "pink", "value": "lots"},
        ["'pink' is not one of orange, red", "whole number, not 'lots'"],
        (30, "doubler", "7", "0..1, not 7"),
    ),
]


def _edit_csv(src: Path, edits: dict[int, dict[str, str]]) -> dict[int, tuple[int, str]]:
    """Set cells of data rows (0 = the first card); each edited row's (line, name)."""
    lines = src.read_text(encoding="utf-8").split("\n")
    data = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    header = [h.strip() for h in next(csv.reader([lines[data[0]]]))]
    where = {}
    for row, cells in edits.items():
        at = data[1 + row]
        values = next(csv.reader([lines[at]]))
        for column, value in cells.items():
            values[header.index(column)] = value
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(values)
        lines[at] = out.getvalue()
        where[row] = (at + 1, values[header.index("name")])
    src.write_text("\n".join(lines), encoding="utf-8")
    return where


@pytest.mark.parametrize(
    ("game", "field", "row", "bad", "words", "other"),
    CSV_CASES,
    ids=[f"{c[0]}-{c[1]}" for c in CSV_CASES],
)
def test_every_problem_of_every_csv_card_is_listed(
    tmp_path: Path,
    game: str,
    field: str,
    row: int,
    bad: dict[str, str],
    words: list[str],
    other: tuple[int, str, str, str],
) -> None:
    src = export(game, tmp_path / f"mine-{field}.csv", field)
    o_row, o_column, o_value, o_words = other
    where = _edit_csv(src, {row: bad, o_row: {o_column: o_value}})
    before = src.read_bytes()
    problems = [str(p) for p in validate(game, src, field)]
    assert src.read_bytes() == before  # the designer's file is left as it was
    line, name = where[row]
    ours = [p for p in problems if f"line {line}: card {name!r}, field " in p]
    assert [p.split(", field ")[1].split(":")[0] for p in ours] == list(bad)
    for w in words:
        assert any(w in p for p in ours), (w, ours)
    line, name = where[o_row]
    assert [p for p in problems if f"line {line}: card {name!r}, field {o_column}:" in p]
    assert any(o_words in p for p in problems)
    assert len(problems) == 3, problems


def test_every_problem_of_a_toml_card_is_listed_and_the_command_exits_1(tmp_path: Path) -> None:
    src = export("meat", tmp_path / "mine.toml")
    text = src.read_text(encoding="utf-8")
    # Akolita: two fields; Nekromanta: a field it lacks and one it may not have
    text = text.replace('rarity = "common"\ncost = 0', 'rarity = "ultra"\ncost = 7', 1)
    text = text.replace('en = "Necromancer"\nfaction = "Sekta MBS XII"', 'en = "Necromancer"', 1)
    text = text.replace('name = "Nekromanta"', 'name = "Nekromanta"\ncolour = "red"', 1)
    src.write_text(text, encoding="utf-8")
    problems = validate("meat", src)
    assert [(p.card, p.field) for p in problems] == [
        ("Akolita", "rarity"),
        ("Akolita", "cost"),
        ("Nekromanta", "colour"),
        ("Nekromanta", "faction"),
    ]
    shown = [str(p) for p in problems]
    assert "card 'Akolita', field rarity: rarity 'ultra' is unknown; rarities: common" in shown[0]
    assert "field cost: a creature costs 0 to 2" in shown[1]
    assert "unknown field(s) colour" in shown[2] and "'faction' must be" in shown[3]
    app = typer.Typer()
    app.command()(lab.validate)
    app.command()(lab.cards_export)  # two commands: the app takes the command's name
    res = CliRunner().invoke(app, ["validate", "meat", str(src), "--json"])
    assert res.exit_code == 1
    listed = json.loads(res.stdout)["problems"]
    assert [(p["card"], p["field"]) for p in listed] == [(p.card, p.field) for p in problems]
    assert all(p["line"] and p["problem"] and str(src) in p["message"] for p in listed)


def test_a_repeated_name_and_fields_that_clash_are_named_too(tmp_path: Path) -> None:
    src = export("meat", tmp_path / "mine.toml")
    text = src.read_text(encoding="utf-8")
    text = text.replace('rarity = "common"\ncost = 0', 'rarity = "ultra"\ncost = 0', 1)
    text = text.replace('name = "Kultysta z Nożem"', 'name = "Akolita"', 1)  # twice now
    # a spell that fires by itself in battle cannot also choose a target
    text = text.replace('instant = true\nrarity = "common"', 'on = "battle"\nrarity = "common"', 1)
    src.write_text(text, encoding="utf-8")
    shown = [str(p) for p in validate("meat", src)]
    assert any("card 'Akolita', field rarity:" in p for p in shown)
    assert any("card 'Akolita', field name: a card of this name already exists" in p for p in shown)
    assert any("cannot choose a target" in p and "card 'Krwawy Grom'" in p for p in shown)


def test_a_card_that_is_not_even_toml_is_named_and_the_rest_still_checked(
    tmp_path: Path,
) -> None:
    src = export("meat", tmp_path / "mine.toml")
    text = src.read_text(encoding="utf-8")
    text = text.replace('name = "Nekromanta"', 'name = "Nekromanta"\nattack = = 3', 1)
    text = text.replace('rarity = "common"\ncost = 0', 'rarity = "ultra"\ncost = 7', 1)
    src.write_text(text, encoding="utf-8")
    problems = validate("meat", src)
    assert [(p.card, p.field) for p in problems] == [
        ("Akolita", "rarity"),
        ("Akolita", "cost"),
        ("Nekromanta", None),
    ]
    assert "not valid TOML" in problems[2].text
