"""Mechaniki specjalne: FUZJA, NATYCHMIASTOWE (the stack), conditional destiny cards."""

from __future__ import annotations

from typing import Any

from bestiary.games.meat.cards import REFLEX
from bestiary.games.meat.rules import P_ACTIVATION, P_DRAFT, P_RESPOND, P_WINDOW, MeatState

from .helpers import at_tactics, events, first_legal_until, new, pass_all, to_activation


def _slot_view(st: MeatState, seat: int, lane: int) -> dict[str, Any]:
    return st.view(None)["field"][seat]["creatures"][lane]


def test_fusion_example_from_the_manual() -> None:
    """ "Gracz zagrywa kartę Ostry Cień Mgły, opłaca jej koszt i wybiera za cel swoją
    Istotę - Parszywego Szczura. Od teraz Parszywy Szczur posiada dodatkową zdolność
    "REFLEKS" oraz +1 ATAKU." (Sharp Shadow of the Mist fused with the Mangy Rat:
    it gains REFLEX and +1 attack.)"""
    st = at_tactics(2, 0, {0: ["Parszywy Szczur", "Ostry Cień Mgły"], 1: ["Rekrut"]})
    st.vit = [20, 25]
    to_activation(
        st, {0: {"front": "Parszywy Szczur"}, 1: {"front": "Rekrut"}}, {0: ("Ostry Cień Mgły",)}
    )
    st.apply_text(0, "resolve Ostry Cień Mgły @ s0 front")
    rat = _slot_view(st, 0, 1)
    assert rat["attack"] == 2 and "REFLEX" in rat["keywords"]
    assert rat["equipment"] == ["Ostry Cień Mgły"]


def test_fusion_may_target_an_opponent_but_plain_equipment_may_not() -> None:
    """ "Karta z FUZJĄ może zostać scalona z dowolną kartą ISTOTY - będąca w posiadaniu
    gracza, towarzysza z jego drużyny lub przeciwnika"."""
    st = at_tactics(
        2, 0, {0: ["Rekrut", "Kajdany", "Zardzewiały Miecz"], 1: ["Niedźwiedź Jaskiniowy"]}
    )
    st.vit = [20, 25]
    to_activation(
        st,
        {0: {"front": "Rekrut"}, 1: {"front": "Niedźwiedź Jaskiniowy"}},
        {0: ("Kajdany", "Zardzewiały Miecz")},
    )
    legal = [str(m) for m in st.legal(0)]
    assert "resolve Kajdany @ s1 front" in legal
    assert "resolve Zardzewiały Miecz @ s0 front" in legal
    assert "resolve Zardzewiały Miecz @ s1 front" not in legal
    st.apply_text(0, "resolve Kajdany @ s1 front")
    assert _slot_view(st, 1, 1)["attack"] == 2  # 4 - 2


def test_fused_equipment_goes_to_the_graveyard_with_its_creature() -> None:
    st = at_tactics(2, 0, {0: ["Rekrut", "Zardzewiały Miecz"], 1: ["Niedźwiedź Jaskiniowy"]})
    st.vit = [20, 25]
    to_activation(
        st,
        {0: {"front": "Rekrut"}, 1: {"front": "Niedźwiedź Jaskiniowy"}},
        {0: ("Zardzewiały Miecz",)},
    )
    st.apply_text(0, "resolve Zardzewiały Miecz @ s0 front")
    pass_all(st)
    assert "Zardzewiały Miecz" in [st.name(c) for c in st.dgrave]


def test_instant_is_played_from_hand_and_others_may_answer_last_in_first_out() -> None:
    """NATYCHMIASTOWA: "pozostali gracze mogą odpowiedzieć na nią swoimi kartami
    NATYCHMIASTOWYMI, w takim przypadku jako pierwsze rozpatrywane są właściwości karty
    zagranej jako ostatniej". The Shield (+3 defence) cast in answer to Blood Thunder
    (2 damage) resolves first, so the Recruit (2/1) survives."""
    st = at_tactics(2, 0, {0: ["Rekrut", "Tarcza Wiary"], 1: ["Rekrut", "Krwawy Grom"]})
    st.vit = [25, 20]
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Rekrut"}})
    st.apply_text(1, "cast Krwawy Grom @ s0 front")
    assert st.phase == P_RESPOND and st.to_act() == (0,)
    assert [e["card"] for e in st.view(0)["stack"]] == ["Krwawy Grom"]
    st.apply_text(0, "cast Tarcza Wiary @ s0 front")
    st.apply_text(1, "pass")
    resolved = [e["card"] for e in events(st, "resolved")]
    assert resolved == ["Tarcza Wiary", "Krwawy Grom"]
    assert _slot_view(st, 0, 1)["defence"] == 2  # 1 + 3 - 2
    assert st.phase == P_ACTIVATION


