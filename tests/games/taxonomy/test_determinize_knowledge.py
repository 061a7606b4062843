"""Determinization keeps what a seat legitimately knows (RULES.md reading 23).

The rule that gives the knowledge (rules v0.2, "Honest"): "Look at 3 cards from
the stack and then put them down. If you have taken an honest monster from
another player, it tells you what it saw in him: you can see what cards he is
holding." A search bot's sampled worlds must keep those cards where the seat
knows they are, and resample only the rest.
"""

from __future__ import annotations

from bestiary.engine import Rng
from bestiary.games.taxonomy.rules import TaxonomyState

from ..knowledge import differ, picture, told
from .helpers import arrange, ids, plain_fillers, state

PEEKED = ["Slime", "Red Slime", "Sea Slime"]  # plain, Semisolid Life Form


def samples(st: TaxonomyState, seat: int, k: int = 24) -> list[TaxonomyState]:
    out = []
    for i in range(k):
        d = st.determinize(seat, Rng(1000 + i))
        # The sample is a world the seat cannot tell apart from the real one...
        assert d.view(seat) == st.view(seat)
        # ...holding every card exactly once.
        where = [
            *(c for h in d.hands for c in h),
            *d.stock,
            *d.discards,
            *(c for t in d.tables for _, cs in t for c in cs),
            *(c for a in d.aside for c in a),
        ]
        assert sorted(where) == list(range(d.deck.size))
        out.append(d)
    return out


def top(st: TaxonomyState, k: int) -> list[int]:
    return st.stock[-k:][::-1]


def step(st: TaxonomyState, seat: int, text: str) -> None:
    """Play ``text`` for ``seat``, then let any claim window close unclaimed."""
    st.apply_text(seat, text)
    while st.phase == "claim":
        for q in st.to_act():
            st.apply_text(q, "pass")


def peeked_state() -> TaxonomyState:
    # Seat 0 draws Cancer (honest) and looks at the three cards below it.
    st = arrange(state(4), {}, stock=["Cancer", *PEEKED])
    assert [c["name"] for c in st.view(0)["peek"]["cards"]] == PEEKED
    return st


def test_every_determinization_keeps_the_peeked_cards_on_top_in_order() -> None:
    """ "Look at 3 cards from the stack and then put them down": the drawer knows
    the top three, in order, until they are drawn."""
    st = peeked_state()
    want = ids(st, PEEKED)
    for d in samples(st, 0):
        assert top(d, 3) == want
    # A seat that did not peek knows nothing of the top: its samples vary there.
    assert len({tuple(top(d, 3)) for d in samples(st, 1)}) > 1


def test_a_peeked_card_drawn_by_another_seat_is_known_to_be_in_its_hand() -> None:
    """The peeked cards move up as the stock is drawn; the one seat 1 drew is now in
    seat 1's hand, and seat 0 (who saw it) knows it."""
    st = peeked_state()
    slime, red, sea = ids(st, PEEKED)
    step(st, 0, "discard Cancer")  # seat 1 draws Slime
    assert st.actor == 1 and slime in st.hands[1]
    for d in samples(st, 0):
        assert top(d, 2) == [red, sea], "the rest of the peek moved up, in order"
        assert slime in d.hands[1]
    filler = next(c for c in st.hands[1] if c != slime)
    step(st, 1, f"discard {st.deck.names[filler]}")  # seat 2 draws Red Slime
    for d in samples(st, 0):
        assert slime in d.hands[1] and red in d.hands[2] and top(d, 1) == [sea]
    # Slime leaves seat 1's hand in public: no sample keeps it there (it is discarded).
    step(st, 2, f"discard {st.deck.names[next(c for c in st.hands[2] if c != red)]}")
    step(st, 3, f"discard {st.deck.names[st.hands[3][0]]}")
    step(st, 0, f"discard {st.deck.names[st.hands[0][0]]}")
    step(st, 1, "discard Slime")
    for d in samples(st, 0):
        assert slime not in d.hands[1] and slime in d.discards
        assert red in d.hands[2]


