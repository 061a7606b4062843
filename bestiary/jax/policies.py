"""Opponent policies for the JAX taxonomy game, as pure array functions
(``jax.jit`` and ``jax.vmap`` them like ``step``).

    random_policy(key, mask) -> int32               a uniform legal action
    heuristic_policy(key, st, seat, mask=None) -> int32

``heuristic_policy`` is a cheap array approximation of the plain ``heuristic``
bot (``games/taxonomy/bots.py``, default options): it reads only what the
seat may know (its hand and its table, every table, the discard pile, the
cards set aside, bans and scores, its claim window) and scores every action
at once, then plays the best legal one. What it does, as the bot does:

- ``win`` whenever it is legal (after a draw, a claim or a winning refill);
- a *plan*: the two keys with the best ``n*n + 0.3*min(unseen, 8)`` (``n``: its
  usable cards of the key in hand and on its table; ``unseen``: the deck's
  cards of the key less those it has seen), plus 0.3 times a set of 4's points,
  plus 100 for a key it has laid; keys it holds none of, or that cannot reach 3,
  are left out;
- the discard: the card whose loss costs least — its keep value (the best of
  its keys' ``n``, plus 10 for a key of the plan) plus what its nature does on
  discard (proud: the keep values of the other cards of its group, plus 1;
  cheerful: those of the other cheerful cards; mean: the hand's mean keep
  value; aggressive: -0.5);
- claims a discard only under a key of its plan; keeps, of a claimed key, the
  card worth most elsewhere (an aggressive one +0.5, a proud, cheerful or mean
  one -2);
- adds a drawn card to a laid set while the set has fewer than 5 cards, or
  when 8 of the key are still within reach;
- always takes an impatient monster's extra draw, always attacks (the seat
  with the most points, then the most cards laid; ties at random), and plays
  rock-paper-scissors uniformly at random.

What it does not do: the bot's options (``greed`` other than 0.3, ``plan=reach``,
``defend``, ``final``, ``cycle``); the exact unseen counts of a Cheerful key
(the deck's printed cheerful cards are counted, not the miscellaneous rolls);
its own random stream (ties are broken by the key, so its games differ from
the bot's). It is a heuristic-*like* opponent for training, not the bot.
"""

from __future__ import annotations

from functools import cache

import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

from ..games.taxonomy.actions import ATTACK, CLAIM, DISCARD, DRAW, KEEP, NO_ATTACK, PASS, RPS
from ..games.taxonomy.actions import STOP as STOP_ACTION
from ..games.taxonomy.actions import TABLE as TABLE_ACTION
from ..games.taxonomy.actions import WIN as WIN_ACTION
from ..games.taxonomy.cards import AGGRESSIVE, CHEERFUL, MEAN, PROUD
from .scoring import in_hand, in_table, key_counts, usable
from .state import ASIDE, PILE, TABLE, TaxState
from .tables import tables
from .taxonomy import legal_action_mask

PLAN_BONUS = 10.0
GREED = 0.3
NOISE = 1e-3  # ties broken at random, without bias

# Bands of action scores within a phase: a win before a tabled card before a
# discard; a claim of the plan before a pass.
_WIN, _TABLE, _CLAIM = 1e6, 1e5, 1e5


def random_policy(key: Array, mask: Array) -> Array:
    """A legal action, uniformly at random (``mask``: bool[num_actions])."""
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf)).astype(jnp.int32)


