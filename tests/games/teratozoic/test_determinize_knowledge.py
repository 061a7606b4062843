"""A search's sample (``determinize``) keeps what everyone knows of a Gene Pool.

"A Gene Pool consists of six cards of a single color with each value (1-6)
represented. There are six starting Gene Pools included, two in each color,
marked with unique symbols-in-circles" (the ``gene_pool`` event names each
seat's), and "All gained cards go directly to a player's own Gene Pool Discard
Pile" face up. So every card of another seat's draw pile is one seen going into
its Gene Pool; only "Recessive genes (unplayed cards from your hand) are placed
face down" and, not gained, go unseen to the Mutations Deck Discard Pile.
"""

from __future__ import annotations

from bestiary.engine import Rng
from bestiary.games.teratozoic.rules import TeratozoicState

from ..knowledge import differ, picture, told
from .helpers import new


def _starting_pool(st: TeratozoicState, seat: int) -> set[int]:
    """The starting Gene Pool the public ``gene_pool`` event names."""
    e = next(e for e in st.log.events if e.kind == "gene_pool" and e.data["seat"] == seat)
    colour, symbol = e.data["colour"], e.data["symbol"]
    return {c.id for c in st.deck if c.colour == colour and c.pool == symbol}


def _walk(st: TeratozoicState, rng: Rng, steps: int) -> None:
    for _ in range(steps):
        if st.over:
            return
        owed = st.to_act()
        seat = owed[rng.randrange(len(owed))]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])


def test_another_gene_pool_is_dealt_from_its_announced_starting_pool() -> None:
    """First generation: seat 1 drew 2 of its 6 starting cards (with 3
    mutations) into its hidden hand. Every sample for seat 0 deals seat 1's
    draw pile from those 6, the other 2 in its hand; which 2 varies."""
    st = new(2, seed=1)
    start = _starting_pool(st, 1)
    assert set(st.pool[1]) < start and st.phase == "expression"
    drawn = set()
    for k in range(40):
        det = st.determinize(0, Rng(k))
        assert det.view(0) == st.view(0)
        assert set(det.pool[1]) <= start
        assert start <= set(det.pool[1]) | set(det.hand[1])
        drawn.add(frozenset(start - set(det.pool[1])))
    assert len(drawn) > 1  # which cards seat 1 drew is not known


def test_the_knowledge_holds_in_play_and_samples_keep_it() -> None:
    """Over random games: the cards everyone knows of a Gene Pool (``lineage``:
    seen going in, not seen leaving) hold every card of its draw pile, those
    ``sure`` are really with their owner, the plays seen going to the Mutations
    Deck Discard Pile are there -- and every sample keeps all three."""
    checked = 0
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        st = new(players, seed=seed)
        walk = Rng(seed)
        while not st.over:
            _walk(st, walk, 5)
            if st.over:
                break
            seat = checked % players
            det = st.determinize(seat, Rng(checked))
            assert det.view(seat) == st.view(seat)
            for world in (st, det):
                for s in range(players):
                    lin = st.lineage[s]
                    if lin is None or (world is det and s == seat):
                        continue
                    mine = world.pool[s] + world.gdiscard[s] + world.hand[s] + world.tie_cards[s]
                    assert set(world.pool[s]) <= lin and st.sure[s] <= set(mine)
                assert st.mut_seen <= set(world.mut_discard)
            checked += 1
    assert checked > 50


def test_a_recessive_gene_not_gained_makes_the_rest_uncertain() -> None:
    """A card held back and not gained goes to the Mutations Deck Discard Pile
    face down: any card its owner drew from the Gene Pool may be the one gone,
    so only its face-up discard pile stays certain (the draw pile is still dealt
    only from the cards seen going in)."""
    for seed in range(60):
        st = new(2, seed=seed)
        rng = Rng(seed)
        while not st.over and st.phase != "breed-hand":
            _walk(st, rng, 1)
        if st.over:
            continue
        unseen = [s for s in range(2) if any(c not in st.kept for c in st.held[s])]
        if not unseen:
            continue
        s = unseen[0]
        while not st.over and st.phase == "breed-hand":
            _walk(st, rng, 1)
        lin = st.lineage[s]
        assert lin is not None and st.sure[s] <= set(st.gdiscard[s])
        assert set(st.pool[s]) <= lin
        return
    raise AssertionError("no recessive gene went unseen")