def test_drawing_ones_own_peeked_card_is_no_news_and_the_rest_stay_on_top() -> None:
    st = peeked_state()
    slime, red, sea = ids(st, PEEKED)
    for q in (0, 1, 2, 3):  # a round of turns: seats 1, 2, 3 draw Slime, Red Slime, Sea Slime
        step(st, q, f"discard {st.deck.names[st.hands[q][-1 if q == 0 else 0]]}")
    assert slime in st.hands[1] and red in st.hands[2] and sea in st.hands[3]
    for d in samples(st, 0):
        assert slime in d.hands[1] and red in d.hands[2] and sea in d.hands[3]
    assert st.kstock[0] == [], "every peeked card has left the stock"


def seen_state() -> TaxonomyState:
    # Seat 1 claims the honest Sea Bishop from seat 0 and sees seat 0's hand.
    st = arrange(state(4), {0: ["Sea Bishop"], 1: ["Mermaid", "Merrow", "Unagi Joro"]})
    st.apply_text(0, "discard Sea Bishop")
    st.apply_text(1, "claim Piscine")
    assert sorted(c["name"] for c in st.view(1)["seen_hands"]["0"]) == sorted(
        st.deck.names[c] for c in st.hands[0]
    )
    return st


def test_a_hand_seen_through_an_honest_monster_is_kept_in_every_determinization() -> None:
    """ "If you have taken an honest monster from another player, it tells you what
    it saw in him: you can see what cards he is holding." """
    st = seen_state()
    seen = sorted(st.hands[0])
    for d in samples(st, 1):
        assert sorted(d.hands[0]) == seen
    # The other hands are still resampled.
    assert len({tuple(sorted(d.hands[2])) for d in samples(st, 1)}) > 1


def test_cards_that_left_the_seen_hand_are_dropped_and_its_new_draw_is_unknown() -> None:
    st = seen_state()
    seen = list(st.hands[0])
    step(st, 1, f"discard {st.deck.names[st.hands[1][0]]}")
    step(st, 2, f"discard {st.deck.names[st.hands[2][0]]}")
    step(st, 3, f"discard {st.deck.names[st.hands[3][0]]}")
    new = st.drawn[0]  # seat 0's own draw: seat 1 did not see it
    assert st.actor == 0 and new not in seen
    gone = seen[0]
    step(st, 0, f"discard {st.deck.names[gone]}")
    still = set(seen) - {gone}
    assert set(st.hands[0]) == still | {new}
    sampled = samples(st, 1)
    for d in sampled:
        assert still <= set(d.hands[0]), "the cards still there are kept"
        assert gone not in d.hands[0] and gone in d.discards
    eighth = {next(c for c in d.hands[0] if c not in still) for d in sampled}
    assert len(eighth) > 1, "the card seat 0 drew since is resampled"


def test_knowledge_is_never_wrong_in_random_play_and_a_new_round_forgets_it() -> None:
    """Whatever happens (draws by anyone, mean and cheerful discards, claims,
    tabling), what a seat remembers is true: its peeked cards are the top of the
    stock in order, and the cards it knows in a hand are in that hand. The next
    round's reshuffle forgets it all."""
    learned = 0
    for seed in range(6):
        st = state(4)
        st = TaxonomyState(st.game, 4, seed, st.rules)
        rng = Rng(seed)
        while st.round == 0 and not st.over:
            for s in range(4):
                ks = st.kstock[s]
                assert st.stock[len(st.stock) - len(ks) :][::-1] == ks
                for q, cards in st.khand[s].items():
                    assert cards <= set(st.hands[q])
            learned += st.knows
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
        if not st.over:
            assert not st.knows and st.kstock == [[]] * 4 and st.khand == [{}] * 4
    assert learned > 0, "some peeks happened, so the check was exercised"


def test_a_sample_depends_only_on_what_the_seat_knows() -> None:
    """Reading 23: a determinization resamples what the seat cannot know, so two
    worlds it cannot tell apart (the real one and a sample for it: the same view)
    give the same sample from the same random stream — the hidden order of the
    unseen cards must not steer it."""
    from bestiary.engine import Rng
    from bestiary.games.taxonomy import GAME

    checked = 0
    for seed in range(6):
        st = GAME.new(4, seed=seed)
        walk = Rng(seed)
        for step in range(400):
            if st.over:
                break
            seat = st.to_act()[0]
            if step % 37 == 5:
                other = st.determinize(seat, Rng(99))
                assert other.view(seat) == st.view(seat)
                a, b = st.determinize(seat, Rng(5)), other.determinize(seat, Rng(5))
                assert a.zones() == b.zones()
                assert a.view(seat) == b.view(seat)
                checked += 1
            legal = st.legal(seat)
            st.apply(seat, legal[walk.randrange(len(legal))])
    assert checked > 20


