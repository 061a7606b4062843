"""The card file, the natures mapping, collecting keys, and the CLI commands
`bestiary cards taxonomy` and `bestiary score taxonomy`."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.engine import BadCardFile
from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.cards import (
    DEFAULT_CARDS,
    NATURES,
    load_deck,
    load_natures,
    parse_cards,
)

runner = CliRunner()
SHARED = Path("/work/shared/data/mge-dispositions.csv")


def test_the_deck_has_every_monster_of_the_taxonomy() -> None:
    """ "The deck consists of 200 monster cards"; the scanned list yields 201
    (RULES.md, Cards), all kept."""
    deck = load_deck()
    assert deck.size == 201
    assert len(set(deck.names)) == 201
    assert "Griffon" in deck.names and "Griffonafar" not in deck.names


def test_beastmen_are_collected_by_family() -> None:
    """ "If a monster belongs to the "beastman" type, look at what family it belongs
    to, and you can collect sets based on that." """
    deck = load_deck()
    werewolf = deck.card("Werewolf")
    assert werewolf is not None
    assert deck.key_names[deck.primary[werewolf]] == "Beastman/Wolf"
    assert deck.key_size[deck.key("Beastman/Wolf")] == 6  # type: ignore[index]
    assert deck.key("Beastman") is None


def test_orphans_and_beastman_orphans_are_separate_keys() -> None:
    """ "Such "orphans" can be collected into an orphan set [...] A set of orphans can
    be collected either from the "beastman" type or from other types, they cannot
    be mixed." """
    orphans = load_deck().orphans()
    assert sorted(orphans["Orphans"]) == sorted(
        ["Matango", "Dwarf", "Roper", "Cancer", "Gazer", "Ao-Oni", "Otohime"]
    )
    assert len(orphans["Beastman orphans"]) == 11
    assert "Yeti" in orphans["Beastman orphans"]


def test_v01_has_no_beastman_orphans() -> None:
    """Reading 8: v0.1 orphans come only from types."""
    deck = load_deck(beastman_orphans=False)
    assert list(deck.orphans()) == ["Orphans"]
    yeti = deck.card("Yeti")
    assert deck.key_names[deck.primary[yeti]] == "Beastman/Apeman"  # type: ignore[index]


def test_cheerful_cards_have_a_second_key() -> None:
    deck = load_deck()
    harpy = deck.card("Harpy")
    assert [deck.key_names[k] for k in deck.keys_of[harpy]] == ["Avian", "Cheerful"]  # type: ignore[index]
    assert deck.key_size[deck.cheerful_key] == 7


def test_shipped_natures_follow_the_mapping_and_published_words_match_the_source() -> None:
    """The natures column is the mapping of the dispositions column (data/natures.toml),
    and every `published` disposition is the shared source's word for word."""
    table = load_natures()
    shared = {r["name"].casefold(): r for r in csv.DictReader(SHARED.open())}
    text = DEFAULT_CARDS.read_text()
    rows = [
        r for r in csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    ]
    published = 0
    for row in rows:
        words = [w.strip().casefold() for w in row["dispositions"].split("(")[0].split(",")]
        mapped = sorted({table.words[w] for w in words if w} - {"none"}, key=NATURES.index)
        assert row["natures"].split() == mapped, row["name"]
        if row["provenance"] == "published":
            published += 1
            assert row["source"].startswith("http")
            match = [s for s in shared.values() if s["disposition"] == row["dispositions"]]
            assert match, row["name"]
        else:
            assert row["source"] == ""
    assert published == 34


def test_the_roll_list_covers_the_middle_of_2d20_minus_4() -> None:
    table = load_natures()
    assert str(table.dice) == "2d20-4"
    assert table.nature_of_roll(0) is None and table.nature_of_roll(-2) is None
    assert table.nature_of_roll(17) == "impatient"
    assert table.nature_of_roll(31) is None  # rolled again