@cache
def _constants() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(printed key sizes float[k], the other cards of a card's group
    float[d, d], a set of 4's points float[k]), as numpy arrays: a cached
    JAX array made while tracing would leak the trace."""
    t = tables()
    sizes = t.primary_onehot.sum(axis=0).astype(np.float32)
    sizes[t.cheer_key] = float(np.sum((t.nature & CHEERFUL) != 0))
    same = (t.group[:, None] == t.group[None, :]).astype(np.float32)
    np.fill_diagonal(same, 0.0)
    return sizes, same, t.four.astype(np.float32)


def _card_keys(nat: Array) -> Array:
    """bool[d, k]: every card's keys now (its type's, and Cheerful if cheerful)."""
    t = tables()
    onehot = jnp.asarray(t.primary_onehot)
    cheer = (nat & CHEERFUL) != 0
    return onehot.at[:, t.cheer_key].set(cheer)


def heuristic_policy(key: Array, st: TaxState, seat: Array, mask: Array | None = None) -> Array:
    """The action of ``seat`` (the acting seat) by the plan-and-discard rules
    of the module's docstring; ``mask`` is ``legal_action_mask(st, seat)``
    when the caller has it."""
    t = tables()
    d, k, p = t.d, t.k, st.scores.shape[0]
    seat = jnp.asarray(seat, jnp.int32)
    if mask is None:
        mask = legal_action_mask(st, seat)
    sizes, same_group, four = map(jnp.asarray, _constants())
    keys = _card_keys(st.nat).astype(jnp.float32)  # [d, k]
    hand = in_hand(st, seat)
    table = in_table(st, seat)
    use = usable(st, seat)
    # Cards of each key held: usable cards in hand, and the laid sets.
    have = key_counts(hand & use, st.nat).astype(jnp.float32)
    tsize = jnp.zeros(k, jnp.float32)
    laid = jnp.zeros(k, bool)
    for j in range(2):
        kj = st.tkey[seat, j]
        n = jnp.sum(table & (st.tslot == j)).astype(jnp.float32)
        hit = (jnp.arange(k) == kj) & (kj >= 0)
        tsize = tsize + jnp.where(hit, n, 0.0)
        laid = laid | hit
    have = have + tsize
    # Seen: my hand, the discard pile, every table, the cards set aside.
    seen_cards = hand | (st.zone == PILE) | (st.zone == TABLE) | (st.zone == ASIDE)
    seen = seen_cards.astype(jnp.float32) @ keys
    unseen = jnp.maximum(sizes - seen, 0.0)
    # The plan: the two best keys held.
    value = have * have + 0.3 * jnp.minimum(unseen, 8.0) + GREED * four + 100.0 * laid
    eligible = (have > 0) & (have + unseen >= 3)
    value = jnp.where(eligible, value, -jnp.inf)
    top2 = jnp.argsort(-value)[:2]
    plan = jnp.zeros(k, bool).at[top2].set(jnp.isfinite(value[top2]))
    worth_key = have + PLAN_BONUS * plan  # [k]
    keep = jnp.max(jnp.where(keys > 0, worth_key[None, :], 0.0), axis=1)  # [d]
    keep_in_hand = jnp.where(hand, keep, 0.0)
    n_hand = jnp.maximum(jnp.sum(hand), 1)
    nat = st.nat
    proud = (nat & PROUD) != 0
    cheerful = (nat & CHEERFUL) != 0
    mean = (nat & MEAN) != 0
    aggressive = (nat & AGGRESSIVE) != 0
    cost = keep
    cost = cost + jnp.where(proud, same_group @ keep_in_hand + 1.0, 0.0)
    cheer_total = jnp.sum(jnp.where(cheerful, keep_in_hand, 0.0))
    cost = cost + jnp.where(cheerful, cheer_total - keep_in_hand, 0.0)
    cost = cost + jnp.where(mean, jnp.sum(keep_in_hand) / n_hand, 0.0)
    cost = cost - jnp.where(aggressive, 0.5, 0.0)
    # Tabling a drawn card: to a set under 5 cards, or when 8 are within reach.
    first = jnp.argmax(keys * laid[None, :], axis=1)  # the first laid key of the card
    fits = jnp.any((keys > 0) & laid[None, :], axis=1)
    reach = (tsize[first] < 5) | (have[first] + unseen[first] >= 8)
    table_score = jnp.where(fits & reach, _TABLE, -_TABLE)
    # Claims: only a key of the plan.
    claim_score = jnp.where(plan, _CLAIM, -_CLAIM)
    # Keeps: the card worth most outside the claimed key.
    ck = jnp.maximum(st.claim_choice[seat], 0)
    other = keys.at[:, ck].set(0.0)
    worth = jnp.max(jnp.where(other > 0, worth_key[None, :], 0.0), axis=1)
    worth = worth + jnp.where(aggressive, 0.5, 0.0) - jnp.where(proud | cheerful | mean, 2.0, 0.0)
    # Attacks: the most points, then the most cards laid.
    targets = jnp.arange(t.max_seats)
    owner_ok = st.owner[None, :] == jnp.arange(p)[:, None]
    laid_by = jnp.sum(owner_ok & (st.zone == TABLE)[None, :], axis=1).astype(jnp.float32)
    threat = st.scores.astype(jnp.float32) * 100.0 + laid_by
    threat = jnp.where(targets < p, jnp.pad(threat, (0, t.max_seats - p)), 0.0)
    base = t.base
    score = jnp.zeros(t.num_actions, jnp.float32)

    def band(kind: int, values: Array) -> None:
        nonlocal score
        n = values.shape[0]
        score = score.at[base[kind] : base[kind] + n].set(values.astype(jnp.float32))

    band(DISCARD, -cost)
    band(TABLE_ACTION, table_score)
    band(WIN_ACTION, jnp.full(1, _WIN))
    band(CLAIM, claim_score)
    band(PASS, jnp.zeros(1))
    band(DRAW, jnp.ones(1))
    band(STOP_ACTION, jnp.zeros(1))
    band(ATTACK, 1.0 + threat)
    band(NO_ATTACK, jnp.zeros(1))
    band(RPS, jnp.zeros(3))
    band(KEEP, worth)
    assert score.shape[0] == base[KEEP] + d
    noise = jax.random.uniform(key, score.shape, jnp.float32) * NOISE
    # Rock-paper-scissors: uniform (the noise alone decides among the three).
    return jnp.argmax(jnp.where(mask, score + noise, -jnp.inf)).astype(jnp.int32)


__all__ = ["heuristic_policy", "random_policy"]
