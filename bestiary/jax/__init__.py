"""Monster Girl Taxonomy (rules v0.2, default options) as a JAX-native game:
pure array functions that run under ``jax.jit`` and ``jax.vmap``, with the
Python engine's action indices and RL observation encoding.

    from bestiary.jax import init, step, observe, legal_action_mask, current_seat

Needs the optional dependency ``jax`` (``pip install 'bestiary[jax]'``).
``differential.py`` plays the same games in both implementations and compares
them step by step (docs/RL.md, "A JAX port").
"""

from __future__ import annotations

from .observe import observation_size, observe
from .state import TaxState
from .tables import tables
from .taxonomy import NEW_GAME, blank, current_seat, init, legal_action_mask, step


def num_actions() -> int:
    """The size of the action space (the engine's ``TaxonomyGame.num_actions``)."""
    return tables().num_actions


__all__ = [
    "NEW_GAME",
    "TaxState",
    "blank",
    "current_seat",
    "init",
    "legal_action_mask",
    "num_actions",
    "observation_size",
    "observe",
    "step",
]