def _drawn_by_seat_1() -> tuple[TaxonomyState, int]:
    """Seat 0 peeked (Cancer: honest); seat 1 then drew the first peeked card."""
    st = peeked_state()
    slime = ids(st, ["Slime"])[0]
    step(st, 0, f"discard {st.deck.names[st.hands[0][0]]}")
    assert st.actor == 1 and slime in st.hands[1] and slime in st.khand[0][1]
    return st, slime


def test_a_known_card_stays_with_its_owner_but_not_at_its_real_place() -> None:
    """Reading 23: a peeked card another seat then draws "is then known to be in
    that seat's hand" -- in it, at no known place (hand order is nobody's
    knowledge: which cards went before it was never shown). Every sample keeps
    the card in seat 1's hand; where in the hand varies."""
    st, slime = _drawn_by_seat_1()
    places = set()
    for d in samples(st, 0, k=30):
        assert slime in d.hands[1]
        places.add(d.hands[1].index(slime))
    assert len(places) > 1


def test_a_sample_does_not_depend_on_where_in_the_hand_a_known_card_really_lies() -> None:
    """Two worlds seat 0 cannot tell apart -- the card it knows seat 1 holds
    first or last in that hand -- give the same sample from the same stream."""
    st, slime = _drawn_by_seat_1()
    other = st.clone()
    other.hands[1].remove(slime)
    other.hands[1].insert(0, slime)
    assert other.view(0) == st.view(0) and other.hands[1] != st.hands[1]
    a, b = st.determinize(0, Rng(5)), other.determinize(0, Rng(5))
    assert a.hands == b.hands and a.stock == b.stock


# -- another seat's private decisions (reading 22) ----------------------------------------------


def _same_sample(a: TaxonomyState, b: TaxonomyState, seat: int) -> TaxonomyState:
    """``a`` and ``b`` are worlds ``seat`` cannot tell apart: they give the same sample."""
    assert a.view(seat) == b.view(seat) and told(a, seat) == told(b, seat)
    for k in range(4):
        sa, sb = a.determinize(seat, Rng(k)), b.determinize(seat, Rng(k))
        pa, pb = picture(sa), picture(sb)
        assert pa == pb, differ(pa, pb)
        assert sa.view(seat) == a.view(seat)
    return sa


def _worlds(named: dict[int, list[str]], tops: list[list[str]]) -> list[TaxonomyState]:
    """Positions alike but for the stock's top cards, one per ``tops``: the
    named cards, then plain fillers of keys none of them has, seat 0 to draw."""
    st = state(4)
    every = [n for h in named.values() for n in h] + [n for top in tops for n in top]
    avoid = {k for c in ids(st, every) for k in st.deck.keys_of[c]}
    fill = plain_fillers(st, avoid)
    hands = []
    for s in range(4):
        mine = ids(st, named.get(s, []))
        hands.append([*mine, *fill[8 * s : 8 * s + 8 - len(mine)]])
    out = []
    for top in tops:
        w = state(4)
        w.arrange(hands, ids(w, top), 0)
        out.append(w)
    return out


def test_a_sample_forgets_an_impatient_draw_the_player_is_still_deciding() -> None:
    """ "when you draw an impatient monster, you can immediately draw another
    card": whether to is the drawer's private decision (reading 22: "a player
    who stops need not show the card"); the others see a discard decision.
    Seat 0 drew the impatient Wererabbit or the plain Cockatrice: seat 1 cannot
    tell, so both give the same sample -- seat 0 discarding, the drawn card one
    of its sampled cards. A sample that kept the impatient choice (and which
    card was drawn) showed a search what seat 0 drew."""
    a, b = _worlds({}, [["Wererabbit"], ["Cockatrice"]])
    assert a.phase == "impatient" and b.phase == "discard"
    d = _same_sample(a, b, 1)
    assert d.phase == "discard" and d.to_act() == (0,)
    assert len(d.drawn) == 1 and d.drawn[0] in d.hands[0]
    # The drawer itself knows: its own samples keep its choice and its card.
    assert a.determinize(0, Rng(1)).phase == "impatient"
    assert a.determinize(0, Rng(1)).drawn == a.drawn


