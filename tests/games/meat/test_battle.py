"""Bitwa (battle) and Podsumowanie (summary), quoting the manual."""

from __future__ import annotations

from bestiary.games.meat.rules import P_DRAFT, MeatState

from .helpers import at_tactics, events, pass_all, to_activation


def _fight(
    hands: dict[int, list[str]], setup: dict[int, dict[str, str]], seed: int = 0
) -> MeatState:
    st = at_tactics(2, seed, hands)
    to_activation(st, setup)
    st.vit = [25, 25]
    pass_all(st)
    return st


def test_manual_battle_example() -> None:
    """Manual, Bitwa: "(gracz 1) stracił istotę w pozycji FRONT jeszcze przed
    startem bitwy. Nekromanta oraz Parszywy Szczur wymieniają się śmiertelnymi
    obrażeniami i giną. Bober nie posiada przeciwnika i przeżywa bitwę, a Sir
    Duncan Culligan pokonuje Nekromutanta ... Sir Duncan Culligan pozostaje w
    polu bitwy z 2 punktami obrony." (Player 1 lost his front creature; the
    Necromancer and the Mangy Rat kill each other; the Beaver has no opponent
    and survives; Sir Duncan beats the Necromutant and keeps 2 defence.)
    Seat 0's left flank faces seat 1's right flank (players sit across)."""
    st = _fight(
        {0: ["Nekromanta", "Sir Duncan Culligan"], 1: ["Parszywy Szczur", "Bober", "Nekromutant"]},
        {
            0: {"left": "Nekromanta", "right": "Sir Duncan Culligan"},
            1: {"right": "Parszywy Szczur", "front": "Bober", "left": "Nekromutant"},
        },
    )
    died = {e["card"] for e in events(st, "died")}
    assert died == {"Nekromanta", "Parszywy Szczur", "Nekromutant"}
    summary = events(st, "summary")[0]
    # Seat 0 keeps Sir Duncan with 2 defence; seat 1 keeps the Beaver (3 defence).
    assert summary["alive"] == [1, 1]
    assert summary["defence"] == [2, 3]
    # "Jeśli liczba kart jest równa, należy podliczyć dostępne punkty OBRONY": team 1 wins.
    assert summary["winner"] == 1


def test_reflex_strikes_first_and_a_killed_creature_deals_nothing() -> None:
    """REFLEKS: "ISTOTA zadaje obrażenia jako pierwsza (jeśli zadane obrażenia
    są śmiertelne, przeciwna ISTOTA traci swój ruch i nie zadaje żadnych obrażeń"."""
    st = _fight(
        {0: ["Szermierz"], 1: ["Kultysta z Nożem"]},
        {0: {"front": "Szermierz"}, 1: {"front": "Kultysta z Nożem"}},
    )
    assert [e["card"] for e in events(st, "died")] == ["Kultysta z Nożem"]
    assert not [e for e in events(st, "damaged") if e["slot"] == 1]  # the Duellist took nothing


def test_two_reflex_creatures_strike_together() -> None:
    """REFLEKS: "w przypadku walki dwóch ISTOT ze zdolnością REFLEKS, obrażenia
    zadawane są jednocześnie" (two REFLEX creatures strike together)."""
    st = _fight(
        {0: ["Strzelec"], 1: ["Strzelec"]},
        {0: {"front": "Strzelec"}, 1: {"front": "Strzelec"}},
    )
    assert len(events(st, "died")) == 2


def test_toxin_damage_always_kills() -> None:
    """TOKSYNA: "obrażenia zadane przez ISTOTĘ posiadającą tę zdolność są zawsze śmiertelne"."""
    st = _fight(
        {0: ["Parszywy Szczur"], 1: ["Pradawny Łoś"]},
        {0: {"front": "Parszywy Szczur"}, 1: {"front": "Pradawny Łoś"}},
    )
    assert {e["card"] for e in events(st, "died")} == {"Parszywy Szczur", "Pradawny Łoś"}


def test_cleave_hits_the_creatures_beside_its_target() -> None:
    """CIĘCIE: "zadaje obrażenia nie tylko przeciwległej karcie, ale i kartom
    znajdującym się po jej prawej i lewej stronie (dotyczy wyłącznie kart przeciwnika)"."""
    st = _fight(
        {0: ["Rzeźnik", "Rekrut"], 1: ["Rekrut", "Rekrut", "Rekrut"]},
        {
            0: {"front": "Rzeźnik", "left": "Rekrut"},
            1: {"left": "Rekrut", "front": "Rekrut", "right": "Rekrut"},
        },
    )
    dead = [e for e in events(st, "died")]
    # All three enemy recruits die (front by the Butcher, flanks by the cleave);
    # seat 0's own Recruit on the left is not hit by its teammate's cleave.
    assert sorted(e["slot"] for e in dead if e["slot"] >= 3) == [3, 4, 5]