# -- malformed card files -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("name,type,family\nA,T,F\nB,T\n", 3, "expected 3 fields"),
        ("name,type\nA,T\n", 1, "lacks column(s) family"),
        ("name,type,family\nA,T,F\na,T,F\n", 3, "already appears on line 2"),
        ("name,type,family,natures\nA,T,F,sleepy\n", 2, "unknown nature 'sleepy'"),
        ("name,type,family,dispositions\nA,T,F,Sleepy\n", 2, "disposition 'sleepy'"),
        ("name,type,family\n,T,F\n", 2, "empty name"),
        ("# a comment\n\nname,type,family,colour\n", 3, "unknown column(s) colour"),
        ("name,type,family,provenance\nA,T,F,rumour\n", 2, "provenance 'rumour'"),
    ],
)
def test_a_malformed_card_file_names_the_line_and_the_problem(
    text: str, line: int, problem: str
) -> None:
    with pytest.raises(BadCardFile) as err:
        parse_cards(text, "my.csv", load_natures())
    assert err.value.line == line
    assert problem in str(err.value)
    assert f"my.csv, line {line}" in str(err.value)


def test_cards_option_loads_a_designers_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    rows = ["name,type,family,natures"] + [
        f"M{i},T{i % 5},F,{'mean' if i == 0 else ''}" for i in range(60)
    ]
    path.write_text("\n".join(rows) + "\n")
    st = GAME.new(4, seed=1, options={"cards": str(path)})
    assert st.deck.size == 60  # type: ignore[attr-defined]
    cat = GAME.catalog(GAME.ruleset(None, {"cards": str(path)}))
    assert cat["keys"]["T0"] == 12


# -- CLI ----------------------------------------------------------------------------------
def test_cli_cards_json_lists_cards_keys_and_orphans() -> None:
    res = runner.invoke(app, ["cards", "taxonomy", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert len(data["cards"]) == 201
    fairy = next(c for c in data["cards"] if c["name"] == "Fairy")
    assert {"name", "type", "family", "natures"} <= set(fairy)
    assert fairy["type"] == "Sprite" and fairy["natures"] == ["cheerful"]
    assert data["keys"]["Sprite"] == 4 and data["keys"]["Beastman/Wolf"] == 6
    assert len(data["orphans"]["Orphans"]) == 7


def test_cli_cards_table_renders() -> None:
    res = runner.invoke(app, ["cards", "taxonomy"])
    assert res.exit_code == 0 and "Collecting keys" in res.stdout


def test_cli_score_valid_hand() -> None:
    hand = ["Fairy", "Leannan Sidhe", "Titania", "Pixie"]
    payload = {
        "variant": "v0.2",
        "hand": hand,
        "exposed": [["Scylla", "Kraken", "Mindflayer", "Giant Slug"]],
        "claims": 1,
    }
    res = runner.invoke(app, ["score", "taxonomy"], input=json.dumps(payload))
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["valid"] is True and out["pattern"] == "4+4" and out["points"] == 8
    assert [s["points"] for s in out["sets"]] == [3, 3]
    assert out["breakdown"][0] == {"rule": "two sets of 4, 1 claim", "points": 2}


def test_cli_score_not_winning_is_exit_0() -> None:
    payload = {"hand": ["Fairy", "Slime", "Troll", "Orc", "Yeti", "Imp", "Lamia", "Ghost"]}
    res = runner.invoke(app, ["score", "taxonomy"], input=json.dumps(payload))
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["valid"] is False and out["reason"]


@pytest.mark.parametrize(
    "stdin",
    ['{"hand": "Fairy"}', "not json", '{"hand": ["Fairy", "Nobody"]}', "[1, 2]"],
)
def test_cli_score_malformed_or_unknown_card_is_exit_2(stdin: str) -> None:
    res = runner.invoke(app, ["score", "taxonomy"], input=stdin)
    assert res.exit_code == 2
    assert "error" in res.stderr


def test_cli_malformed_card_file_is_exit_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,type,family\nFairy,Sprite,Succubus\nPixie,Sprite\n")
    res = runner.invoke(app, ["cards", "taxonomy", "--cards", str(bad)])
    assert res.exit_code == 2
    assert "line 3" in res.stderr and "expected 3 fields" in res.stderr
    res = runner.invoke(
        app, ["simulate", "taxonomy", "--games", "1", "--cards", str(bad), "--json"]
    )
    assert res.exit_code == 2 and "line 3" in res.stderr
