"""Tim and Sally's sample turn (rulebook, 'A Sample Turn (one generation)')."""

from __future__ import annotations

from bestiary.games.teratozoic.rules import BUILD_BEST, EXPRESS, Hold, Keep, Take

from .helpers import DECK, ids, new, rig_hand, zones

TIM, SALLY = 0, 1
TIM_HAND = (
    "orange 1 elbow",
    "green 1 hook",
    "purple 1 hook",
    "green 1 elbow",
    "orange 4 right arm",
)
SALLY_HAND = (
    "purple 1 head",
    "purple 6 belly",
    "purple 2 claw",
    "green 3 segment",
    "orange 2 hoof",
)


def test_tim_and_sally() -> None:
    # 'Tim and Sally are experienced players who decided to play with an extra
    # Era card and it's still the Apocalyptic Era'.
    st = new(2, seed=5, two_player="extra-era")
    assert st.era.name == "Apocalyptic Era"
    before = sorted(zones(st))
    rig_hand(st, TIM, TIM_HAND)
    rig_hand(st, SALLY, SALLY_HAND)
    st.previous_winner = TIM
    st._start_generation()
    assert sorted(zones(st)) == before

    # Expression: 'Tim drew four 1's and a 4, so to keep Sally from taking his 4,
    # he says, "I'm not playing all my cards." He puts the 4 face-down'.
    assert st.to_act() == (TIM,)
    four = ids("orange 4 right arm")[0]
    st.apply(TIM, Hold(four, DECK[four].name))
    # Only one card may be held: 'Play at least 4'.
    assert not any(isinstance(a, Hold) for a in st.legal(TIM))
    st.apply(TIM, EXPRESS)
    # 'she says, "I am expressing all my genes."'
    assert st.to_act() == (SALLY,)
    st.apply(SALLY, EXPRESS)

    # Growth: everyone builds at once.
    assert set(st.to_act()) == {TIM, SALLY}
    st.apply(SALLY, BUILD_BEST)
    st.apply(TIM, BUILD_BEST)
    tim_build, sally_build = st.builds[TIM], st.builds[SALLY]
    assert tim_build is not None and sally_build is not None
    # 'Tim connects his four cards, earning five points. Four from face value and
    # one more because his entire play left no loose ends on any card.'
    assert tim_build.score == 5 and tim_build.all_closed and len(tim_build.monsters) == 1
    # 'Sally puts together two monsters, earning fifteen points ... one bonus point
    # for the all-purple monster ... the other monster having a loose end'.
    assert sally_build.score == 15
    closed = [m for m in sally_build.monsters if m.closed]
    assert len(closed) == 1 and {DECK[c].colour for c in closed[0].cards} == {"purple"}
    assert st.winner == SALLY

    # Breeding: 'she can select 1 card from among any of the cards which were
    # played and one from her hand, but she cannot take the face-down card Tim held back'.
    takeable = {a.card for a in st.legal(SALLY) if isinstance(a, Take)}
    assert four not in takeable and ids("green 1 hook")[0] in takeable
    six, three = ids("purple 6 belly", "green 3 segment")
    st.apply(SALLY, Take(six, DECK[six].name))
    st.apply(SALLY, Keep(three, DECK[three].name))
    # 'Tim can only gain from his own hand, so he selects the 4 he had face-down'.
    assert st.to_act() == (TIM,)
    assert {a.card for a in st.legal(TIM)} == set(ids(*TIM_HAND))
    events_before = st.event_count()
    st.apply(TIM, Keep(four, DECK[four].name))

    # 'She puts both cards face-up in her personal discard pile.'
    assert st.gdiscard[SALLY] == [six, three]
    assert st.gdiscard[TIM] == [four]
    # Mutation: 'Tim puts his four 1's in the Mutations Deck Discard Pile, and Sally
    # follows with the 1 and two 2's she had left.'
    left_over = set(ids(*TIM_HAND[:4], "purple 1 head", "purple 2 claw", "orange 2 hoof"))
    assert left_over <= set(st.mut_discard)
    # 'Sally draws the first 4 cards of the Mutations Deck and then draws the top
    # card of her own Gene Pool ... Then Tim does the same'.
    drew = [e for e in st.events_since(events_before, None) if e.kind == "drew"]
    assert [(e.data["seat"], e.data["mutations"], e.data["gene_pool"]) for e in drew] == [
        (SALLY, 4, 1),
        (TIM, 4, 1),
    ]
    assert len(st.hand[SALLY]) == len(st.hand[TIM]) == 5
    assert sorted(zones(st)) == before
    # Next generation: Sally, the winner, declares first.
    assert st.to_act() == (SALLY,)
