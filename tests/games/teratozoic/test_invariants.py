"""Invariants over whole random games: cards conserved, nothing hidden leaks,
same seed same game, determinize keeps what a seat knows."""

from __future__ import annotations

import json

from bestiary.engine import Rng
from bestiary.games.teratozoic.rules import TeratozoicState

from .helpers import GAME, new, zones


def _walk(st: TeratozoicState, seed: int, check: object) -> None:
    rng = Rng(seed)
    steps = 0
    while not st.over:
        seat = st.to_act()[rng.randrange(len(st.to_act()))]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        check(st)  # type: ignore[operator]
        steps += 1


def test_cards_are_conserved_through_whole_games() -> None:
    """Every card is always in exactly one place (deck, discard, pool, hand)."""
    for players, variant in ((2, "advanced"), (4, "basic"), (5, "advanced")):
        st = GAME.new(players, seed=players, variant=variant)
        assert isinstance(st, TeratozoicState)
        expected = sorted(zones(st))
        assert len(set(expected)) == len(expected)

        def check(s: TeratozoicState, expected: list[int] = expected) -> None:
            assert sorted(zones(s)) == expected

        _walk(st, players, check)


def _hidden_cards(st: TeratozoicState, seat: int) -> set[int]:
    """Cards ``seat`` may not know the place of: other hands (held cards after
    Growth), every Gene Pool but its own, the Mutations Deck."""
    public = st.phase in ("breed-play", "breed-hand")
    out = set(st.mutations)
    for s in range(st.players):
        if s == seat:
            continue
        out |= set(st.pool[s])
        # A kept recessive gene goes face up to the discard pile: public from then on.
        out |= (set(st.held[s]) - set(st.kept)) if public else set(st.hand[s])
    return out


def _ints(obj: object) -> set[int]:
    """Every card id mentioned in a view/event: values of card-bearing keys."""
    found: set[int] = set()

    def walk(o: object, key: str = "") -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                walk(v, k)
        elif isinstance(o, list):
            for v in o:
                walk(v, key)
        elif isinstance(o, int) and not isinstance(o, bool) and key in CARD_KEYS:
            found.add(o)

    walk(obj)
    return found


CARD_KEYS = {
    "card",
    "cards",
    "hand",
    "held_cards",
    "my_gene_pool",
    "discard",
    "played",
    "taken",
    "kept",
    "drew",
}


def test_views_and_events_never_show_hidden_cards() -> None:
    """Recessive genes are 'placed face down'; Gene Pools are face down: a seat's
    view and events show none of another seat's hidden cards."""
    st = new(4, seed=21)
    seen = [0] * 4
    before = [_hidden_cards(st, seat) for seat in range(4)]

    def check(s: TeratozoicState) -> None:
        for seat in range(4):
            hidden = _hidden_cards(s, seat)
            v = s.view(seat)
            assert not (_ints(v) & hidden), (s.phase, _ints(v) & hidden)
            new_events = s.events_since(seen[seat], seat)
            seen[seat] = s.event_count()
            for e in new_events:
                if e.kind == "kept":
                    # 'putting it face-up in his own discard pile': a kept recessive
                    # gene is revealed (it may be reshuffled out of sight right after).
                    continue
                leaked = _ints(e.data) & hidden & before[seat]
                assert not leaked, (e.kind, e.data)
            before[seat] = hidden
        spectator = s.view(None)
        assert "hand" not in spectator and not (_ints(spectator) & set(s.mutations))

    _walk(st, 21, check)


def test_same_seed_same_game() -> None:
    a, b = new(3, seed=33), new(3, seed=33)
    rng_a, rng_b = Rng(1), Rng(1)
    while not a.over:
        seat = a.to_act()[0]
        la, lb = a.legal(seat), b.legal(seat)
        assert [str(x) for x in la] == [str(x) for x in lb]
        i = rng_a.randrange(len(la))
        assert i == rng_b.randrange(len(lb))
        a.apply(seat, la[i])
        b.apply(seat, lb[i])
    assert json.dumps(a.view(None), sort_keys=True) == json.dumps(b.view(None), sort_keys=True)
    assert a.result is not None and b.result is not None
    assert a.result.to_json() == b.result.to_json()


def test_determinize_keeps_the_view_and_resamples_the_hidden() -> None:
    st = new(4, seed=41)
    seat = st.to_act()[0]
    changed = 0
    for k in range(5):
        det = st.determinize(seat, Rng(k))
        assert json.dumps(det.view(seat), sort_keys=True) == json.dumps(
            st.view(seat), sort_keys=True
        )
        assert det.hand[seat] == st.hand[seat]
        changed += det.hand[(seat + 1) % 4] != st.hand[(seat + 1) % 4]
        assert sorted(zones(det)) == sorted(zones(st))
    assert changed >= 4


def test_clone_is_independent() -> None:
    st = new(3, seed=5)
    before = json.dumps([st.view(s) for s in (0, 1, 2, None)], sort_keys=True)
    c = st.clone()
    _walk(c, 5, lambda s: None)
    assert json.dumps([st.view(s) for s in (0, 1, 2, None)], sort_keys=True) == before
