"""Issue 29: M.E.A.T.'s choices made "all at once" stay hidden until all are in
(RULES.md, "Hand limit" and "Paying for destiny cards").

Otwarcie, 8: "Maksymalna liczba kart, jakie na KONIEC Fazy Otwarcia mogą mieć
„na ręce” gracze to 8. Wszystkie nadmiarowe karty natychmiast muszą zostać
odrzucone na właściwe im CMENTARZE." Aktywacja, Krok 1: "Gracze odkrywają
wszystkie zagrane przez siebie karty, a następnie opłacają koszty [...] Jeśli
gracz nie posiada wystarczającej liczby żetonów TELESTARIONU, by opłacić
zagrane karty z TALII PRZEZNACZENIA, zmuszony jest odrzucić kartę/y". The
players do it together: the lower seat is not asked first, and no seat sees
another's choice before its own is in. Two worlds a seat cannot tell apart
(the other seat chose one card or another) give it the same view and events,
and the same sample.
"""

from __future__ import annotations

from bestiary.engine import Rng
from bestiary.games.meat.describe import describe
from bestiary.games.meat.rules import P_ACTIVATION, P_DISCARD, P_PAY, P_TACTICS, MeatState
from bestiary.i18n import use_language

from ..knowledge import differ, picture, told
from .helpers import (
    at_tactics,
    first_legal_until,
    new,
    pass_all,
    pass_window,
    place,
    set_hand,
    to_activation,
)

HANDS = {
    0: [
        *("Akolita", "Rekrut", "Bober", "Dziki Wilk", "Strzelec", "Tarczownik"),
        *("Okrzyk Bojowy", "Klątwa", "Wizja", "Zemsta"),
    ],
    1: [
        *("Nekromanta", "Stary Dąb", "Zielarka", "Sierżant", "Medyk Polowy"),
        *("Krwawy Grom", "Błogosławieństwo", "Przemieszczenie", "Kajdany"),
    ],
}


def _at_hand_limit() -> MeatState:
    """Both seats over the hand limit of 8 at the end of the Opening: seat 0
    holds 10 cards, seat 1 holds 9."""
    st = new(2, seed=3)
    first_legal_until(st, P_TACTICS)
    for s, names in HANDS.items():
        set_hand(st, s, names)
    st.phase = P_DISCARD
    st._memo = None  # the scenario changed the state behind apply()'s back
    return st


def test_every_seat_over_the_limit_owes_its_discards_at_once() -> None:
    """ "Wszystkie nadmiarowe karty natychmiast muszą zostać odrzucone": both
    players discard together, so both are asked, and either may go first."""
    st = _at_hand_limit()
    assert st.to_act() == (0, 1)
    st.apply_text(1, "discard Kajdany")
    assert st.to_act() == (0,), "seat 1 is done; seat 0 still owes two cards"
    assert "Kajdany" in [st.name(c) for c in st.hand[1]], "not discarded before all are in"
    assert st.view(0)["hand_sizes"] == [10, 9]
    st.apply_text(0, "discard Wizja")
    st.apply_text(0, "discard Zemsta")
    assert st.phase == P_TACTICS
    assert sorted(st.name(c) for c in st.dgrave[-3:]) == ["Kajdany", "Wizja", "Zemsta"]
    assert len(st.hand[0]) == len(st.hand[1]) == 8


def _discarded(first: str, second: str) -> MeatState:
    st = _at_hand_limit()
    st.apply_text(0, f"discard {first}")
    st.apply_text(0, f"discard {second}")
    return st


