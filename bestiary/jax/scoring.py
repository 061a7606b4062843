"""Counting keys and scoring the best split of a hand, as arrays
(the Python engine: ``board.Board._score`` and ``scoring.best_score``).

A winning hand: a set of 8 of a key (or 7 orphans and one other monster),
4 + 4 of two keys, or 5 + 3; table sets count in the set of their key, and
every table card must be in it. All splits are scored at once over the
(key, key) grid and the best kept.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import Array

from ..games.taxonomy.cards import CHEERFUL
from .state import HAND, TABLE, TaxState
from .tables import tables


def keys_of(nat: Array, c: Array) -> Array:
    """bool[k]: the keys of card ``c`` now."""
    t = tables()
    return jnp.asarray(t.primary_onehot)[c].at[t.cheer_key].set((nat[c] & CHEERFUL) != 0)


def has_key(nat: Array, key: Array) -> Array:
    """bool[..., d]: which cards have ``key`` (an array of keys broadcasts in front)."""
    t = tables()
    key = jnp.asarray(key)[..., None]
    cheer = (nat & CHEERFUL) != 0
    return (jnp.asarray(t.primary) == key) | ((key == t.cheer_key) & cheer)


def key_counts(cards: Array, nat: Array) -> Array:
    """int32[..., k]: how many of the cards (a mask over the deck) have each key.
    A product with the constant type one-hot (a batched matrix product under
    ``vmap``) and the Cheerful column apart (no card's type key is Cheerful)."""
    t = tables()
    f = cards.astype(jnp.float32)
    base = f @ jnp.asarray(t.primary_onehot, jnp.float32)
    cheer = jnp.sum(f * ((nat & CHEERFUL) != 0), axis=-1)
    return base.at[..., t.cheer_key].set(cheer).astype(jnp.int32)


def in_hand(st: TaxState, s: Array) -> Array:
    return (st.zone == HAND) & (st.owner == s)


def in_table(st: TaxState, s: Array) -> Array:
    return (st.zone == TABLE) & (st.owner == s)


def usable_all(st: TaxState) -> Array:
    """bool[P, d]: the cards each seat may collect (not of a group a proud
    monster banned). A product with the constant group one-hot, not a gather:
    under ``vmap`` one batched matrix product."""
    t = tables()
    onehot = jnp.asarray(t.group[None, :] == jnp.arange(t.g)[:, None], jnp.float32)  # [g, d]
    return (st.bans.astype(jnp.float32) @ onehot) == 0


def usable(st: TaxState, s: Array) -> Array:
    """bool[d]: cards ``s`` may collect."""
    return usable_all(st)[s]


def hand_counts(st: TaxState) -> Array:
    """int32[P, k]: usable cards of each key in each hand (the engine's ``hk``)."""
    p = st.scores.shape[0]
    seats = jnp.arange(p, dtype=jnp.int32)[:, None]
    held = (st.zone == HAND)[None, :] & (st.owner[None, :] == seats)
    return key_counts(held & usable_all(st), st.nat)


def best_points(st: TaxState, s: Array) -> tuple[Array, Array]:
    """(wins: bool, points: int32) of the best winning split of ``s``'s hand and table."""
    t = tables()
    k = t.k
    hand = in_hand(st, s)
    table = in_table(st, s)
    use = usable(st, s)
    uh = hand & use
    hcnt = key_counts(uh, st.nat)  # [k]
    keys = jnp.arange(k, dtype=jnp.int32)
    tcount = jnp.zeros(k, jnp.int32)
    for j in range(2):
        size = jnp.sum(table & (st.tslot == j)).astype(jnp.int32)
        tcount = tcount + jnp.where(keys == st.tkey[s, j], size, 0)
    count = hcnt + tcount
    tk = tcount > 0
    n_tk = jnp.sum(tk)
    total = jnp.sum(hand) + jnp.sum(table)
    banned_table = jnp.any(table & ~use)
    cand = count >= 3
    claims = jnp.minimum(st.claims[s], 2)
    m44, m53, m8 = (jnp.asarray(t.methods)[claims, i] for i in range(3))
    orphan = jnp.asarray(t.orphan)
    four = jnp.asarray(t.four)
    eight = jnp.asarray(t.eight)
    # A set of 8 (or 7 orphans and one other monster): the table keys are its own.
    ok8 = cand & (n_tk - tk == 0) & ((count >= t.hand) | (orphan & (count >= t.hand - 1)))
    pts8 = jnp.where(ok8, m8 + eight, -1)
    # Two keys a, b: cards holding both are cheerful cards of a type (one key Cheerful).
    cheer_of = key_counts(uh & ((st.nat & CHEERFUL) != 0), st.nat)  # [k] cheerful ones
    is_ck = keys == t.cheer_key
    both = jnp.where(is_ck[None, :], cheer_of[:, None], 0) + jnp.where(
        is_ck[:, None], cheer_of[None, :], 0
    )
    a_ne_b = keys[:, None] != keys[None, :]
    sub = (n_tk - tk[:, None].astype(jnp.int32) - tk[None, :].astype(jnp.int32)) == 0
    base = cand[:, None] & cand[None, :] & (count[:, None] >= 4) & a_ne_b & sub
    ta, tb = tcount[:, None], tcount[None, :]
    ha, hb = hcnt[:, None], hcnt[None, :]

    def fits(x: int, y: int) -> Array:
        na, nb = x - ta, y - tb
        return (ta <= x) & (tb <= y) & (ha >= na) & (hb >= nb) & (ha + hb - both >= na + nb)

    ok44 = base & (keys[:, None] < keys[None, :]) & fits(4, 4)
    pts44 = jnp.where(ok44, m44 + four[:, None] + four[None, :], -1)
    ok53 = base & fits(5, 3)
    pts53 = jnp.where(ok53, m53 + four[:, None] + t.three, -1)
    best = jnp.maximum(jnp.max(pts8), jnp.maximum(jnp.max(pts44), jnp.max(pts53)))
    wins = (best >= 0) & (total >= t.hand) & ~banned_table
    return wins, jnp.where(wins, best, 0).astype(jnp.int32)