def test_spell_that_loses_its_target_fizzles_to_the_graveyard() -> None:
    """ "jeśli dana karta NATYCHMIASTOWA, na skutek działania karty NATYCHMIASTOWEJ innego
    gracza, traci sens lub cel działania, jej efekt zostaje anulowany, a karta trafia
    na odpowiedni CMENTARZ"."""
    st = at_tactics(2, 0, {0: ["Rekrut", "Rozkaz Odwrotu"], 1: ["Rekrut", "Krwawy Grom"]})
    st.vit = [25, 20]
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Rekrut"}})
    st.apply_text(1, "cast Krwawy Grom @ s0 front")
    st.apply_text(0, "cast Rozkaz Odwrotu @ s0 front")
    st.apply_text(1, "pass")
    assert [e["card"] for e in events(st, "fizzled")] == ["Krwawy Grom"]
    assert "Krwawy Grom" in [st.name(c) for c in st.dgrave]
    assert "Rekrut" in [st.name(c) for c in st.hand[0]]


def test_counterspell_cancels_the_spell_it_answers() -> None:
    st = at_tactics(2, 0, {0: ["Rekrut", "Kontrzaklęcie"], 1: ["Rekrut", "Krwawy Grom"]})
    st.vit = [25, 20]
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Rekrut"}})
    st.apply_text(1, "cast Krwawy Grom @ s0 front")
    st.apply_text(0, "cast Kontrzaklęcie")
    st.apply_text(1, "pass")
    assert events(st, "countered")[0]["spell"] == "Krwawy Grom"
    assert not events(st, "damaged")


def test_instants_only_in_tactics_activation_and_battle() -> None:
    """ "Karty NATYCHMIASTOWE mogą zostać użyte jedynie w Fazach: Bitwy, Aktywacji i Taktyki":
    not in the Opening (draft, hand limit)."""
    st = new(2, seed=1)
    first_legal_until(st, P_DRAFT)
    st.hand[st.to_act()[0]].append(next(c for c in st.ddeck if st.name(c) == "Krwawy Grom"))
    assert not any(str(m).startswith("cast") for m in st.legal(st.to_act()[0]))
    st2 = at_tactics(2, 0, {0: ["Rekrut", "Krwawy Grom"], 1: ["Rekrut"]})
    st2.apply_text(0, "place Rekrut front")
    st2.apply_text(0, "done")
    st2.apply_text(1, "place Rekrut front")
    st2.apply_text(1, "done")
    assert st2.phase == P_WINDOW  # the Tactics window: the face-down Recruit may be hit
    seat0_turn = st2.to_act()[0] == 0
    if not seat0_turn:
        st2.apply_text(1, "pass")
    assert "cast Krwawy Grom @ s1 front" in [str(m) for m in st2.legal(0)]


def test_battle_window_allows_instants_before_damage() -> None:
    st = at_tactics(2, 0, {0: ["Rekrut", "Krwawy Grom"], 1: ["Rekrut"]})
    to_activation(st, {0: {"front": "Rekrut"}, 1: {"front": "Rekrut"}})
    while st.phase == P_ACTIVATION:
        st.apply_text(st.to_act()[0], "pass")
    assert st.phase == P_WINDOW and st.win_kind == "battle"
    if st.to_act() == (1,):
        st.apply_text(1, "pass")
    st.apply_text(0, "cast Krwawy Grom @ s1 front")
    st.apply_text(1, "pass")
    assert events(st, "died")[0]["slot"] == 4


def test_conditional_destiny_cards_fire_by_themselves() -> None:
    """ "niektóre z kart z talii PRZEZNACZENIA aktywują się samoczynnie, o ile zostaną
    spełnione pewne warunki": War Cry at the start of the battle, Revenge when an ally dies."""
    st = at_tactics(2, 0, {0: ["Rekrut", "Okrzyk Bojowy", "Zemsta"], 1: ["Niedźwiedź Jaskiniowy"]})
    to_activation(
        st,
        {0: {"front": "Rekrut"}, 1: {"front": "Niedźwiedź Jaskiniowy"}},
        {0: ("Okrzyk Bojowy", "Zemsta")},
    )
    assert not any(str(m).startswith("resolve") for m in st.legal(0)) if 0 in st.to_act() else True
    pass_all(st)
    fired = [e["card"] for e in events(st, "fired")]
    assert fired == ["Okrzyk Bojowy", "Zemsta"]
    # War Cry: the Recruit hits for 3; Revenge: 3 more when it dies -> the Bear (4/4) dies.
    assert {e["card"] for e in events(st, "died")} == {"Rekrut", "Niedźwiedź Jaskiniowy"}


