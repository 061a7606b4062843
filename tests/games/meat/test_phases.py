"""Rozpoczęcie, Otwarcie, Ustalanie taktyki and Aktywacja, quoting the manual."""

from __future__ import annotations

import pytest

from bestiary.engine import BadOptions, IllegalAction, NotYourTurn
from bestiary.games.meat import GAME
from bestiary.games.meat.rules import (
    P_ACTIVATION,
    P_DISCARD,
    P_DRAFT,
    P_LEADER,
    P_PAY,
    P_TACTICS,
    P_WINDOW,
)

from .helpers import (
    at_tactics,
    events,
    first_legal_until,
    new,
    pass_window,
    place,
    to_activation,
)


@pytest.mark.parametrize(("players", "vit"), [(2, 25), (4, 40), (6, 50)])
def test_vitality_per_team(players: int, vit: int) -> None:
    """ "po 25 punktów na jednego gracza, kiedy gra rozgrywana jest w parze, po 40
    punktów dla drużyn składających się z dwóch graczy i po 50 – dla zespołów 3-osobowych"."""
    assert new(players).vit == [vit, vit]


def test_vitality_is_configurable_and_bad_options_are_refused() -> None:
    """ "Wartości te mogą być ustalane przez graczy indywidualnie"."""
    assert new(2, vitality_1v1=30).vit == [30, 30]
    with pytest.raises(BadOptions):
        GAME.new(2, seed=0, options={"vitality_1v1": 0})
    with pytest.raises(BadOptions):
        GAME.new(2, seed=0, options={"no_such_rule": 1})


def test_seats_face_one_opponent_and_teams_alternate() -> None:
    """ "każdy ich członek miał naprzeciwko siebie jednego przeciwnika"."""
    v = new(6).view(2)
    assert v["teams"] == [[0, 2, 4], [1, 3, 5]] and v["opponent"] == 3


def test_leaders_are_chosen_in_die_roll_order() -> None:
    """ "gracz z największą liczbą wyrzuconych oczek wybiera kartę jako pierwszy"."""
    st = new(4, seed=5)
    roll = events(st, "rolled")[0]
    best = max(roll["rolls"].items(), key=lambda kv: kv[1])
    assert st.phase == P_LEADER and st.to_act() == (int(best[0]),) == (roll["order"][0],)
    first = st.to_act()[0]
    pick = st.legal(first)[0]
    st.apply(first, pick)
    assert pick not in st.legal(st.to_act()[0])  # a leader is taken once


def test_opening_telestarion_and_draft_row_sizes() -> None:
    """ "Każdy z graczy pobiera 7 uncji" (7 ounces each); "odkrytych zostaje 9 kart
    (2 graczy), 15 (4 graczy) lub 21 (6 graczy)" (9/15/21 cards face up)."""
    for players, size in ((2, 9), (4, 15), (6, 21)):
        st = new(players, seed=1)
        first_legal_until(st, P_DRAFT)
        assert events(st, "draft_row")[0]["cards"].__len__() == size
        assert all(t >= 7 for t in events(st, "round")[0]["telestarion"])


def test_draft_pays_the_cost_and_stops_at_three_cards() -> None:
    """ "konieczne jest uiszczenie opłaty ... od 0 do 2 uncji"; "Proces DRAFTU powtarzany
    jest do czasu, aż w DRAFCIE pozostaną 3 karty"; they go to "CMENTARZEM ISTOT"."""
    st = new(2, seed=2)
    first_legal_until(st, P_DRAFT)
    st.leader = [-1, -1]
    order = st.order
    seat = st.to_act()[0]
    assert seat == order[0]
    before = st.tel[seat]
    m = st.legal(seat)[0]
    cost = st.cs.defs[m.a].cost
    st.apply(seat, m)
    assert st.tel[seat] == before - cost
    assert st.to_act() == (order[1],)
    first_legal_until(st, P_DISCARD + 1)
    left = events(st, "to_graveyard")[0]["cards"]
    assert len(left) == 3 and all(st.cs.card(n).is_creature for n in left)


def test_destiny_cards_are_drawn_in_reverse_draft_order() -> None:
    """ "Gracze dobierają kolejno po 3 losowe karty z TALII PRZEZNACZENIA ... w porządku
    odwrotnym do tego z przebiegu DRAFTU"."""
    st = new(4, seed=3)
    first_legal_until(st, P_TACTICS)
    draws = [e["seat"] for e in events(st, "drew") if e["deck"] == "destiny"]
    assert draws[:4] == list(reversed(st.order))


def test_empty_deck_is_rebuilt_from_its_graveyard() -> None:
    """ "W przypadku, gdy zabraknie kart w TALII ... gracze zbierają karty z właściwego
    CMENTARZA, dokładnie je tasują i tworzą z nich nową TALIĘ"."""
    st = new(2, seed=4)
    st.cgrave.extend(st.cdeck[:-2])
    del st.cdeck[:-2]
    first_legal_until(st, P_DRAFT)
    assert events(st, "deck_rebuilt") and len(st.row) == 9


