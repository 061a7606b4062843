"""Drawing, discarding and the natures they set off, on arrays
(the Python engine: ``natures.py``).

Discards and draws append effects to a FIFO ring (``q_eff``/``q_card``) in
the engine's order: aggressive, cheerful, mean, proud on a discard; honest,
impatient on a draw. A miscellaneous card shows its round's roll
(``pre_roll``) when first dealt, drawn or peeked.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import Array, lax

from ..games.taxonomy.cards import AGGRESSIVE, CHEERFUL, HONEST, IMPATIENT, MEAN, MISC, PROUD
from .chance import mean_index
from .scoring import in_hand
from .state import (
    ASIDE,
    E_AGG,
    E_CHEER,
    E_HONEST,
    E_IMPATIENT,
    E_MEAN,
    E_PROUD,
    HAND,
    NEVER,
    PILE,
    QUEUE,
    TaxState,
    canon,
    put,
)
from .tables import tables


def reveal(st: TaxState, cards: Array) -> TaxState:
    """Roll (show this round's roll of) every miscellaneous card of the mask ``cards``."""
    t = tables()
    todo = cards & ((st.nat & MISC) != 0)
    bit = jnp.asarray(t.roll_bit)[st.pre_roll]
    return st._replace(
        nat=jnp.where(todo, (st.nat & ~MISC) | bit, st.nat),
        roll=jnp.where(todo, st.pre_roll, st.roll),
    )


def enqueue(st: TaxState, when: Array, effect: int, card: Array) -> TaxState:
    i = st.q_tail % QUEUE
    return st._replace(
        q_eff=st.q_eff.at[i].set(jnp.where(when, effect, st.q_eff[i])),
        q_card=st.q_card.at[i].set(jnp.where(when, card, st.q_card[i])),
        q_tail=st.q_tail + when.astype(jnp.int32),
        overflow=st.overflow | (st.q_tail + 1 - st.q_head > QUEUE),
    )


def draw(st: TaxState, s: Array) -> TaxState:
    """``s`` draws the top of the stock (the caller checked it is not empty)."""
    c = st.stock[st.stock_n - 1]
    st = reveal(st, jnp.arange(st.zone.shape[0]) == c)
    st = st._replace(
        stock_n=st.stock_n - 1,
        zone=put(st.zone, c, HAND),
        owner=put(st.owner, c, s),
        hpos=put(st.hpos, c, jnp.sum(in_hand(st, s))),
        drawn=st.drawn.at[c].set(True),
        fresh_draw=jnp.asarray(True),
    )
    m = st.nat[c]
    st = enqueue(st, (m & HONEST) != 0, E_HONEST, c)
    return enqueue(st, (m & IMPATIENT) != 0, E_IMPATIENT, c)


def leave_hand(st: TaxState, c: Array) -> TaxState:
    """``c`` leaves its hand: the cards after it in the list move up one (the
    engine's ``list.remove``). The caller then moves ``c`` elsewhere."""
    later = in_hand(st, st.owner[c]) & (st.hpos > st.hpos[c])
    return st._replace(hpos=(st.hpos - later).astype(st.hpos.dtype))


def discard(st: TaxState, s: Array, c: Array) -> TaxState:
    """``s`` discards ``c``: to the pile (a proud monster: set aside); its natures queue."""
    st = leave_hand(st, c)
    m = st.nat[c]
    proud = (m & PROUD) != 0
    st = st._replace(
        zone=put(st.zone, c, jnp.where(proud, ASIDE, PILE)),
        owner=put(st.owner, c, s),
        pile=put(st.pile, st.pile_n, jnp.where(proud, st.pile[st.pile_n], c)),
        pile_n=st.pile_n + (~proud).astype(jnp.int32),
        last_discard=jnp.where(proud, st.last_discard, c),
    )
    for bit, effect in ((AGGRESSIVE, E_AGG), (CHEERFUL, E_CHEER), (MEAN, E_MEAN), (PROUD, E_PROUD)):
        st = enqueue(st, (m & bit) != 0, effect, c)
    return st


def discard_all(st: TaxState, s: Array, cards: Array) -> TaxState:
    """Discard every card of the mask ``cards`` in hand order (as the engine's list)."""

    def more(carry: tuple[TaxState, Array]) -> Array:
        return jnp.any(carry[1])

    def one(carry: tuple[TaxState, Array]) -> tuple[TaxState, Array]:
        st, left = carry
        c = jnp.argmin(jnp.where(left, st.hpos, NEVER)).astype(jnp.int32)
        return canon(discard(st, s, c)), left.at[c].set(False)

    st, _ = lax.while_loop(more, one, (canon(st), cards))
    return st


def hand_card_at(st: TaxState, s: Array, i: Array) -> Array:
    """The card at index ``i`` of ``s``'s hand list."""
    return jnp.argmax(in_hand(st, s) & (st.hpos == i)).astype(jnp.int32)


def effect(
    st: TaxState, s: Array, eff: Array, c: Array, mean_bits: Array
) -> tuple[TaxState, Array]:
    """Resolve one queued effect of ``s``'s card ``c``; True: it waits for a decision
    (the caller sets the phase: an aggressive target, an impatient draw)."""
    t = tables()
    d = st.zone.shape[0]
    hand = in_hand(st, s)
    ids = jnp.arange(d)
    # Cheerful: "you must discard them all"; proud: "all cards with the same type".
    cheer = hand & ((st.nat & CHEERFUL) != 0) & (eff == E_CHEER)
    group = jnp.asarray(t.group)
    proud = hand & (group == group[c]) & (eff == E_PROUD)
    # Mean: "an additional random card", an index into the hand list.
    n = jnp.sum(hand).astype(jnp.int32)
    is_mean = (eff == E_MEAN) & (n > 0)
    pick = hand_card_at(st, s, mean_index(mean_bits, st.mean_j, n))
    mean = (ids == pick) & is_mean
    st = st._replace(mean_j=st.mean_j + is_mean.astype(jnp.int32))
    st = discard_all(st, s, cheer | proud | mean)
    # The ban of the proud monster's group, for the rest of the game.
    st = st._replace(bans=st.bans.at[s, group[c]].set(st.bans[s, group[c]] | (eff == E_PROUD)))
    # Honest: "Look at 3 cards from the stack" (the top ones, the stock unchanged).
    top = jnp.zeros(d, bool)
    for depth in range(t.peek):
        there = st.stock_n > depth
        top = top | ((ids == st.stock[jnp.maximum(st.stock_n - 1 - depth, 0)]) & there)
    honest = eff == E_HONEST
    st = reveal(st, top & honest)
    st = st._replace(peek=st.peek.at[s].set(jnp.where(honest, top, st.peek[s])))
    wait = (eff == E_AGG) | ((eff == E_IMPATIENT) & (st.stock_n > 0))
    return st, wait