def test_a_pause_is_sampled_alike_whether_others_may_claim_or_the_player_decides() -> None:
    """Reading 22: a seat that is not asked sees "the table between two turns
    [...] whether one seat, several or none may claim", and a player's private
    decision on a hand of 8 "as the table's pause". Seat 0 discards a cheerful
    Harpy ("you must discard them all": Gandharva goes too) and refills to 8:
    with the impatient Wererabbit it chooses whether to draw again; with the
    plain Cockatrice its turn ends and seat 2 (three Avian) is asked about
    Gandharva. Seat 1 sees the same pause in both, so both give the same
    sample: a claim window on Gandharva with a claimant."""
    named = {0: ["Harpy", "Gandharva"], 2: ["Cockatrice", "Siren", "Jubjub"]}
    a, b = _worlds(named, [["Slime", "Wererabbit"], ["Slime", "Sea Slime"]])
    for w in (a, b):
        w.apply_text(0, "discard Harpy")
    assert a.phase == "impatient" and b.phase == "claim" and b.to_act() == (2,)
    assert a.view(1)["phase"] == "discard" and a.view(1)["to_act"] == []
    d = _same_sample(a, b, 1)
    gandharva = ids(d, ["Gandharva"])[0]
    assert d.phase == "claim" and d.claim_card == gandharva and d.to_act()
    assert 1 not in d.to_act()


def test_a_sample_drops_the_answers_of_a_closed_claim_window() -> None:
    """ "The seats that may claim are asked privately (`claim_open`), decide in
    secret" (reading 22); a seat not asked does not learn that a window was
    open. After one closed unclaimed, seat 1's samples must not keep who was
    asked nor what they answered: a world where nobody could claim gives the
    same sample."""
    (st,) = _worlds({0: ["Ghost"], 2: ["Mummy", "Zombie", "Lich"]}, [["Slime"]])
    st.apply_text(0, "discard Ghost")
    assert st.phase == "claim" and st.to_act() == (2,)
    st.apply_text(2, "pass")
    assert st.actor == 1 and st.claim_seats == (2,)
    other = st.clone()
    other.claim_card = other.claim_from = -1
    other.claim_seats, other.claim_keys, other.claim_choice = (), {}, {}
    d = _same_sample(st, other, 1)
    assert d.claim_seats == () and d.claim_choice == {}


def test_a_sample_drops_what_another_seat_peeked() -> None:
    """ "Look at 3 cards from the stack and then put them down": what seat 0
    saw is shown to seat 0 alone ("peeked"), as is the honest Cancer it drew.
    At seat 1's turn, a world where seat 0 drew Cancer and peeked and one where
    it drew a plain card give the same sample; only seat 1's own knowledge is kept."""
    worlds = _worlds({}, [["Cancer", "Slime"], ["Cockatrice", "Slime"]])
    for w in worlds:
        w.apply_text(0, f"discard {w.deck.names[w.hands[0][0]]}")
        assert w.actor == 1 and w.phase == "discard"
    a, b = worlds
    assert a.peeks[0] is not None and b.peeks[0] is None
    d = _same_sample(a, b, 1)
    assert d.peeks == [None] * 4 and d.seen_hands == [{}] * 4 and not d.watched


def test_an_asked_seat_that_answered_sees_others_still_deciding_in_its_samples() -> None:
    """Reading 22: the asked seats "decide in secret, and learn when the window
    closes". Seat 3 passed and the window is still open, so another seat is
    deciding: every sample of seat 3's must have one to answer (a sample in
    which nobody may claim waited for nobody and could not go on)."""
    named = {0: ["Ghost"], 1: ["Mummy", "Zombie", "Lich"], 3: ["Jiangshi", "Skeleton", "Ghoul"]}
    (st,) = _worlds(named, [["Slime"]])
    st.apply_text(0, "discard Ghost")
    st.apply_text(3, "pass")
    assert st.phase == "claim" and st.to_act() == (1,)
    assert st.view(3)["claim"]["decided"] and st.view(3)["to_act"] == []
    for k in range(12):
        d = st.determinize(3, Rng(k))
        assert d.view(3) == st.view(3)
        assert d.to_act() and 3 not in d.to_act() and d.claim_choice[3] == st.claim_choice[3]