def test_challenge_takes_damage_aimed_at_adjacent_friends() -> None:
    """WYZWANIE: "ISTOTA przejmuje obrażenia kierowane w stronę sąsiednich, przyjaznych ISTOT"."""
    st = _fight(
        {0: ["Stary Dąb", "Rekrut"], 1: ["Dziki Wilk"]},
        {0: {"front": "Stary Dąb", "left": "Rekrut"}, 1: {"right": "Dziki Wilk"}},
    )
    hits = events(st, "damaged")
    # The Wolf (seat 1 right) faces seat 0's left Recruit, but the Oak beside it takes the 3.
    assert hits and all(h["slot"] == 1 for h in hits if h["source"] == "Dziki Wilk")
    assert not [e for e in events(st, "died") if e["card"] == "Rekrut"]


def test_no_opponent_opposite_means_no_attack() -> None:
    """ "W przypadku braku karty ISTOTY naprzeciwko, karta nie wykonuje ataku"."""
    st = _fight(
        {0: ["Niedźwiedź Jaskiniowy"], 1: ["Rekrut"]},
        {0: {"front": "Niedźwiedź Jaskiniowy"}, 1: {"left": "Rekrut"}},
    )
    assert events(st, "damaged") == []
    assert events(st, "summary")[0]["alive"] == [1, 1]


def test_death_ability_fires() -> None:
    """ "Powyższe wydarzenie może powodować aktywację specjalnych zdolności" —
    the Acid Slug's death ability deals 2 to the creature opposite."""
    st = _fight(
        {0: ["Kwasowy Ślimak"], 1: ["Niedźwiedź Jaskiniowy"]},
        {0: {"front": "Kwasowy Ślimak"}, 1: {"front": "Niedźwiedź Jaskiniowy"}},
    )
    bear = [e for e in events(st, "damaged") if e["slot"] == 4]
    assert [e["amount"] for e in bear] == [2, 2]  # the bite, then the acid
    assert {e["card"] for e in events(st, "died")} == {"Kwasowy Ślimak", "Niedźwiedź Jaskiniowy"}


def test_summary_winner_rolls_one_die_per_creature_and_the_field_is_cleared() -> None:
    """Podsumowanie: "Wygrany/a ... wykonują rzut kostką w liczbie odpowiadającej
    posiadanym kartom ISTOT. Suma wyrzuconych oczek stanowi o obrażeniach";
    then "odrzucenie pozostałych w POLU BITWY kart ... (akcja ta nie skutkuje już
    śmiercią ISTOTY – ... nie zostają aktywowane żadne zdolności specjalne)"."""
    st = _fight(
        {0: ["Nekromanta", "Bober", "Stary Dąb", "Rekrut"], 1: []},
        {0: {"left": "Nekromanta", "front": "Bober", "right": "Stary Dąb"}, 1: {}},
    )
    s = events(st, "summary")[0]
    assert s["winner"] == 0 and len(s["dice"]) == 3
    assert st.vit[1] == 25 - sum(s["dice"])
    # The Necromancer went to the graveyard without dying: no card drawn for it.
    assert not [e for e in events(st, "drew") if e["deck"] == "creature" and e["seat"] == 0]
    assert "Nekromanta" in [st.name(c) for c in st.cgrave]
    # "Karty „na rękach” graczy pozostają do ich dyspozycji": the Recruit is still in hand.
    assert "Rekrut" in [st.name(c) for c in st.hand[0]]
    assert st.phase == P_DRAFT and st.round == 2


def test_equal_creatures_and_defence_is_a_drawn_round() -> None:
    """ "Jeśli i w tym przypadku liczba ta jest równa, runda kończy się remisem"."""
    st = _fight({0: ["Bober"], 1: ["Bober"]}, {0: {"left": "Bober"}, 1: {"left": "Bober"}})
    s = events(st, "summary")[0]
    assert s["winner"] == -1 and st.vit == [25, 25]


def test_zero_vitality_loses_the_game() -> None:
    """ "Jeśli punkty WITALNOŚCI rywala spadną do 0, gracz/drużyna przegrywa, a
    rozgrywka kończy się" (0 vitality loses the game)."""
    st = at_tactics(2, 0, {0: ["Bober", "Stary Dąb"], 1: []})
    to_activation(st, {0: {"left": "Bober", "right": "Stary Dąb"}})
    st.vit = [25, 2]
    pass_all(st)
    assert st.over and st.result is not None
    assert st.result.winners == [0]
