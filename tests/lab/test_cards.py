"""Card files without Python: export the shipped set, list every problem at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine.errors import BadInput
from bestiary.lab.cards import export, file_options, validate


def _data_lines(path: Path) -> list[int]:
    return [i for i, line in enumerate(path.read_text().split("\n")) if line and line[0] != "#"]


def test_export_writes_the_shipped_file_that_validates_clean(tmp_path: Path) -> None:
    out = export("meat", tmp_path / "my.toml")
    assert "[[creature]]" in out.read_text()
    assert validate("meat", out) == []
    with pytest.raises(BadInput, match="exists"):
        export("meat", out)
    assert file_options("monster-maker") == ["cards", "prizes", "treasures"]
    with pytest.raises(BadInput, match="files it takes: cards"):
        export("meat", tmp_path / "x", field="eras")


def test_every_bad_row_of_a_csv_is_listed_with_its_own_line(tmp_path: Path) -> None:
    src = tmp_path / "tera.csv"
    export("teratozoic", src)
    lines = src.read_text().split("\n")
    rows = _data_lines(src)
    for k in (rows[2], rows[9]):  # two different rows: the value column made bad
        cells = lines[k].split(",")
        cells[4] = "lots"
        lines[k] = ",".join(cells)
    src.write_text("\n".join(lines))
    problems = [str(p) for p in validate("teratozoic", src)]
    assert len(problems) >= 2
    assert f"line {rows[2] + 1}:" in problems[0] and f"line {rows[9] + 1}:" in problems[1]
    assert all(str(src) in p for p in problems)
    assert "lots" in src.read_text()  # the designer's file is untouched


def test_every_bad_table_of_a_toml_file_is_listed(tmp_path: Path) -> None:
    src = tmp_path / "meat.toml"
    export("meat", src)
    text = src.read_text()
    text = text.replace('rarity = "common"', 'rarity = "ultra"', 2)
    src.write_text(text)
    problems = [str(p) for p in validate("meat", src)]
    assert len(problems) == 2
    assert all("rarity 'ultra' is unknown" in p for p in problems)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="does not exist"):
        validate("meat", tmp_path / "none.toml")
