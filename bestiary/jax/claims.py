"""The claim window on the top discard, on arrays (the Python engine: ``claims.py``).

The seats asked answer in secret; the JAX game takes their answers one at a
time, in the order of the engine's ``to_act`` (turn order after the
discarder), which changes nothing: no answer is shown before all are in.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import Array

from ..games.taxonomy.cards import HONEST, LOYAL
from .natures import leave_hand
from .scoring import hand_counts, has_key, in_hand, keys_of, usable_all
from .state import CLAIM_WINDOW, HAND, MAIN, NO_ANSWER, PASSED, TABLE, TaxState, put
from .tables import tables


def window(st: TaxState, s: Array, c: Array) -> tuple[Array, Array]:
    """(asked: bool[P], keys: bool[P, k]): the seats that may claim ``c``,
    discarded by ``s``, and the keys each may claim it under."""
    t = tables()
    p = st.scores.shape[0]
    ks = keys_of(st.nat, c)  # [k]
    hk = hand_counts(st)  # [P, k]
    keys = (hk >= 3) & ks[None, :]
    seats = jnp.arange(p)
    tabled = jnp.sum((st.zone == TABLE)[None, :] & (st.owner[None, :] == seats[:, None]), axis=1)
    loyal = (st.nat[c] & LOYAL) != 0  # "Such a card cannot be taken into your set."
    ok = (
        jnp.any(keys, axis=1)
        & (seats != s)
        & ~st.bans[:, jnp.asarray(t.group)[c]]
        & (tabled + 4 <= t.hand)
        & ~loyal
    )
    return ok, keys & ok[:, None]


def open_window(st: TaxState, s: Array, c: Array) -> tuple[TaxState, Array]:
    asked, keys = window(st, s, c)
    p = st.scores.shape[0]
    return st._replace(
        claim_card=c,
        claim_from=s,
        claim_asked=asked,
        claim_keys=keys,
        claim_choice=jnp.full(p, NO_ANSWER, jnp.int32),
        claim_kept=jnp.zeros_like(st.claim_kept),
        phase=jnp.asarray(CLAIM_WINDOW, jnp.int32),
        to_act=asked,
    ), jnp.any(asked)


def candidates(st: TaxState) -> Array:
    """bool[P, d]: per seat that claimed, the hand cards that could go down with
    the claimed card (of the key, usable, not kept)."""
    tables()
    p = st.scores.shape[0]
    seats = jnp.arange(p)
    of_key = has_key(st.nat, jnp.maximum(st.claim_choice, 0))  # [P, d]
    held = (st.zone == HAND)[None, :] & (st.owner[None, :] == seats[:, None])
    use = usable_all(st)
    claimed = (st.claim_choice >= 0)[:, None]
    return held & use & of_key & ~st.claim_kept & claimed


def open_choice(st: TaxState) -> Array:
    """bool[P]: claimed and must still keep cards out of the set (more than 3)."""
    return jnp.sum(candidates(st), axis=1) > 3


def waiting(st: TaxState) -> Array:
    answered = (st.claim_choice != NO_ANSWER) & ~open_choice(st)
    return st.claim_asked & ~answered


def resolve(st: TaxState) -> tuple[TaxState, Array]:
    """All answered: the first claimer after the discarder lays the set
    (True), or nobody claimed (False: the next turn begins)."""
    p = st.scores.shape[0]
    d = st.zone.shape[0]
    seats = jnp.arange(p)
    claimers = st.claim_asked & (st.claim_choice >= 0)
    order = (seats - st.claim_from - 1) % p
    q = jnp.argmin(jnp.where(claimers, order, p)).astype(jnp.int32)
    k = st.claim_choice[q]
    c = st.claim_card
    s = st.claim_from
    ids = jnp.arange(d)
    laid = candidates(st)[q] | (ids == c)
    j = jnp.where(st.tkey[q, 0] < 0, 0, 1)
    honest = (st.nat[c] & HONEST) != 0
    hand_s = in_hand(st, s)
    mine = candidates(st)[q]
    for _ in range(3):  # the three laid cards leave q's hand list one by one
        x = jnp.argmax(mine).astype(jnp.int32)
        st = st._replace(hpos=jnp.where(mine[x], leave_hand(st, x).hpos, st.hpos))
        mine = mine.at[x].set(False)
    st2 = st._replace(
        pile_n=st.pile_n - 1,
        zone=jnp.where(laid, TABLE, st.zone),
        owner=jnp.where(laid, q, st.owner),
        tslot=jnp.where(laid, j, st.tslot),
        tkey=st.tkey.at[q, j].set(k),
        claims=st.claims.at[q].add(1),
        # "it tells you what it saw in him: you can see what cards he is holding"
        # (a card is in one hand a round, so one seat per card: a new sight of
        # s's hand replaces the last)
        seen_from=put(
            st.seen_from,
            q,
            jnp.where(
                honest,
                jnp.where(hand_s, s, jnp.where(st.seen_from[q] == s, -1, st.seen_from[q])),
                st.seen_from[q],
            ),
        ),
        actor=q,
        drawn=jnp.zeros_like(st.drawn),
        fresh_draw=jnp.asarray(False),
        last_discard=jnp.asarray(-1, jnp.int32),
        phase=jnp.asarray(MAIN, jnp.int32),
        to_act=seats == q,
    )
    return st2, jnp.any(claimers)


__all__ = ["PASSED", "candidates", "open_choice", "open_window", "resolve", "waiting", "window"]
