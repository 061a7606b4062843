"""The card set: rarities and copies, the four factions, validation errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.engine import BadCardFile, UnknownCard
from bestiary.games.meat import GAME
from bestiary.games.meat.cards import DEFAULT_PATH, FACTIONS, RARITIES, load_cards
from bestiary.games.meat.rules import MeatState


def test_copy_counts_follow_rarity() -> None:
    """ "karty powszechne (4 sztuki w talii), rzadkie (3 sztuki w talii), epickie (2 sztuki
    w talii) oraz mityczne (jedna sztuka w talii)"; destiny cards "z zachowaniem liczby
    sztuk w talii dla każdej rzadkości"."""
    cs = load_cards()
    for d in cs.defs:
        assert sum(1 for k in cs.kind if k == d.index) == RARITIES[d.rarity]


def test_every_faction_has_every_rarity_and_costs_are_0_to_2() -> None:
    """Four factions (Sekta MBS XII, Natura, Zjednoczeni, Mutanci); a creature
    costs "od 0 do 2 uncji" (0 to 2 ounces)."""
    cs = load_cards()
    for f in FACTIONS:
        rar = {d.rarity for d in cs.defs if d.faction == f}
        assert rar == set(RARITIES)
    assert all(0 <= d.cost <= 2 for d in cs.defs if d.is_creature)
    assert all(
        d.faction == "" for d in cs.defs if not d.is_creature
    )  # "nie występuje podział na frakcje"


def test_manual_names_instant_and_fusion_cards_exist() -> None:
    cs = load_cards()
    for n in (
        "Parszywy Szczur",
        "Nekromanta",
        "Bober",
        "Sir Duncan Culligan",
        "Nekromutant",
        "Ostry Cień Mgły",
    ):
        assert cs.card(n).en
    assert any(d.instant for d in cs.defs) and any(d.fusion for d in cs.defs)
    assert len(cs.leaders) >= 6
    with pytest.raises(UnknownCard):
        cs.card("Smok")


_SPELL: dict[str, object] = {"name": "X", "en": "X", "kind": "spell", "rarity": "rare", "cost": 1}
_BEAST: dict[str, object] = {"en": "X", "faction": "Natura", "rarity": "rare"}
_BEAST |= {"attack": 1, "defence": 1}


def _toml(table: str, **fields: object) -> str:
    """A [[table]] in TOML; values are written as given (strings quoted)."""
    lines = [f"\n[[{table}]]"]
    for k, v in fields.items():
        lines.append(
            f'{k} = "{v}"' if isinstance(v, str) and not v.startswith(("[", "{")) else f"{k} = {v}"
        )
    return "\n".join(lines) + "\n"


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "c.toml"
    p.write_text(DEFAULT_PATH.read_text(encoding="utf-8") + text, encoding="utf-8")
    return str(p)


def test_bad_keyword_names_the_line_card_and_problem(tmp_path: Path) -> None:
    bad = _toml("creature", **_BEAST, name="Zły", cost=1, keywords='["FLYING"]')
    path = _write(tmp_path, bad)
    with pytest.raises(BadCardFile) as err:
        load_cards(path)
    n_lines = DEFAULT_PATH.read_text(encoding="utf-8").count("\n")
    assert err.value.line == n_lines + 2
    assert "'Zły'" in str(err.value) and "FLYING" in str(err.value)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (_toml("destiny", **_SPELL, effects='[{ do = "explode" }]'), "explode"),
        (_toml("destiny", **_SPELL, effects='[{ do = "damage", amount = 2 }]'), "no target"),
        (_toml("creature", **_BEAST, name="X", cost=3), "0 to 2"),
        (_toml("creature", **_BEAST, name="Bober", cost=1), "already exists"),
        ("\n[[creature]\n", "not valid TOML"),
    ],
)
def test_malformed_cards_are_refused(tmp_path: Path, extra: str, problem: str) -> None:
    with pytest.raises(BadCardFile, match=problem):
        load_cards(_write(tmp_path, extra))


def test_a_designer_card_file_plays(tmp_path: Path) -> None:
    fire = _toml(
        "destiny",
        name="Ogień",
        en="Fire",
        kind="spell",
        instant="true",
        rarity="common",
        cost=0,
        target="enemy",
        effects='[{ do = "damage", amount = 1 }]',
    )
    path = _write(tmp_path, fire.replace('"true"', "true"))
    st = GAME.new(2, seed=0, options={"cards": path})
    assert isinstance(st, MeatState) and st.cs.card("Ogień").instant
    assert GAME.num_actions(2, st.rules) > GAME.num_actions(2, GAME.ruleset())


def test_catalog_lists_every_card_with_text() -> None:
    cat = GAME.catalog(GAME.ruleset())
    assert cat is not None
    assert len(cat["creatures"]) == 32 and cat["deck_sizes"]["creature"] == 92
    fusion = next(c for c in cat["destiny"] if c["name"] == "Ostry Cień Mgły")
    assert "FUSION" in fusion["text"] and "REFLEX" in fusion["text"]
