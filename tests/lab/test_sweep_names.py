"""Sweeping card files of one name from different folders (issue 28, point 3:
"sweeping two card files of the same name in different folders stops with a
'different run' error")."""

from __future__ import annotations

from pathlib import Path

from bestiary.lab.cards import export
from bestiary.lab.runs import read_run, run_meta
from bestiary.lab.sweep import file_names, run_sweep


def test_two_card_files_of_one_name_get_a_run_file_each(tmp_path: Path) -> None:
    a = export("meat", tmp_path / "old" / "mine.toml")
    b = export("meat", tmp_path / "new" / "mine.toml")
    b.write_text(b.read_text().replace("attack = 1\n", "attack = 3\n", 1))
    files = run_sweep("meat", ["random", "random"], "cards", [str(a), str(b)], 2, tmp_path / "out")
    assert len({p for _, p in files}) == 2
    for value, path in files:
        assert run_meta(read_run(path))["config"]["options"]["cards"] == value


def test_file_names_are_unique_and_stay_short_names_when_they_can() -> None:
    assert file_names("rounds", ["2", "3"]) == ["rounds=2.parquet", "rounds=3.parquet"]
    names = file_names("cards", ["a/mine.toml", "b/mine.toml", "a/mine.csv"])
    assert len(set(names)) == 3 and all(n.startswith("cards=") for n in names)