def test_hand_limit_eight_at_the_end_of_the_opening() -> None:
    """ "Maksymalna liczba kart ... na KONIEC Fazy Otwarcia ... to 8. Wszystkie nadmiarowe
    karty natychmiast muszą zostać odrzucone"."""
    st = new(2, seed=6)
    first_legal_until(st, P_DRAFT)
    extra = [st.ddeck.pop() for _ in range(6)]
    st.hand[0].extend(extra)
    first_legal_until(st, P_DISCARD)
    assert 0 in st.to_act()
    while st.phase == P_DISCARD:
        s = st.to_act()[0]
        st.apply(s, st.legal(s)[0])
    assert len(st.hand[0]) == 8


def test_tactics_are_simultaneous_and_secret() -> None:
    """Krok 1: "Gracze układają przed sobą, rewersem do góry, 3 karty ISTOT" — all
    seats owe the choice at once; the opponent learns nothing until all are in."""
    st = at_tactics(2, 0, {0: ["Bober", "Rekrut", "Dziki Wilk"], 1: ["Rekrut"]})
    assert st.to_act() == (0, 1)
    before = st.view(1)
    st.apply_text(0, "place Bober front")
    after = st.view(1)
    assert before["hand_sizes"] == after["hand_sizes"]
    assert "Bober" not in str(after) and "Bober" in str(st.view(0))
    assert all("Bober" not in str(e.data) for e in st.events_since(0, 1))


def test_creatures_must_fill_the_lanes_or_use_all_they_have() -> None:
    """ "W takim przypadku gracz korzysta z maksymalnej dostępnej liczby kart"."""
    st = at_tactics(2, 0, {0: ["Bober", "Rekrut"], 1: []})
    assert all(str(m).startswith("place") for m in st.legal(0))  # no 'done' yet
    st.apply_text(0, "place Bober front")
    st.apply_text(0, "place Rekrut left")
    assert [str(m) for m in st.legal(0)] == ["done"]  # step 2 (destiny) begins


def test_reveal_pay_or_discard() -> None:
    """Aktywacja, krok 1: "Gracze odkrywają wszystkie zagrane przez siebie karty, a następnie
    opłacają koszty ... Jeśli gracz nie posiada wystarczającej liczby żetonów ... zmuszony
    jest odrzucić kartę/y na CMENTARZ PRZEZNACZENIA" (reveal, pay, or discard what cannot
    be paid). The player short of Telestarion chooses what to pay."""
    st = at_tactics(2, 0, {0: ["Bober", "Zagłada", "Deszcz Ognia"], 1: ["Rekrut", "Wizja"]}, tel=3)
    for seat, lanes, destiny in (
        (0, {"front": "Bober"}, ("Zagłada", "Deszcz Ognia")),
        (1, {"front": "Rekrut"}, ("Wizja",)),
    ):
        place(st, seat, lanes, destiny)
    pass_window(st)
    assert events(st, "revealed")[0]["destiny"]["0"] == ["Zagłada", "Deszcz Ognia"]
    assert [e["card"] for e in events(st, "paid")] == ["Wizja"]  # seat 1 can pay everything
    assert st.phase == P_PAY and st.to_act() == (0,)
    assert sorted(str(m) for m in st.legal(0)) == ["pay Deszcz Ognia", "pay Zagłada"]
    st.apply_text(0, "pay Deszcz Ognia")
    assert [e["card"] for e in events(st, "unpaid")] == ["Zagłada"]  # 1 ounce left: discarded
    assert st.tel[0] == 1 and "Zagłada" in [st.name(c) for c in st.dgrave]
    assert st.phase == P_ACTIVATION


def test_the_side_with_less_vitality_starts_and_sides_alternate() -> None:
    """ "Rozpoczyna drużyna/gracz z mniejszą ilością punktów WITALNOŚCI" and the sides
    take turns; "spasowanie powoduje zakończenie ruchów w tej fazie"."""
    st = at_tactics(2, 0, {0: ["Bober"], 1: ["Bober"]})
    st.vit = [25, 20]
    to_activation(st, {0: {"front": "Bober"}, 1: {"front": "Bober"}})
    assert st.to_act() == (1,)
    st.apply_text(1, "ability front")
    assert st.to_act() == (0,)
    st.apply_text(0, "pass")
    assert st.to_act() == (1,)
    with pytest.raises(NotYourTurn):
        st.apply_text(0, "ability front")  # passing ended seat 0's activations
    assert "ability front" not in [str(m) for m in st.legal(1)]  # ♦ once per round


