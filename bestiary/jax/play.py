"""Random play on batches of JAX games (benchmarks, smoke tests): every seat
picks uniformly among its legal actions."""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax import Array

from .state import TaxState
from .taxonomy import current_seat, init, legal_action_mask, step


def random_action(st: TaxState, key: Array) -> Array:
    """A uniformly random legal action of the acting seat (0 when the game is over)."""
    mask = legal_action_mask(st, jnp.maximum(current_seat(st), 0))
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf)).astype(jnp.int32)


def random_step(st: TaxState, key: Array) -> TaxState:
    k_act, k_step = jax.random.split(key)
    return step(st, random_action(st, k_act), k_step)


def batch_init(players: int) -> Callable[[Array], TaxState]:
    """keys[B] -> B new games, jitted."""
    return jax.jit(jax.vmap(lambda k: init(k, players)))


def batch_random_step() -> Callable[[TaxState, Array], TaxState]:
    """(B games, keys[B]) -> the B games after one random legal move each: ``jit(vmap(step))``."""
    return jax.jit(jax.vmap(random_step))
