"""Trust hooks of the Monster Maker state: ``zones()`` holds every card once,
``clone()`` copies every field, ``determinize()`` is a possible world that
carries nothing over from the real one (tests/test_trust.py runs the engine's
audits on every game; these pin the game's own promises)."""

from __future__ import annotations

from collections import Counter

from bestiary.engine import Rng
from bestiary.engine.audit import check_clone, check_determinize, shared_mutables
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.rules import MonsterMakerState

from .mm_helpers import tid


def _states(players: int, seed: int, every: int = 37) -> list[MonsterMakerState]:
    """Snapshots of a random game, every ``every`` moves."""
    st = GAME.new(players, seed=seed)
    assert isinstance(st, MonsterMakerState)
    rng = Rng(seed)
    out, n = [], 0
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        n += 1
        if n % every == 0:
            out.append(st.clone())
    return out


def _every_card(st: MonsterMakerState) -> Counter[tuple[str, int]]:
    cs = st.cs
    want: Counter[tuple[str, int]] = Counter(("card", c) for c in cs.deck())
    want.update(("treasure", t.index) for t in cs.treasures)
    want.update(("prize", p) for p in cs.prize_pile())
    return want


def test_zones_hold_every_card_exactly_once() -> None:
    for st in _states(4, seed=1)[:40]:
        held: Counter[tuple[str, int]] = Counter()
        for cards in st.zones().values():
            held.update(cards)
        assert held == _every_card(st)


def test_a_clone_shares_only_the_declared_tables_and_copies_the_rest() -> None:
    assert {"game", "rules", "cs", "space", "strength"} <= MonsterMakerState.SHARED
    for n, st in enumerate(_states(3, seed=2)[:25]):
        check_clone(st, Rng(n), play=n % 8 == 0)
        assert shared_mutables(st, st.clone()) == []


def test_a_determinization_is_a_possible_world_for_every_seat() -> None:
    for n, st in enumerate(_states(4, seed=3)[:25]):
        check_determinize(st, n % 4, Rng(n), play=n % 8 == 0)


def test_a_determinization_forgets_what_others_drew_and_were_dealt() -> None:
    """Hidden events keep their place in the log but not their cards: a search
    that reads the log of a determinized state learns nothing it may not know."""
    st = GAME.new(3, seed=4)
    det = st.determinize(0, Rng(9))
    assert len(det.log.events) == len(st.log.events)
    for real, copy in zip(st.log.events, det.log.events, strict=True):
        if real.visible(0):
            assert copy == real
        else:
            assert copy.kind == real.kind and copy.data == {}
    dealt = [e for e in st.log.events if e.kind == "dealt" and not e.visible(0)]
    assert dealt and all("cards" in e.data for e in dealt)  # the real log keeps them


def test_once_a_game_draws_are_recomputed_for_the_world_not_copied() -> None:
    """Redraw mode reads which once-a-game treasures were drawn. A hidden one in
    another player's hand is not known to seat 0, so the determinization's set
    follows the cards it dealt, not the real ones."""
    st = GAME.new(3, seed=5, options={"once_per_game": "redraw"})
    assert isinstance(st, MonsterMakerState)
    ring = tid(st, "Ring")  # stands in for a hidden once-a-game card
    st.drawn_once = {ring}
    st.treasure_pile.remove(ring)
    st.held[1] = [ring]
    det = st.determinize(0, Rng(1))
    assert isinstance(det, MonsterMakerState)
    once = {t.index for t in st.cs.treasures if t.once_per_game}
    assert det.drawn_once == {t for t in det.held[1] if t in once}