def test_equal_vitality_die_roll_decides_who_starts() -> None:
    """ "Jeśli drużyny posiadają równy stan punktów witalności, to o kolejności
    decyduje wynik rzutu kością" (equal vitality: a die roll decides)."""
    st = at_tactics(2, 0, {0: ["Bober"], 1: ["Bober"]})
    to_activation(st, {0: {"front": "Bober"}, 1: {"front": "Bober"}})
    roll = [e for e in events(st, "rolled") if e["why"] == "first side"]
    assert roll and st.to_act() == (roll[-1]["order"][0],)


def test_teammates_choose_their_order() -> None:
    """ "o kolejności wykonywania ruchów wewnątrz drużyny decydują członkowie zespołu":
    both members of the side to move may act; each acts once before either acts again."""
    st = at_tactics(4, 0, {s: ["Bober"] for s in range(4)})
    st.vit = [20, 40]
    to_activation(st, {s: {"front": "Bober"} for s in range(4)})
    assert st.to_act() == (0, 2)
    st.apply_text(2, "ability front")
    assert set(st.to_act()) <= {1, 3}
    st.apply_text(st.to_act()[0], "pass")
    assert st.to_act() == (0,)


def test_diamond_ability_costs_telestarion() -> None:
    """ "specjalna zdolność ISTOTY (możliwa do aktywacji jeden raz w ciągu trwania rundy
    poprzez wpłacenie do banku przypisanej jej wartości UNCJI TELESTARIONU)"."""
    st = at_tactics(2, 0, {0: ["Kapłan Krwi"], 1: ["Pradawny Łoś"]}, tel=1)
    st.vit = [20, 25]
    to_activation(st, {0: {"front": "Kapłan Krwi"}, 1: {"front": "Pradawny Łoś"}})
    st.apply_text(0, "ability front @ s1 front")
    assert st.tel[0] == 0
    assert st.view(None)["field"][1]["creatures"][1]["damage"] == 2


def test_reveal_ability_fires_when_turned_up() -> None:
    """ODKRYCIE: "zdolność specjalna aktywowana poprzez odkrycie karty"."""
    st = at_tactics(2, 0, {0: ["Arcymistrz MBS XII"], 1: ["Pradawny Łoś"]})
    to_activation(st, {0: {"front": "Arcymistrz MBS XII"}, 1: {"front": "Pradawny Łoś"}})
    assert [e["amount"] for e in events(st, "damaged")] == [2]


def test_illegal_actions_change_nothing() -> None:
    st = at_tactics(2, 0, {0: ["Bober"], 1: []})
    snap = str(st.view(None)) + str(st.view(0))
    with pytest.raises(IllegalAction, match="allowed"):
        st.apply_text(0, "place Rekrut front")
    with pytest.raises(IllegalAction):
        st.apply(0, st.space.get(9, 0, 0))
    assert str(st.view(None)) + str(st.view(0)) == snap
    assert st.phase == P_TACTICS


def test_no_instant_windows_option() -> None:
    st = at_tactics(2, 0, {0: ["Bober"], 1: ["Bober"]}, instant_windows=False)
    st.apply_text(0, "place Bober front")
    st.apply_text(0, "done")
    st.apply_text(1, "place Bober front")
    st.apply_text(1, "done")
    assert st.phase == P_ACTIVATION
    pass_window(st)
    assert st.phase != P_WINDOW


def test_leader_passives_affect_only_their_owner() -> None:
    """Liderzy: "Umiejętności są pasywne i mają wpływ wyłącznie na właściciela"; a leader
    "nie mo[że] być celem jakichkolwiek zagrań przeciwnika" (no action can aim at one)."""
    st = new(2, seed=0)
    names = {x.name: x.index for x in st.cs.leaders}
    first = st.to_act()[0]
    st.apply_text(first, "leader Komendant Haras")  # Zjednoczeni +1 defence
    st.apply_text(first ^ 1, "leader Skarbnik Sekty")  # +1 Telestarion
    assert st.leader[first] == names["Komendant Haras"]
    assert st.tel[first ^ 1] == st.tel[first] + 1
    assert st.lb_def[first][2] == 1 and st.lb_def[first ^ 1] == [0, 0, 0, 0]
    assert not any("@" in str(m) and "leader" in str(m) for m in st.legal(st.to_act()[0]))


def test_teammates_see_each_others_hands_and_secret_placements() -> None:
    """ "członkowie drużyn mogą ... wymieniać informacje ... i pokazywać swoje karty"
    (team members may share information and show their cards); opponents see none of it."""
    st = at_tactics(4, 0, {0: ["Bober", "Wizja"], 2: ["Rekrut"], 1: ["Dziki Wilk"], 3: []})
    st.apply_text(0, "place Bober front")
    mate, foe = st.view(2), st.view(1)
    assert mate["hands"]["0"] == ["Bober", "Wizja"]
    assert mate["tactics"]["0"]["creatures"] == [None, "Bober", None]
    assert "0" not in foe["hands"] and "0" not in foe["tactics"]
    assert set(foe["hands"]) == {"1", "3"}
