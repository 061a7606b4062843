"""Rules at the edges: deaths during REVEAL, WYZWANIE outside the battle,
FUSION equipment with a ♦ ability and spells with printed attack/defence."""

from __future__ import annotations

from pathlib import Path

from bestiary.games.meat.cards import DEFAULT_PATH
from bestiary.games.meat.rules import D_ARMED, P_ACTIVATION

from .helpers import at_tactics, events, to_activation


def test_a_creature_killed_by_a_reveal_dies_at_once() -> None:
    """Bitwa 3: "W sytuacji, gdy punkty OBRONY danej karty ISTOTY będą równe lub
    mniejsze od 0, karta natychmiast zostaje przeniesiona na stos CMENTARZA."
    Arcymistrz's REVEAL (2 damage opposite) kills the Acolyte before the
    Acolyte's own REVEAL (+1 Telestarion) fires and before destiny costs are
    paid, so the Zemsta paid afterwards does not fire for it."""
    st = at_tactics(2, 0, {0: ["Arcymistrz MBS XII"], 1: ["Akolita", "Zemsta"]})
    st.vit = [20, 25]  # team 0 has less vitality: it reveals first
    to_activation(
        st, {0: {"front": "Arcymistrz MBS XII"}, 1: {"front": "Akolita"}}, {1: ("Zemsta",)}
    )
    assert st.phase == P_ACTIVATION
    kinds = [e.kind for e in st.events_since(0, None)]
    assert kinds.index("died") < kinds.index("paid")
    assert [e["card"] for e in events(st, "died")] == ["Akolita"]
    assert [st.name(c) for c in st.cgrave][-1] == "Akolita" and st.field[4] == -1
    assert not [e for e in events(st, "reveal_ability") if e["card"] == "Akolita"]
    assert st.tel[1] == 7 - 1  # paid Zemsta, gained nothing from the dead Acolyte
    zemsta = next(c for c in st.dfield[1] if st.name(c) == "Zemsta")
    assert st.dstat[zemsta] == D_ARMED and not events(st, "fired")
    assert st.dmg[st.field[1]] == 0  # Arcymistrz took no revenge damage


def test_challenge_takes_ability_damage_aimed_beside_it() -> None:
    """WYZWANIE: "ISTOTA przejmuje obrażenia kierowane w stronę sąsiednich,
    przyjaznych ISTOT" — all damage aimed at its neighbours, not only in battle
    (CIĘCIE is the keyword limited to "w fazie BITWY")."""
    st = at_tactics(2, 0, {0: ["Kapłan Krwi"], 1: ["Strażnik Bramy", "Rekrut"]})
    st.vit = [20, 25]
    to_activation(
        st, {0: {"front": "Kapłan Krwi"}, 1: {"front": "Strażnik Bramy", "left": "Rekrut"}}
    )
    st.apply_text(0, "ability front @ s1 left")
    warden, recruit = st.field[4], st.field[3]
    assert st.dmg[warden] == 2 and st.dmg[recruit] == 0
    assert events(st, "damaged")[-1]["slot"] == 4


def test_challenge_takes_spell_damage_aimed_beside_it() -> None:
    st = at_tactics(2, 0, {0: ["Rekrut", "Deszcz Ognia"], 1: ["Strażnik Bramy", "Rekrut"]})
    st.vit = [20, 25]
    to_activation(
        st,
        {0: {"front": "Rekrut"}, 1: {"front": "Strażnik Bramy", "left": "Rekrut"}},
        {0: ("Deszcz Ognia",)},
    )
    st.apply_text(0, "resolve Deszcz Ognia")
    # 1 damage aimed at each enemy creature: the Warden takes its own and the Recruit's.
    assert st.dmg[st.field[4]] == 2 and st.dmg[st.field[3]] == 0


_EXTRA = """
[[destiny]]
name = "Krwawa Rękawica"
en = "Bloody Gauntlet"
kind = "equipment"
fusion = true
rarity = "common"
cost = 1
attack = 1
defence = 0
ability = { cost = 1, target = "enemy", effects = [{ do = "damage", amount = 1 }] }

[[destiny]]
name = "Pancerz Wiary"
en = "Armour of Faith"
kind = "spell"
rarity = "common"
cost = 1
target = "ally"
attack = 1
defence = 2
effects = [{ do = "heal", amount = 1 }]
"""


def _designer_file(tmp_path: Path) -> str:
    path = tmp_path / "cards.toml"
    path.write_text(DEFAULT_PATH.read_text(encoding="utf-8") + _EXTRA, encoding="utf-8")
    return str(path)


def test_fusion_equipment_grants_its_ability(tmp_path: Path) -> None:
    """FUZJA: "Istota ta otrzymuje korzyści wynikające z opisu FUZJI oraz otrzymuje
    bonusowe statystyki" — the fused creature gains the equipment's ♦ ability."""
    cards = _designer_file(tmp_path)
    st = at_tactics(2, 0, {0: ["Rekrut", "Krwawa Rękawica"], 1: ["Bober"]}, cards=cards)
    st.vit = [20, 25]
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Bober"}}, {0: ("Krwawa Rękawica",)})
    assert not [m for m in st.legal(0) if str(m).startswith("ability")]
    st.apply_text(0, "resolve Krwawa Rękawica @ s0 front")
    st.apply_text(1, "pass")
    assert "ability front @ s1 front" in [str(m) for m in st.legal(0)]
    cell = st.view(1)["field"][0]["creatures"][1]
    assert cell["ability_cost"] == 1 and cell["attack"] == st.cs.card("Rekrut").attack + 1
    st.apply_text(0, "ability front @ s1 front")
    assert st.dmg[st.field[4]] == 1


def test_a_spell_gives_its_printed_attack_and_defence(tmp_path: Path) -> None:
    """Card anatomy, PRZEZNACZENIE: "4** Wartość ataku, 5** Wartość obrony" for
    spells too: a spell's attack and defence go to its target."""
    cards = _designer_file(tmp_path)
    st = at_tactics(2, 0, {0: ["Rekrut", "Pancerz Wiary"], 1: ["Bober"]}, cards=cards)
    st.vit = [20, 25]
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Bober"}}, {0: ("Pancerz Wiary",)})
    recruit = st.field[1]
    before = (st.attack(1), st.defence(1))
    st.apply_text(0, "resolve Pancerz Wiary @ s0 front")
    assert (st.attack(1), st.defence(1)) == (before[0] + 1, before[1] + 2)
    assert st.atk_mod[recruit] == 1 and st.def_mod[recruit] == 2
