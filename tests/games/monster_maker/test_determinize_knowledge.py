"""A search's sample (``determinize``) keeps what the seat saw go into a hand.

<Cleric> 2): "Can be exchanged for a "character card" that was just used and
discarded earlier in the turn. When doing this, announce it by saying "Heal"."
The healed card goes back into the hand in plain sight, and every way out of a
hand shows the card (a battle, a spell, a monster placed, a discard, a trap's
loss, a door, a detour): until it is played, everyone knows it is in that hand.
"""

from __future__ import annotations

from collections import Counter

from bestiary.engine import Rng
from bestiary.games.monster_maker.rules import MonsterMakerState

from .mm_helpers import cid, dice, do, give, table, walk


def _healed() -> MonsterMakerState:
    """Seat 0 fought an Ogre with a Fighter, lost, and healed the Fighter back."""
    st = table()
    walk(st, 0, 20)
    st.monster[0] = cid(st, "Ogre")
    give(st, 0, "Fighter", "Cleric", "Elf", "Corridor 10", "Thief")
    do(st, "fight with Fighter")
    dice(st, 5)
    do(st, "roll")
    do(st, "heal Fighter")
    assert cid(st, "Fighter") in st.hands[0] and cid(st, "Cleric") not in st.hands[0]
    return st


def test_a_healed_card_stays_in_its_owners_hand_in_every_sample() -> None:
    """Seat 1 saw the Fighter go back into seat 0's hand: every sample for seat 1
    has a Fighter there; the other cards of that hand and where the Fighter lies
    are drawn at random."""
    st = _healed()
    fighter = cid(st, "Fighter")
    places, rest = set(), set()
    for k in range(40):
        det = st.determinize(1, Rng(k))
        assert det.view(1) == st.view(1)
        hand = det.hands[0]
        assert fighter in hand and len(hand) == len(st.hands[0])
        places.add(hand.index(fighter))
        rest.add(tuple(sorted(hand)))
    assert len(places) > 1 and len(rest) > 1
    do(st, "end turn")  # the turn's end shows nothing: still known to be there
    assert st.seen_in[0] == [fighter]


def test_the_knowledge_ends_when_the_card_leaves_the_hand_in_the_open() -> None:
    """Played into a battle ("fight with Fighter"), the card is shown leaving:
    seat 1 no longer knows of a Fighter in that hand."""
    st = _healed()
    st.phase, st.monster[0] = "turn", cid(st, "Orc")
    st._reset_turn()
    do(st, "fight with Fighter")
    assert st.seen_in[0] == []
    counts = Counter(
        st.determinize(1, Rng(k)).hands[0].count(cid(st, "Fighter")) for k in range(40)
    )
    assert counts[0] > 0  # no longer kept: a sample may hold none


def test_a_sample_does_not_depend_on_where_the_healed_card_really_lies() -> None:
    """Two worlds seat 1 cannot tell apart -- the healed Fighter first or last in
    seat 0's hand, and an unseen card of that hand swapped with one of the draw
    pile -- give the same sample from the same stream."""
    st = _healed()
    other = st.clone()
    hand = other.hands[0]
    hand.remove(cid(st, "Fighter"))
    hand.insert(0, cid(st, "Fighter"))
    i = next(i for i, c in enumerate(other.deck) if c not in hand)
    j = next(j for j, c in enumerate(hand) if c != cid(st, "Fighter"))
    other.deck[i], hand[j] = hand[j], other.deck[i]
    assert other.view(1) == st.view(1) and sorted(other.hands[0]) != sorted(st.hands[0])
    a, b = st.determinize(1, Rng(3)), other.determinize(1, Rng(3))
    assert a.hands == b.hands and a.deck == b.deck
