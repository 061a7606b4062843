"""The JAX state of a taxonomy game: fixed-shape arrays, one pytree.

Cards are ids (rows of the card file). Where a card is: ``zone`` (stock,
discard pile, hand, table, set aside) and ``owner`` (the seat, for hands,
tables and the cards set aside). Orders that the rules read are kept as the
Python engine keeps them: the stock (``stock[:stock_n]``, top last), the
discard pile (``pile[:pile_n]``, top last) and a hand's order (``hpos``: a
card's index in the engine's hand list, kept as the list is — appended to,
and closed up when a card leaves; the mean monster's "random card" is an
index into that list).
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp
from jax import Array

# Zones of a card.
STOCK, PILE, HAND, TABLE, ASIDE = range(5)
# Phases, numbered as observe.PHASES lists them (the observation's one-hot).
MAIN, ATTACK_CHOICE, DUEL, IMPATIENT_CHOICE, CLAIM_WINDOW, DECLARE, OVER = range(7)
# Effects in the queue (natures.py's order of resolution).
E_AGG, E_CHEER, E_MEAN, E_PROUD, E_HONEST, E_IMPATIENT = range(6)
# A claim-window answer: not yet, pass, or the key claimed (>= 0).
NO_ANSWER, PASSED = -2, -1
QUEUE = 64  # the effect queue's ring (a turn never holds half of it pending)
NEVER = 1 << 30  # larger than any hand index


class TaxState(NamedTuple):
    """Every field of one game (batch it with ``jax.vmap``)."""

    zone: Array  # int32[d]
    owner: Array  # int32[d]
    hpos: Array  # int32[d] index in its hand's list
    tslot: Array  # int32[d] table set (0: first laid, 1: second) of a table card
    stock: Array  # int32[d] card ids, stock[stock_n - 1] on top
    stock_n: Array
    pile: Array  # int32[d] the discard pile, pile[pile_n - 1] on top
    pile_n: Array
    nat: Array  # int32[d] natures now (a rolled miscellaneous card: its roll's)
    roll: Array  # int32[d] the roll shown (0: not rolled)
    pre_roll: Array  # int32[d] this round's roll of each card, shown when first seen
    tkey: Array  # int32[P, 2] the key of each table set (-1: none)
    bans: Array  # bool[P, g]
    scores: Array  # int32[P]
    claims: Array  # int32[P] claims this round
    skips: Array  # int32[P]
    round: Array
    dealer: Array
    turns: Array
    phase: Array
    actor: Array  # whose turn (-1 when over)
    to_act: Array  # bool[P]
    q_eff: Array  # int32[QUEUE]
    q_card: Array  # int32[QUEUE]
    q_head: Array
    q_tail: Array
    drawn: Array  # bool[d] drawn by the actor this turn
    last_discard: Array
    fresh_draw: Array  # bool
    attack_card: Array
    duel_a: Array
    duel_t: Array
    duel_choice: Array  # int32[P] (-1: not chosen)
    duel_ties: Array
    claim_card: Array
    claim_from: Array
    claim_asked: Array  # bool[P]
    claim_keys: Array  # bool[P, k]
    claim_choice: Array  # int32[P] NO_ANSWER, PASSED or a key
    claim_kept: Array  # bool[P, d]
    peek: Array  # bool[P, d] the cards of each seat's last honest peek
    seen_from: Array  # int32[P, d] seen_from[q, c]: the seat in whose hand q saw c (-1)
    over: Array  # bool
    overflow: Array  # bool: the effect queue overflowed (never in a real game)
    mean_j: Array  # mean picks so far in this step (the chance stream's counter)


def i32(x: int) -> Array:
    return jnp.asarray(x, dtype=jnp.int32)


def _dtypes() -> TaxState:
    flags = {"bans", "to_act", "drawn", "fresh_draw", "claim_asked", "claim_keys"}
    flags |= {"claim_kept", "peek", "over", "overflow"}
    return TaxState(
        *(jnp.dtype(jnp.bool_) if f in flags else jnp.dtype(jnp.int32) for f in TaxState._fields)
    )


#: The storage type of every field: int32 and bool. (Smaller integer types for
#: the per-card arrays would move less memory in the batched loop's selects;
#: beware that ``jnp.where(mask, int8_array, 1 << 30)`` casts the Python int to
#: int8, so every sentinel must be checked first.)
DTYPES = _dtypes()


def canon(st: TaxState) -> TaxState:
    """Every field in its storage type (``DTYPES``)."""
    return TaxState(*(jnp.asarray(x).astype(dt) for x, dt in zip(st, DTYPES, strict=True)))


def put(arr: Array, idx: Array | int, value: Array | int | bool) -> Array:
    """``arr.at[idx].set(value)`` with the value cast to the array's type."""
    return arr.at[idx].set(jnp.asarray(value).astype(arr.dtype))
