"""Setting up taxonomy positions for scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.games.taxonomy import GAME
from bestiary.games.taxonomy.rules import TaxonomyState


def state(players: int = 4, variant: str | None = None, **options: Any) -> TaxonomyState:
    st = GAME.new(players, seed=7, variant=variant, options=options or None)
    assert isinstance(st, TaxonomyState)
    return st


def ids(st: TaxonomyState, names: Sequence[str]) -> list[int]:
    out = []
    for n in names:
        c = st.deck.card(n)
        assert c is not None, n
        out.append(c)
    return out


def plain_fillers(st: TaxonomyState, avoid: set[int]) -> list[int]:
    """Cards with no nature, none of whose keys is in ``avoid``, spread over keys."""
    d = st.deck
    by_key: dict[int, list[int]] = {}
    for c in range(d.size):
        if d.nature_mask[c] == 0 and not set(d.keys_of[c]) & avoid:
            by_key.setdefault(d.primary[c], []).append(c)
    # Round-robin over keys so that no hand gets three of one key by accident.
    out: list[int] = []
    while any(by_key.values()):
        for k in sorted(by_key):
            if by_key[k]:
                out.append(by_key[k].pop(0))
    return out


def arrange(
    st: TaxonomyState,
    hands: Mapping[int, Sequence[str]],
    stock: Sequence[str] = (),
    first: int = 0,
) -> TaxonomyState:
    """Give each listed seat these cards (filled up to 8 with plain cards of
    keys no listed card has), put ``stock`` on top of the stock (first drawn
    first) and begin ``first``'s turn with a draw."""
    named = {s: ids(st, h) for s, h in hands.items()}
    top = ids(st, stock)
    avoid = {k for cs in [*named.values(), top] for c in cs for k in st.deck.keys_of[c]}
    fill = [c for c in plain_fillers(st, avoid) if c not in top]
    full: list[list[int]] = []
    for s in range(st.players):
        h = list(named.get(s, []))
        while len(h) < 8:
            # Deal fillers round-robin by seat so each seat gets distinct keys.
            h.append(fill.pop(0))
        full.append(h)
    if not top:
        top = [fill.pop(0)]  # the first draw: a plain card of an unused key
    st.arrange(full, top, first)
    return st


def names(st: TaxonomyState, cards: Sequence[int]) -> list[str]:
    return [st.deck.names[c] for c in cards]


def play(st: TaxonomyState, seat: int, text: str) -> None:
    st.apply_text(seat, text)


def total(st: TaxonomyState, seat: int) -> int:
    return len(st.hands[seat]) + sum(len(cs) for _, cs in st.tables[seat])
