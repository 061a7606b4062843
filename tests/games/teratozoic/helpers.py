"""Shared helpers for the Teratozoic tests: rigging hands, counting cards."""

from __future__ import annotations

from collections.abc import Sequence

from bestiary.engine import get_game
from bestiary.games.teratozoic.cards import default_cards
from bestiary.games.teratozoic.rules import TeratozoicState

GAME = get_game("teratozoic")
DECK = default_cards()
BY_NAME = {c.name: c.id for c in DECK}


def ids(*names: str) -> list[int]:
    return [BY_NAME[n] for n in names]


def new(players: int = 4, seed: int = 1, **options: object) -> TeratozoicState:
    st = GAME.new(players, seed=seed, options=options or None)
    assert isinstance(st, TeratozoicState)
    return st


def zones(st: TeratozoicState) -> list[int]:
    """Every card in the game, once each (gained cards sit in discard piles)."""
    gained = set(st.taken) | set(st.kept)
    out = list(st.mutations) + list(st.mut_discard)
    for s in range(st.players):
        out += st.pool[s] + st.gdiscard[s]
        out += [c for c in st.hand[s] + st.tie_cards[s] if c not in gained]
    return out


def _remove(st: TeratozoicState, card: int) -> None:
    for pile in [st.mutations, st.mut_discard, *st.pool, *st.gdiscard, *st.hand]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"card {card} is nowhere")


def rig_hand(st: TeratozoicState, seat: int, names: Sequence[str]) -> None:
    """Give ``seat`` exactly these cards as its hand; its old hand goes under
    the Mutations Deck (cards stay conserved)."""
    want = ids(*names)
    old = [c for c in st.hand[seat] if c not in want]
    already = [c for c in st.hand[seat] if c in want]
    st.hand[seat] = []
    for c in want:
        if c not in already:
            _remove(st, c)
    st.hand[seat] = list(want)
    st.mutations[:0] = old


def play_out(st: TeratozoicState, chooser: object = None, limit: int = 20000) -> None:
    from bestiary.engine import Rng

    rng = Rng(7)
    n = 0
    while not st.over:
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        n += 1
        assert n < limit