def test_reflex_granted_by_an_ability() -> None:
    st = at_tactics(2, 0, {0: ["Sir Duncan Culligan"], 1: ["Rekrut"]})
    st.vit = [20, 25]
    to_activation(st, {0: {"front": "Sir Duncan Culligan"}, 1: {"front": "Rekrut"}})
    st.apply_text(0, "ability front")
    assert st.keywords(1) & REFLEX


def _activation(
    hands: dict[int, list[str]],
    setup: dict[int, dict[str, str]],
    destiny: dict[int, tuple[str, ...]] | None = None,
) -> MeatState:
    st = at_tactics(2, 0, hands)
    st.vit = [20, 25]  # seat 0 starts the Activation
    to_activation(st, setup, destiny)
    return st


def test_effect_vocabulary_move_destroy_area_and_vitality() -> None:
    """The data-driven effects: Displacement moves an enemy to the front, Annihilation
    destroys (a death: its ability fires), Rain of Fire hits all enemies, the
    Grandmaster's ♦ wounds the opposing side's vitality."""
    st = _activation(
        {
            0: ["Arcymistrz MBS XII", "Przemieszczenie", "Deszcz Ognia", "Zagłada"],
            1: ["Rekrut", "Kwasowy Ślimak", "Bober"],
        },
        {
            0: {"front": "Arcymistrz MBS XII"},
            1: {"left": "Rekrut", "front": "Kwasowy Ślimak", "right": "Bober"},
        },
        {0: ("Przemieszczenie", "Deszcz Ognia", "Zagłada")},
    )
    st.tel[0] = 9
    st.apply_text(0, "resolve Zagłada @ s1 front")
    assert "Kwasowy Ślimak" in [e["card"] for e in events(st, "died")]
    acid = [e for e in events(st, "damaged") if e["source"] == "Kwasowy Ślimak"]
    assert [e["slot"] for e in acid] == [1]  # its death ability hit the creature opposite
    st.apply_text(1, "pass")
    st.apply_text(0, "resolve Przemieszczenie @ s1 left")
    assert st.name(st.field[4]) == "Rekrut" and st.field[3] == -1
    st.apply_text(0, "resolve Deszcz Ognia")
    assert "Rekrut" in [e["card"] for e in events(st, "died")]  # 2/1 takes 1
    st.apply_text(0, "ability front")
    assert st.vit[1] == 23


def test_reveal_gain_and_adjacent_buff() -> None:
    st = _activation(
        {0: ["Akolita", "Sierżant", "Rekrut"], 1: ["Rekrut"]},
        {0: {"left": "Akolita", "front": "Sierżant", "right": "Rekrut"}, 1: {"front": "Rekrut"}},
    )
    assert [e["amount"] for e in events(st, "gain")] == [1]
    assert st.attack(0) == 2 and st.attack(2) == 3  # Acolyte 1+1, Recruit 2+1
    assert st.attack(1) == 2  # the Sergeant itself is unchanged


def test_draw_spell_adds_a_creature_card_to_hand() -> None:
    st = _activation(
        {0: ["Rekrut", "Wizja"], 1: ["Rekrut"]},
        {0: {"front": "Rekrut"}, 1: {"front": "Rekrut"}},
        {0: ("Wizja",)},
    )
    before = len(st.hand[0])
    st.apply_text(0, "resolve Wizja")
    assert len(st.hand[0]) == before + 1 and st.hand[0][-1] < st.ncre


def test_team_summary_counts_every_member() -> None:
    """ "Gracz – lub drużyna – będący/a w posiadaniu największej liczby ISTOT, wygrywa rundę"."""
    st = at_tactics(4, 0, {0: ["Bober"], 2: ["Bober"], 1: ["Bober"], 3: []})
    to_activation(st, {0: {"left": "Bober"}, 2: {"left": "Bober"}, 1: {"left": "Bober"}})
    st.vit = [40, 40]
    pass_all(st)
    s = events(st, "summary")[0]
    assert s["alive"] == [2, 1] and s["winner"] == 0 and len(s["dice"]) == 2
    assert st.vit == [40, 40 - sum(s["dice"])]