def test_a_sample_does_not_depend_on_which_cards_another_seat_really_drew() -> None:
    """Two worlds seat 0 cannot tell apart -- seat 1 drew one starting card or
    another, and a mutation card in its hand swapped with one in the Mutations
    Deck -- give the same sample from the same stream."""
    st = new(2, seed=1)
    other = st.clone()
    start = _starting_pool(st, 1)
    hand, pool = other.hand[1], other.pool[1]
    i = next(i for i, c in enumerate(hand) if c in start)
    hand[i], pool[0] = pool[0], hand[i]
    j = next(j for j, c in enumerate(hand) if c not in start)
    hand[j], other.mutations[0] = other.mutations[0], hand[j]
    assert other.view(0) == st.view(0) and sorted(other.hand[1]) != sorted(st.hand[1])
    for k in range(5):
        a, b = st.determinize(0, Rng(k)), other.determinize(0, Rng(k))
        assert a.zones() == b.zones() and a.hand == b.hand and a.mutations == b.mutations


def _held_back(st: TeratozoicState, seat: int, which: int) -> TeratozoicState:
    """A copy in which ``seat`` holds back its ``which``-th holdable card and declares."""
    w = st.clone()
    w.apply(seat, [a for a in w.legal(seat) if str(a).startswith("hold")][which])
    w.apply(seat, next(a for a in w.legal(seat) if str(a) == "express"))
    return w


def test_a_sample_does_not_follow_which_card_another_seat_holds_back() -> None:
    """ "Recessive genes (unplayed cards from your hand) are placed face down on
    the table *before* the Growth phase begins": the others see how many, not
    which. Two worlds seat 1 cannot tell apart -- seat 0 held back one card of
    its hand or another -- must give the same sample from the same stream; a
    sample that held back the card dealt at the real held card's place did not."""
    st = new(2, seed=1)
    assert st.phase == "expression" and st.to_act() == (0,)
    a, b = _held_back(st, 0, 0), _held_back(st, 0, 1)
    assert a.to_act() == b.to_act() == (1,)
    assert a.view(1) == b.view(1) and told(a, 1) == told(b, 1) and a.held != b.held
    for k in range(4):
        sa, sb = a.determinize(1, Rng(k)), b.determinize(1, Rng(k))
        pa, pb = picture(sa), picture(sb)
        assert pa == pb, differ(pa, pb)
        assert len(sa.held[0]) == 1 and sa.held[0][0] in sa.hand[0]
        assert sa.view(1) == a.view(1)


def test_after_growth_a_sample_does_not_follow_where_the_held_card_lay() -> None:
    """After Growth the plays are face up, the held card still face down: where
    it lay in its owner's hand, and which build choice the owner made ("All
    players lay out the cards they have chosen to play at the same time"; only
    the resulting monsters are seen), are not shown. Two worlds that differ in
    those alone give the same sample."""
    st = _held_back(new(2, seed=1), 0, 0)
    st.apply(1, next(a for a in st.legal(1) if str(a) == "express"))
    for s in (0, 1):
        st.apply(s, next(a for a in st.legal(s) if str(a) == "build best"))
    assert st.phase.startswith("breed") and st.held[0]
    other = st.clone()
    h = st.held[0][0]
    other.hand[0].remove(h)
    other.hand[0].insert(0 if st.hand[0][0] != h else len(other.hand[0]), h)
    other.choice[0] = "flat"
    assert other.view(1) == st.view(1) and other.hand[0] != st.hand[0]
    seat = 1
    for k in range(4):
        sa, sb = st.determinize(seat, Rng(k)), other.determinize(seat, Rng(k))
        pa, pb = picture(sa), picture(sb)
        assert pa == pb, differ(pa, pb)
        assert sa.played(0) == st.played(0) and len(sa.held[0]) == 1
        assert sa.view(seat) == st.view(seat)