def test_a_discard_stays_hidden_until_every_discard_is_in() -> None:
    """Seat 0 throws away Wizja and Zemsta, or Akolita and Rekrut: seat 1, still
    choosing, cannot tell which — the same view, the same events (only that seat
    0 is done), and the same legal moves."""
    a, b = _discarded("Wizja", "Zemsta"), _discarded("Akolita", "Rekrut")
    assert a.to_act() == b.to_act() == (1,)
    assert a.view(1) == b.view(1)
    assert told(a, 1) == told(b, 1)
    assert [str(m) for m in a.legal(1)] == [str(m) for m in b.legal(1)]
    # Seat 0's team sees its own choice.
    assert a.view(0)["chosen"] == {"0": ["Wizja", "Zemsta"]}
    assert b.view(0)["chosen"] == {"0": ["Akolita", "Rekrut"]}
    # When seat 1's discard is in, all are shown together.
    for st in (a, b):
        st.apply_text(1, "discard Kajdany")
        assert st.phase == P_TACTICS
    gone = {
        k: [e.data["card"] for e in st.events_since(0, 1) if e.kind == "discarded"]
        for k, st in (("a", a), ("b", b))
    }
    assert gone == {"a": ["Wizja", "Zemsta", "Kajdany"], "b": ["Akolita", "Rekrut", "Kajdany"]}


def test_a_sample_forgets_the_discards_an_opponent_chose() -> None:
    """Search samples (determinize) for seat 1: seat 0's discards are hidden, so
    the two worlds give the very same sample, in which seat 0 is done with cards
    drawn at random from its sampled hand."""
    a, b = _discarded("Wizja", "Zemsta"), _discarded("Akolita", "Rekrut")
    sizes = set()
    for k in range(8):
        sa, sb = a.determinize(1, Rng(k)), b.determinize(1, Rng(k))
        assert differ(picture(sa), picture(sb)) == []
        assert sa.to_act() == (1,) and len(sa.dis_pick[0]) == 2
        assert set(sa.dis_pick[0]) <= set(sa.hand[0])
        sizes.add(tuple(sorted(sa.dis_pick[0])))
    assert len(sizes) > 1
    # Still choosing: an opponent that has chosen one of its two cards chooses
    # again in the sample.
    c = _at_hand_limit()
    c.apply_text(0, "discard Wizja")
    s = c.determinize(1, Rng(1))
    assert s.dis_pick[0] == [] and s.to_act() == (0, 1)


def _at_paying(choice: str | None = None) -> MeatState:
    """Both seats set two destiny cards of cost 1 with 1 ounce of Telestarion:
    each must choose which one to pay."""
    hands = {0: ["Okrzyk Bojowy", "Klątwa"], 1: ["Zemsta", "Przemieszczenie"]}
    st = at_tactics(2, 0, hands, tel=1)
    for s, cards in hands.items():
        place(st, s, {}, tuple(cards))
    pass_window(st)
    assert st.phase == P_PAY and st.to_act() == (0, 1)
    if choice is not None:
        st.apply_text(0, f"pay {choice}")
    return st


def test_a_payment_stays_hidden_until_every_payment_is_in() -> None:
    """ "Gracze odkrywają wszystkie zagrane przez siebie karty, a następnie
    opłacają koszty": seat 0 pays Okrzyk Bojowy or Klątwa — seat 1 cannot tell
    which (its Telestarion, the cards' status and the events are the same) until
    its own payment is in."""
    a, b = _at_paying("Okrzyk Bojowy"), _at_paying("Klątwa")
    assert a.to_act() == b.to_act() == (1,)
    assert a.view(1) == b.view(1) and told(a, 1) == told(b, 1)
    assert a.view(1)["telestarion"] == [1, 1]
    assert a.view(0)["chosen"] == {"0": ["Okrzyk Bojowy"]}
    for st in (a, b):
        st.apply_text(1, "pay Zemsta")
        assert st.phase == P_ACTIVATION and st.tel == [0, 0]
    paid = [e.data["card"] for e in a.events_since(0, 1) if e.kind == "paid"]
    unpaid = [e.data["card"] for e in a.events_since(0, 1) if e.kind == "unpaid"]
    assert sorted(paid) == ["Okrzyk Bojowy", "Zemsta"]
    assert sorted(unpaid) == ["Klątwa", "Przemieszczenie"]


def test_the_higher_seat_may_pay_first() -> None:
    """Both owe the payment together: seat 1 may choose before seat 0."""
    st = _at_paying()
    st.apply_text(1, "pay Przemieszczenie")
    assert st.to_act() == (0,) and st.tel == [1, 1]
    st.apply_text(0, "pay Klątwa")
    assert st.phase == P_ACTIVATION and st.tel == [0, 0]


