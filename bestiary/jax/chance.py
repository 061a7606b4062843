"""Every random draw of the JAX game, from one block of random bits per step
that the caller can recompute: the differential test drives the Python
engine's RNG with the same values (``differential.py``).

``step_chance(key)`` draws, with one call of the random-bit generator:

- the shuffle if a round begins in this step: a permutation of all cards
  (``argsort`` of random words); the stock is it without the cards set aside;
- every card's miscellaneous roll for that round, drawn ahead: a card is
  rolled at most once a round, when first dealt, drawn or peeked, so drawing
  every roll at the deal changes no probability; a roll is the dice of
  ``natures.toml`` conditioned on the results its list names (the engine
  rolls again outside it), by inverse distribution;
- ``MEAN_PICKS`` words for the mean monsters' "random card" picks of the step
  (``mean_index``: the ``j``-th pick, an index into the hand list of ``n``
  cards; a step never holds that many).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

from .tables import tables

MEAN_PICKS = 16


class Chance(NamedTuple):
    perm: Array  # int32[d] card ids in shuffled order
    rolls: Array  # int32[d] this round's roll of each card
    mean: Array  # uint32[MEAN_PICKS]


def _cdf() -> Array:
    p = np.exp(tables().roll_logp.astype(np.float64))  # [r + 1], p[0] = 0
    return jnp.asarray(np.cumsum(p[1:])[:-1], dtype=jnp.float32)  # [r - 1]


def _unit(words: Array) -> Array:
    """Words -> uniform floats in [0, 1) on 24 bits (exact in float32)."""
    return (words >> 8).astype(jnp.float32) * jnp.float32(2.0**-24)


def step_chance(key: Array) -> Chance:
    d = tables().d
    bits = jax.random.bits(key, (2 * d + MEAN_PICKS,), jnp.uint32)
    perm = jnp.argsort(bits[:d], stable=True).astype(jnp.int32)
    u = _unit(bits[d : 2 * d])
    rolls = 1 + jnp.sum(u[:, None] >= _cdf()[None, :], axis=1).astype(jnp.int32)
    return Chance(perm, rolls, bits[2 * d :])


def stock_order(perm: Array, aside: Array) -> tuple[Array, Array]:
    """The shuffled stock: ``perm`` without the cards set aside (in order, then
    the cards set aside), and its size."""
    d = perm.shape[0]
    out = aside[perm]
    n = d - jnp.sum(out).astype(jnp.int32)
    pos = jnp.where(out, n + jnp.cumsum(out) - 1, jnp.cumsum(~out) - 1)
    return jnp.zeros(d, jnp.int32).at[pos].set(perm), n


def mean_index(mean: Array, j: Array, n: Array) -> Array:
    """The ``j``-th mean pick of a step: floor(u * n) for a 24-bit uniform u."""
    w = (mean[j % MEAN_PICKS] >> 8).astype(jnp.int32)
    return ((w.astype(jnp.uint32) * jnp.maximum(n, 1).astype(jnp.uint32)) >> 24).astype(jnp.int32)