def test_a_sample_forgets_the_payment_an_opponent_chose() -> None:
    """Seat 1's samples from the two worlds are the same; seat 0 is done in them
    with a payment drawn at random (one card: nothing else is affordable)."""
    a, b = _at_paying("Okrzyk Bojowy"), _at_paying("Klątwa")
    chosen = set()
    for k in range(12):
        sa, sb = a.determinize(1, Rng(k)), b.determinize(1, Rng(k))
        assert differ(picture(sa), picture(sb)) == []
        assert sa.to_act() == (1,) and len(sa.pay_pick[0]) == 1
        chosen.add(sa.name(sa.pay_pick[0][0]))
    assert chosen == {"Okrzyk Bojowy", "Klątwa"}


# -- the log (issue 29, log points) ---------------------------------------------------------


def _battle_of(card: str) -> MeatState:
    """Two creatures of the same kind face each other on the front and kill each
    other in the battle ("ISTOTY zadają obrażenia jednocześnie")."""
    st = at_tactics(2, 0, {0: [card], 1: [card]})
    to_activation(st, {0: {"front": card}, 1: {"front": card}})
    pass_all(st)
    died = [e.data["card"] for e in st.events_since(0, 0) if e.kind == "died"]
    assert died == [card, card]
    return st


def _lines(st: MeatState, lang: str) -> list[str]:
    with use_language(lang):
        return [describe(e, None) for e in st.events_since(0, 0)]


def test_no_die_is_rolled_for_the_order_of_death_abilities_nobody_has() -> None:
    """ "o kolejności aktywacji decyduje rzut kostką": the die orders the death
    abilities that fire. Two Dzikie Wilki (no death ability) die together: no
    roll, and no line about one in English or Polish."""
    st = _battle_of("Dziki Wilk")
    rolls = [e.data for e in st.events_since(0, 0) if e.kind == "rolled"]
    assert all(r["why"] != "death order" for r in rolls)
    assert not any("death abilities" in line for line in _lines(st, "en"))
    assert not any("zdolności poległych istot" in line for line in _lines(st, "pl"))


def test_a_die_orders_death_abilities_of_two_players() -> None:
    """Two Nekromutanci (each with a death ability) die together: the die decides
    whose ability fires first, and the log says so in both languages."""
    st = _battle_of("Nekromutant")
    rolls = [e.data for e in st.events_since(0, 0) if e.kind == "rolled"]
    assert [r["why"] for r in rolls].count("death order") == 1
    assert any("death abilities" in line for line in _lines(st, "en"))
    assert any("zdolności poległych istot" in line for line in _lines(st, "pl"))


def test_a_pass_made_for_the_player_is_announced_as_such() -> None:
    """ "Proces powtarzany jest do czasu, aż wszyscy gracze rozpatrzą działania
    posiadanych przez siebie kart, aż do wyczerpania możliwych zagrań lub
    spasowania": a player with no play left (pass is its only move, made for it)
    is told apart from one who chose to pass, in English and Polish."""
    st = at_tactics(2, 0, {0: ["Dziki Wilk"], 1: ["Dziki Wilk", "Krwawy Grom"]}, tel=1)
    to_activation(st, {0: {"front": "Dziki Wilk"}, 1: {"front": "Dziki Wilk"}})
    assert st.to_act() == (1,) and len(st.legal(1)) == 2
    st.apply_text(1, "pass")  # seat 1 could cast Krwawy Grom: a choice
    assert [str(m) for m in st.legal(0)] == ["pass"]
    st.apply_text(0, "pass")  # nothing else to do: made for seat 0
    passes = [e for e in st.events_since(0, 0) if e.kind == "passed"]
    assert [e.data.get("forced", False) for e in passes] == [False, True]
    with use_language("en"):
        chose, made = (describe(e, None) for e in passes)
    assert chose == "Seat 1 passes: no more activations this round"
    assert made == "Seat 0 has no play left and passes: no more activations this round"
    with use_language("pl"):
        chose, made = (describe(e, None) for e in passes)
    assert chose == "Gracz 1 pasuje: nie wykonuje już ruchów w tej fazie"
    assert (
        made == "Gracz 0 nie ma już możliwych zagrań i pasuje: nie wykonuje już ruchów w tej fazie"
    )
